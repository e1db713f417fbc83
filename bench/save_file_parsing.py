"""The save-file readers against their attacks, in seconds: what tests/games/test_save_files.py checks by
counting steps, measured here with a clock.

    python bench/save_file_parsing.py

For each attack on `.ltc` (Lattice Checkers) and `.twr` (Towers): the best of --repeat readings at n and at 4n
characters (caps lifted, as the linear-time tests do) and their ratio (about 4 for linear time, 16 for
quadratic), and the reading of the attack at the size of the cap (the tests used to want it under 0.05 s for
.ltc and 0.25 s for .twr).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.lattice import ltc  # noqa: E402
from games.towers import twr  # noqa: E402
from tests.games.test_save_files import LTC_ATTACKS, TWR_ATTACKS  # noqa: E402


def best_time(fn, text: str, repeat: int) -> float:
    """The best of `repeat` readings, the garbage collector off (as timeit does)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            try:
                fn(text)
            except ValueError:
                pass
            best = min(best, time.perf_counter() - started)
    finally:
        gc.enable()
    return best


def attacks(module, table: dict, n: int, margin: int, repeat: int) -> None:
    cap, depth = module.MAX_BYTES, getattr(module, "MAX_DEPTH", None)
    for name, make in sorted(table.items()):
        at_cap = best_time(module.load, make(cap - margin), repeat)
        module.MAX_BYTES = 1 << 30
        if depth is not None:
            module.MAX_DEPTH = 1 << 30
        try:
            t1, t4 = best_time(module.load, make(n), repeat), best_time(module.load, make(4 * n), repeat)
        finally:
            module.MAX_BYTES = cap
            if depth is not None:
                module.MAX_DEPTH = depth
        print(f"{module.__name__.split('.')[-1]:4} {name:20} {n:>9,} ch {t1 * 1000:8.1f} ms  {4 * n:>9,} ch "
              f"{t4 * 1000:8.1f} ms  x{t4 / t1:4.1f}   at the cap {at_cap * 1000:7.1f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    attacks(ltc, LTC_ATTACKS, 1 << 20, 200, args.repeat)
    attacks(twr, TWR_ATTACKS, 1 << 18, 100, args.repeat)


if __name__ == "__main__":
    main()
