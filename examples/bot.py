"""A Quadrille bot: it accepts the challenges made to its account and plays random legal moves to the end,
hearing everything through the NDJSON streams (as a lichess bot does), never by polling.

    QUADRILLE_BOT_TOKEN=qbt_... python examples/bot.py --server https://quadrille.example
    python examples/bot.py --server https://quadrille.example --token-file ~/.config/mybot.token

The token is read from the environment (QUADRILLE_BOT_TOKEN) or from a file (its first line), never from
the command line, which every user of the machine sees in `ps`.

Make the token once, with the account's name and password (it is shown once; keep it secret):

    curl -s -X POST https://quadrille.example/api/account/tokens -H 'Content-Type: application/json' \
         -d '{"name": "mybot", "password": "…"}'                       # 201 {"token": "qbt_…"}

The token goes in `Authorization: Bearer` on every call. The bot reads `GET /api/stream/event` (one JSON
object a line: `challenge`, `gameStart`, `gameFinish`, …; empty lines keep it open), accepts each challenge,
and plays each game it starts in a thread of its own that reads `GET /api/bot/game/stream/<id>` (`gameFull`,
then a `gameState` for each new STATE, until the game ends) and answers its turns with
`POST /api/matches/<id>/moves` (docs/api.md, "Bots"). Only the Python standard library is used.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Iterator


class Quadrille:
    def __init__(self, server: str, token: str):
        self.server, self.token = server.rstrip("/"), token

    def _request(self, method: str, path: str, body: dict | None = None) -> urllib.request.Request:
        request = urllib.request.Request(self.server + path, method=method,
                                         headers={"Authorization": f"Bearer {self.token}"})
        if body is not None:
            request.data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            answer = json.load(error)
            raise RuntimeError(f"{method} {path}: {error.code} {answer.get('error')}: {answer.get('reason')}") from None

    def stream(self, path: str) -> Iterator[dict]:
        """The objects of an NDJSON stream, as they come (the empty keep-alive lines are passed over). The
        server sends one every few seconds, so a read that waits much longer means the connection is gone."""
        try:
            with urllib.request.urlopen(self._request("GET", path), timeout=60) as response:
                for line in response:
                    if line.strip():
                        yield json.loads(line)
        except urllib.error.HTTPError as error:
            answer = json.load(error)
            raise RuntimeError(f"GET {path}: {error.code} {answer.get('error')}: {answer.get('reason')}") from None


def play(api: Quadrille, match: str) -> dict:
    """Random legal moves on our turns, from the game's stream, until the game ends; answers the outcome."""
    seats: list[int] = []
    state: dict = {}
    for event in api.stream(f"/api/bot/game/stream/{match}"):
        if event["type"] == "gameFull":
            seats = event["you"]["seats"]
            print(f"playing match {match} as seat(s) {seats}", flush=True)
        state = event["state"]
        if state["outcome"] is None and state["turn"] in seats and state["legal"]:
            move = random.choice(state["legal"])
            try:
                api.call("POST", f"/api/matches/{match}/moves", {"move": move, "version": state["version"]})
            except RuntimeError as error:  # the match moved meanwhile (stale-version): the next STATE is coming
                print(f"refused: {error}", flush=True)
    return state.get("outcome") or {}


class Bot:
    def __init__(self, api: Quadrille, games: int):
        self.api, self.games = api, games
        self.playing: set[str] = set()
        self.finished: list[str] = []
        self.lock = threading.Lock()
        self.done = threading.Event()

    def run(self) -> None:
        """Read the event stream, opening it again when the connection drops (its first lines are then the
        games under way and the challenges waiting, so nothing is missed), until enough games finished."""
        while not self.done.is_set():
            try:
                for event in self.api.stream("/api/stream/event"):
                    self.on_event(event)
                    if self.done.is_set():
                        return
            except (OSError, RuntimeError) as error:
                print(f"event stream dropped ({error}); opening it again", flush=True)
                time.sleep(1)

    def on_event(self, event: dict) -> None:
        kind = event["type"]
        if kind == "challenge":
            challenge = event["challenge"]
            if any(to["status"] == "pending" for to in challenge["to"]) and challenge["status"] == "pending":
                try:
                    self.api.call("POST", f"/api/challenges/{challenge['challenge']}/accept")
                    print(f"accepted {challenge['from']}'s challenge to {challenge['title']}", flush=True)
                except RuntimeError as error:  # cancelled meanwhile, or our own challenge
                    print(f"could not accept: {error}", flush=True)
        elif kind == "gameStart":
            match = event["game"]["id"]
            with self.lock:
                if match in self.playing:
                    return
                self.playing.add(match)
            threading.Thread(target=self.play_one, args=(match,), daemon=True).start()
        elif kind == "gameFinish":
            print(f"match {event['game']['id']} finished: {event['game']['result']}", flush=True)

    def play_one(self, match: str) -> None:
        try:
            outcome = play(self.api, match)
            print(f"match {match} over: winners {outcome.get('winners')} ({outcome.get('reason')})", flush=True)
        except (OSError, RuntimeError) as error:
            print(f"match {match}: {error}", flush=True)
        with self.lock:
            self.playing.discard(match)
            self.finished.append(match)
            if self.games and len(self.finished) >= self.games:
                self.done.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:5000")
    parser.add_argument("--token-file", help="a file whose first line is the API token (else $QUADRILLE_BOT_TOKEN)")
    parser.add_argument("--token", help=argparse.SUPPRESS)  # only to refuse it clearly: see the_token
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    args = parser.parse_args(argv)
    bot = Bot(Quadrille(args.server, the_token(parser, args)), args.games)
    threading.Thread(target=bot.run, daemon=True).start()
    bot.done.wait()
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
