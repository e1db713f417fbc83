"""Several app processes on a real PostgreSQL and Redis, with nginx in front (tests/cluster/conftest.py).

Players notice nothing: a move made through one process reaches watchers on another; a race across
processes gives one success; no process serves a state older than an acknowledged move; presence counts
every process's clients, and a dead process's go within seconds; budgets hold per address over processes;
the computer's seat survives the death of the process that drove it; a SIGKILLed process loses no
acknowledged move, and neither does a rolling restart under load."""
from __future__ import annotations

import json
import threading
import time

import pytest
import requests
import socketio

from tests.cluster.conftest import in_another_process
from tests.cluster.players import play
from tests.conftest import wait_until

pytestmark = pytest.mark.cluster


def client(url: str, match: str | None = None, token: str | None = None, events: list | None = None,
           presence: list | None = None, reconnection: bool = False) -> socketio.Client:
    sio = socketio.Client(reconnection=reconnection, reconnection_delay=0.2, reconnection_delay_max=1)
    if events is not None:
        sio.on("state", events.append)
    if presence is not None:
        sio.on("presence", presence.append)
    sio.connect(url, transports=["websocket"], wait_timeout=10)
    if match:
        ack = sio.call("watch", {"match": match, "token": token}, timeout=10)
        assert ack["ok"], ack
    return sio


def online_match(url: str, **body) -> tuple[str, str, str]:
    created = requests.post(f"{url}/api/matches", json={"game": "trails", "mode": "online", **body}).json()
    second = requests.post(f"{url}/api/matches/{created['match']}/seats",
                           json={"invite": created["invite_secret"]}).json()
    return created["match"], created["token"], second["token"]


def move(url: str, match: str, token: str, version: int | None = None) -> requests.Response:
    state = requests.get(f"{url}/api/matches/{match}").json()
    return requests.post(f"{url}/api/matches/{match}/moves", headers={"Authorization": f"Bearer {token}"},
                         json={"move": state["legal"][0], "version": state["version"] if version is None else version})


def test_the_cluster_answers_through_nginx_and_each_process_says_who_it_is(make_cluster):
    cluster = make_cluster(3)
    pids = {app.pid for app in cluster.apps}
    for app in cluster.apps:
        health = requests.get(f"{app.url}/api/health").json()
        assert health == {"ok": True, "process": app.pid, "database": "postgresql", "queue": "redis"}
    seen = {requests.get(f"{cluster.url}/api/health").json()["process"] for _ in range(30)}
    assert seen <= pids and len(seen) >= 2  # nginx spreads requests over the processes
    description = json.loads((cluster.data / "cluster.json").read_text())
    assert [p["pid"] for p in description["processes"]] == [app.pid for app in cluster.apps]
    assert requests.get(cluster.url + "/").status_code == 200


def test_a_watcher_on_one_process_sees_a_move_made_through_another(make_cluster):
    cluster = make_cluster(3)
    one, two, three = (app.url for app in cluster.apps)
    match, blue, red = online_match(one)
    seen = []
    watcher = client(three, match, events=seen)
    player = client(two, match, blue)
    try:
        state = requests.get(f"{one}/api/matches/{match}").json()
        started = time.perf_counter()
        ack = player.call("move", {"match": match, "token": blue, "move": state["legal"][0], "version": 0}, timeout=10)
        assert ack == {"ok": True, "version": 1}
        wait_until(lambda: any(s["version"] == 1 for s in seen), 5, "the watcher on another process to hear it")
        assert time.perf_counter() - started < 1.0  # at once
        assert move(one, match, red).status_code == 200  # over HTTP through a third process
        wait_until(lambda: any(s["version"] == 2 for s in seen), 5, "the watcher to hear the HTTP move")
        assert [s["version"] for s in seen] == [1, 2]
    finally:
        watcher.disconnect()
        player.disconnect()


def test_two_processes_racing_on_one_match_give_one_success_and_one_stale_version(make_cluster):
    cluster = make_cluster(2)
    one, two = (app.url for app in cluster.apps)
    for _ in range(10):
        created = requests.post(f"{one}/api/matches", json={"game": "trails", "mode": "local"}).json()
        match, token = created["match"], created["token"]
        for url in (one, two):  # both processes cache the match at version 0
            legal = requests.get(f"{url}/api/matches/{match}").json()["legal"]
        answers, barrier = [], threading.Barrier(2)

        def race(url, chosen):
            barrier.wait()
            answers.append(requests.post(f"{url}/api/matches/{match}/moves", json={"move": chosen, "version": 0},
                                         headers={"Authorization": f"Bearer {token}"}))
        threads = [threading.Thread(target=race, args=(url, chosen)) for url, chosen in ((one, legal[0]), (two, legal[-1]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(r.status_code for r in answers) == [200, 409]
        assert [r.json()["error"] for r in answers if r.status_code == 409] == ["stale-version"]
        winner = next(r.json() for r in answers if r.status_code == 200)
        for url in (one, two):
            assert requests.get(f"{url}/api/matches/{match}").json()["moves"] == winner["moves"]


def test_no_process_serves_a_state_older_than_a_move_another_acknowledged(make_cluster):
    cluster = make_cluster(3)
    urls = [app.url for app in cluster.apps]
    match, blue, red = online_match(urls[0])
    tokens = {1: blue, 2: red}
    for url in urls:  # every process caches the match
        requests.get(f"{url}/api/matches/{match}")
    version = 0
    for i in range(30):
        here = urls[i % 3]
        state = requests.get(f"{here}/api/matches/{match}").json()
        if state["outcome"] is not None:
            break
        answer = move(here, match, tokens[state["turn"]])
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        for url in urls:  # right after the acknowledgement, every process serves it
            seen = requests.get(f"{url}/api/matches/{match}").json()
            assert seen["version"] == version and seen["moves"] == answer.json()["moves"]
    assert version >= 10


def test_presence_counts_every_processs_clients_and_forgets_a_dead_one(make_cluster):
    cluster = make_cluster(3, settings={"DISCONNECT_TIMEOUT": 4.0})
    one, two, three = cluster.apps
    match, blue, red = online_match(one.url)
    updates, states = [], []
    spectators = [client(one.url, match), client(two.url, match)]
    player_blue = client(one.url, match, blue)
    player_red = client(three.url, match, red, events=states, presence=updates)
    try:
        wait_until(lambda: updates and updates[-1]["online"] == [1, 2] and updates[-1]["spectators"] == 2, 10,
                   "presence over three processes")
        summary = requests.get(f"{two.url}/api/matches/{match}").json()
        assert summary["away"] == []
        one.kill()  # blue's socket and a spectator go with their process, without a goodbye
        wait_until(lambda: updates[-1]["online"] == [2] and updates[-1]["spectators"] == 1, 15,
                   "the dead process's clients to vanish")
        away = requests.get(f"{two.url}/api/matches/{match}").json()["away"]
        assert [entry["seat"] for entry in away] == [1]
        # The disconnect timeout's announcement fires once, though two live processes serve the match.
        wait_until(lambda: any(s["away"] and s["away"][0]["claimable_in"] == 0 for s in states), 15,
                   "the disconnect timeout's announcement")
        time.sleep(1.5)
        announced = [s for s in states if s["away"] and s["away"][0]["claimable_in"] == 0]
        assert len(announced) == 1
        claim = player_red.call("timeout", {"match": match, "token": red, "result": "win"}, timeout=10)
        assert claim["ok"], claim
    finally:
        for sio in spectators + [player_blue, player_red]:
            sio.disconnect()


def test_budgets_per_address_hold_across_processes(make_cluster):
    cluster = make_cluster(2, settings={"HTTP_RATE": "40 per minute"})
    answers = [requests.get(f"{cluster.apps[i % 2].url}/api/games").status_code for i in range(60)]
    assert answers.count(200) == 40 and answers.count(429) == 20


def test_a_computer_seat_survives_the_death_of_the_process_that_drove_it(make_cluster):
    cluster = make_cluster(2)
    one, two = cluster.apps
    created = requests.post(f"{one.url}/api/matches", json={"game": "towers", "mode": "ai",
                                                            "ai": {"seats": [2], "level": 3}}).json()
    match, token = created["match"], created["token"]
    seen = []
    watcher = client(two.url, match, events=seen)
    try:
        for turn in range(2):
            driver = one if turn == 0 else two
            state = requests.get(f"{driver.url}/api/matches/{match}").json()
            while state["turn"] == 1:  # the person's whole turn, through the process that will drive the computer
                answer = requests.post(f"{driver.url}/api/matches/{match}/moves",
                                       headers={"Authorization": f"Bearer {token}"},
                                       json={"move": state["legal"][0], "version": state["version"]})
                assert answer.status_code == 200, answer.text
                state = answer.json()
            if turn == 0:
                one.kill()  # the driver dies while level 3 thinks (up to 1.5 s)
                died = time.time()
            version = state["version"]
            wait_until(lambda: seen and seen[-1]["version"] > version and seen[-1]["turn"] == 1, 30,
                       "the computer's move after its driver died" if turn == 0 else "the computer's move")
        assert time.time() - died < 30
        record = requests.get(f"{two.url}/api/matches/{match}/record").json()
        movers = [e["seat"] for e in record["events"] if e["kind"] == "move"]
        assert 2 in movers and len(record["events"]) == record["version"]  # one event per version: one driver
    finally:
        watcher.disconnect()


def acknowledged_moves_are_all_there(url: str, logs: dict) -> int:
    """Every move a player saw acknowledged is in its match's record, at its version, once."""
    checked = 0
    for match, acknowledged in logs.items():
        record = requests.get(f"{url}/api/matches/{match}/record").json()
        by_version = {e["seq"]: e for e in record["events"]}
        assert len(by_version) == len(record["events"]) == record["version"]
        for version, chosen in acknowledged:
            event = by_version.get(version)
            assert event is not None and event["kind"] == "move" and event["move"] == chosen, (match, version)
            checked += 1
    return checked


def test_a_sigkilled_process_loses_no_acknowledged_move(make_cluster):
    cluster = make_cluster(3)
    players = in_another_process(play, cluster.url, 30, 14.0)
    time.sleep(6)
    cluster.apps[1].kill()
    result = players.result()
    assert result["reconnects"] > 0 and result["accepted"] > 200
    assert set(result["refused"]) <= {"stale-version"}, result["refused"]
    assert acknowledged_moves_are_all_there(cluster.url, result["logs"]) == result["accepted"]


def test_a_rolling_restart_under_load_loses_no_move_and_shows_no_error(make_cluster):
    cluster = make_cluster(3)
    players = in_another_process(play, cluster.url, 100, 30.0)
    time.sleep(5)
    for app in cluster.apps:  # one at a time, each back before the next goes
        app.restart()
        time.sleep(3)
    result = players.result(240)
    assert result["reconnects"] > 0 and result["accepted"] > 1000, {k: v for k, v in result.items() if k != "logs"}
    # A move in flight when its process stopped is played again from the state the server holds: the
    # version it carries makes a second attempt of a move that did go through a stale-version, never a double.
    assert set(result["refused"]) <= {"stale-version"}, result["refused"]
    assert sum(result["refused"].values()) <= result["lost_acks"] + result["reconnects"]
    assert acknowledged_moves_are_all_there(cluster.url, result["logs"]) == result["accepted"]
