"""Floods over Socket.IO: each must cost the flooder its budget, and nobody else their latency."""
from __future__ import annotations

import time

import websocket

import pytest

from tests.support.clients import ATTACKER, SETUP, RawSocket, Refused, request
from tests.security.conftest import WORST_ROUND_TRIP_MS, log_of, run_attack, tracebacks
from tests.support.waiting import wait_until

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = pytest.mark.alone


def new_match(url, body=None, address=SETUP) -> dict:
    status, _, created = request(url, "POST", "/api/matches", body or {"game": "trails", "mode": "online"},
                                 address=address)
    assert status == 201, created
    return created


def flood(url: str, address: str, frames: list, settle: float = 2.0, match: str | None = None) -> dict:
    """Send `frames` as fast as the socket takes them (events, or raw frames), then count the answers."""
    sock = RawSocket(url, address)
    if match:
        sock.call("watch", {"match": match})
    started = time.monotonic()
    ids = []
    for frame in frames:
        if isinstance(frame, tuple):
            ids.append(sock.emit(*frame))
        else:
            sock.send_raw(frame)
    sent = time.monotonic() - started
    errors, closed = {}, False
    try:
        for id in ids:
            answer = sock.wait_answer(id, timeout=15)
            word = "ok" if answer.get("ok") else answer.get("error")
            errors[word] = errors.get(word, 0) + 1
        sock.drain(settle)
    except (ConnectionError, websocket.WebSocketException):
        closed = True  # the server closed a socket that kept sending over its budget
    sock.close()
    return {"answers": errors, "closed": closed, "sent_in": sent, "events": len(sock.events)}


def test_a_watch_flood_is_refused_and_presence_is_coalesced(target, victim):
    match = new_match(target.url)["match"]
    observer = RawSocket(target.url, SETUP)
    observer.call("watch", {"match": match})
    observer.drain(0.5)
    observer.events.clear()

    result = run_attack(victim, flood, target.url, ATTACKER, [("watch", {"match": match})] * 3000)
    # 60 per 20 s for a spectator, 2 each: 30 answered, the rest refused until the socket is closed.
    assert result["answers"].get("ok", 0) <= 31 and result["answers"].get("rate-limited", 0) >= 40, result
    assert result["closed"], result
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips

    observer.drain(1.0)
    presence = [e for e in observer.events if e[0] == "presence"]
    # One announcement per match per 0.25 s at most: the flood lasted a few seconds at most.
    assert 1 <= len(presence) <= 20, len(presence)
    observer.close()


def test_a_socket_that_keeps_flooding_is_closed(target, victim):
    match = new_match(target.url)["match"]
    result = run_attack(victim, flood, target.url, ATTACKER, [("position", {"match": match, "ply": 0})] * 2000)
    assert result["closed"] and result["answers"].get("ok", 0) <= 61, result
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips


def test_position_calls_on_a_long_match_do_not_stall_anyone(target, victim):
    # The longest match the server accepts: a gamma record of skips up to the game's move limit.
    import games
    limit = games.get("gamma").move_limit(games.get("gamma").normalise({}))
    status, _, created = request(target.url, "POST", "/api/matches/import",
                                 {"game": "gamma", "options": {}, "moves": ["skip"] * limit}, address=SETUP)
    assert status == 201, created
    frames = [("position", {"match": created["match"], "ply": limit})] * 40
    result = run_attack(victim, flood, target.url, ATTACKER, frames)
    assert sum(result["answers"].values()) == 40, result
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips


def test_pause_floods_broadcast_nothing_when_nothing_changes(target, victim):
    created = new_match(target.url, {"game": "towers", "mode": "ai", "ai": {"seats": [1, 2], "level": 1}},
                        address=ATTACKER)
    watcher = RawSocket(target.url, SETUP)
    watcher.call("watch", {"match": created["match"]})
    pause = {"match": created["match"], "token": created["token"], "paused": True}
    assert watcher.call("pause", {**pause, "token": "not a token"})["error"] == "unauthorized"
    owner = RawSocket(target.url, ATTACKER)
    assert owner.call("pause", pause)["ok"]
    owner.close()
    watcher.drain(0.5)
    watcher.events.clear()
    result = run_attack(victim, flood, target.url, ATTACKER, [("pause", pause)] * 300)
    assert result["answers"].get("ok", 0) <= 20, result  # 100 per 20 s for a player, 5 each
    watcher.drain(0.5)
    states = [e for e in watcher.events if e[0] == "state"]
    assert states == [], f"{len(states)} STATEs broadcast for pauses that changed nothing"
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips
    watcher.close()


def open_many(url: str, address: str, count: int) -> dict:
    opened, refused, sockets = 0, 0, []
    for _ in range(count):
        try:
            sockets.append(RawSocket(url, address))
            opened += 1
        except Refused:
            refused += 1
    for sock in sockets:
        sock.close()
    return {"opened": opened, "refused": refused}


def test_one_address_cannot_open_endless_connections(target, victim):
    result = run_attack(victim, open_many, target.url, ATTACKER, 300)
    assert result["opened"] <= 100 and result["refused"] >= 200, result  # CONNECTIONS_PER_ADDRESS = 100
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips


def test_events_of_the_wrong_shape_are_answered_never_dispatched(target):
    created = new_match(target.url)
    player = RawSocket(target.url, SETUP)
    assert player.call("watch", {"match": created["match"], "token": created["token"]})["ok"]
    spy = RawSocket(target.url, SETUP)
    spy.call("watch", {"match": created["match"]})

    assert spy.call("disconnect", {"match": created["match"]})["error"] == "unknown-event"
    assert spy.call("no-such-event", {})["error"] == "unknown-event"
    two = spy.emit("move", {"match": created["match"]}, {"second": True})
    assert spy.wait_answer(two)["error"] == "bad-request"
    spy.send_raw(f'42{spy.next_id + 1}[["watch"], {{}}]')
    spy.next_id += 1
    assert spy.wait_answer(spy.next_id)["error"] == "bad-request"
    assert spy.call("watch", "a string")["error"] == "bad-request"
    assert spy.call("move", {"match": created["match"], "token": "x" * 200, "move": "right"})["error"] == "unauthorized"
    # A lone surrogate (JSON's "\\ud800", text no UTF-8 can hold) is refused where the packet is read.
    answer = spy.call("move", {"match": created["match"], "token": "\ud800", "move": "right"})
    assert answer["error"] == "bad-request", answer
    assert spy.call("computer", {"match": ["a", "list"], "token": created["token"], "seat": 2})["error"] == "not-found"
    # The player is still connected for everyone: a client's "disconnect" event ran nothing.
    presence = spy.call("watch", {"match": created["match"]})["presence"]
    assert presence["online"] == [1]
    player.close()
    spy.close()


def open_sockets(url: str) -> int:
    """The Engine.IO sessions the server holds (/api/health)."""
    return request(url, "GET", "/api/health")[2]["sockets"]


def test_malformed_frames_are_logged_once_per_socket_without_a_traceback(target):
    before = log_of(target)
    sockets = open_sockets(target.url)
    sock = RawSocket(target.url, SETUP)
    nested = "42" + "[" * 3000 + "]" * 3000
    for frame in [nested] * 100 + ["42[", "42[]", "4", '42[["a"],{}]', "42" + "1" * 120 + '["watch",{}]',
                                   b"\xff\x00binary junk"]:
        sock.send_raw(frame)
    try:  # junk costs the socket its budget: it is answered, or closed once it keeps on
        answer = sock.call("watch", {"match": "missing"})
        assert answer["error"] in ("not-found", "rate-limited"), answer
    except (ConnectionError, websocket.WebSocketException):
        pass
    sock.close()
    # the frames were handled in order before the answer above; the close too, once the server holds no more
    # sessions than before
    wait_until(lambda: open_sockets(target.url) <= sockets, 10, "the server to let the socket go")
    added = log_of(target)[len(before):]
    assert tracebacks(added) == 0, added[:3000]
    assert added.count("malformed Socket.IO packet") <= 1, added[:3000]
