"""Matches brought to a given point through the HTTP API, for tests that look at pages (accessibility, themes,
tap targets): an online match of each game at its start (the creator's waiting room), in the middle (both
players have moved) and finished (the result screen), seen by its creator's browser.

The moves are real: the legal moves the server lists, sent with the players' own tokens."""
from __future__ import annotations

from dataclasses import dataclass

import requests

import games

GAMES = tuple(games.listed())  # every game, in the lobby's order
SMALL = {"trails": {"size": 7}, "lattice": {}, "towers": {"size": 5}, "gamma": {"width": 5, "height": 4}}


@dataclass
class Online:
    server: object
    game: str
    created: dict           # the creator's answer (match, token, invite, ...)
    friend: dict | None = None

    @property
    def match(self) -> str:
        return self.created["match"]

    def state(self) -> dict:
        return requests.get(f"{self.server.url}/api/matches/{self.match}").json()

    def post(self, path: str, token: str, body: dict | None = None) -> dict:
        answer = requests.post(f"{self.server.url}/api/matches/{self.match}/{path}", json=body or {},
                               headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code in (200, 201), answer.json()
        return answer.json()

    def join(self) -> "Online":
        """The friend takes the free seat with the invite secret; Gamma's creator starts the match."""
        answer = requests.post(f"{self.server.url}/api/matches/{self.match}/seats",
                               json={"invite": self.created["invite_secret"], "player": "Bob"})
        assert answer.status_code == 201, answer.json()
        self.friend = answer.json()
        if self.game == "gamma":
            self.post("start", self.created["token"])
        return self

    def token_of(self, seat: int) -> str:
        return self.created["token"] if seat in self.created["seats"] else self.friend["token"]

    def play_turns(self, turns: int) -> dict:
        """Each of `turns` turns: the seat to move plays a legal action (not "end"), then ends its turn if it
        must (Towers), and answers a Lattice return."""
        state = self.state()
        for _ in range(turns):
            if state["outcome"] is not None:
                break
            seat, first = state["turn"], True
            while state["turn"] == seat and state["outcome"] is None:
                legal = state["legal"]
                move = ([m for m in legal if m != "end"] or legal)[0] if first else ("end" if "end" in legal else legal[0])
                first = False
                state = self.post("moves", self.token_of(seat), {"move": move})
        return state

    def resign(self) -> dict:
        """The friend resigns: the game is over (two-player games)."""
        return self.post("resign", self.friend["token"])


def online(server, game: str, visibility: str = "private") -> Online:
    created = requests.post(f"{server.url}/api/matches", json={
        "game": game, "mode": "online", "options": SMALL[game], "player": "Ann", "visibility": visibility}).json()
    assert "match" in created, created
    return Online(server, game, created)


def open_as_creator(page, match: Online) -> None:
    """The creator's browser as the lobby leaves it (token and invite kept), on the match page."""
    page.goto(match.server.url + "/")
    page.evaluate("c => window.QuadrilleTokens.remember(c)", match.created)
    page.goto(f"{match.server.url}/m/{match.match}")
    page.wait_for_function("document.getElementById('match').dataset.seats === '1'")


def at(server, game: str, stage: str) -> Online:
    """An online match of `game` at `stage`: "start" (waiting for the friend), "middle" (both have moved) or
    "end" (the friend resigned)."""
    match = online(server, game)
    if stage == "start":
        return match
    match.join()
    match.play_turns(4)
    if stage == "end":
        match.resign()
    return match
