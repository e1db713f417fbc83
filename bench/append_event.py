"""The cost of one Storage.append_event (the hot path: one per move) on a temporary SQLite file, in CPU time,
this tree against another (an older checkout), run alternately so that both meet the same load.

    python bench/append_event.py --other /tmp/old-store           # this tree and the other, alternated
    python bench/append_event.py --appends 5000 --rounds 7
    python bench/append_event.py --child --appends 3000           # one run of this tree (what the rounds start)

Each round runs a fresh process per tree: it creates a match, appends --appends events (each with its list
summary, as the match service writes them), and prints the CPU time and the wall time per append. The figures
are medians over the rounds. The machine is shared: the CPU time is the steadier figure (a WAL commit at
synchronous=NORMAL does not wait for the disk).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(appends: int) -> None:
    """Time `appends` appends in this process, with the tree on sys.path (PYTHONPATH) and print them."""
    from quadrille.matches.store import EventRow, MatchRow, SeatRow, Storage
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage.sqlite(os.path.join(tmp, "append.db"))
        at = time.time()
        storage.create_match(MatchRow(id="m1", game="trails", options={"size": 11}, mode="online", created=at,
                                      seats=[SeatRow(1, token_hash="0" * 64, name="Ann", claimed=at), SeatRow(2)]))
        for seq in range(1, 51):  # warm up: the statements compiled, the connection opened
            storage.append_event("m1", EventRow(seq, "move", {"move": "right"}, 1, time.time()))
        start, start_cpu = time.perf_counter(), time.process_time()
        for seq in range(51, 51 + appends):
            summary = f'{{"version":{seq},"turn":{1 + seq % 2},"started":true,"players":2,"computer":[]}}'
            storage.append_event("m1", EventRow(seq, "move", {"move": "right"}, 1 + seq % 2, time.time()),
                                 summary=summary)
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
        storage.close()
    print(f"{cpu / appends * 1e6:.2f} {wall / appends * 1e6:.2f}")


def run(tree: str, appends: int) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "append_event.py"), "--child",
                          "--appends", str(appends)], env=env, cwd=tree, check=True, stdout=subprocess.PIPE,
                         text=True).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--other", help="another checkout of the project to compare with (e.g. main's)")
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.appends)
        return
    trees = {"this": ROOT} | ({"other": os.path.abspath(args.other)} if args.other else {})
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            figures[name].append(run(tree, args.appends))
    for name, runs in figures.items():
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        print(f"{name:5} ({trees[name]}): append_event {cpu:.1f} us of CPU, {wall:.1f} us wall (medians of "
              f"{args.rounds} runs of {args.appends}; CPU {', '.join(f'{r[0]:.1f}' for r in runs)})")


if __name__ == "__main__":
    main()
