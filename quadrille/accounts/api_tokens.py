"""API tokens (`qbt_…`): what a bot sends instead of a session cookie. Shown once when made; only the
SHA-256 is stored. The account page lists them (label, made, last used) and revokes any of them.

A token's public `id` is the first 16 hex digits of that hash: it names the token on the account page and
in the revoke call, and tells nothing of the token itself. `last_used` is written at most every TOUCH_EVERY
seconds, so a bot that plays through its token costs a read a request, as it did, and a write now and then.
"""
from __future__ import annotations

import secrets
import time
from typing import Callable

from sqlalchemy import delete, func, insert, select, update

from ..errors import ServiceError, bad_request
from ..i18n import _l, _ln
from ..infra.schema import accounts_table, api_tokens_table
from ..infra.tokens import hash_token, well_formed

PREFIX = "qbt_"            # so that a Bearer token says which kind it is (and log scanners find it)


def is_api_token(token) -> bool:
    """Whether a token a client sent is of the API tokens' kind (not a seat token): the prefix says it."""
    return isinstance(token, str) and token.startswith(PREFIX)
MAX_PER_ACCOUNT = 20
MAX_LABEL = 40
ID_LENGTH = 16
TOUCH_EVERY = 300.0

tokens = api_tokens_table.c


def check_label(label) -> str | None:
    if label is not None and (not isinstance(label, str) or len(label) > MAX_LABEL):
        raise bad_request(_l("label must be text of at most %(most)d characters.", most=MAX_LABEL))
    return label or None


class ApiTokens:
    def __init__(self, engine, reading: Callable, clock: Callable[[], float] = time.time):
        self.engine, self.reading, self.clock = engine, reading, clock

    def create(self, account_id: int, label=None) -> str:
        """A new token of the account (409 `too-many-tokens` past MAX_PER_ACCOUNT); answers the token."""
        label = check_label(label)
        token = PREFIX + secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            count = conn.execute(select(func.count()).select_from(api_tokens_table)
                                 .where(tokens.account_id == account_id)).scalar_one()
            if count >= MAX_PER_ACCOUNT:
                raise ServiceError(409, "too-many-tokens", _ln("An account has at most %(num)d API token; revoke it "
                                                               "first.",
                                                                       "An account has at most %(num)d API tokens; "
                                                                       "revoke one first.", MAX_PER_ACCOUNT))
            conn.execute(insert(api_tokens_table).values(token_hash=hash_token(token), account_id=account_id,
                                                         label=label, created=self.clock(), last_used=None))
        return token

    def listing(self, account_id: int) -> list[dict]:
        """The account's tokens, the newest first: {"id", "label", "created", "last_used"} (never the token)."""
        with self.reading() as conn:
            rows = conn.execute(select(api_tokens_table).where(tokens.account_id == account_id)
                                .order_by(tokens.created.desc())).all()
        return [{"id": row.token_hash[:ID_LENGTH], "label": row.label, "created": row.created,
                 "last_used": row.last_used} for row in rows]

    def revoke(self, account_id: int, token_id) -> None:
        """Revoke the account's token of this id (404 `not-found` when it has none)."""
        if not isinstance(token_id, str) or len(token_id) != ID_LENGTH:
            raise ServiceError(404, "not-found", _l("There is no such API token."))
        with self.engine.begin() as conn:
            hashes = [h for h in conn.execute(select(tokens.token_hash).where(tokens.account_id == account_id))
                      .scalars() if h[:ID_LENGTH] == token_id]
            if not hashes:
                raise ServiceError(404, "not-found", _l("There is no such API token."))
            conn.execute(delete(api_tokens_table).where(tokens.token_hash.in_(hashes)))

    def revoke_all(self, conn, account_id: int) -> None:
        """Every token of the account ends (in the caller's transaction)."""
        conn.execute(delete(api_tokens_table).where(tokens.account_id == account_id))

    def account_row(self, token):
        """The row of the account this token authenticates (None: not a token of ours, or revoked)."""
        if not well_formed(token) or not token.startswith(PREFIX):
            return None
        token_hash = hash_token(token)
        with self.reading() as conn:
            row = conn.execute(select(accounts_table, tokens.last_used).join(
                api_tokens_table, tokens.account_id == accounts_table.c.id)
                .where(tokens.token_hash == token_hash)).first()
        now = self.clock()
        if row is not None and (row.last_used is None or row.last_used < now - TOUCH_EVERY):
            with self.engine.begin() as conn:
                conn.execute(update(api_tokens_table).where(tokens.token_hash == token_hash).values(last_used=now))
        return row
