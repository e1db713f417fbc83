"""Storage costs on a temporary SQLite file: one append_event (the hot path, one per move) and the lobby's
recent list at a small and a large amount of data.

    python bench/storage.py                      # appends, then the recent list at 1,000 and 20,000 matches
    python bench/storage.py --only append        # just the appends (a few seconds)
    python bench/storage.py --large 5000 --events 40

Figures are the median of --repeat runs. The machine is shared, so compare runs made side by side.
"""
from __future__ import annotations

import argparse
import inspect
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from quadrille.matches.store import EventRow, MatchRow, SeatRow, Storage  # noqa: E402


def new_match(i: int, events: int, at: float) -> MatchRow:
    return MatchRow(id=f"m{i:07d}", game="trails", options={"size": 11}, mode="online", created=at,
                    seats=[SeatRow(1, token_hash="0" * 64, name="Ann", claimed=at), SeatRow(2)],
                    events=[EventRow(seq, "move", {"move": "right"}, 1 + seq % 2, at + seq) for seq in
                            range(1, events + 1)])


def with_summary(seq: int) -> dict:
    """What the match service writes with each move (a Trails match's list summary), where storage takes it."""
    if "summary" not in inspect.signature(Storage.append_event).parameters:  # the code before issue 22
        return {}
    return {"summary": f'{{"version":{seq},"turn":{1 + seq % 2},"started":true,"players":2,"computer":[]}}'}


def bench_append(appends: int, repeat: int) -> None:
    runs, cpu = [], []
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage.sqlite(os.path.join(tmp, "append.db"))
        for r in range(repeat):
            storage.create_match(new_match(r, 0, time.time()))
            start, start_cpu = time.perf_counter(), time.process_time()
            for seq in range(1, appends + 1):
                storage.append_event(f"m{r:07d}", EventRow(seq, "move", {"move": "right"}, 1, time.time()),
                                     **with_summary(seq))
            runs.append((time.perf_counter() - start) / appends)
            cpu.append((time.process_time() - start_cpu) / appends)
        storage.close()
    # The CPU time is the steadier figure on a shared machine: a commit here does not wait for the disk.
    print(f"append_event: {statistics.median(runs) * 1e6:.1f} us each, {statistics.median(cpu) * 1e6:.1f} us of "
          f"CPU (medians of {repeat} runs of {appends}; wall {', '.join(f'{r * 1e6:.0f}' for r in runs)} us)")


def bench_recent(matches: int, events: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage.sqlite(os.path.join(tmp, "recent.db"))
        start = time.perf_counter()
        base = time.time() - 10 * matches
        for i in range(matches):
            storage.create_match(new_match(i, events, base + 10 * i))
        built = time.perf_counter() - start
        storage.recent_matches(20)  # warm the page cache
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            storage.recent_matches(20)
            runs.append(time.perf_counter() - start)
        storage.close()
    print(f"recent_matches(20) at {matches:,} matches x {events} events ({matches * events:,} events, "
          f"built in {built:.1f} s): {statistics.median(runs) * 1e3:.2f} ms (median of {repeat})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("append", "recent"))
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--small", type=int, default=1000, help="matches in the small recent-list database")
    parser.add_argument("--large", type=int, default=20000, help="matches in the large recent-list database")
    parser.add_argument("--events", type=int, default=50, help="events per match in the recent-list databases")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.only in (None, "append"):
        bench_append(args.appends, args.repeat)
    if args.only in (None, "recent"):
        for matches in (args.small, args.large):
            bench_recent(matches, args.events, args.repeat)


if __name__ == "__main__":
    main()
