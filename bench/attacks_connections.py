"""Connections and floods (issue 22, finding 1; and the first review's socket floods) for bench/attacks.py, at
the default settings: idle connections from the review's two addresses and from enough addresses to reach the
process's descriptor limit, requests left half-sent, Socket.IO connections and event floods from one address.
The attacks are tests/security/test_connections.py's and test_socket_floods.py's."""
from __future__ import annotations

import multiprocessing
import os
import pickle
import time
import traceback

from bench.attacks_kit import Attack, ms
from quadrille import DEFAULTS
from tests.support.clients import SETUP, RawSocket, request
from tests.security.test_connections import half_send, hold_idle, sessions
from tests.security.test_socket_floods import flood, open_many

NEWCOMER = "127.0.0.12"     # an address new to the server, asking while the connections are held


def forked(function, *args):
    """`function(*args)` in a child process (os.fork: the attack already runs in a daemonic process, which
    multiprocessing lets have no children); returns a function that waits for its result."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        code, result = 0, None
        try:
            result = function(*args)
        except BaseException:  # noqa: BLE001 - said on stderr, and the parent gets None
            traceback.print_exc()
            code = 1
        with os.fdopen(write, "wb") as out:
            pickle.dump(result, out)
        os._exit(code)
    os.close(write)

    def result():
        with os.fdopen(read, "rb") as given:
            value = pickle.load(given)
        os.waitpid(pid, 0)
        return value
    return result


def hold_in_processes(url: str, addresses: list[str], each: int, seconds: float, processes: int) -> tuple:
    """test_connections.hold_idle over `addresses`, shared out among `processes` processes (each may hold 20,000
    descriptors, the machine's limit, which root may not raise here): (their Events, set once each holds its
    connections; a function that waits for them to end and sums what they return)."""
    holding = [multiprocessing.get_context("fork").Event() for _ in range(processes)]
    workers = [forked(hold_idle, url, addresses[k::processes], each, holding[k], seconds) for k in range(processes)]

    def ended() -> dict:
        held = [worker() for worker in workers]
        return {"opened": sum(h["opened"] for h in held), "held": {a: n for h in held for a, n in h["held"].items()}}
    return holding, ended


def idle_connections(url: str, pid: int, addresses: list[str], each: int, seconds: float) -> dict:
    """The review's attack: up to `each` connections that send nothing from each address, reopened as the
    server closes them, held for `seconds` (test_connections.hold_idle, in two processes); meanwhile an address
    new to the server asks for /api/health five times and watches a match through Socket.IO, and the server's
    open descriptors (process `pid`) are counted."""
    holding, ended = hold_in_processes(url, addresses, each, seconds, 2)
    newcomer = {"health": [], "socket": None, "descriptors": 0}
    for event in holding:
        event.wait(120)
    time.sleep(1.0)  # the server has taken every connection it will take
    for _ in range(5):
        newcomer["descriptors"] = max(newcomer["descriptors"], len(os.listdir(f"/proc/{pid}/fd")))
        started = time.perf_counter()
        try:
            status = request(url, "GET", "/api/health", address=NEWCOMER)[0]
        except OSError as exc:
            status = type(exc).__name__
        newcomer["health"].append((status, time.perf_counter() - started))
        time.sleep(0.3)
    try:
        sock = RawSocket(url, NEWCOMER)
        newcomer["socket"] = sock.call("position", {"match": sock_match(url), "ply": 0})["ok"]
        sock.close()
    except Exception as exc:  # noqa: BLE001 - what the newcomer met is the result
        newcomer["socket"] = repr(exc)
    return {**ended(), "newcomer": newcomer}


def sock_match(url: str) -> str:
    return request(url, "POST", "/api/matches", {"game": "trails"}, address=NEWCOMER)[2]["match"]


def said_idle(result: dict) -> str:
    newcomer = result["newcomer"]
    health = newcomer["health"]
    answered = sum(status == 200 for status, _ in health)
    worst = max((took for _, took in health), default=0)
    return (f"{result['opened']:,} connections opened from {len(result['held'])} addresses (reopened as they "
            f"were closed); the server held {newcomer['descriptors']:,} descriptors at most; "
            f"a new address: /api/health {answered} of {len(health)} answered 200 (worst {ms(worst)}), "
            f"its Socket.IO {'served' if result['newcomer']['socket'] is True else result['newcomer']['socket']}")


def half_sent(url: str, addresses: list[str], each: int, wait: float) -> dict:
    """The review's attack: requests never finished, half stopping in their headers, half in their body
    (test_connections.half_send); then how many Engine.IO sessions they made (each would have been served)."""
    before = sessions(url)
    result = half_send(url, addresses, each, wait)
    time.sleep(0.5)  # whatever a closed half-request would have started has started
    return {**result, "served": sessions(url) - before}


def said_half_sent(result: dict) -> str:
    in_headers = result["stopped in headers"]
    return (f"{result['sent']:,} sent ({in_headers:,} stopping in their headers, the others in their bodies): "
            f"{result['closed by the server']:,} of the {in_headers:,} closed by the server within its header "
            f"timeout; {result['answered']} answered, {result['served']} served")


def said_flood(result: dict) -> str:
    answers = ", ".join(f"{n} {word}" for word, n in sorted(result["answers"].items())) or "none answered"
    closed = "; the socket closed by the server" if result["closed"] else ""
    return f"{answers}{closed}; {result['events']} events heard"


def pause_flood(target, shared):
    demo = request(target.url, "POST", "/api/matches", {"game": "towers", "mode": "ai", "ai": {"seats": [1, 2]}},
                   address="127.0.0.9")[2]
    pause = {"match": demo["match"], "token": demo["token"], "paused": True}
    return flood, (target.url, "127.0.0.9", [("pause", pause)] * 300)


def watch_flood(target, shared):
    match = request(target.url, "POST", "/api/matches", {"game": "trails"}, address=SETUP)[2]["match"]
    return flood, (target.url, "127.0.0.5", [("watch", {"match": match})] * 3000)


def addresses(third: int, count: int) -> list[str]:
    return [f"127.0.{third}.{k + 1}" for k in range(count)]


HEADER_WAIT = DEFAULTS["HEADER_TIMEOUT"] + 3

ATTACKS = [
    Attack("idle-2", "1", "20,600 idle connections from 2 addresses, reopened as they close, held 10 s",
           lambda t, s: (idle_connections, (t.url, t.pid, addresses(40, 2), 10_300, 10.0)), said_idle),
    Attack("idle-30", "1", "21,000 idle connections from 30 addresses (past the 20,000 descriptors), held 10 s",
           lambda t, s: (idle_connections, (t.url, t.pid, addresses(41, 30), 700, 10.0)), said_idle),
    Attack("half-sent", "1", "3,000 half-sent requests from 5 addresses",
           lambda t, s: (half_sent, (t.url, addresses(42, 5), 600, HEADER_WAIT)), said_half_sent),
    Attack("connections-1500", "earlier", "1,500 Socket.IO connections from one address",
           lambda t, s: (open_many, (t.url, "127.0.0.6", 1500)),
           lambda r: f"{r['opened']} connected, {r['refused']} refused"),
    Attack("watch-flood", "earlier", "3,000 watch events", watch_flood, said_flood),
    Attack("pause-flood", "earlier", "300 pause events", pause_flood, said_flood),
    Attack("nested-packets", "earlier", "500 deeply nested packets",
           lambda t, s: (flood, (t.url, "127.0.0.7", ["42" + "[" * 3000] * 500)), said_flood),
]
