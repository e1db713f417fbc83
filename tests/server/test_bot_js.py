"""examples/bot.js (Node 20, socket.io-client from npm) end to end against a real server process: a person
challenges the bot's account, the bot (its API token in the Socket.IO handshake) hears the challenge in its
inbox, accepts it, and plays random legal moves over Socket.IO until the game ends. Its socket.io-client is the
version the site serves (static/vendor), installed by `npm ci` from examples/package-lock.json into a temporary
directory (nothing of it is kept in the repository)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
import requests

from tests.support.bots import Person, bearer, bot_token, play_seat_one_against_the_bot, seats_that_moved
from tests.support.paths import ROOT
from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.tasks import kill_if_running
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def node_modules(tmp_path_factory):
    """socket.io-client installed by `npm ci` from the examples' lock file, in a directory of the test's own."""
    where = tmp_path_factory.mktemp("bot-js")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(EXAMPLES / name, where / name)
    installed = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=where, capture_output=True, text=True,
                               timeout=300)
    assert installed.returncode == 0, installed.stderr
    return where / "node_modules"


@pytest.fixture(params=ASYNC_MODES)
def server(request, tmp_path):
    proc = ServerProcess(tmp_path / "botjs.db", request.param).start()
    yield proc
    proc.stop()


def test_the_examples_pin_the_socket_io_client_that_the_site_serves():
    vendored = (ROOT / "static/vendor/socket.io-client/socket.io.min.js").read_text()[:200]
    version = re.search(r"Socket\.IO v(\d+\.\d+\.\d+)", vendored).group(1)
    assert json.loads((EXAMPLES / "package.json").read_text())["dependencies"]["socket.io-client"] == version
    lock = json.loads((EXAMPLES / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/socket.io-client"]["version"] == version


def test_the_javascript_bot_accepts_a_challenge_and_plays_a_whole_game(server, node_modules, tmp_path):
    ann = Person(server.url, "ann")
    token = bot_token(server.url, "jsbot")
    env = {**{k: v for k, v in os.environ.items() if k != "QUADRILLE_BOT_TOKEN"}, "QUADRILLE_BOT_TOKEN": token,
           "NODE_PATH": str(node_modules)}
    log = (tmp_path / "bot.log").open("w")
    bot = subprocess.Popen(["node", str(EXAMPLES / "bot.js"), "--server", server.url, "--games", "1"], cwd=tmp_path,
                           env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        assert token not in open(f"/proc/{bot.pid}/cmdline").read()
        wait_until(lambda: "connected as jsbot" in (tmp_path / "bot.log").read_text(), 30, "the bot to connect")
        made = ann.post("/api/challenges", {"to": "jsbot", "game": "gamma",
                                            "options": {"width": 4, "height": 4, "players": 2, "areas": 2},
                                            "first": "challenger"})
        assert made.status_code == 201, made.text
        cid = made.json()["challenge"]

        def accepted():
            return requests.get(f"{server.url}/api/challenges/{cid}", headers=bearer(token)).json().get("match")
        match = wait_until(accepted, 30, "the bot to accept")
        def ann_moves(state, chosen):
            assert ann.move(match, state, chosen).ok
        state = play_seat_one_against_the_bot(server.url, match, ann_moves)
        assert state["outcome"] is not None
        assert bot.wait(30) == 0
    finally:
        kill_if_running(bot)
        log.close()
    output = (tmp_path / "bot.log").read_text()
    assert "accepted ann's challenge to Gamma" in output and f"match {match} over" in output, output
    assert seats_that_moved(server.url, match) == {1, 2}  # the bot played its seat
    assert token not in server.log_path.read_text()


def test_the_javascript_bot_refuses_a_token_on_its_command_line_and_a_wrong_token(node_modules, server):
    env = {**{k: v for k, v in os.environ.items() if k != "QUADRILLE_BOT_TOKEN"}, "NODE_PATH": str(node_modules)}

    def bot(*argv, **extra):
        return subprocess.run(["node", str(EXAMPLES / "bot.js"), "--server", server.url, *argv],
                              env={**env, **extra}, capture_output=True, text=True, timeout=30)
    on_the_command_line = bot("--token", "qbt_secret")
    assert on_the_command_line.returncode == 2 and "--token is not accepted" in on_the_command_line.stderr
    assert "qbt_secret" not in on_the_command_line.stderr
    assert "QUADRILLE_BOT_TOKEN" in bot().stderr
    wrong = bot(QUADRILLE_BOT_TOKEN="qbt_" + "z" * 43)
    assert wrong.returncode == 1 and "not valid" in wrong.stderr
