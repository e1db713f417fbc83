"""Random-playout speed of the Towers engine, through the engine contract.

    python bench/towers.py [--seconds 3] [--sizes 5,6,8,10] [--rules tower-out,...]

For each size, plays seeded random games (``rng.choice(board.legal_moves())`` then ``board.push``) from the
start to the end for about the given CPU time, and reports moves (one ``push`` = one action: a move, an import
or ``end``) per CPU second (process time, so that other work on a shared machine skews the figure less). The
original's rule code (Racket, towers-lib) plays random 6x6 games at about 48 moves/s (rules issue). A second
figure measures push+pop pairs of every legal move at every position of the walk (a 1-ply search).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import games  # noqa: E402

ORIGINAL_6X6 = 48  # moves/s of the original's rule code on random 6x6 games


def playouts(size: int, rules: list, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    game = games.get("towers")
    rng = random.Random(seed)
    moves = n_games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        board = game.new(size=size, rules=rules)
        while board.turn is not None:
            board.push(rng.choice(board.legal_moves()))
            moves += 1
        n_games += 1
    return moves, n_games, time.process_time() - t0


def push_pop(size: int, rules: list, seconds: float, seed: int = 2) -> tuple[int, float]:
    game = games.get("towers")
    rng = random.Random(seed)
    pairs = 0
    spent = 0.0
    t_end = time.process_time() + seconds
    while time.process_time() < t_end:
        board = game.new(size=size, rules=rules)
        while board.turn is not None:
            legal = board.legal_moves()
            t0 = time.process_time()
            for m in legal:
                board.push(m)
                board.pop()
            spent += time.process_time() - t0
            pairs += len(legal)
            board.push(rng.choice(legal))
    return pairs, spent


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--sizes", default="5,6,8,10")
    ap.add_argument("--rules", default="", help="comma-separated alternative rules (default: official)")
    args = ap.parse_args(argv)
    rules = [r for r in args.rules.split(",") if r]
    print(f"python {sys.version.split()[0]}, rules {rules or 'official'}, {args.seconds} CPU s per figure")
    for size in map(int, args.sizes.split(",")):
        moves, n, dt = playouts(size, rules, args.seconds)
        pairs, dt2 = push_pop(size, rules, args.seconds)
        line = (f"{size}x{size}: random playouts {moves / dt:9.0f} moves/s ({n} games, {moves / n:.1f} moves/game); "
                f"push+pop {pairs / dt2:9.0f} pairs/s")
        if size == 6:
            line += f"; {moves / dt / ORIGINAL_6X6:.0f}x the original's {ORIGINAL_6X6} moves/s"
        print(line)


if __name__ == "__main__":
    main()
