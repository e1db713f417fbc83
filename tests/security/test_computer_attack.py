"""The computer cannot be monopolised: a real server (one worker process on this 2-core machine) under attack.

An attacker (127.0.0.1) starts as many level-3 Towers demos as its address may have and watches each with
a Socket.IO client so that they run; its extra matches are refused (429 rate-limited). Meanwhile a victim
from another address (127.0.0.2; Linux routes all of 127/8 to the loopback) plays level 1 against the
computer, and the time from each of its moves' acknowledgement to the computer's reply (`state`) is
measured. Before the fix, 30 such demos pushed that reply from 0.01 s to 13 s; now a person's request goes
ahead of every demo and cuts short the demo search under way.
"""
from __future__ import annotations

import queue
import socket
import statistics
import threading
import time

import pytest
import requests
import socketio

from bench.load import http_from
from quadrille import DEFAULTS
from tests.support.waiting import wait_until
from tests.support.servers import ServerProcess

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = [pytest.mark.server, pytest.mark.alone]

ATTACKER, VICTIM = "127.0.0.1", "127.0.0.2"
CAP = DEFAULTS["COMPUTER_MATCHES_PER_ADDRESS"]
MOVES = 12
# Trails level 1 thinks for under 10 ms (0.4 ms at the median). The rest of the bound is the price of the
# attack: the demo search under way stops at its next look at the socket (every 10 ms, after at most 64
# nodes), the answer comes back, and the victim's search runs, on a 2-core machine whose other core runs
# the server, the attacker's eight clients and this test. The issue's target for other clients' Socket.IO
# round trips under attack is 250 ms.
BOUND = 0.25


def socket_from(server: ServerProcess, address: str) -> socketio.Client:
    """A Socket.IO client (WebSocket transport) whose TCP connection comes from `address`."""
    sock = socket.create_connection(("127.0.0.1", server.port), source_address=(address, 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    assert sock.getsockname()[0] == address
    client = socketio.Client(reconnection=False, websocket_extra_options={"socket": sock})
    client.connect(server.url, transports=["websocket"])
    return client


def disconnect(clients: list[socketio.Client]) -> None:
    """Disconnect clients side by side: each takes about 3 s (python-socketio waits for its reader)."""
    threads = [threading.Thread(target=client.disconnect) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def create(session: requests.Session, server: ServerProcess, body: dict) -> requests.Response:
    return session.post(f"{server.url}/api/matches", json=body)


def demo_body() -> dict:
    return {"game": "towers", "mode": "ai", "ai": {"seats": [1, 2], "level": 3}}


def start_attack(server: ServerProcess, demos: int, extras: int):
    """The attacker's demos, each watched by its own client; returns (matches, clients, refused answers)."""
    attacker = http_from(ATTACKER)
    matches, clients, refused = [], [], []
    for _ in range(demos):
        answer = create(attacker, server, demo_body())
        assert answer.status_code == 201, answer.text
        matches.append(answer.json()["match"])
    for _ in range(extras):
        refused.append(create(attacker, server, demo_body()))
    for match in matches:
        client = socket_from(server, ATTACKER)
        assert client.call("watch", {"match": match})["ok"]
        clients.append(client)
    return attacker, matches, clients, refused


def versions(session, server, matches) -> list[int]:
    return [session.get(f"{server.url}/api/matches/{m}").json()["version"] for m in matches]


def play_victim(server: ServerProcess, sio: socketio.Client, moves: int, timeout: float = 30) -> list[float]:
    """The victim plays Trails against level 1 over `sio`; returns the computer's reply times (ack to `state`)."""
    victim = http_from(VICTIM)
    states: queue.Queue = queue.Queue()
    sio.on("state", lambda state: states.put((time.perf_counter(), state)))
    replies: list[float] = []
    while len(replies) < moves:
        answer = create(victim, server, {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 1}})
        assert answer.status_code == 201, answer.text  # the attacker's address is at its cap; this one is not
        created = answer.json()
        base = {"match": created["match"], "token": created["token"]}
        current = sio.call("watch", base)["state"]
        while current["outcome"] is None and len(replies) < moves:
            time.sleep(0.1)  # a person takes a moment between moves
            move = current["legal"][len(replies) % len(current["legal"])]
            ack = sio.call("move", {**base, "move": move})
            acked = time.perf_counter()
            assert ack["ok"], ack
            while True:
                arrived, current = states.get(timeout=timeout)
                if current["match"] == created["match"] and current["version"] == ack["version"] + 1:
                    break
            replies.append(arrived - acked)
    return replies


def test_a_demo_attack_does_not_delay_another_address_against_the_computer(server):
    """`server`: a real server process, once under gevent and once under eventlet (tests/conftest.py)."""
    attacker, matches, clients, refused = start_attack(server, CAP, 2)
    try:
        for answer in refused:
            assert answer.status_code == 429 and answer.json()["error"] == "rate-limited", answer.text
            assert str(CAP) in answer.json()["reason"]
        # The Socket.IO door counts the attacker's address too: starting an online match with computer
        # players over its socket is refused; the same from the victim's address (its socket bound to
        # 127.0.0.2) is accepted, so the server sees each connection's own address.
        victim = socket_from(server, VICTIM)
        clients.append(victim)
        for address, client, expected in ((ATTACKER, clients[0], False), (VICTIM, victim, True)):
            online = create(http_from(address), server, {"game": "gamma", "mode": "online"}).json()
            ack = client.call("start", {"match": online["match"], "token": online["token"], "computer_level": 1})
            assert ack["ok"] is expected, (address, ack)
            if not expected:
                assert ack["error"] == "rate-limited"

        # the demos are under way (one has moved): the worker is busy with their level-3 searches
        wait_until(lambda: sum(versions(attacker, server, matches)) > 0, 60, "the demos to play")
        before = versions(attacker, server, matches)
        replies = play_victim(server, victim, MOVES)
        after = versions(attacker, server, matches)
    finally:
        disconnect(clients)
    print(f"\n{server.async_mode}: victim's level-1 replies under {CAP} watched level-3 demos: "
          f"worst {max(replies) * 1000:.0f} ms, median {statistics.median(replies) * 1000:.0f} ms over {len(replies)}")
    assert sum(after) > sum(before), "the attacker's demos were not running"
    assert max(replies) < BOUND, [round(r, 3) for r in replies]
