"""What a computer analysis costs: the time to analyse a 60-move game of each game on one worker (docs/analysis.md).

    PYTHONPATH=$PWD python bench/analysis.py                       # every game, DEFAULT_NODES
    PYTHONPATH=$PWD python bench/analysis.py --game gamma --nodes 3000 --games 2

Each game is a seeded game between the computer's level 2 and itself at the standard options (Gamma also with
four players), cut at 60 moves (a shorter game is analysed whole and its figure scaled to 60 moves). The
analysis is `ai.analysis.analyse` in this one process: one core, as a computer worker runs it. The figures
are CPU seconds of this process (`time.process_time`), so that other work on the machine does not inflate
them, and the wall seconds beside them.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ai  # noqa: E402
import ai.analysis as analysis  # noqa: E402
import games  # noqa: E402

LENGTH = 60
CASES = [("trails", {}), ("lattice", {}), ("towers", {}), ("gamma", {}), ("gamma", {"players": 4})]


def a_game(game: str, options: dict, seed: int) -> list:
    """Up to LENGTH moves of a seeded game between level 2 and itself (two random opening moves)."""
    rng = random.Random(seed)
    board = games.get(game).new(**options)
    while board.outcome() is None and len(board.moves) < LENGTH:
        level = "random" if len(board.moves) < 2 else 2
        board.push(ai.choose_move(board, level, seed=rng.randrange(10**9), max_nodes=1500, time_budget=None))
    return list(board.moves)


def measure(game: str, options: dict, nodes: int, count: int) -> None:
    cpu_total = wall_total = 0.0
    plies = 0
    for seed in range(count):
        moves = a_game(game, options, seed)
        cpu, wall = time.process_time(), time.perf_counter()
        analysis.analyse(game, options, moves, max_nodes=nodes)
        cpu_total += time.process_time() - cpu
        wall_total += time.perf_counter() - wall
        plies += len(moves)
    per_ply = cpu_total / plies
    label = game + ("" if not options else " " + ",".join(f"{k}={v}" for k, v in options.items()))
    print(f"{label:18} {nodes:6} nodes  {plies / count:5.1f} moves/game  {per_ply:6.3f} s/move  "
          f"60 moves: {per_ply * LENGTH:6.1f} s CPU ({wall_total / plies * LENGTH:6.1f} s wall)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted({g for g, _ in CASES}))
    parser.add_argument("--nodes", type=int, default=analysis.DEFAULT_NODES)
    parser.add_argument("--games", type=int, default=1, help="games per case (the figure is their mean)")
    args = parser.parse_args()
    for game, options in CASES:
        if args.game is None or game in args.game:
            measure(game, options, args.nodes, args.games)


if __name__ == "__main__":
    main()
