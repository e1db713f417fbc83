"""examples/bot.py end to end against a real server process: a person challenges the bot's account, the bot
(its own process, with an API token, hearing the NDJSON streams) accepts and plays random legal moves, the
person plays hers, and the game ends. And accounts survive a restart: the session cookie and the seat key still work afterwards."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import requests

from tests.support.bots import play_seat_one_against_the_bot, seats_that_moved
from tests.support.paths import ROOT
from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.tasks import kill_if_running
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server


class Person:
    """A player with a session cookie, as a browser holds one (requests keeps the cookie)."""

    def __init__(self, server, name, password="correct horse"):
        self.server, self.http = server, requests.Session()
        answer = self.http.post(f"{server.url}/api/account", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        self.csrf, self.key = answer.json()["csrf"], answer.json()["seat_key"]

    def post(self, path, body=None):
        return self.http.post(self.server.url + path, json=body or {}, headers={"X-CSRFToken": self.csrf})


@pytest.fixture(params=ASYNC_MODES)
def server(request, tmp_path):
    proc = ServerProcess(tmp_path / "bot.db", request.param).start()
    yield proc
    proc.stop()


@pytest.mark.parametrize("given_by", ["file", "environment"])
def test_the_example_bot_accepts_a_challenge_and_plays_to_the_end(server, tmp_path, given_by):
    """The bot's token comes from a file or from QUADRILLE_BOT_TOKEN, and never shows on its command line
    (which every user of the machine reads in `ps`)."""
    ann = Person(server, "ann")
    Person(server, "randombot", "bot password")
    made = requests.post(f"{server.url}/api/account/tokens", json={"name": "randombot", "password": "bot password"})
    assert made.status_code == 201
    token = made.json()["token"]
    env = {k: v for k, v in os.environ.items() if k != "QUADRILLE_BOT_TOKEN"}
    given = []
    if given_by == "file":
        (tmp_path / "bot.token").write_text(token + "\n")
        given = ["--token-file", str(tmp_path / "bot.token")]
    else:
        env["QUADRILLE_BOT_TOKEN"] = token
    log = (tmp_path / "bot.log").open("w")
    bot = subprocess.Popen([sys.executable, "examples/bot.py", "--server", server.url, *given,
                            "--games", "1"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        assert token not in open(f"/proc/{bot.pid}/cmdline").read()
        challenge = ann.post("/api/challenges", {"to": "RandomBot", "game": "trails", "options": {"size": 7},
                                                 "first": "challenger"})
        assert challenge.status_code == 201, challenge.text
        cid = challenge.json()["challenge"]

        def accepted():
            return requests.get(f"{server.url}/api/challenges/{cid}",
                                headers={"Authorization": f"Bearer {made.json()['token']}"}).json().get("match")
        wait_until(accepted, 30, "the bot to accept")
        match = accepted()
        auth = {"Authorization": f"Bearer {ann.key}"}
        def ann_moves(state, chosen):
            answer = requests.post(f"{server.url}/api/matches/{match}/moves", headers=auth,
                                   json={"move": chosen, "version": state["version"]})
            assert answer.status_code == 200, answer.text
        state = play_seat_one_against_the_bot(server.url, match, ann_moves, seconds=60)
        assert state["outcome"] is not None
        assert bot.wait(30) == 0
    finally:
        kill_if_running(bot)
        log.close()
    output = (tmp_path / "bot.log").read_text()
    assert "accepted ann's challenge to Trails and Towers" in output and f"match {match} over" in output
    assert f"playing match {match} as seat(s) [2]" in output  # told by the game stream's gameFull
    assert seats_that_moved(server.url, match) == {1, 2}  # both played


def test_the_example_bot_refuses_a_token_on_its_command_line_and_says_how_to_give_one(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "QUADRILLE_BOT_TOKEN"}

    def bot(*argv):
        return subprocess.run([sys.executable, "examples/bot.py", "--server", "http://127.0.0.1:9", *argv], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=30)
    on_the_command_line = bot("--token", "qbt_secret")
    assert on_the_command_line.returncode == 2
    assert "--token is not accepted" in on_the_command_line.stderr and "qbt_secret" not in on_the_command_line.stderr
    for argv in [(), ("--token-file", str(tmp_path / "missing"))]:
        refused = bot(*argv)
        assert refused.returncode == 2 and ("QUADRILLE_BOT_TOKEN" in refused.stderr or "token file" in refused.stderr)
    (tmp_path / "empty").write_text("\n")
    assert "is empty" in bot("--token-file", str(tmp_path / "empty")).stderr


def test_sessions_and_seat_keys_outlive_a_restart(tmp_path):
    server = ServerProcess(tmp_path / "restart.db", "gevent").start()
    try:
        ann, bob = Person(server, "ann"), Person(server, "bob")
        cid = ann.post("/api/challenges", {"to": "bob", "game": "trails", "first": "challenger"}).json()["challenge"]
        match = bob.post(f"/api/challenges/{cid}/accept").json()["match"]
    finally:
        server.stop()
    again = ServerProcess(tmp_path / "restart.db", "gevent", port=server.port).start()
    try:
        assert ann.http.get(f"{again.url}/api/account").json()["account"]["name"] == "ann"
        state = requests.get(f"{again.url}/api/matches/{match}").json()
        moved = requests.post(f"{again.url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                              headers={"Authorization": f"Bearer {ann.key}"})
        assert moved.status_code == 200
        assert [g["match"] for g in bob.http.get(f"{again.url}/api/me/games").json()["games"]] == [match]
    finally:
        again.stop()
