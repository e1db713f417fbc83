"""Moderation on a real server process (gevent), on SQLite and on PostgreSQL: `python -m quadrille admin ...`
run as its own process against the server's database while the server runs. A ban refuses the account's
session, API token, login, challenges and seats at once, and its socket's next move within the moderation
log's poll (quadrille/moderation/live.py); an unban gives them back; a match closed from the command line
ends in front of its players (their sockets hear the STATE)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import requests
import socketio

from scripts.services.app import App
from tests.support.paths import ROOT
from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server
PASSWORD = "correct horse"


@pytest.fixture(params=("sqlite", "postgresql"))
def server(request, tmp_path):
    if request.param == "sqlite":
        proc = ServerProcess(tmp_path / "moderation.db", "gevent").start()
    else:
        name, url = request.getfixturevalue("postgres_template").copy()
        proc = App(tmp_path, 1, url, None, async_mode="gevent").start()
    yield proc
    proc.stop()


def admin(server, *argv) -> subprocess.CompletedProcess:
    """The operator's command, as its own process, on the server's database (QUADRILLE_DB, as app.py reads it)."""
    env = {**os.environ, "QUADRILLE_DB": server.database, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "quadrille", "admin", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


class Browser:
    """A logged-in player's browser: a cookie session, its CSRF token, its seat key."""

    def __init__(self, url, name):
        self.url, self.http = url, requests.Session()
        made = self.http.post(f"{url}/api/account", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        self.csrf, self.key = made.json()["csrf"], made.json()["seat_key"]

    def post(self, path, body=None):
        return self.http.post(self.url + path, json=body or {}, headers={"X-CSRFToken": self.csrf})


def watching(url, match, token, heard):
    sio = socketio.Client(reconnection=False)
    sio.on("state", heard.append)
    sio.connect(url, transports=["websocket"], wait_timeout=10)
    ack = sio.call("watch", {"match": match, "token": token}, timeout=10)
    assert ack["ok"], ack
    return sio, ack["you"]["seats"]


def test_a_ban_and_an_unban_from_the_command_line_act_on_the_running_server(server):
    url = server.url
    ann, bob = Browser(url, "ann"), Browser(url, "bob")
    token = requests.post(f"{url}/api/account/tokens", json={"name": "ann", "password": PASSWORD}).json()["token"]
    made = ann.post("/api/challenges", {"to": "bob", "game": "trails", "rated": True, "first": "challenger",
                                        "options": {"size": 5}}).json()
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json()["match"]
    heard = []
    sio, seats = watching(url, match, ann.key, heard)
    try:
        assert seats == [1]
        banned = admin(server, "ban", "ann", "--note", "test")
        assert banned.returncode == 0 and "Banned ann." in banned.stdout, banned.stderr
        assert ann.http.get(f"{url}/api/account").json()["account"] is None
        assert requests.get(f"{url}/api/account/tokens",
                            headers={"Authorization": f"Bearer {token}"}).status_code == 401
        login = requests.post(f"{url}/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert login.status_code == 403 and login.json()["error"] == "banned"
        assert bob.post("/api/challenges", {"to": "ann", "game": "trails"}).status_code == 403
        answers = []

        def refused():
            legal = requests.get(f"{url}/api/matches/{match}").json()["legal"]
            answers.append(sio.call("move", {"match": match, "token": ann.key, "move": legal[0]}, timeout=10))
            return not answers[-1]["ok"] and answers[-1]["error"] == "unauthorized"
        wait_until(refused, 10, "the banned account's socket to be refused")
        # Its seats went to a new key in the database at once; the server's copy of the match follows within
        # MODERATION_POLL (1 s): at most the one move sent in that window went through.
        assert sum(answer["ok"] for answer in answers) <= 1, answers

        unbanned = admin(server, "unban", "ann")
        assert unbanned.returncode == 0, unbanned.stderr
        back = requests.post(f"{url}/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert back.status_code == 200
        again = sio.call("watch", {"match": match, "token": back.json()["seat_key"]}, timeout=10)
        assert again["ok"] and again["you"]["seats"] == [1], again     # its seats, under its new key
        assert requests.get(f"{url}/api/account/tokens",
                            headers={"Authorization": f"Bearer {token}"}).status_code == 200
    finally:
        sio.disconnect()


def test_a_match_closed_from_the_command_line_ends_in_front_of_its_players(server):
    url = server.url
    created = requests.post(f"{url}/api/matches", json={"game": "trails", "mode": "online"}).json()
    match = created["match"]
    requests.post(f"{url}/api/matches/{match}/seats", json={"invite": created["invite_secret"]})
    heard = []
    sio, _ = watching(url, match, created["token"], heard)
    try:
        listed = admin(server, "matches")
        assert listed.returncode == 0 and match in listed.stdout
        closed = admin(server, "close", "--", match)
        assert closed.returncode == 0, closed.stderr
        wait_until(lambda: any((s.get("outcome") or {}).get("by") == "site" for s in heard), 10,
                   "the room to hear that the match ended")
        assert requests.get(f"{url}/api/matches/{match}").json()["outcome"]["reason"] == "aborted"
        again = admin(server, "close", "--", match)
        assert again.returncode == 1 and "over already" in again.stderr
        log = admin(server, "log")
        assert "close" in log.stdout and "console" in log.stdout
    finally:
        sio.disconnect()
