"""Computer players in a real server process (gevent and eventlet): the event loop never waits for them."""
from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest
import requests
import socketio

from tests.support.waiting import wait_until

pytestmark = pytest.mark.server


def post(server, path, body=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(f"{server.url}{path}", json=body or {}, headers=headers)


def state(server, match):
    return requests.get(f"{server.url}/api/matches/{match}").json()


def workers_of(server) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(server.proc.pid)], capture_output=True, text=True).stdout
    return [int(pid) for pid in out.split()]


def test_other_matches_keep_their_latency_while_level_3_thinks(server):
    thinker = post(server, "/api/matches", {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 3}}).json()
    local = post(server, "/api/matches", {"game": "trails", "mode": "local", "options": {"size": 25}}).json()
    sio = socketio.Client(reconnection=False)
    sio.connect(server.url, transports=["websocket"])
    sio.call("watch", {"match": local["match"], "token": local["token"]})

    post(server, f"/api/matches/{thinker['match']}/moves", {"move": "right"}, thinker["token"])
    time.sleep(0.3)  # the search has started (level 3 thinks for its whole budget on an open board)
    assert state(server, thinker["match"])["version"] == 1

    latencies, current = [], state(server, local["match"])
    for i in range(20):
        started = time.perf_counter()
        if current["outcome"]:  # start the local game again; a rewind is a decision like a move
            ack = sio.call("rewind", {"match": local["match"], "token": local["token"], "to": 0})
        else:
            move = current["legal"][i % len(current["legal"])]
            ack = sio.call("move", {"match": local["match"], "token": local["token"], "move": move})
        latencies.append(time.perf_counter() - started)
        assert ack["ok"], ack
        current = state(server, local["match"])
    thinking_still = state(server, thinker["match"])["version"] == 1
    sio.disconnect()
    # The computer thought through the whole measurement; had its search run on the event loop, some
    # move would have waited for the whole 1.5 s budget.
    assert thinking_still
    assert max(latencies) < 0.75, latencies
    wait_until(lambda: state(server, thinker["match"])["version"] >= 2, 30, "the computer's move")


def test_a_worker_killed_mid_search_is_replaced_and_the_move_arrives(server):
    match = post(server, "/api/matches", {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 3}}).json()
    post(server, f"/api/matches/{match['match']}/moves", {"move": "down"}, match["token"])
    wait_until(lambda: workers_of(server), 20, "a worker process")
    time.sleep(0.5)
    for pid in workers_of(server):
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: state(server, match["match"])["version"] >= 2, 60, "the retried move")
    assert "computer worker failed" in server.log_path.read_text()
