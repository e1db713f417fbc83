"""bench/load.py's workload through nginx, against one process and against clusters, side by side in one run.

    python bench/cluster.py                       # (a) (b) (c) (d), 200 matches, 0.25 s think time, 30 s each
    python bench/cluster.py --configs a,c --seconds 60
    python bench/cluster.py --matches 80 --rounds 3       # each configuration three times, interleaved: the medians,
                                                          # and (c) over (a) round by round
    python bench/cluster.py --matches 60 --seconds 15   # a quick check that it works (figures not comparable)

    (a) one process on SQLite, no message queue     (b) one process on PostgreSQL + Redis
    (c) two processes on PostgreSQL + Redis         (d) three processes on PostgreSQL + Redis

Each configuration is a fresh cluster (scripts/cluster.py: its own PostgreSQL and Redis servers, nginx in
front, in a temporary directory), played by bench/load.py's clients (--procs client processes) through nginx.
Reports accepted moves/s, p50/p95/p99 of a move's round trip (emit to the mover's own `state`), and the CPU
per accepted move summed over every server-side process: the app processes (and their computer workers),
PostgreSQL (its backends too), Redis and nginx (its workers too), with each one's share.

The machine is shared with the load generator (2 cores here), so throughput cannot grow much with processes:
the figure that matters on it is the cost of a move.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import WARM_UP, play_tables, summarise  # noqa: E402
from scripts.cluster import Cluster  # noqa: E402
from scripts.services.process import descendants  # noqa: E402

CONFIGS = {
    "a": {"label": "(a) 1 process, SQLite", "processes": 1, "database": "sqlite", "queue": False},
    "b": {"label": "(b) 1 process, PostgreSQL + Redis", "processes": 1, "database": "postgresql", "queue": True},
    "c": {"label": "(c) 2 processes, PostgreSQL + Redis", "processes": 2, "database": "postgresql", "queue": True},
    "d": {"label": "(d) 3 processes, PostgreSQL + Redis", "processes": 3, "database": "postgresql", "queue": True},
}


def roles(cluster: Cluster) -> dict[str, list[int]]:
    """Every server-side process by role (each with its children)."""
    def tree(pid):
        return [pid, *descendants(pid)] if pid else []
    found = {"app": [p for app in cluster.apps for p in tree(app.pid)], "nginx": tree(cluster.nginx.pid)}
    if cluster.postgres:
        found["postgresql"] = tree(cluster.postgres.pid)
    if cluster.redis:
        found["redis"] = tree(cluster.redis.pid)
    return found


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds spent so far by a tree of processes (Linux /proc): each live one's user and system time,
    plus the time of its children that ended and were waited for (cutime, cstime). So a PostgreSQL backend or
    an nginx worker that started and ended within the measured window is counted (in its parent's), and one
    that ended after the window started moves from its own figure to its parent's without being lost."""
    total = 0.0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])
    return total / os.sysconf("SC_CLK_TCK")


def cpu_by_role(cluster: Cluster) -> dict[str, float]:
    """CPU seconds each role's processes have spent so far, their trees listed anew at each reading (a
    PostgreSQL backend or an nginx worker started since the last one counts too)."""
    return {role: tree_cpu(pids) for role, pids in roles(cluster).items()}


@contextlib.contextmanager
def fresh_cluster(config: dict, async_mode: str):
    """A configuration's cluster, started in a temporary directory of its own (readable by PostgreSQL's system
    user), and stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="quadrille-bench-") as tmp:
        os.chmod(tmp, 0o755)
        cluster = Cluster(Path(tmp), config["processes"], database=config["database"], queue=config["queue"],
                          async_mode=async_mode, durable=True)
        cluster.start()
        try:
            yield cluster
        finally:
            cluster.stop()


def run(config: dict, matches: int, seconds: float, think: float, procs: int, async_mode: str) -> dict:
    with fresh_cluster(config, async_mode) as cluster:
        return measure(cluster, matches, seconds, think, procs)


def measure(cluster: Cluster, matches: int, seconds: float, think: float, procs: int) -> dict:
    cpu: dict = {}

    def sample():
        time.sleep(WARM_UP)
        cpu["start"] = cpu_by_role(cluster)
        time.sleep(seconds)
        cpu["end"] = cpu_by_role(cluster)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    summary = summarise(play_tables(cluster.url, matches, seconds, think, procs))
    sampler.join(30)
    accepted = summary["accepted"]
    spent = {role: after - cpu["start"].get(role, 0.0) for role, after in cpu.get("end", {}).items()}
    total = sum(spent.values())
    return {
        **{k: summary[k] for k in ("moves_per_s", "refused", "connections_refused", "p50_ms", "p95_ms", "p99_ms", "samples")},
        "cpu_ms_per_move": round(1000 * total / accepted, 3) if accepted else None,
        "cpu_ms_per_move_by_role": {role: round(1000 * s / accepted, 3) for role, s in spent.items()} if accepted else {},
        "server_cores": round(total / seconds, 2),
        "client_cores": summary["client_cpu_cores"],
    }


def median_run(results: list[dict]) -> dict:
    """The run whose CPU per move is the median of a configuration's runs (the lower middle one of an even
    number), reported whole so that its figures belong together."""
    ordered = sorted(results, key=lambda r: r["cpu_ms_per_move"] or float("inf"))
    return ordered[(len(ordered) - 1) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="a,b,c,d")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.25)
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--async-mode", choices=["gevent", "eventlet"], default="gevent")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run the configurations this many times, interleaved (a b c d a b c d ...), and report "
                             "each one's run of median CPU per move: one run varies by about 10%% here")
    args = parser.parse_args()
    names = [name.strip() for name in args.configs.split(",")]
    runs: dict[str, list[dict]] = {name: [] for name in names}
    for _ in range(args.rounds):
        for name in names:
            result = run(CONFIGS[name], args.matches, args.seconds, args.think, args.procs, args.async_mode)
            runs[name].append(result)
            print(json.dumps({"config": CONFIGS[name]["label"], **result}), flush=True)
    rows = [(CONFIGS[name]["label"], median_run(runs[name])) for name in names]
    if args.rounds > 1:
        print("\nCPU per move in each round: " + "; ".join(
            f"{name}: {', '.join(str(r['cpu_ms_per_move']) for r in runs[name])} ms" for name in names))
    base = next((r["cpu_ms_per_move"] for label, r in rows if label.startswith("(a)")), None)
    print()
    print("| configuration | accepted moves/s | p50 | p95 | p99 | server CPU per move | vs (a) | app / PostgreSQL / Redis / nginx |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, r in rows:
        parts = r["cpu_ms_per_move_by_role"]
        split = " / ".join(f"{parts.get(k, 0):.2f}" for k in ("app", "postgresql", "redis", "nginx"))
        ratio = f"{r['cpu_ms_per_move'] / base:.2f}x" if base and r["cpu_ms_per_move"] else ""
        print(f"| {label} | {r['moves_per_s']} | {r['p50_ms']} ms | {r['p95_ms']} ms | {r['p99_ms']} ms | "
              f"{r['cpu_ms_per_move']} ms | {ratio} | {split} ms |")
    unsound = sum(r["connections_refused"] for results in runs.values() for r in results)
    if unsound:
        print(f"\nwarning: the server refused {unsound} of the clients' connections (a budget too small for this "
              "load?): the tables that were refused played less, and these figures are not comparable")
    two = next((r for label, r in rows if label.startswith("(c)")), None)
    if base and two and two["cpu_ms_per_move"]:
        ratio = two["cpu_ms_per_move"] / base
        print(f"\ntarget: (c) at most 1.6x the CPU per move of (a): {ratio:.2f}x, "
              f"{'met' if ratio <= 1.6 else 'NOT met'}")
        if args.rounds > 1 and "a" in runs and "c" in runs:
            # Paired by round ((a) and (c) measured minutes apart): the machine's slower and faster hours
            # cancel out, where the two medians above may come from different rounds.
            paired = [c["cpu_ms_per_move"] / a["cpu_ms_per_move"] for a, c in zip(runs["a"], runs["c"])
                      if a["cpu_ms_per_move"] and c["cpu_ms_per_move"]]
            print(f"round by round, (c) / (a): {', '.join(f'{x:.2f}' for x in paired)}; median "
                  f"{statistics.median(paired):.2f}x, at most 1.6x in {sum(x <= 1.6 for x in paired)} of {len(paired)}")
    for label, r in rows:
        print(f"target: p99 under 50 ms ({args.matches} matches, think {args.think} s): {label}: {r['p99_ms']} ms, "
              f"{'met' if r['p99_ms'] < 50 else 'NOT met'}")


if __name__ == "__main__":
    main()
