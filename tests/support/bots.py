"""Accounts, API tokens and NDJSON stream readers on a real server (tests of the bots' API and example bots)."""
from __future__ import annotations

import json
import random
import threading

import requests

from .waiting import wait_until


class Person:
    """A player with a session cookie, as a browser holds one (requests keeps the cookie)."""

    def __init__(self, url: str, name: str, password: str = "correct horse"):
        self.url, self.name, self.http = url, name, requests.Session()
        answer = self.http.post(f"{url}/api/account", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        self.csrf, self.key = answer.json()["csrf"], answer.json()["seat_key"]

    def post(self, path, body=None, url=None):
        return self.http.post((url or self.url) + path, json=body or {}, headers={"X-CSRFToken": self.csrf})

    def move(self, match, state, move, url=None):
        return requests.post(f"{url or self.url}/api/matches/{match}/moves", json={"move": move,
                                                                                 "version": state["version"]},
                             headers={"Authorization": f"Bearer {self.key}"}, timeout=10)


def bot_token(url: str, name: str, password: str = "bot password") -> str:
    """A new account `name` and an API token of it."""
    made = requests.post(f"{url}/api/account", json={"name": name, "password": password})
    assert made.status_code == 201, made.text
    answer = requests.post(f"{url}/api/account/tokens", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Lines:
    """An NDJSON stream read in a thread: `objects` (the JSON lines), `keepalives` (the empty lines), `ended`
    once the server ended it (or the connection dropped)."""

    def __init__(self, url: str, token: str, timeout: float = 30):
        self.response = requests.get(url, headers=bearer(token), stream=True, timeout=timeout)
        self.status = self.response.status_code
        self.objects: list[dict] = []
        self.keepalives = 0
        self.ended = threading.Event()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.ended.set()

    def _read(self) -> None:
        try:
            for raw in self.response.iter_lines(chunk_size=1):
                if raw:
                    self.objects.append(json.loads(raw))
                else:
                    self.keepalives += 1
        except Exception:  # closed by the test, or by the server: the stream is over either way
            pass
        finally:
            self.ended.set()

    def of_type(self, kind: str) -> list[dict]:
        return [o for o in list(self.objects) if o.get("type") == kind]

    def close(self) -> None:
        self.response.close()


def play_seat_one_against_the_bot(url: str, match: str, move, seconds: float = 90) -> dict:
    """Seat 1 (a person) plays random legal moves with `move(state, chosen)` while the bot plays its seat (it
    answers each STATE through its stream), until the game ends: its last STATE; the test fails after `seconds`."""
    def over_after_my_move():
        state = requests.get(f"{url}/api/matches/{match}").json()
        if state["outcome"] is not None:
            return state
        if state["turn"] == 1:
            move(state, random.choice(state["legal"]))
        return None
    return wait_until(over_after_my_move, seconds, "the game's end", interval=0.05)


def seats_that_moved(url: str, match: str) -> set[int]:
    """The seats whose moves the match's record holds."""
    events = requests.get(f"{url}/api/matches/{match}/record").json()["events"]
    return {e["seat"] for e in events if e["kind"] == "move"}
