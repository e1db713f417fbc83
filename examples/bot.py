"""A Quadrille bot: it accepts the challenges made to its account and plays random legal moves to the end.

    python examples/bot.py --server https://quadrille.example --token qbt_...     # or $QUADRILLE_BOT_TOKEN

Make the token once, with the account's name and password (it is shown once; keep it secret):

    curl -s -X POST https://quadrille.example/api/account/tokens -H 'Content-Type: application/json' \
         -d '{"name": "mybot", "password": "…"}'                       # 201 {"token": "qbt_…"}

The token goes in `Authorization: Bearer` on every call: it reads the account's challenges and games and
plays the account's seats (docs/api.md, "Bots"). Only the Python standard library is used.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request


class Quadrille:
    def __init__(self, server: str, token: str):
        self.server, self.token = server.rstrip("/"), token

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(self.server + path, method=method,
                                         headers={"Authorization": f"Bearer {self.token}"})
        if body is not None:
            request.data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            answer = json.load(error)
            raise RuntimeError(f"{method} {path}: {error.code} {answer.get('error')}: {answer.get('reason')}") from None


def accept_a_challenge(api: Quadrille, poll: float) -> str:
    """Wait for a challenge, accept it, and answer the match it became (Gamma's: once everyone accepted)."""
    while True:
        for challenge in api.call("GET", "/api/challenges")["incoming"]:
            accepted = api.call("POST", f"/api/challenges/{challenge['challenge']}/accept")
            print(f"accepted {challenge['from']}'s challenge to {challenge['title']}", flush=True)
            while not accepted.get("match"):  # a game of several players begins when the others accept
                time.sleep(poll)
                accepted = api.call("GET", f"/api/challenges/{challenge['challenge']}")
                if accepted["status"] in ("cancelled", "declined"):
                    break
            if accepted.get("match"):
                return accepted["match"]
        time.sleep(poll)


def my_seats(api: Quadrille, match: str) -> list[int]:
    for game in api.call("GET", "/api/me/games?finished=1")["games"]:
        if game["match"] == match:
            return game["seats"]
    return []


def play(api: Quadrille, match: str, poll: float) -> dict:
    """Random legal moves on our turns until the game ends; answers the outcome."""
    seats = my_seats(api, match)
    print(f"playing match {match} as seat(s) {seats}", flush=True)
    while True:
        state = api.call("GET", f"/api/matches/{match}")  # with the token: we count as present
        if state["outcome"] is not None:
            return state["outcome"]
        if state["turn"] in seats and state["legal"]:
            move = random.choice(state["legal"])
            try:
                api.call("POST", f"/api/matches/{match}/moves", {"move": move, "version": state["version"]})
            except RuntimeError as error:  # the match moved meanwhile (stale-version): look again
                print(f"refused: {error}", flush=True)
            continue
        time.sleep(poll)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:5000")
    parser.add_argument("--token", default=os.environ.get("QUADRILLE_BOT_TOKEN"))
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between looks")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set QUADRILLE_BOT_TOKEN")
    api = Quadrille(args.server, args.token)
    played = 0
    while not args.games or played < args.games:
        match = accept_a_challenge(api, args.poll)
        outcome = play(api, match, args.poll)
        print(f"match {match} over: winners {outcome['winners']} ({outcome.get('reason')})", flush=True)
        played += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
