"""Logged-in sessions, kept on the server: a row per browser that logged in.

The session cookie (Flask's, signed) names a random session id; only its SHA-256 is stored, so a copy of the
database opens no session. A session ends when its row goes: logging out deletes it (a copy of the cookie
then opens nothing), a new password deletes the account's other rows, deleting the account deletes them all,
and a row unused for the session lifetime counts as gone (and is swept when its account next logs in).

`last_used` is written at most every TOUCH_EVERY seconds, so a page that asks who is logged in on every
load costs a read, not a write. An account keeps at most MAX_PER_ACCOUNT sessions: logging in past that
ends the least recently used.

Why not Flask-Session: it keeps the whole session dict server-side, through Flask-SQLAlchemy or a cache, in a
schema of its own outside these migrations, and it cannot find an account's sessions to end them all (a
password change, a deletion). Flask's signed cookie stays as it was (it carries the CSRF token and the session
id); only the proof of who is logged in moved to this table.
"""
from __future__ import annotations

import secrets
import time
from typing import Callable

from sqlalchemy import delete, insert, select, update

from ..infra.schema import account_sessions_table, accounts_table
from ..infra.tokens import hash_token, well_formed

TOUCH_EVERY = 300.0
MAX_PER_ACCOUNT = 50

sessions = account_sessions_table.c


class Sessions:
    def __init__(self, engine, reading: Callable, lifetime: float, clock: Callable[[], float] = time.time):
        """`lifetime`: seconds a session lives unused (the cookie's own lifetime)."""
        self.engine, self.reading, self.lifetime, self.clock = engine, reading, lifetime, clock

    def open(self, account_id: int) -> str:
        """A new session of the account; answers its id (for the cookie, never stored)."""
        session_id = secrets.token_urlsafe(32)
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions_table).where(sessions.account_id == account_id,
                                                              sessions.last_used < now - self.lifetime))
            kept = list(conn.execute(select(sessions.id_hash).where(sessions.account_id == account_id)
                                     .order_by(sessions.last_used.desc())).scalars())
            if len(kept) >= MAX_PER_ACCOUNT:
                conn.execute(delete(account_sessions_table).where(
                    sessions.id_hash.in_(kept[MAX_PER_ACCOUNT - 1:])))
            conn.execute(insert(account_sessions_table).values(id_hash=hash_token(session_id), account_id=account_id,
                                                               created=now, last_used=now))
        return session_id

    def account_row(self, session_id):
        """The row of the account whose live session this is (None: no such session, ended or expired)."""
        if not well_formed(session_id):
            return None
        now = self.clock()
        id_hash = hash_token(session_id)
        with self.reading() as conn:
            row = conn.execute(select(accounts_table, sessions.last_used).join(
                account_sessions_table, sessions.account_id == accounts_table.c.id)
                .where(sessions.id_hash == id_hash)).first()
        if row is None or row.last_used < now - self.lifetime:
            return None
        if row.last_used < now - TOUCH_EVERY:
            with self.engine.begin() as conn:
                conn.execute(update(account_sessions_table).where(sessions.id_hash == id_hash).values(last_used=now))
        return row

    def end(self, session_id) -> None:
        if well_formed(session_id):
            with self.engine.begin() as conn:
                conn.execute(delete(account_sessions_table).where(sessions.id_hash == hash_token(session_id)))

    def end_all(self, conn, account_id: int) -> None:
        """Every session of the account ends (in the caller's transaction)."""
        conn.execute(delete(account_sessions_table).where(sessions.account_id == account_id))
