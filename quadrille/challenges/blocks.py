"""Blocks: a player refuses another's challenges (lichess's block list, for challenges).

A blocked account's challenges to the one who blocked it are refused with the words any refusal has ("Your
challenge was not accepted."): it is never told that it is blocked, nor by whom. Blocking declines the
challenges it has waiting for the blocker. The blocker still sees the other's games and profile, and may
still challenge it. A deleted account's blocks go, both ways, in the deletion's transaction.
"""
from __future__ import annotations

import time

from sqlalchemy import delete, func, insert, or_, select

from ..errors import ServiceError, bad_request
from ..i18n import _l, _ln
from ..infra.schema import accounts_table, blocks_table

MAX_BLOCKS = 500  # accounts one player may block: a list a page can show


class Blocks:
    def __init__(self, storage, accounts):
        self.engine = storage.engine
        self.reading = storage.reading
        self.accounts = accounts

    def blocks(self, conn, blocker_id: int, blocked_id: int) -> bool:
        """Whether blocker_id blocks blocked_id (one primary-key read, in the caller's transaction)."""
        return conn.execute(select(blocks_table.c.account_id).where(
            blocks_table.c.account_id == blocker_id, blocks_table.c.blocked_id == blocked_id)).first() is not None

    def listing(self, account) -> list[dict]:
        """Whom the account blocks, the latest first: [{"name", "since"}]."""
        with self.reading() as conn:
            rows = conn.execute(select(accounts_table.c.name, blocks_table.c.created)
                                .join(accounts_table, accounts_table.c.id == blocks_table.c.blocked_id)
                                .where(blocks_table.c.account_id == account.id)
                                .order_by(blocks_table.c.created.desc())).all()
        return [{"name": row.name, "since": row.created} for row in rows]

    def _other(self, account, name):
        if not isinstance(name, str):
            raise bad_request(_l("name must be a player's name."), "bad-player")
        other = self.accounts.by_name(name)
        if other is None:
            raise ServiceError(404, "unknown-player", _l("There is no player called '%(name)s'.", name=name))
        if other.id == account.id:
            raise bad_request(_l("You cannot block yourself."), "bad-player")
        return other

    def block(self, conn, account, name):
        """Block the player called `name` (again: no change), in the caller's transaction; the blocked account."""
        other = self._other(account, name)
        if self.blocks(conn, account.id, other.id):
            return other
        count = conn.execute(select(func.count()).select_from(blocks_table)
                             .where(blocks_table.c.account_id == account.id)).scalar_one()
        if count >= MAX_BLOCKS:
            raise ServiceError(409, "too-many-blocks", _ln("You block %(num)d player already, the most a list holds.",
                                                                    "You block %(num)d players already, the most a "
                                                                    "list holds.", count))
        conn.execute(insert(blocks_table).values(account_id=account.id, blocked_id=other.id, created=time.time()))
        return other

    def unblock(self, account, name) -> None:
        other = self._other(account, name)
        with self.engine.begin() as conn:
            conn.execute(delete(blocks_table).where(blocks_table.c.account_id == account.id,
                                                    blocks_table.c.blocked_id == other.id))

    def forget(self, conn, account_id: int) -> None:
        """A deleted account's blocks, both ways (ix_blocks_blocked for the rows that name it)."""
        conn.execute(delete(blocks_table).where(or_(blocks_table.c.account_id == account_id,
                                                    blocks_table.c.blocked_id == account_id)))
