"""Clocks on a real server process: a flag that falls with nobody connected (under gevent and eventlet), and a
server killed and started again that does not charge the clock that ran for the time it was down."""
from __future__ import annotations

import time

import pytest
import requests

from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.waiting import real_time_passes, wait_until

pytestmark = pytest.mark.server

SHORT = {"CLOCK_MINUTES_MIN": 0.02}  # a real-time clock of seconds, for tests


def begin(url, clock):
    """An online Trails match with a clock, both seats taken, the first move played: Red's clock runs."""
    created = requests.post(f"{url}/api/matches", json={"game": "trails", "mode": "online", "options": {"size": 7},
                                                        "clock": clock}).json()
    match = created["match"]
    red = requests.post(f"{url}/api/matches/{match}/seats", json={"invite": created["invite_secret"]}).json()
    state = requests.get(f"{url}/api/matches/{match}").json()
    moved = requests.post(f"{url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                          headers={"Authorization": f"Bearer {created['token']}"})
    assert moved.status_code == 200, moved.json()
    return match, created["token"], red["token"]


def beat_of(server) -> float | None:
    """The server's last heartbeat (clocks/store.py), read from its database."""
    from quadrille.clocks.store import ClockStore
    from quadrille.matches.store import Storage
    storage = Storage.open(str(server.db))
    try:
        return ClockStore(storage).last_beat()
    finally:
        storage.close()


def server_down_for(seconds: float) -> None:
    """Real time passes with no server running: what is tested is that the next server does not charge it, and
    a process that is not running has no clock to move."""
    real_time_passes(seconds, "a server that is down")


@pytest.mark.parametrize("mode", ASYNC_MODES)
def test_a_flag_falls_on_the_server_with_nobody_connected(tmp_path, mode):
    server = ServerProcess(tmp_path / "clocks.db", mode, settings=SHORT).start()
    try:
        match, _, _ = begin(server.url, {"kind": "realtime", "minutes": 0.05, "increment": 0})   # 3 s each
        state = requests.get(f"{server.url}/api/matches/{match}").json()
        assert state["clock"]["running"] == 2 and 2 < state["clock"]["left"][1] <= 3
        # nobody connected, nobody asks (the test reads the database, not the server): the server's timer decides
        from quadrille.matches.store import Storage
        storage = Storage.open(str(server.db))
        wait_until(lambda: any(e.kind == "flag" for e in storage.load_match(match).events), 10, "the flag in storage")
        storage.close()
        state = requests.get(f"{server.url}/api/matches/{match}").json()
        assert state["outcome"]["reason"] == "time" and state["outcome"]["winners"] == [1]
        assert state["clock"]["left"][1] == 0 and state["clock"]["running"] is None
        bad = requests.post(f"{server.url}/api/matches", json={"game": "trails", "clock": {"kind": "realtime"}})
        assert bad.status_code == 400 and bad.json()["error"] == "bad-clock"
    finally:
        server.stop()


def test_a_killed_server_does_not_charge_the_time_it_was_down(tmp_path):
    server = ServerProcess(tmp_path / "restart.db", "gevent", settings=SHORT).start()
    match, _, red = begin(server.url, {"kind": "realtime", "minutes": 1, "increment": 0})
    began = time.time()
    wait_until(lambda: (beat_of(server) or 0) > began, 10, "a heartbeat after Red's clock started")
    before = requests.get(f"{server.url}/api/matches/{match}").json()["clock"]["left"][1]
    killed = time.time()
    server.kill()                                  # a crash: no last word
    server_down_for(4.0)
    server = ServerProcess(server.db, "gevent", port=server.port, settings=SHORT).start()
    try:
        down = time.time() - killed
        after = requests.get(f"{server.url}/api/matches/{match}").json()
        assert after["outcome"] is None and after["clock"]["running"] == 2
        # charged at most up to the last heartbeat (CLOCK_BEAT, 1 s) and the moments since the restart
        assert after["clock"]["left"][1] > before - 2.5, (before, after["clock"], down)
        assert down > 4 and [e for e in after["moves"]] and after["version"] > 0
        record = requests.get(f"{server.url}/api/matches/{match}/record").json()
        credit = [e for e in record["events"] if e["kind"] == "clock"]
        assert len(credit) == 1 and credit[0]["credit"] >= 4
    finally:
        server.stop()
