"""The computer's time budget in seconds, on this machine: what tests/ai/ checks by counting (looks at the clock,
moves pushed) measured here with the real clock.

    python bench/ai_levels.py

Each line: the search, its budget, the seconds it took (best and worst of --repeat), and how far past the
budget it answered. A search that keeps to its budget answers within a few milliseconds of it; `stop` and a
large board's level 1 answer in a small part of a second.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ai  # noqa: E402
import games  # noqa: E402
from tests.ai.test_levels import OPTIONS, random_positions  # noqa: E402


def cases():
    """(name, board, level, budget, stop): the searches whose seconds the tests used to assert."""
    yield "lattice 333 level 3", games.get("lattice").new(size="333"), 3, 0.3, None
    big = games.get("gamma").new(width=60, height=60, players=2, areas=5)
    big.push("30,30")
    for level in (1, 2, 3):
        yield f"gamma 60x60 level {level}", big, level, 0.5, None
    for i, board in enumerate(random_positions("towers", {"size": 10}, 3, seed=23)):
        yield f"towers 10 position {i} level 3", board, 3, 0.3, None
        yield f"towers 10 position {i} stop at once", board, 3, 5.0, lambda: True
    for name in sorted(OPTIONS):
        calls = {"n": 0}

        def stop(calls=calls):
            calls["n"] += 1
            return calls["n"] % 4 == 0         # a yes at the fourth look, as tests/ai/test_levels.py asks
        yield f"{name} opening, stop at the 4th look", games.get(name).new(**OPTIONS[name][-1]), 3, 60.0, stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, board, level, budget, stop in cases():
        took = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            ai.choose_move(board, level, seed=1, time_budget=budget, stop=stop)
            took.append(time.perf_counter() - started)
        print(f"{name:40} budget {budget:5.1f} s  took {min(took):6.3f}-{max(took):6.3f} s  "
              f"over by {max(took) - budget:+.3f} s", flush=True)


if __name__ == "__main__":
    main()
