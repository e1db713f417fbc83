"""Costly requests (issue 22, findings 2 and 7; and the first review's imports and recent list) for
bench/attacks.py, at the default settings. The attacks and their set-up (150 imported Towers records of 2,999
actions, an account holding 120 of them, the longest Gamma record) are bench/costly.py's, at the review's
sizes."""
from __future__ import annotations

import statistics
import time

from bench import costly
from bench.attacks_kit import Attack, ms, statuses
from tests.support.clients import request


def made(target, shared: dict) -> dict:
    """bench/costly.py's set-up, once per server."""
    if "costly" not in shared:
        started = time.perf_counter()
        shared["costly"] = costly.setup(target.url)
        print(f"# set-up: 150 long records imported, an account holding 120 ({time.perf_counter() - started:.0f} s)",
              flush=True)
    return shared["costly"]


def costly_attack(index: int):
    """The index-th of bench/costly.py's attacks, on `target`."""
    def prepare(target, shared):
        _, attack, args = list(costly.attacks(target.url, made(target, shared)))[index]
        return attack, args
    return prepare


def said_costly(answers) -> str:
    seconds = sorted(took for _, took in answers)
    return (f"{statuses(answers)}; each {ms(seconds[0])}-{ms(seconds[-1])} "
            f"(median {ms(statistics.median(seconds))})")


# -- the first review's ---------------------------------------------------------------------------------------
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


def said_import(result: dict) -> str:
    return f"{'refused' if result['status'] >= 400 else 'answered'} {result['status']} {result['error']} " \
           f"in {ms(result['seconds'])}"


ATTACKS = [
    Attack("lists", "2", "my games naming 150 imported 2,999-action Towers matches with bogus tokens, 3 requests",
           costly_attack(0), said_costly),
    Attack("profile", "2", "a profile of an account holding 120 of them, 3 requests", costly_attack(1), said_costly),
    Attack("gamma-imports", "7", "40 imports of the longest Gamma record (25,585 moves) from one address",
           costly_attack(2), said_costly),
    Attack("twr-import", "7", "a .twr of the longest Towers game (2,999 actions)", costly_attack(3), said_costly),
    Attack("positions", "7", "100 positions of that Gamma at random plies", costly_attack(4), said_costly),
    Attack("matches-400", "7", "400 matches made from one address", costly_attack(5), said_costly),
    Attack("ltc-import", "earlier", ".ltc import of 16,000 <checker>",
           lambda t, s: (import_ltc, (t.url, "127.0.0.3")), said_import),
    Attack("gamma-skips", "earlier", "a 1 MiB gamma record of skips",
           lambda t, s: (import_endless, (t.url, "127.0.0.4")), said_import),
    Attack("recent", "earlier", "GET /api/matches/recent, 50 calls",
           lambda t, s: (recent, (t.url, "127.0.0.8")), lambda r: f"{r['ms_per_call']} ms a call"),
]
