"""The findings of the security review, replayed against a real server with default settings: for each
attack, what the attacker got and another client's Socket.IO round trips while it ran.

    python bench/attacks.py                    # gevent, then eventlet
    python bench/attacks.py --async-mode gevent

Each attack runs in its own process from its own loopback address (127.0.0.3, .4, ...), the victim from
127.0.0.2 (tests/security/clients.py). Prints one JSON line per attack: the victim's median and worst round
trip in ms, and what the attacker's requests were answered.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import ServerProcess  # noqa: E402
from tests.security.clients import SETUP, RawSocket, Victim, request  # noqa: E402
from tests.security.conftest import run_attack  # noqa: E402
from tests.security.test_socket_floods import flood, open_many  # noqa: E402
from bench import costly  # noqa: E402


def import_ltc(url, address):
    text = "<dimension>2,2,2</dimension><mycheckers>" + "<checker>" * 16000
    started = time.perf_counter()
    status, _, body = request(url, "POST", "/api/matches/import?format=ltc", raw=text, address=address,
                              headers={"Content-Type": "text/plain"})
    return {"status": status, "error": body.get("error"), "seconds": round(time.perf_counter() - started, 4)}


def import_endless(url, address):
    started = time.perf_counter()
    status, _, body = request(url, "POST", "/api/matches/import", {"game": "gamma", "moves": ["skip"] * 120_000},
                              address=address)
    return {"status": status, "error": body.get("error"), "seconds": round(time.perf_counter() - started, 4)}


def recent(url, address):
    started = time.perf_counter()
    for _ in range(50):
        request(url, "GET", "/api/matches/recent", address=address)
    return {"ms_per_call": round(1000 * (time.perf_counter() - started) / 50, 2)}


def farm_ratings(url, address):
    """Finding 9: three alt accounts challenge a farmer to rated Trails games and resign at move 0, 24 times
    (API tokens, one address; sign-ups from the same address fit ACCOUNT_RATE)."""
    tokens = {}
    for name in ("farmer", "alt0", "alt1", "alt2"):
        request(url, "POST", "/api/account", {"name": name, "password": "farm password"}, address=address)
        tokens[name] = request(url, "POST", "/api/account/tokens", {"name": name, "password": "farm password"},
                               address=address)[2]["token"]
    keys = {name: request(url, "GET", "/api/account", address=address,
                          headers={"Authorization": f"Bearer {token}"})[2]["seat_key"] for name, token in tokens.items()}
    started, refused = time.perf_counter(), 0
    for game in range(24):
        alt = f"alt{game % 3}"
        status, _, made = request(url, "POST", "/api/challenges", {"to": "farmer", "game": "trails", "rated": True,
                                                                   "first": "challenger"},
                                  address=address, headers={"Authorization": f"Bearer {tokens[alt]}"})
        if status != 201:
            refused += 1
            continue
        match = request(url, "POST", f"/api/challenges/{made['challenge']}/accept", {}, address=address,
                        headers={"Authorization": f"Bearer {tokens['farmer']}"})[2]["match"]
        request(url, "POST", f"/api/matches/{match}/resign", {}, address=address,
                headers={"Authorization": f"Bearer {keys[alt]}"})
    ratings = request(url, "GET", "/api/players/farmer", address=address)[2]["ratings"]
    return {"farmer_trails_rating": ratings.get("trails", {}).get("rating", "unrated"), "refused": refused,
            "seconds": round(time.perf_counter() - started, 2)}


def attacks(url):
    match = request(url, "POST", "/api/matches", {"game": "trails"}, address=SETUP)[2]["match"]
    demo = request(url, "POST", "/api/matches", {"game": "towers", "mode": "ai", "ai": {"seats": [1, 2]}},
                   address="127.0.0.9")[2]
    pause = {"match": demo["match"], "token": demo["token"], "paused": True}
    yield "ltc import (16,000 <checker>)", import_ltc, (url, "127.0.0.3")
    yield "1 MiB gamma record of skips", import_endless, (url, "127.0.0.4")
    yield "3,000 watch events", flood, (url, "127.0.0.5", [("watch", {"match": match})] * 3000)
    yield "300 pause events", flood, (url, "127.0.0.9", [("pause", pause)] * 300)
    yield "1,500 connections", open_many, (url, "127.0.0.6", 1500)
    yield "500 deeply nested packets", flood, (url, "127.0.0.7", ["42" + "[" * 3000] * 500)
    yield "recent list, 50 calls", recent, (url, "127.0.0.8")
    yield "24 rated games resigned at move 0 by 3 alts", farm_ratings, (url, "127.0.0.10")
    # issue 22's lists of long matches, imports, positions and default budgets (bench/costly.py)
    yield from costly.attacks(url, costly.setup(url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--async-mode", choices=["gevent", "eventlet", "both"], default="both")
    args = parser.parse_args()
    for mode in ["gevent", "eventlet"] if args.async_mode == "both" else [args.async_mode]:
        with tempfile.TemporaryDirectory() as tmp:
            server = ServerProcess(Path(tmp) / "attacks.db", mode).start()
            try:
                for name, attack, attack_args in attacks(server.url):
                    victim = Victim(server.url)
                    outcome = run_attack(victim, attack, *attack_args, timeout=300)
                    trips = [1000 * t for t in victim.round_trips]
                    print(json.dumps({"async_mode": mode, "attack": name, "victim_p50_ms": round(statistics.median(trips), 2),
                                      "victim_worst_ms": round(max(trips), 2), "probes": len(trips),
                                      "attacker": outcome}), flush=True)
                    victim.close()
                log = server.log_path.read_text(errors="replace")
                print(json.dumps({"async_mode": mode, "log_bytes": len(log), "tracebacks": log.count("Traceback")}))
            finally:
                server.stop()


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
