"""The Socket.IO events of /api/asyncapi.json against real messages: python-socketio clients play a real match
on a real server (claim, watch, moves, a refusal, a position, an offer declined, the end, a rematch), and a
logged-in page's inbox hears a challenge; every acknowledgement and every event the server sent is validated
(jsonschema) against the document's schema for it, and every event of the document is seen at least once."""
from __future__ import annotations

import random

import jsonschema
import pytest
import requests
import socketio

from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server


@pytest.fixture(params=["gevent", "eventlet"])
def server(request, tmp_path):
    proc = ServerProcess(tmp_path / "events.db", request.param).start()
    yield proc
    proc.stop()


class Recorder:
    """A socket that keeps what it sent and was answered, and every event the server sent it."""

    def __init__(self, server, log: list, cookie: str | None = None, auth: dict | None = None):
        self.sio, self.log, self.heard = socketio.Client(reconnection=False), log, []
        self.sio.on("*", lambda event, data: self.heard.append((event, data)) or log.append(("event", event, data)))
        self.sio.on("connect_error", lambda data: log.append(("event", "connect_error", data)))
        headers = {"Cookie": cookie} if cookie else {}
        self.sio.connect(server.url, transports=["websocket"], headers=headers, auth=auth, wait_timeout=10)

    def call(self, event: str, payload: dict) -> dict:
        answer = self.sio.call(event, payload, timeout=10)
        self.log.append(("ack", event, payload, answer))
        return answer

    def states(self) -> list:
        return [data for event, data in self.heard if event == "state"]


def validator(document: dict, pointer: str):
    """A JSON Schema (2020-12) validator of the message at `pointer`, whose references resolve in the document."""
    return jsonschema.Draft202012Validator({**document, "$ref": pointer})


def message(name: str) -> str:
    return f"#/channels/socket/messages/{name}/payload"


def play_a_match(server, log: list) -> None:
    created = requests.post(f"{server.url}/api/matches", json={"game": "trails", "options": {"size": 5}}).json()
    match, tokens = created["match"], {1: created["token"]}
    ann, bob = Recorder(server, log), Recorder(server, log)
    assert ann.call("watch", {"match": match, "token": tokens[1]})["ok"]
    claimed = bob.call("claim", {"match": match, "invite": created["invite_secret"], "player": "Bob"})
    tokens[2] = claimed["token"]
    assert bob.call("watch", {"match": match, "token": tokens[2]})["you"]["seats"] == [2]
    sockets, rng = {1: ann, 2: bob}, random.Random(25)
    state = requests.get(f"{server.url}/api/matches/{match}").json()
    assert not ann.call("move", {"match": match, "token": tokens[2], "move": state["legal"][0]})["ok"]  # not hers
    assert not ann.call("fly", {"match": match})["ok"]
    offered = False
    while state["outcome"] is None:
        turn = state["turn"]
        ack = sockets[turn].call("move", {"match": match, "token": tokens[turn], "move": rng.choice(state["legal"]),
                                          "version": state["version"]})
        assert ack["ok"], ack
        if not offered and ack["version"] >= 2:
            offered = True
            assert sockets[turn].call("offer", {"match": match, "token": tokens[turn], "offer": "takeback"})["ok"]
            other = 3 - turn
            assert sockets[other].call("decline", {"match": match, "token": tokens[other], "offer": "takeback"})["ok"]
        state = requests.get(f"{server.url}/api/matches/{match}").json()
    assert ann.call("position", {"match": match, "ply": 1})["ok"]
    assert ann.call("rematch", {"match": match, "token": tokens[1]})["ok"]
    assert bob.call("rematch", {"match": match, "token": tokens[2]})["ok"]
    wait_until(lambda: any(event == "rematch" for event, _ in ann.heard), 10, "the rematch event")
    wait_until(lambda: any(event == "presence" for event, _ in bob.heard), 10, "a presence event")
    wait_until(lambda: ann.states() and ann.states()[-1]["outcome"] is not None, 10, "the last STATE")
    for sock in (ann, bob):
        sock.sio.disconnect()


def hear_a_challenge(server, log: list) -> None:
    ann_http = requests.Session()
    made = ann_http.post(f"{server.url}/api/account", json={"name": "ann", "password": "correct horse"})
    assert made.status_code == 201
    bob = requests.Session()
    bob_made = bob.post(f"{server.url}/api/account", json={"name": "bob", "password": "correct horse"})
    cookie = "; ".join(f"{c.name}={c.value}" for c in ann_http.cookies)
    page = Recorder(server, log, cookie)
    assert page.call("inbox", {})["ok"]
    assert not Recorder(server, log).call("inbox", {})["ok"]  # no session: login-required
    sent = bob.post(f"{server.url}/api/challenges", json={"to": "ann", "game": "towers"},
                    headers={"X-CSRFToken": bob_made.json()["csrf"]})
    assert sent.status_code == 201, sent.text
    wait_until(lambda: any(event == "challenge" for event, _ in page.heard), 10, "the challenge event")
    page.sio.disconnect()
    hear_a_challenge_as_a_bot(server, log, bob, bob_made.json()["csrf"])


def hear_a_challenge_as_a_bot(server, log: list, challenger: requests.Session, csrf: str) -> None:
    """A bot's socket: its API token in the handshake (`auth`), `inbox` without a token; and a wrong token's
    refused handshake (`connect_error`)."""
    requests.post(f"{server.url}/api/account", json={"name": "randombot", "password": "bot password"})
    token = requests.post(f"{server.url}/api/account/tokens",
                          json={"name": "randombot", "password": "bot password"}).json()["token"]
    bot = Recorder(server, log, auth={"token": token})
    assert bot.call("inbox", {})["ok"]
    sent = challenger.post(f"{server.url}/api/challenges", json={"to": "randombot", "game": "gamma"},
                           headers={"X-CSRFToken": csrf})
    assert sent.status_code == 201, sent.text
    wait_until(lambda: any(event == "challenge" for event, _ in bot.heard), 10, "the bot's challenge event")
    bot.sio.disconnect()
    with pytest.raises(socketio.exceptions.ConnectionError):
        Recorder(server, log, auth={"token": "qbt_" + "x" * 32})
    assert log[-1][:2] == ("event", "connect_error") and log[-1][2]["data"]["error"] == "bad-token"


def test_real_messages_match_the_asyncapi_document(server):
    document = requests.get(f"{server.url}/api/asyncapi.json").json()
    log: list = []
    play_a_match(server, log)
    hear_a_challenge(server, log)
    acknowledged, heard = set(), set()
    for entry in log:
        if entry[0] == "ack":
            _, event, payload, answer = entry
            if event in document["operations"]:
                validator(document, message(f"emit.{event}")).validate(payload)
                validator(document, message(f"emit.{event}.ack")).validate(answer)
                acknowledged.add(event)
            else:  # an event the server does not know is refused all the same
                validator(document, "#/components/schemas/Refusal").validate(answer)
                assert answer["error"] == "unknown-event"
        else:
            _, event, data = entry
            validator(document, message(f"hear.{event}")).validate(data)
            heard.add(event)
    assert {"watch", "claim", "move", "offer", "decline", "position", "rematch", "inbox"} <= acknowledged
    assert heard == {"state", "presence", "rematch", "challenge", "connect_error"}


def test_a_message_that_breaks_the_schema_is_caught(server):
    """The validators are not vacuous: a STATE without its version, an acknowledgement of neither shape."""
    document = requests.get(f"{server.url}/api/asyncapi.json").json()
    state = requests.get(f"{server.url}/api/matches/nothere").json()
    assert state["error"] == "not-found"
    with pytest.raises(jsonschema.ValidationError):
        validator(document, message("hear.state")).validate({"match": "x", "game": "trails"})
    with pytest.raises(jsonschema.ValidationError):
        validator(document, message("emit.move.ack")).validate({"ok": True})
    validator(document, message("emit.move.ack")).validate({"ok": False, "error": "game-over", "reason": "It is over."})


def test_engine_io_4_clients_are_served_and_engine_io_3_clients_refused(server):
    """docs/api.md: socket.io-client 3.x and 4.x and python-socketio 5.x (Socket.IO v5 over Engine.IO v4) are
    supported; a socket.io-client 2.x speaks Engine.IO v3 and is refused at the handshake."""
    old = requests.get(f"{server.url}/socket.io/", params={"EIO": 3, "transport": "polling"}, timeout=10)
    assert old.status_code == 400 and "unsupported version" in old.text
    new = requests.get(f"{server.url}/socket.io/", params={"EIO": 4, "transport": "polling"}, timeout=10)
    assert new.status_code == 200 and new.text.startswith("0{") and '"upgrades":["websocket"]' in new.text
