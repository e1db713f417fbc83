"""A Quadrille bot: it accepts the challenges made to its account and plays random legal moves to the end.

    QUADRILLE_BOT_TOKEN=qbt_... python examples/bot.py --server https://quadrille.example
    python examples/bot.py --server https://quadrille.example --token-file ~/.config/mybot.token

The token is read from the environment (QUADRILLE_BOT_TOKEN) or from a file (its first line), never from
the command line, which every user of the machine sees in `ps`.

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
    parser.add_argument("--token-file", help="a file whose first line is the API token (else $QUADRILLE_BOT_TOKEN)")
    parser.add_argument("--token", help=argparse.SUPPRESS)  # only to refuse it clearly: see the_token
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between looks")
    args = parser.parse_args(argv)
    api = Quadrille(args.server, the_token(parser, args))
    played = 0
    while not args.games or played < args.games:
        match = accept_a_challenge(api, args.poll)
        outcome = play(api, match, args.poll)
        print(f"match {match} over: winners {outcome['winners']} ({outcome.get('reason')})", flush=True)
        played += 1
    return 0


def the_token(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The API token from --token-file or QUADRILLE_BOT_TOKEN; a clear error without one."""
    if args.token is not None:
        parser.error("--token is not accepted: a command line is visible to every user of the machine (ps); "
                     "set QUADRILLE_BOT_TOKEN or give --token-file")
    if args.token_file:
        try:
            with open(args.token_file, encoding="utf-8") as f:
                token = f.readline().strip()
        except OSError as error:
            parser.error(f"cannot read the token file: {error}")
        if not token:
            parser.error(f"the token file {args.token_file} is empty")
        return token
    token = os.environ.get("QUADRILLE_BOT_TOKEN", "").strip()
    if not token:
        parser.error("no API token: set QUADRILLE_BOT_TOKEN or give --token-file (a file holding the token)")
    return token


if __name__ == "__main__":
    sys.exit(main())
