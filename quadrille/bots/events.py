"""What a bot hears, in lichess's words, from what the server already tells: the challenges' notifications
(the ones the pages' Socket.IO inbox hears), the match bus (a game's end, a rematch) and the rooms' STATEs.

Topics of the hub (hub.py): `account:<id>` carries an account's events, `match:<id>` a match's STATEs. Events:

    {"type": "challenge", "challenge": CHALLENGE}           made to the account (or by it), still pending
    {"type": "challengeCanceled", "challenge": CHALLENGE}   the challenger cancelled it
    {"type": "challengeDeclined", "challenge": CHALLENGE}   a player declined it
    {"type": "gameStart", "game": GAME}                     a match of the account's began (challenge, rematch)
    {"type": "gameFinish", "game": GAME}                    a match of the account's ended

GAME is a line of "my games" (docs/api.md) with `id` (the match id) besides `match`. The work of building a
GAME (three reads) happens in a background task, never in the command that caused it (a move waits for the
bus's listeners).
"""
from __future__ import annotations

import logging
from typing import Callable

from ..accounts import my_games
from .hub import MemoryHub

log = logging.getLogger("quadrille.bots")

CHALLENGE_TYPES = {"pending": "challenge", "cancelled": "challengeCanceled", "declined": "challengeDeclined"}


def account_topic(account_id: int) -> str:
    return f"account:{account_id}"


def match_topic(match_id: str) -> str:
    return f"match:{match_id}"


def held_by_accounts(state: dict) -> bool:
    """Whether an account holds a seat of the match (only such a match has a bot's stream to hear it)."""
    return any(seat.get("account") for seat in state.get("seats", ()))


class BotEvents:
    def __init__(self, hub: MemoryHub, accounts, ratings, spawn: Callable):
        self.hub, self.accounts, self.ratings, self.spawn = hub, accounts, ratings, spawn

    # -- producers ------------------------------------------------------------------------------------------
    def on_challenge(self, account_id: int, event: str, challenge: dict) -> None:
        """A challenge notification (challenges/service.py's `notify`)."""
        if event != "challenge":
            return
        status = challenge.get("status")
        if status == "accepted":
            if challenge.get("match"):
                self.spawn(self._game_event, "gameStart", challenge["match"], [account_id])
            return
        kind = CHALLENGE_TYPES.get(status)
        if kind is not None:
            self.hub.publish(account_topic(account_id), {"type": kind, "challenge": challenge})

    def on_ended(self, match_id: str, payload: dict) -> None:
        if not payload.get("accounts", True):
            return  # no account holds a seat (the match core's `accounts`): no stream to tell, nothing read
        self.spawn(self._game_event, "gameFinish", match_id, None)

    def on_rematch(self, _match_id: str, payload: dict) -> None:
        self.spawn(self._game_event, "gameStart", payload["match"], None)

    def on_state(self, match_id: str, state: dict) -> None:
        """Every STATE the room hears; only those of matches an account plays can have a bot's stream."""
        if held_by_accounts(state):
            self.hub.publish(match_topic(match_id), {"type": "gameState", "state": state})

    # -- the GAME lines -------------------------------------------------------------------------------------
    def game_of(self, account, match_id: str) -> dict | None:
        """The account's line of this match in "my games" (None: it holds no seat there)."""
        rated = self.ratings.rated([match_id])
        lines = my_games.games_of(self.accounts, rated, [(match_id, account.seat_key)], finished=True)
        return {"id": lines[0]["match"], **lines[0]} if lines else None

    def _game_event(self, kind: str, match_id: str, account_ids: list[int] | None) -> None:
        try:
            if account_ids is None:
                account_ids = list(self.accounts.accounts_in(match_id))
            for account_id in account_ids:
                account = self.accounts.get(account_id)
                game = self.game_of(account, match_id) if account is not None else None
                if game is not None:
                    self.hub.publish(account_topic(account_id), {"type": kind, "game": game})
        except Exception:  # a bot's stream misses one event; the match and everyone else are not affected
            log.exception("bot streams: could not tell the players of %s its %s", match_id, kind)
