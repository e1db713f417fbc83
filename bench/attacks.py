"""The findings of the security reviews, replayed against a real server with default settings: for each attack,
what the attacker got and another client's Socket.IO round trips while it ran. Issue 22's High (1-5) and Medium
(6-10) findings each have one or more attacks, the first review's ("earlier") are kept; the cluster's (finding 5)
run against a real scripts/cluster.py cluster (PostgreSQL, Redis, two app processes, nginx).

    python bench/attacks.py                          # gevent, then eventlet
    python bench/attacks.py --async-mode gevent
    python bench/attacks.py --only half-sent --only 3  # an attack by name, or a finding's attacks
    python bench/attacks.py --list

Each attack runs in a process of its own from loopback addresses of its own (127.0.0.3 and on), the victim from
127.0.0.2 (tests/support/clients.py). Prints one JSON line per attack: the victim's median, 99th percentile and
worst round trip in ms, the server's CPU meanwhile, and what the attacker got. The attacks are the tests' own
(bench/attacks_*.py say whose), imported. Run as root, as the tests are: the cluster's servers run as system users
of their own, and its attacker is another local user (`nobody`, through setpriv).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import attacks_accounts, attacks_cluster, attacks_connections, attacks_watchers, attacks_work  # noqa: E402
from bench.costly import cpu_seconds  # noqa: E402
from tests.support.servers import ServerProcess, service_directory  # noqa: E402
from tests.support.clients import VICTIM, RawSocket, Victim  # noqa: E402
from tests.security.conftest import run_attack  # noqa: E402

# in the order of the findings, the first review's last
ATTACKS = sorted(attacks_connections.ATTACKS + attacks_work.ATTACKS + attacks_accounts.ATTACKS
                 + attacks_watchers.ATTACKS + attacks_cluster.ATTACKS,
                 key=lambda attack: int(attack.finding) if attack.finding.isdigit() else 99)


class SteadyVictim(Victim):
    """tests/support/clients.py's Victim, probing in turn over three sockets watching its match. One socket
    probing ten times a second would spend a player socket's budget (SOCKET_PLAYER_EVENTS: 100 events in 20 s
    by default) within 20 s, and the attacks run at the default settings."""

    SOCKETS = 3

    def __init__(self, url: str, address: str = VICTIM):
        super().__init__(url, address)
        self.sockets = [self.sock]
        for _ in range(self.SOCKETS - 1):
            sock = RawSocket(url, address)
            assert sock.call("watch", {"match": self.match, "token": self.token})["ok"]
            self.sockets.append(sock)

    def probe(self) -> float:
        self.sock = self.sockets[len(self.round_trips) % len(self.sockets)]
        self.sock.events.clear()  # the match's presence announcements, not needed
        return super().probe()

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


def selected(only: list[str]) -> list:
    """The attacks named by --only (names, or findings' numbers), all by default."""
    wanted = {word.strip() for words in only for word in words.split(",") if word.strip()}
    known = {attack.name for attack in ATTACKS} | {attack.finding for attack in ATTACKS}
    unknown = wanted - known
    if unknown:
        raise SystemExit(f"no such attack or finding: {', '.join(sorted(unknown))} (see --list)")
    return [attack for attack in ATTACKS if not wanted or attack.name in wanted or attack.finding in wanted]


def round_trips(victim: Victim) -> dict:
    trips = sorted(1000 * t for t in victim.round_trips)
    p99 = statistics.quantiles(trips, n=100, method="inclusive")[98] if len(trips) > 1 else trips[0]
    return {"victim_p50_ms": round(statistics.median(trips), 1), "victim_p99_ms": round(p99, 1),
            "victim_worst_ms": round(trips[-1], 1), "probes": len(trips)}


def replay(attack, target, pids: list[int], mode: str, shared: dict) -> None:
    """One attack on `target` (a server or a cluster, whose app processes are `pids`), and its JSON line."""
    line = {"async_mode": mode, "finding": attack.finding, "attack": attack.name, "what": attack.what,
            "load_1m": round(os.getloadavg()[0], 2)}
    try:
        function, args = attack.prepare(target, shared)
        victim = SteadyVictim(target.url)
        cpu, started = sum(cpu_seconds(pid) for pid in pids), time.perf_counter()
        try:
            outcome = run_attack(victim, function, *args, timeout=attack.timeout)
        finally:
            victim.close()
        line.update(round_trips(victim), seconds=round(time.perf_counter() - started, 1),
                    server_cpu_s=round(sum(cpu_seconds(pid) for pid in pids) - cpu, 2), attacker=attack.said(outcome))
    except Exception as exc:  # noqa: BLE001 - one attack that fails is reported, and the others still run
        for child in multiprocessing.active_children():  # an attack left running by a victim that gave up
            child.terminate()
            child.join(10)
        line["failed"] = f"{type(exc).__name__}: {exc}"[:2000]
    print(json.dumps(line, ensure_ascii=False), flush=True)


def on_a_server(attacks: list, mode: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "attacks.db", mode).start()
        try:
            shared: dict = {}
            for attack in attacks:
                replay(attack, server, [server.pid], mode, shared)
        finally:
            server.stop()  # and it writes the refusals counted since its last summary
        log = server.log_path.read_text(errors="replace")
        print(json.dumps({"async_mode": mode, "log_bytes": len(log), "log_lines": log.count("\n"),
                          "tracebacks": log.count("Traceback"), "traceback_ends": traceback_ends(log),
                          "refusal_summaries": log.count("quadrille.refusals: refused")}), flush=True)


def traceback_ends(log: str) -> list[str]:
    """The exception line that ends each traceback in a server's log (what went wrong, for a reader to look into)."""
    ends = []
    for block in log.split("Traceback (most recent call last):")[1:]:
        lines = [line for line in block.splitlines() if line and not line.startswith((" ", "\t"))]
        ends.append(lines[0][:300] if lines else "?")
    return ends


def on_a_cluster(attacks: list, mode: str) -> None:
    from scripts.cluster import Cluster
    where = service_directory("quadrille-attacks-")  # reachable by the servers' own system users
    cluster = Cluster(where / "cluster", 2, async_mode=mode, durable=False)
    try:
        cluster.start()
        shared: dict = {}
        for attack in attacks:
            replay(attack, cluster, [app.pid for app in cluster.apps], mode, shared)
    finally:
        cluster.stop()
        shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--async-mode", choices=["gevent", "eventlet", "both"], default="both")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="an attack's name or a finding's number (1-10, 'earlier'); repeat or separate by commas")
    parser.add_argument("--list", action="store_true", help="list the attacks and stop")
    args = parser.parse_args()
    if args.list:
        for attack in ATTACKS:
            print(f"{attack.name:20} finding {attack.finding:8} {attack.what}")
        return
    attacks = selected(args.only)
    for mode in ["gevent", "eventlet"] if args.async_mode == "both" else [args.async_mode]:
        print(f"# {mode}: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        if any(attack.on == "server" for attack in attacks):
            on_a_server([attack for attack in attacks if attack.on == "server"], mode)
        if any(attack.on == "cluster" for attack in attacks):
            on_a_cluster([attack for attack in attacks if attack.on == "cluster"], mode)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
