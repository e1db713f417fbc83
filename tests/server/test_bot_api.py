"""The bots' API on a real server process (gevent and eventlet): an API token over Socket.IO (in the handshake
and in events) acts as its account and as nothing else, and the NDJSON streams carry a bot's events and its
game's STATEs as they happen, within their budgets."""
from __future__ import annotations

import time

import pytest
import requests
import socketio

from tests.support.bots import Lines, Person, bearer, bot_token
from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

SETTINGS = {"STREAM_KEEPALIVE": 0.5, "STREAM_RECHECK": 1.0, "STREAMS_PER_ACCOUNT": 3}


@pytest.fixture(params=ASYNC_MODES)
def server(request, tmp_path):
    proc = ServerProcess(tmp_path / "bots.db", request.param, settings=SETTINGS).start()
    yield proc
    proc.stop()


def challenged(server, ann: Person, to: str, **body) -> str:
    made = ann.post("/api/challenges", {"to": to, "game": "trails", "options": {"size": 5},
                                        "first": "challenger", **body})
    assert made.status_code == 201, made.text
    return made.json()["challenge"]


def connected(server, auth=None) -> socketio.Client:
    sio = socketio.Client(reconnection=False)
    sio.connect(server.url, transports=["websocket"], wait_timeout=10, auth=auth)
    return sio


def test_an_api_token_in_the_handshake_plays_its_accounts_seats_and_no_others(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    cid = challenged(server, ann, "robot")
    match = requests.post(f"{server.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
    heard = []
    bot = connected(server, {"token": token})
    bot.on("state", heard.append)
    try:
        watched = bot.call("watch", {"match": match}, timeout=10)
        assert watched["ok"] and watched["you"] == {"seats": [2]}
        # Not its turn: seat 1 is ann's, which the token cannot play.
        first = watched["state"]
        refused = bot.call("move", {"match": match, "move": first["legal"][0]}, timeout=10)
        assert refused["error"] == "not-your-turn"
        assert ann.move(match, first, first["legal"][0]).status_code == 200
        wait_until(lambda: heard and heard[-1]["version"] == 1, 10, "the bot to hear ann's move")
        moved = bot.call("move", {"match": match, "move": heard[-1]["legal"][0], "version": 1}, timeout=10)
        assert moved == {"ok": True, "version": 2}
        # Another match the account holds no seat of: its token holds nothing there.
        other = requests.post(f"{server.url}/api/matches", json={"game": "trails"}).json()
        assert bot.call("watch", {"match": other["match"]}, timeout=10)["you"] == {"seats": []}
        assert bot.call("resign", {"match": other["match"]}, timeout=10)["error"] == "unauthorized"
        # The event's own seat token wins over the handshake's.
        assert bot.call("watch", {"match": other["match"], "token": other["token"]}, timeout=10)["you"] == {
            "seats": [1]}
        # A revoked token: its next event is refused and changes nothing.
        tokens = requests.get(f"{server.url}/api/account/tokens", headers=bearer(token)).json()["tokens"]
        revoked = requests.post(f"{server.url}/api/account/tokens/{tokens[0]['id']}/revoke", headers=bearer(token))
        assert revoked.status_code == 200
        state = requests.get(f"{server.url}/api/matches/{match}").json()
        assert ann.move(match, state, state["legal"][0]).status_code == 200
        after = bot.call("move", {"match": match, "move": "up", "version": 3}, timeout=10)
        assert after["ok"] is False and after["error"] == "bad-token"
        assert requests.get(f"{server.url}/api/matches/{match}").json()["version"] == 3
    finally:
        bot.disconnect()


def test_an_api_token_in_an_event_acts_as_its_account_and_a_wrong_one_is_refused(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    cid = challenged(server, ann, "robot", first="opponent")
    match = requests.post(f"{server.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
    sio = connected(server)
    try:
        assert sio.call("watch", {"match": match, "token": token}, timeout=10)["you"] == {"seats": [1]}
        state = requests.get(f"{server.url}/api/matches/{match}").json()
        wrong = sio.call("move", {"match": match, "token": "qbt_" + "x" * 43, "move": state["legal"][0]}, timeout=10)
        assert wrong["ok"] is False and wrong["error"] == "bad-token" and "qbt_" not in wrong["reason"]
        assert requests.get(f"{server.url}/api/matches/{match}").json()["version"] == 0
        played = sio.call("move", {"match": match, "token": token, "move": state["legal"][0]}, timeout=10)
        assert played == {"ok": True, "version": 1}
    finally:
        sio.disconnect()
    assert token not in server.log_path.read_text()  # never logged


def test_a_wrong_handshake_token_is_refused_with_its_reason(server):
    for auth, error in [({"token": "qbt_" + "y" * 43}, "bad-token"), ({"token": "not-an-api-token"}, "bad-token"),
                        ({"token": 5}, "bad-token"), ("qbt_as_text", "bad-request")]:
        sio = socketio.Client(reconnection=False)
        refused = []
        sio.on("connect_error", refused.append)
        with pytest.raises(socketio.exceptions.ConnectionError):
            sio.connect(server.url, transports=["websocket"], wait_timeout=10, auth=auth)
        wait_until(lambda: refused, 5, "the refusal")
        assert refused[0]["data"]["error"] == error and refused[0]["message"] == refused[0]["data"]["reason"]
    # Refused handshakes give their connection back: the address may still connect.
    assert requests.get(f"{server.url}/api/health").json()["sockets"] == 0
    connected(server).disconnect()


def test_the_inbox_hears_challenges_with_a_token_in_the_handshake_or_in_the_event(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    by_handshake, by_event = connected(server, {"token": token}), connected(server)
    heard = {"handshake": [], "event": []}
    by_handshake.on("challenge", heard["handshake"].append)
    by_event.on("challenge", heard["event"].append)
    try:
        assert by_handshake.call("inbox", {}, timeout=10)["account"]["name"] == "robot"
        assert by_event.call("inbox", {"token": token}, timeout=10)["account"]["name"] == "robot"
        assert connected(server).call("inbox", {"token": "qbt_wrong"}, timeout=10)["error"] == "bad-token"
        cid = challenged(server, ann, "robot")
        for name in heard:
            wait_until(lambda: any(c["challenge"] == cid for c in heard[name]), 10, f"the {name} inbox")
    finally:
        by_handshake.disconnect()
        by_event.disconnect()


def test_the_event_stream_carries_challenges_game_starts_and_ends(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    events = Lines(f"{server.url}/api/stream/event", token)
    try:
        assert events.status == 200
        assert events.response.headers["Content-Type"] == "application/x-ndjson"
        wait_until(lambda: events.keepalives >= 2, 10, "keep-alive lines")
        declined = challenged(server, ann, "robot")
        wait_until(lambda: events.of_type("challenge"), 10, "the challenge")
        assert requests.post(f"{server.url}/api/challenges/{declined}/decline", headers=bearer(token)).ok
        cancelled = challenged(server, ann, "robot")
        assert ann.post(f"/api/challenges/{cancelled}/cancel").ok
        wait_until(lambda: events.of_type("challengeCanceled"), 10, "the cancel")
        assert events.of_type("challengeCanceled")[0]["challenge"]["challenge"] == cancelled
        cid = challenged(server, ann, "robot")
        wait_until(lambda: [e for e in events.of_type("challenge") if e["challenge"]["challenge"] == cid], 10)
        match = requests.post(f"{server.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
        wait_until(lambda: events.of_type("gameStart"), 10, "gameStart")
        start = events.of_type("gameStart")[0]["game"]
        assert start["id"] == start["match"] == match and start["seats"] == [2] and start["game"] == "trails"
        assert requests.post(f"{server.url}/api/matches/{match}/abort", headers=bearer(token)).ok
        wait_until(lambda: events.of_type("gameFinish"), 10, "gameFinish")
        assert events.of_type("gameFinish")[0]["game"]["result"] == "aborted"
        # The bot's stream heard only its own account's business:
        assert all(e["challenge"]["to"][0]["name"] == "robot" for e in events.objects if "challenge" in e)
    finally:
        events.close()


def test_a_new_event_stream_opens_with_the_games_under_way_and_the_challenges_waiting(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    cid = challenged(server, ann, "robot")
    match = requests.post(f"{server.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
    waiting = challenged(server, ann, "robot")
    events = Lines(f"{server.url}/api/stream/event", token)
    try:
        wait_until(lambda: len(events.objects) >= 2, 10, "the opening lines")
        assert [e["game"]["id"] for e in events.of_type("gameStart")] == [match]
        assert [e["challenge"]["challenge"] for e in events.of_type("challenge")] == [waiting]
    finally:
        events.close()


def test_the_game_stream_sends_every_state_and_ends_with_the_game(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    cid = challenged(server, ann, "robot")
    match = requests.post(f"{server.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
    assert Lines(f"{server.url}/api/bot/game/stream/{match}", ann.key).status == 401  # a seat key is no account
    game = Lines(f"{server.url}/api/bot/game/stream/{match}", token)
    try:
        wait_until(lambda: game.objects, 10, "gameFull")
        full = game.objects[0]
        assert full["type"] == "gameFull" and full["you"] == {"seats": [2]} and full["state"]["version"] == 0
        state = full["state"]
        while state["outcome"] is None:
            version = state["version"]
            if state["turn"] == 1:
                assert ann.move(match, state, state["legal"][0]).ok
            else:
                moved = requests.post(f"{server.url}/api/matches/{match}/moves", headers=bearer(token),
                                      json={"move": state["legal"][-1], "version": version})
                assert moved.ok, moved.text
            wait_until(lambda: game.objects[-1]["state"]["version"] > version, 10, "the next STATE")
            state = game.objects[-1]["state"]
            assert game.objects[-1]["type"] == "gameState"
        assert game.ended.wait(10), "the stream ends with the game"
        versions = [o["state"]["version"] for o in game.objects]
        assert versions == list(range(versions[-1] + 1))
    finally:
        game.close()
    # A match it holds no seat of, and one that does not exist.
    other = requests.post(f"{server.url}/api/matches", json={"game": "trails"}).json()["match"]
    refused = requests.get(f"{server.url}/api/bot/game/stream/{other}", headers=bearer(token))
    assert refused.status_code == 401 and refused.json()["error"] == "unauthorized"
    assert requests.get(f"{server.url}/api/bot/game/stream/nope", headers=bearer(token)).status_code == 404
    assert requests.get(f"{server.url}/api/stream/event").status_code == 401
    assert requests.get(f"{server.url}/api/stream/event", headers=bearer("qbt_wrong")).json()["error"] == "bad-token"


def test_open_streams_are_bounded_per_account_and_end_when_their_token_is_revoked(server):
    token = bot_token(server.url, "robot")
    other = bot_token(server.url, "other")
    streams = [Lines(f"{server.url}/api/stream/event", token) for _ in range(3)]
    try:
        assert [s.status for s in streams] == [200] * 3
        over = requests.get(f"{server.url}/api/stream/event", headers=bearer(token))
        assert over.status_code == 429 and over.json()["error"] == "rate-limited"
        streams.append(Lines(f"{server.url}/api/stream/event", other))
        assert streams[-1].status == 200  # another account is not affected
        streams[0].close()

        def reopened():
            again = Lines(f"{server.url}/api/stream/event", token)
            streams.append(again)
            return again.status == 200
        wait_until(reopened, 10, "a closed stream to give its place back", interval=0.3)
        tokens = requests.get(f"{server.url}/api/account/tokens", headers=bearer(token)).json()["tokens"]
        assert requests.post(f"{server.url}/api/account/tokens/{tokens[0]['id']}/revoke", headers=bearer(token)).ok
        started = time.monotonic()
        for stream in streams[1:]:
            if stream.status == 200 and stream is not streams[3]:
                assert stream.ended.wait(10), "a revoked token's stream ends"
        assert not streams[3].ended.is_set()  # the other account's goes on
        assert time.monotonic() - started < 8
    finally:
        for stream in streams:
            stream.close()


def test_a_bots_socket_and_streams_keep_the_sites_budgets(tmp_path):
    """Over the per-socket event budget a token's socket is refused like any other; streams are capped per
    address too, whichever accounts open them."""
    proc = ServerProcess(tmp_path / "budgets.db", "gevent", settings={
        "SOCKET_PLAYER_EVENTS": "10 per 20 seconds", "SOCKET_SPECTATOR_EVENTS": "10 per 20 seconds",
        "STREAMS_PER_ADDRESS": 2, "STREAM_KEEPALIVE": 0.5}).start()
    streams = []
    try:
        ann = Person(proc.url, "ann")
        token, other = bot_token(proc.url, "robot"), bot_token(proc.url, "other")
        cid = challenged(proc, ann, "robot")
        match = requests.post(f"{proc.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
        bot = connected(proc, {"token": token})
        try:
            answers = [bot.call("move", {"match": match, "move": "up", "version": 0}, timeout=10) for _ in range(15)]
        finally:
            bot.disconnect()
        # 15 events on a budget of 10: 5 refused, or 4 when the burst straddles the edge of the counter's
        # 20-second windows (the sliding window counter floors the last window's weighted count there)
        assert [a["error"] for a in answers].count("rate-limited") >= 4
        assert requests.get(f"{proc.url}/api/matches/{match}").json()["version"] == 0
        streams = [Lines(f"{proc.url}/api/stream/event", token), Lines(f"{proc.url}/api/stream/event", other)]
        assert [s.status for s in streams] == [200, 200]
        refused = requests.get(f"{proc.url}/api/bot/game/stream/{match}", headers=bearer(token))
        assert refused.status_code == 429 and refused.json()["error"] == "rate-limited"
    finally:
        for stream in streams:
            stream.close()
        proc.stop()


def test_a_rematch_answered_to_an_api_token_never_carries_the_accounts_seat_key(server):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "robot")
    for door in ("socket", "http"):
        cid = challenged(server, ann, "robot")
        match = requests.post(f"{server.url}/api/challenges/{cid}/accept", headers=bearer(token)).json()["match"]
        assert requests.post(f"{server.url}/api/matches/{match}/abort", headers=bearer(token)).ok
        offered = requests.post(f"{server.url}/api/matches/{match}/rematch", headers=bearer(ann.key))
        assert offered.ok, offered.text
        if door == "socket":
            bot = connected(server, {"token": token})
            try:
                answer = bot.call("rematch", {"match": match}, timeout=10)
                assert answer["ok"] and answer["created"] and answer["token"] is None, answer
                assert bot.call("watch", {"match": answer["match"]}, timeout=10)["you"]["seats"] == answer["seats"]
            finally:
                bot.disconnect()
        else:
            answer = requests.post(f"{server.url}/api/matches/{match}/rematch", headers=bearer(token)).json()
            assert answer["created"] and answer["token"] is None, answer
        assert "qsk_" not in str(answer)
