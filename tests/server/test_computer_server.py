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


def cpu_seconds(pids: list[int]) -> float:
    """The processor time these processes have used (/proc/<pid>/stat: utime + stime)."""
    ticks = 0
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def an_idle_worker(server) -> tuple[list[int], float]:
    """The pool's worker processes after a level-1 reply in a match of its own: started, done with their
    imports and waiting on their sockets (an idle worker uses no processor time); and their processor time."""
    warm = post(server, "/api/matches", {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 1}}).json()
    post(server, f"/api/matches/{warm['match']}/moves", {"move": "right"}, warm["token"])
    wait_until(lambda: state(server, warm["match"])["version"] >= 2, 60, "the warm-up reply")
    workers = workers_of(server)
    return workers, cpu_seconds(workers)


def wait_for_the_search(workers: list[int], idle: float) -> None:
    """A worker is searching: the idle workers have used processor time since (a few clock ticks: an idle one
    uses none, and a loaded machine may give a search little)."""
    wait_until(lambda: cpu_seconds(workers) >= idle + 0.03, 30, "the search to be under way")


def test_other_matches_keep_their_latency_while_level_3_thinks(server):
    workers, idle = an_idle_worker(server)
    thinker = post(server, "/api/matches", {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 3}}).json()
    local = post(server, "/api/matches", {"game": "trails", "mode": "local", "options": {"size": 25}}).json()
    sio = socketio.Client(reconnection=False)
    sio.connect(server.url, transports=["websocket"])
    sio.call("watch", {"match": local["match"], "token": local["token"]})

    post(server, f"/api/matches/{thinker['match']}/moves", {"move": "right"}, thinker["token"])
    wait_for_the_search(workers, idle)  # (level 3 thinks for its whole budget on an open board)
    assert state(server, thinker["match"])["version"] == 1

    # Moves in another match for as long as the computer thinks (at most 20): had its search run on the event
    # loop, some move would have waited for the whole 1.5 s budget.
    latencies, current = [], state(server, local["match"])
    for i in range(20):
        if state(server, thinker["match"])["version"] != 1:
            break
        started = time.perf_counter()
        if current["outcome"]:  # start the local game again; a rewind is a decision like a move
            ack = sio.call("rewind", {"match": local["match"], "token": local["token"], "to": 0})
        else:
            move = current["legal"][i % len(current["legal"])]
            ack = sio.call("move", {"match": local["match"], "token": local["token"], "move": move})
        latencies.append(time.perf_counter() - started)
        assert ack["ok"], ack
        current = state(server, local["match"])
    sio.disconnect()
    assert len(latencies) >= 5, latencies        # several moves were made while it thought
    assert max(latencies) < 0.75, latencies
    wait_until(lambda: state(server, thinker["match"])["version"] >= 2, 30, "the computer's move")


def test_a_worker_killed_mid_search_is_replaced_and_the_move_arrives(server):
    workers, idle = an_idle_worker(server)
    match = post(server, "/api/matches", {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 3}}).json()
    post(server, f"/api/matches/{match['match']}/moves", {"move": "down"}, match["token"])
    wait_for_the_search(workers, idle)
    for pid in workers_of(server):
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: state(server, match["match"])["version"] >= 2, 60, "the retried move")
    assert "computer worker failed" in server.log_path.read_text()
