"""Whether a guest's seat name would pose as an account: the check quadrille/names.py's `seat_name` asks.

A name looks like an account's when its look-alike key (`names.key`) is an account's `name_skeleton` (a unique
index: one read). The player asking may use their own account's name, or a look-alike of it: the session
(or API token) of the request being handled says who that is, in an HTTP request or a Socket.IO event alike
(Flask-SocketIO handles each event in the request context of its connection).
"""
from __future__ import annotations

from typing import Callable

from flask import has_request_context
from sqlalchemy import select

from ..infra.schema import accounts_table
from .sessions import current_account


def looks_like_account(storage) -> Callable[[str], bool]:
    def check(key: str) -> bool:
        with storage.reading() as conn:
            found = conn.execute(select(accounts_table.c.id)
                                 .where(accounts_table.c.name_skeleton == key)).scalar_one_or_none()
        if found is None:
            return False
        asking = current_account(required=False) if has_request_context() else None
        return asking is None or asking.id != found
    return check
