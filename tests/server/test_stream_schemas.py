"""The bots' NDJSON streams against /api/openapi.json: a real server, a bot's API token, a challenge made to it
and accepted, its game played to the end; every line of the event stream and of the game stream is validated
(jsonschema) against the document's schema for a line, and the answers' content type is the documented one."""
from __future__ import annotations

import json
import queue
import threading

import jsonschema
import pytest
import requests

from tests.support.servers import ServerProcess

pytestmark = pytest.mark.server
NDJSON = "application/x-ndjson"


@pytest.fixture
def server(tmp_path):
    proc = ServerProcess(tmp_path / "streams.db", "gevent").start()
    yield proc
    proc.stop()


def line_schema(document: dict, path: str) -> jsonschema.Draft202012Validator:
    schema = document["paths"][path]["get"]["responses"]["200"]["content"][NDJSON]["schema"]
    return jsonschema.Draft202012Validator({**document, **schema})


def read_lines(answer: requests.Response, into: queue.Queue) -> None:
    try:
        for raw in answer.iter_lines():
            if raw:  # an empty line is a keep-alive
                into.put(json.loads(raw))
    except (requests.RequestException, AttributeError):  # the test closed the stream under this reader
        pass
    into.put(None)


def opened(url: str, token: str) -> tuple[requests.Response, queue.Queue]:
    answer = requests.get(url, headers={"Authorization": f"Bearer {token}"}, stream=True, timeout=30)
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith(NDJSON)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_lines, args=(answer, lines), daemon=True).start()
    return answer, lines


def next_of(lines: queue.Queue, kind: str) -> dict:
    while True:
        line = lines.get(timeout=20)
        assert line is not None, f"the stream ended before a {kind}"
        if line["type"] == kind:
            return line


def test_every_line_of_both_streams_matches_the_document(server):
    document = requests.get(f"{server.url}/api/openapi.json").json()
    events = line_schema(document, "/api/stream/event")
    games = line_schema(document, "/api/bot/game/stream/{match_id}")
    ann = requests.Session()
    csrf = ann.post(f"{server.url}/api/account", json={"name": "ann", "password": "correct horse"}).json()["csrf"]
    requests.post(f"{server.url}/api/account", json={"name": "bot", "password": "bot password"})
    token = requests.post(f"{server.url}/api/account/tokens",
                          json={"name": "bot", "password": "bot password"}).json()["token"]
    bot = {"Authorization": f"Bearer {token}"}
    event_stream, event_lines = opened(f"{server.url}/api/stream/event", token)
    seen = []
    try:
        made = ann.post(f"{server.url}/api/challenges", headers={"X-CSRFToken": csrf},
                        json={"to": "bot", "game": "trails", "options": {"size": 5}, "first": "opponent"}).json()
        seen.append(next_of(event_lines, "challenge"))
        match = requests.post(f"{server.url}/api/challenges/{made['challenge']}/accept", headers=bot).json()["match"]
        seen.append(next_of(event_lines, "gameStart"))
        game_stream, game_lines = opened(f"{server.url}/api/bot/game/stream/{match}", token)
        keys = {1: token, 2: ann.get(f"{server.url}/api/account").json()["seat_key"]}
        seen_game = [next_of(game_lines, "gameFull")]
        state = seen_game[0]["state"]
        while state["outcome"] is None:
            moved = requests.post(f"{server.url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                                  headers={"Authorization": f"Bearer {keys[state['turn']]}"})
            assert moved.status_code == 200, moved.text
            line = next_of(game_lines, "gameState")
            seen_game.append(line)
            state = line["state"]
        assert game_lines.get(timeout=20) is None  # the game stream ends after the STATE with the outcome
        seen.append(next_of(event_lines, "gameFinish"))
        game_stream.close()
    finally:
        event_stream.close()
    for line in seen:
        events.validate(line)
    for line in seen_game:
        games.validate(line)
    assert [line["type"] for line in seen] == ["challenge", "gameStart", "gameFinish"] and len(seen_game) > 3
    with pytest.raises(jsonschema.ValidationError):
        events.validate({"type": "gameStart", "challenge": seen[0]["challenge"]})
