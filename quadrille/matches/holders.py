"""Which seats of a match accounts hold, so that the STATE marks them (`"account": true`) and no guest can pose
as a player with an account.

The match core knows nothing of accounts: an account holds its seats with its seat key, a token like any other.
So the fact is learnt where it happens, and kept on the cached match (`Match.accounts`):

- a seat given with a token the caller chose (`create`/`claim` with `token`): only the accounts' side does so
  (a challenge's match, made with the accounts' seat keys; the doors never pass a token);
- seats handed over (`hand_over`) to an account's seat key (a browser's games going to its account) become an
  account's; handed to any other token (a deleted account's, to a key nobody holds) they stop being one;
- a rematch's seats are held by the same tokens, so by the same accounts.

A match read from storage (a cache miss, another process's change to its seats) reads them from the accounts'
own record, `account_matches`, keeping only accounts that still exist: one indexed read when a match is loaded,
never one per move.
"""
from __future__ import annotations

import json

from sqlalchemy import select

from ..accounts.service import SEAT_KEY_PREFIX  # an account's seat key begins so; no other token does
from ..infra.schema import account_matches_table, accounts_table


def load(storage, match_id: str) -> set[int]:
    """The seats of a stored match that living accounts hold (ix_account_matches_match, then accounts' key)."""
    with storage.reading() as conn:
        rows = conn.execute(select(account_matches_table.c.seats)
                            .join(accounts_table, accounts_table.c.id == account_matches_table.c.account_id)
                            .where(account_matches_table.c.match_id == match_id)).scalars().all()
    return {seat for seats in rows for seat in json.loads(seats)}


def handed(accounts: set[int], seats: list[int], new_token: str) -> None:
    """Seats handed over to `new_token`: an account's from now on if it is a seat key, else no longer."""
    if new_token.startswith(SEAT_KEY_PREFIX):
        accounts.update(seats)
    else:
        accounts.difference_update(seats)
