"""Random-playout speed of the Lattice Checkers engine, through the engine contract.

    python bench/lattice.py [--seconds 3] [--sizes 222,333]

For each size, plays random games (``random.choice(board.legal_moves())`` then ``board.push``) from the
start until the end, for about the given CPU time, and reports pushes per CPU second (process time, so
that other work on a shared machine does not skew the figure). A "move" here is one
``push``: a simple move, a whole capture chain, or a return. The original's Java rule code plays random
222 games at about 1.4k moves/s (rules issue). A second figure measures push+pop pairs (search-style use).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import games  # noqa: E402


def playouts(size: str, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    game = games.get("lattice")
    rng = random.Random(seed)
    moves = n_games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        board = game.new(size=size, first=rng.choice((1, 2)))
        while board.turn is not None:
            board.push(rng.choice(board.legal_moves()))
            moves += 1
        n_games += 1
    return moves, n_games, time.process_time() - t0


def push_pop(size: str, seconds: float, seed: int = 2) -> tuple[int, float]:
    """Walk random games, and at every position push and pop every legal move (a 1-ply search)."""
    game = games.get("lattice")
    rng = random.Random(seed)
    pairs = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        board = game.new(size=size)
        while board.turn is not None:
            legal = board.legal_moves()
            for m in legal:
                board.push(m)
                board.pop()
            pairs += len(legal)
            board.push(rng.choice(legal))
    return pairs, time.process_time() - t0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--sizes", default="222,322,223,323,333")
    args = ap.parse_args(argv)
    print(f"python {sys.version.split()[0]}")
    for size in args.sizes.split(","):
        moves, n, dt = playouts(size, args.seconds)
        pairs, dt2 = push_pop(size, args.seconds)
        print(f"{size}: random playouts {moves / dt:9.0f} moves/s ({n} games, {moves / n:.1f} moves/game); "
              f"push+pop {pairs / dt2:9.0f} pairs/s")


if __name__ == "__main__":
    main()
