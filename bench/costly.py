"""Issue 22's costly requests, replayed at the review's own sizes against a real server with default settings:
lists of games naming long matches, a profile of an account that holds many, imports of the longest records,
positions along the longest match, and the default budgets. For each: what the attacker's requests were
answered, how long they took, the server's CPU, and another client's Socket.IO round trips meanwhile.

    python bench/costly.py                       # gevent
    python bench/costly.py --async-mode eventlet

Run it from another tree (e.g. a worktree at the commit before) to get the figures before. Each attack comes from
its own loopback address; the 150 long records are imported from eight (an address may import 60,000 moves an
hour), the victim plays from 127.0.0.2 (tests/support/clients.py).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.servers import ServerProcess  # noqa: E402
from tests.support.clients import SETUP, Victim, request  # noqa: E402
from tests.security.conftest import run_attack  # noqa: E402
from tests.security.long_records import gamma_record, towers_record  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(url, method, path, body=None, address=SETUP, **kw):
    started = time.perf_counter()
    status, _, answer = request(url, method, path, body, address=address, **kw)
    return status, time.perf_counter() - started, answer


def bogus_lists(url, ids, times):
    tokens = {match: "x" * 32 for match in ids}
    return [timed(url, "POST", "/api/me/games", {"tokens": tokens}, "127.0.0.3")[:2] for _ in range(times)]


def profiles(url, name, times):
    return [timed(url, "GET", f"/api/players/{name}", address="127.0.0.4")[:2] for _ in range(times)]


def imports(url, record, times):
    return [timed(url, "POST", "/api/matches/import", record, "127.0.0.5")[:2] for _ in range(times)]


def twr_import(url, text):
    return [timed(url, "POST", "/api/matches/import?format=twr", address="127.0.0.6", raw=text,
                  headers={"Content-Type": "text/plain"})[:2]]


def positions(url, match, plies):
    return [timed(url, "GET", f"/api/matches/{match}/positions/{ply}", address="127.0.0.7")[:2] for ply in plies]


def creations(url, times):
    return [timed(url, "POST", "/api/matches", {"game": "trails"}, "127.0.0.8")[:2] for _ in range(times)]


def summary(answers) -> dict:
    statuses: dict = {}
    for status, _ in answers:
        statuses[status] = statuses.get(status, 0) + 1
    seconds = sorted(s for _, s in answers)
    return {"statuses": statuses, "request_median_s": round(statistics.median(seconds), 4),
            "request_worst_s": round(seconds[-1], 4)}


def setup(url) -> dict:
    """150 imported Towers records of 2,999 actions (the review's), an account that claimed 120 of them, and the
    longest Gamma record, imported once."""
    record, held = towers_record(), {}
    for k in range(150):
        status, _, created = request(url, "POST", "/api/matches/import", record, address=f"127.0.1.{k // 20 + 1}")
        assert status == 201, created
        held[created["match"]] = created["token"]
    claimed = dict(list(held.items())[:120])
    status, _, body = request(url, "POST", "/api/account", {"name": "hoarder", "password": "correct horse",
                                                            "tokens": claimed}, address="127.0.1.20")
    assert status == 201, body
    gamma = request(url, "POST", "/api/matches/import", gamma_record(), address="127.0.1.21")[2]["match"]
    return {"long": list(held), "gamma": gamma}


def attacks(url, made):
    from games.towers.twr import dump
    import games
    board = games.get("towers").new(size=10)
    for move in towers_record()["moves"]:
        board.push(move)
    plies = len(gamma_record()["moves"])
    rng = random.Random(7)
    yield "my games: 150 long matches named with bogus tokens, 3 requests", bogus_lists, (url, made["long"], 3)
    yield "profile of an account holding 120 long matches, 3 requests", profiles, (url, "hoarder", 3)
    yield "40 imports of the longest Gamma record (25,585 moves)", imports, (url, gamma_record(), 40)
    yield "a .twr of the longest Towers game (2,999 actions)", twr_import, (url, dump(board))
    yield "100 positions of the longest Gamma, at random plies", positions, (
        url, made["gamma"], [rng.randrange(plies + 1) for _ in range(100)])
    yield "400 matches made from one address", creations, (url, 400)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--async-mode", choices=["gevent", "eventlet"], default="gevent")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "costly.db", args.async_mode).start()
        try:
            made = setup(server.url)
            for name, attack, attack_args in attacks(server.url, made):
                victim = Victim(server.url)
                before = cpu_seconds(server.pid)
                answers = run_attack(victim, attack, *attack_args, timeout=600)
                cpu = cpu_seconds(server.pid) - before
                trips = [1000 * t for t in victim.round_trips]
                print(json.dumps({"async_mode": args.async_mode, "attack": name, **summary(answers),
                                  "server_cpu_s": round(cpu, 2),
                                  "server_cpu_ms_per_request": round(1000 * cpu / len(answers), 1),
                                  "victim_p50_ms": round(statistics.median(trips), 1),
                                  "victim_worst_ms": round(max(trips), 1)}), flush=True)
                victim.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
