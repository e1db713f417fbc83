"""Players with accounts on an app's Flask test client (the platform tests' ann and bob)."""
from __future__ import annotations


class Player:
    """A logged-in browser: its client, its CSRF token and its seat key."""

    def __init__(self, app, name):
        self.client = app.test_client()
        answer = self.client.post("/api/account", json={"name": name, "password": "correct horse"})
        assert answer.status_code == 201, answer.json
        self.name, self.csrf, self.key = name, answer.json["csrf"], answer.json["seat_key"]

    def post(self, path, body=None):
        return self.client.post(path, json=body if body is not None else {}, headers={"X-CSRFToken": self.csrf})

    def get(self, path):
        return self.client.get(path)

    def challenge(self, to, game="trails", **body):
        answer = self.post("/api/challenges", {"to": to, "game": game, **body})
        assert answer.status_code == 201, answer.json
        return answer.json

    def move(self, match, move):
        return self.client.post(f"/api/matches/{match}/moves", json={"move": move},
                                headers={"Authorization": f"Bearer {self.key}"})


def play_to_the_end(match, players: dict, app):
    """Play the first legal move for whoever is to move until the game ends."""
    client = app.test_client()
    for _ in range(500):
        state = client.get(f"/api/matches/{match}").json
        if state["outcome"] is not None:
            return state
        answer = players[state["turn"]].move(match, state["legal"][0])
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")
