"""Players on a cluster (two app processes, PostgreSQL, Redis): a session made on one process is good on the
other, a challenge made through one is heard at once by the inbox of a page connected to the other (through
Redis), and a rated game played through both processes is rated once."""
from __future__ import annotations

import pytest
import requests
import socketio

from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster


def account(url: str, name: str) -> tuple[requests.Session, dict]:
    session = requests.Session()
    answer = session.post(f"{url}/api/account", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    return session, answer.json()


def test_a_challenge_is_heard_across_processes_and_its_rated_game_is_rated_once(make_cluster):
    cluster = make_cluster(2)
    one, two = (app.url for app in cluster.apps)
    ann, ann_answer = account(one, "ann")
    bob, bob_answer = account(two, "bob")
    heard = []
    inbox = socketio.Client(reconnection=False)
    inbox.on("challenge", heard.append)
    inbox.connect(one, transports=["websocket"], wait_timeout=10,
                  headers={"Cookie": f"quadrille_session={bob.cookies['quadrille_session']}"})
    try:
        assert inbox.call("inbox", {}, timeout=10) == {"ok": True, "account": bob_answer["account"]}
        made = ann.post(f"{two}/api/challenges", headers={"X-CSRFToken": ann_answer["csrf"]},
                        json={"to": "bob", "game": "trails", "options": {"size": 5}, "rated": True,
                              "first": "challenger"})
        assert made.status_code == 201, made.text
        wait_until(lambda: any(c["challenge"] == made.json()["challenge"] for c in heard), 5,
                   "bob's inbox on the other process to hear the challenge")
        accepted = bob.post(f"{one}/api/challenges/{made.json()['challenge']}/accept",
                            headers={"X-CSRFToken": bob_answer["csrf"]})
        assert accepted.status_code == 200, accepted.text
        match = accepted.json()["match"]
        keys = {1: ann_answer["seat_key"], 2: bob_answer["seat_key"]}
        for ply in range(300):
            url = (one, two)[ply % 2]
            state = requests.get(f"{url}/api/matches/{match}").json()
            if state["outcome"] is not None:
                break
            moved = requests.post(f"{url}/api/matches/{match}/moves", json={"move": state["legal"][0],
                                                                            "version": state["version"]},
                                  headers={"Authorization": f"Bearer {keys[state['turn']]}"})
            assert moved.status_code == 200, moved.text
        assert state["outcome"] is not None
        for url in (one, two):
            ratings = {name: requests.get(f"{url}/api/players/{name}").json()["ratings"]["trails"]
                       for name in ("ann", "bob")}
            assert ratings["ann"]["games"] == ratings["bob"]["games"] == 1
    finally:
        inbox.disconnect()
