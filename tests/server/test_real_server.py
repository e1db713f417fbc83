"""A real server process (under gevent and under eventlet), driven by python-socketio clients and HTTP."""
from __future__ import annotations

import json
import random
import threading

import pytest
import requests
import socketio

from tests.support.clients import RawSocket
from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server


def client(server, token=None, match=None):
    """A connected Socket.IO client; if `match` is given it watches it (with `token` if any)."""
    sio = socketio.Client(reconnection=False)
    sio.connect(server.url, transports=["websocket"], wait_timeout=10)
    if match:
        ack = sio.call("watch", {"match": match, "token": token}, timeout=10)
        assert ack["ok"], ack
    return sio


def watching(server, match, token=None) -> RawSocket:
    """A socket that watches `match`, reading the server's events in the order they came off the wire (a
    python-socketio client runs each event's handler on a thread of its own: its handlers may see two STATEs
    that came close together in either order)."""
    sock = RawSocket(server.url)
    ack = sock.call("watch", {"match": match, "token": token})
    assert ack["ok"], ack
    return sock


def test_two_players_and_a_spectator_play_a_whole_game(server):
    created = requests.post(f"{server.url}/api/matches", json={"game": "trails", "mode": "online"}).json()
    match = created["match"]
    blue = watching(server, match, created["token"])
    red = RawSocket(server.url)
    claimed = red.call("claim", {"match": match, "player": "Red", "invite": created["invite_secret"]})
    assert claimed["ok"] and claimed["seat"] == 2
    assert red.call("watch", {"match": match, "token": claimed["token"]})["ok"]
    watcher = watching(server, match)
    tokens = {1: (blue, created["token"]), 2: (red, claimed["token"])}

    rng = random.Random(7)
    state = requests.get(f"{server.url}/api/matches/{match}").json()
    while state["outcome"] is None:
        sock, token = tokens[state["turn"]]
        ack = sock.call("move", {"match": match, "token": token, "move": rng.choice(state["legal"]),
                                 "version": state["version"]})
        assert ack["ok"], ack
        state = watcher.wait_event("state", lambda s: s["version"] == ack["version"])

    final = requests.get(f"{server.url}/api/matches/{match}").json()
    assert final == state and final["outcome"]["winners"]
    for sock in (blue, red, watcher):  # everyone heard every version, in order
        sock.wait_event("state", lambda s: s["version"] == final["version"])
        versions = [payload["version"] for event, payload in sock.events if event == "state"]
        assert versions == sorted(versions) and versions[-1] == final["version"]
        assert set(range(1, final["version"] + 1)) <= set(versions)
        sock.close()


def test_racing_clients_get_one_success(server):
    created = requests.post(f"{server.url}/api/matches", json={"game": "trails", "mode": "local"}).json()
    match, token = created["match"], created["token"]
    clients = [client(server) for _ in range(6)]
    barrier = threading.Barrier(len(clients))
    answers = []

    def race(sio, move):
        barrier.wait()
        answers.append(sio.call("move", {"match": match, "token": token, "move": move, "version": 0}, timeout=10))

    threads = [threading.Thread(target=race, args=(sio, ["right", "down"][i % 2])) for i, sio in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(a["ok"] for a in answers) == 1
    assert {a["error"] for a in answers if not a["ok"]} == {"stale-version"}
    assert len(requests.get(f"{server.url}/api/matches/{match}").json()["moves"]) == 1
    for sio in clients:
        sio.disconnect()


@pytest.mark.parametrize("async_mode", ASYNC_MODES)
def test_every_acknowledged_move_survives_sigkill(tmp_path, async_mode):
    proc = ServerProcess(tmp_path / "crash.db", async_mode).start()
    matches = []
    for size in (7, 9, 11):
        created = requests.post(f"{proc.url}/api/matches", json={"game": "trails", "mode": "local",
                                                                 "options": {"size": size}}).json()
        matches.append(created)
    acknowledged = {}
    rng = random.Random(size)
    for _ in range(12):
        for created in matches:
            state = requests.get(f"{proc.url}/api/matches/{created['match']}").json()
            if state["outcome"]:
                continue
            answer = requests.post(f"{proc.url}/api/matches/{created['match']}/moves",
                                   json={"move": rng.choice(state["legal"])},
                                   headers={"Authorization": f"Bearer {created['token']}"})
            assert answer.status_code == 200
            acknowledged[created["match"]] = answer.json()
    proc.kill()

    again = ServerProcess(tmp_path / "crash.db", async_mode, port=proc.port).start()
    for match, state in acknowledged.items():
        assert requests.get(f"{again.url}/api/matches/{match}").json() == state
    created = matches[0]
    live = requests.get(f"{again.url}/api/matches/{created['match']}").json()
    if live["outcome"] is None:  # the old tokens still hold their seats after the restart
        answer = requests.post(f"{again.url}/api/matches/{created['match']}/moves", json={"move": live["legal"][0]},
                               headers={"Authorization": f"Bearer {created['token']}"})
        assert answer.status_code == 200
    assert again.stop() == 0


def test_sigterm_stops_the_server_cleanly(server):
    code = server.stop()
    log = server.log_path.read_text()
    assert code == 0, log
    assert "Quadrille stopped" in log


BUSY_SETTINGS = {"SOCKET_PLAYER_EVENTS": "100000 per 20 seconds", "SOCKET_ADDRESS_EVENTS": "100000 per 20 seconds"}


@pytest.mark.parametrize("async_mode", ASYNC_MODES)
def test_sigterm_stops_a_busy_server_cleanly(tmp_path, async_mode):
    """A SIGTERM that comes while sockets' handlers run, not the main loop, stops the server all the same. Under
    eventlet it once landed in whichever handler ran, which logged it as its own error, and the server served
    on until it was killed."""
    proc = ServerProcess(tmp_path / "busy.db", async_mode, settings=BUSY_SETTINGS).start()
    match = requests.post(f"{proc.url}/api/matches", json={"game": "trails", "mode": "online"}).json()["match"]
    sockets = [RawSocket(proc.url) for _ in range(4)]
    for sock in sockets:  # work queued for a second or so of the server's handlers
        for _ in range(400):
            sock.emit("watch", {"match": match})
    assert sockets[0].wait_answer(20)["ok"]  # under way
    code = proc.stop()
    for sock in sockets:
        sock.close()
    log = proc.log_path.read_text()
    assert code == 0, log[-3000:]
    assert "Quadrille stopped" in log and "KeyboardInterrupt" not in log, log[-3000:]


def test_an_oversized_socket_message_is_refused_and_changes_nothing(server):
    created = requests.post(f"{server.url}/api/matches", json={"game": "trails", "mode": "local"}).json()
    big = client(server)
    try:
        big.call("move", {"match": created["match"], "token": created["token"], "move": "x" * 200_000}, timeout=3)
    except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError,
            socketio.exceptions.DisconnectedError):
        pass
    wait_until(lambda: not big.connected, 5, "the server to drop the connection")
    state = requests.get(f"{server.url}/api/matches/{created['match']}").json()
    assert state["version"] == 0
    fine = client(server, created["token"], created["match"])
    assert fine.call("move", {"match": created["match"], "token": created["token"], "move": "right"})["ok"]
    fine.disconnect()


def test_nothing_a_client_sends_causes_a_server_error(server):
    created = requests.post(f"{server.url}/api/matches", json={"game": "trails"}).json()
    match = created["match"]
    rng = random.Random(3)
    junk = ['', '{', 'null', '[]', '"x"', '{"move": {}}', '{"game": 1}', json.dumps({"to": -5}),
            json.dumps({"move": "up", "version": 10**30}), json.dumps({"options": {"size": 10**40}}),
            "\x00\xff", json.dumps({"seat": 99}), json.dumps({"name": "x" * 1000})]
    paths = ["/api/matches", "/api/matches/by-name", "/api/matches/import", f"/api/matches/{match}/moves",
             f"/api/matches/{match}/seats", f"/api/matches/{match}/rewind", f"/api/matches/{match}/resign",
             f"/api/matches/{match}/start", f"/api/matches/{match}/takeback", "/api/games/trails/check",
             f"/api/matches/{match}/positions/999", "/api/matches/%00/moves"]
    for path in paths:
        for body in junk:
            headers = {"Content-Type": rng.choice(["application/json", "text/plain"])}
            if rng.random() < 0.5:
                headers["Authorization"] = rng.choice(["Bearer ", "Bearer x", f"Bearer {created['token']}", "Basic a"])
            response = requests.post(f"{server.url}{path}", data=body.encode("utf-8", "surrogatepass"),
                                     headers=headers)
            assert response.status_code < 500, (path, body, response.text)
            assert "error" in response.json() or response.status_code < 300
    assert requests.get(f"{server.url}/api/matches/{match}").json()["version"] <= 1
