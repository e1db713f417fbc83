"""The Socket.IO door through Flask-SocketIO's test client: acknowledgements and room broadcasts."""
from __future__ import annotations

import pytest

from quadrille import create_app
from tests.support.waiting import wait_until


pytestmark = pytest.mark.app_settings(PRESENCE_INTERVAL=0.01)  # the app of tests/platform/conftest.py


def connect(app):
    return app.extensions["socketio"].test_client(app)


def states(client):
    return [m["args"][0] for m in client.get_received() if m["name"] == "state"]


def test_watch_move_and_broadcast(app):
    created = app.extensions["quadrille"].create("trails", None, "online")
    match = created["match"]
    player, friend, watcher = connect(app), connect(app), connect(app)
    ack = player.emit("watch", {"match": match, "token": created["token"]}, callback=True)
    assert ack["ok"] and ack["you"]["seats"] == [1] and ack["state"]["version"] == 0
    refused = friend.emit("claim", {"match": match, "player": "Bo", "invite": "forged"}, callback=True)
    assert refused["ok"] is False and refused["error"] == "invite-required" and refused["reason"]
    claimed = friend.emit("claim", {"match": match, "player": "Bo", "invite": created["invite_secret"]}, callback=True)
    assert claimed["ok"] and claimed["seat"] == 2
    assert friend.emit("watch", {"match": match, "token": claimed["token"]}, callback=True)["you"]["seats"] == [2]
    seen = watcher.emit("watch", {"match": match}, callback=True)
    assert seen["you"]["seats"] == [] and seen["presence"] == {"match": match, "online": [1, 2], "spectators": 1,
                                                               "away": []}
    for client in (player, friend, watcher):
        client.get_received()

    assert player.emit("move", {"match": match, "token": created["token"], "move": "down"}, callback=True) == {
        "ok": True, "version": 1}
    for client in (player, friend, watcher):
        assert [s["version"] for s in states(client)] == [1]
    refused = friend.emit("move", {"match": match, "token": claimed["token"], "move": "down"}, callback=True)
    assert refused["ok"] is False and refused["error"] == "illegal-move" and refused["reason"]
    assert states(watcher) == []


@pytest.mark.parametrize("event, payload, word", [
    ("watch", {"match": "missing"}, "not-found"),
    ("watch", "a string", "bad-request"),
    ("watch", None, "bad-request"),
    ("move", {"match": "missing", "move": "up"}, "not-found"),
    ("move", [1, 2, 3], "bad-request"),
    ("claim", {"match": 12}, "not-found"),
    ("rewind", {"match": "missing", "to": 0}, "not-found"),
    ("position", {"match": "missing", "ply": 0}, "not-found"),
])
def test_bad_events_are_answered_not_raised(app, event, payload, word):
    client = connect(app)
    ack = client.emit(event, payload, callback=True)
    assert ack["ok"] is False and ack["error"] == word and ack["reason"]


def test_a_watcher_leaving_updates_presence(app):
    created = app.extensions["quadrille"].create("trails", None, "online")
    player, watcher = connect(app), connect(app)
    player.emit("watch", {"match": created["match"], "token": created["token"]}, callback=True)
    watcher.emit("watch", {"match": created["match"]}, callback=True)
    player.get_received()
    watcher.disconnect()
    seen = []

    def announced():  # announcements are coalesced: the room hears once the interval has passed
        seen.extend(m["args"][0] for m in player.get_received() if m["name"] == "presence")
        return bool(seen)
    wait_until(announced, timeout=5, what="a presence announcement")
    assert seen[-1] == {"match": created["match"], "online": [1], "spectators": 0, "away": []}


def test_local_decisions_and_positions_over_sockets(app):
    created = app.extensions["quadrille"].create("trails", None, "local")
    client = connect(app)
    base = {"match": created["match"], "token": created["token"]}
    client.emit("watch", base, callback=True)
    for move in ("right", "up", "right"):
        assert client.emit("move", {**base, "move": move}, callback=True)["ok"]
    assert client.emit("takeback", base, callback=True) == {"ok": True, "version": 4}
    assert client.emit("rewind", {**base, "to": 1}, callback=True) == {"ok": True, "version": 5}
    position = client.emit("position", {"match": created["match"], "ply": 0}, callback=True)
    assert position["ok"] and position["view"]["heads"] == [[0, 0], [10, 10]]
    assert states(client)[-1]["moves"] == ["right"]


def test_offers_abort_and_timeout_claims_over_sockets(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "life.db"), "PRESENCE_INTERVAL": 0.01, "DISCONNECT_TIMEOUT": 0.2})
    try:
        created = app.extensions["quadrille"].create("towers", None, "online")
        ann, bob = connect(app), connect(app)
        a = {"match": created["match"], "token": created["token"]}
        ann.emit("watch", a, callback=True)
        claimed = bob.emit("claim", {"match": created["match"], "invite": created["invite_secret"]}, callback=True)
        b = {"match": created["match"], "token": claimed["token"]}
        assert bob.emit("watch", b, callback=True)["state"]["started"]
        assert bob.emit("offer", {**b, "offer": "draw"}, callback=True)["error"] == "not-your-turn"
        assert ann.emit("offer", {**a, "offer": "draw"}, callback=True) == {"ok": True, "version": 1}
        assert ann.emit("accept", {**a, "offer": "draw"}, callback=True)["error"] == "own-offer"
        assert bob.emit("decline", {**b, "offer": "draw"}, callback=True) == {"ok": True, "version": 2}
        assert ann.emit("offer", {**a, "offer": "draw"}, callback=True)["error"] == "offer-declined"
        assert ann.emit("move", {**a, "move": "end"}, callback=True)["ok"]
        assert bob.emit("abort", b, callback=True)["ok"]  # Bob has not moved: he may still abort
        state = app.extensions["quadrille"].state(created["match"])
        assert state["outcome"]["reason"] == "aborted"
        assert ann.emit("timeout", a, callback=True)["error"] == "game-over"
    finally:
        app.extensions["quadrille.storage"].close()


def test_a_player_who_leaves_is_announced_and_claimable_after_the_timeout(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "away.db"), "PRESENCE_INTERVAL": 0.01, "DISCONNECT_TIMEOUT": 0.3})
    try:
        created = app.extensions["quadrille"].create("trails", None, "online")
        ann, bob = connect(app), connect(app)
        a = {"match": created["match"], "token": created["token"]}
        ann.emit("watch", a, callback=True)
        claimed = bob.emit("claim", {"match": created["match"], "invite": created["invite_secret"]}, callback=True)
        bob.emit("watch", {"match": created["match"], "token": claimed["token"]}, callback=True)
        ann.get_received()
        bob.disconnect()
        heard = []

        def claimable():  # the server's timer tells the room, without anyone asking
            heard.extend(m["args"][0] for m in ann.get_received() if m["name"] in ("presence", "state"))
            return any(entry["claimable_in"] == 0 for payload in heard for entry in payload.get("away", []))
        wait_until(claimable, timeout=5, what="the room to hear that Red may be claimed against")
        assert heard[0]["away"][0]["seat"] == 2  # "Red left the game", at once
        state = app.extensions["quadrille"].claim_win(created["match"], created["token"])
        assert state["outcome"]["winners"] == [1] and state["outcome"]["reason"] == "abandoned"
    finally:
        app.extensions["quadrille.storage"].close()
