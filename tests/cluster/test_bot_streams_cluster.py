"""A bot's streams on a cluster (two app processes, PostgreSQL, Redis, nginx): a stream opened on one process
hears what happens on the other (a challenge, its game's start, every move, the end), through Redis; and
through nginx each line arrives as it is sent (no buffering)."""
from __future__ import annotations

import pytest
import requests

from tests.support.bots import Lines, Person, bearer, bot_token
from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster


def test_a_bots_streams_on_one_process_hear_what_happens_on_the_other(make_cluster):
    cluster = make_cluster(2, settings={"STREAM_KEEPALIVE": 0.5})
    one, two = (app.url for app in cluster.apps)
    ann = Person(two, "ann")
    token = bot_token(two, "robot")
    events = Lines(f"{one}/api/stream/event", token)
    proxied = Lines(f"{cluster.url}/api/stream/event", token)
    games = []
    try:
        assert events.status == proxied.status == 200
        wait_until(lambda: proxied.keepalives >= 2, 10, "keep-alive lines through nginx, as they are sent")
        made = ann.post("/api/challenges", {"to": "robot", "game": "trails", "options": {"size": 5},
                                            "first": "challenger"})
        assert made.status_code == 201, made.text
        for stream in (events, proxied):
            wait_until(lambda: stream.of_type("challenge"), 10, "the challenge made on the other process")
        accepted = requests.post(f"{two}/api/challenges/{made.json()['challenge']}/accept", headers=bearer(token))
        match = accepted.json()["match"]
        wait_until(lambda: events.of_type("gameStart"), 10, "gameStart")
        assert events.of_type("gameStart")[0]["game"]["id"] == match
        games = [Lines(f"{one}/api/bot/game/stream/{match}", token),
                 Lines(f"{cluster.url}/api/bot/game/stream/{match}", token)]
        wait_until(lambda: all(g.objects for g in games), 10, "gameFull")
        state = games[0].objects[0]["state"]
        while state["outcome"] is None:
            version = state["version"]
            if state["turn"] == 1:
                moved = ann.move(match, state, state["legal"][0], url=two)
            else:
                moved = requests.post(f"{two}/api/matches/{match}/moves", headers=bearer(token),
                                      json={"move": state["legal"][-1], "version": version})
            assert moved.ok, moved.text
            for game in games:
                wait_until(lambda: game.objects[-1]["state"]["version"] > version, 10,
                           "the move made on the other process")
            state = games[0].objects[-1]["state"]
        for game in games:
            assert game.ended.wait(10)
            assert [o["state"]["version"] for o in game.objects] == list(range(state["version"] + 1))
        wait_until(lambda: events.of_type("gameFinish"), 10, "gameFinish")
        assert events.of_type("gameFinish")[0]["game"]["finished"] is True
    finally:
        for stream in (events, proxied, *games):
            stream.close()
