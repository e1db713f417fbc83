"""Deleting an account: nothing that hangs on it outlives it, and nobody inherits any of it.

1. Its games under way end as the rules end a game a player leaves for good, through the match service's own
   operations: an online game in which not every player has moved yet is aborted (no result, nobody rated);
   a two-player game under way is resigned (the opponent wins, rated if it was), and so is a game against the
   computer (matches/resigning.py: the computer wins). A game of more players that
   can no longer be aborted goes on without it: its seats, like every other seat of the account, go to a key
   nobody holds, named "deleted player", and the others may claim the game or hand the seat to the computer
   once it has been away for the disconnect timeout, as with any player who left.
2. Then, in one transaction: its sessions, API tokens, list of matches and rating history go, the services
   beside this one forget it (`forgetters`: its ratings, its pending challenges), and the account row goes.
   Its id is never given to another account (infra/schema.py), and rated_matches keep it, so the games it
   played stay rated for its opponents.
"""
from __future__ import annotations

import secrets
from typing import Callable, Iterable

from sqlalchemy import delete

from ..errors import ServiceError
from ..infra.schema import account_matches_table, accounts_table, rating_history_table

DELETED = "deleted player"


def end_games_and_release_seats(matches, match_ids: Iterable[str], seat_key: str,
                                pause: Callable[[float], None] = lambda seconds: None) -> None:
    """Abort or resign each game under way that `seat_key` plays (whichever the rules allow), then hand every
    seat it holds to a key nobody has, named DELETED. `pause(0)` after each match lets the other clients be
    served (a match not in the cache is replayed)."""
    nobody = secrets.token_urlsafe(24)
    for match_id in match_ids:
        end_game(matches, match_id, seat_key)
        try:
            matches.hand_over(match_id, seat_key, nobody, name=DELETED)
        except ServiceError:
            pass  # a match whose seat the account no longer holds (handed to the computer, say)
        pause(0)


def end_game(matches, match_id: str, seat_key: str) -> None:
    """Abort the game if the rules still allow it, else resign it; a finished game, a game on one screen and an
    online game of more players past its first moves refuse both and are left as they are."""
    for leave in (matches.abort, matches.resign):
        try:
            leave(match_id, seat_key)
            return
        except ServiceError:
            continue


def forget_rows(conn, account_id: int, forgetters: list[Callable], *also: Callable) -> None:
    """Everything the database keeps of the account, in the caller's transaction: `also(conn, account_id)`
    (its sessions and API tokens), its list of matches, its rating history, what each of `forgetters` keeps,
    and the account row itself."""
    for forget in also:
        forget(conn, account_id)
    conn.execute(delete(account_matches_table).where(account_matches_table.c.account_id == account_id))
    # The ratings service's forget() drops the current ratings; the history would otherwise stay under an id
    # nobody will hold again: it goes with the rest.
    conn.execute(delete(rating_history_table).where(rating_history_table.c.account_id == account_id))
    for forget in forgetters:
        forget(conn, account_id)
    conn.execute(delete(accounts_table).where(accounts_table.c.id == account_id))
