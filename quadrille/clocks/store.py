"""The clocks' SQL (infra/schema.py's `clocks` and `clock_beat` tables): each clocked match's running
deadline, and the servers' heartbeat."""
from __future__ import annotations

import json

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from ..infra.database import Database
from ..infra.schema import clock_beat_table, clocks_table


class ClockStore:
    def __init__(self, storage: Database):
        self.engine = storage.engine
        self.reading = storage.reading  # a connection for reads only

    def set_deadline(self, match_id: str, control: dict, seat: int | None, deadline: float | None) -> None:
        """Record which seat's clock runs and when it runs out (None: none runs): one row per clocked match."""
        values = {"control": json.dumps(control), "seat": seat, "deadline": deadline}
        with self.engine.begin() as conn:
            done = conn.execute(update(clocks_table).where(clocks_table.c.match_id == match_id).values(**values))
            if done.rowcount == 0:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(clocks_table).values(match_id=match_id, **values))
                except IntegrityError:  # another process inserted it meanwhile
                    conn.execute(update(clocks_table).where(clocks_table.c.match_id == match_id).values(**values))

    def running(self) -> list[tuple[str, int, float]]:
        """Every (match, seat, deadline) whose clock runs, earliest first (ix_clocks_deadline)."""
        with self.reading() as conn:
            return [tuple(r) for r in conn.execute(
                select(clocks_table.c.match_id, clocks_table.c.seat, clocks_table.c.deadline)
                .where(clocks_table.c.deadline.is_not(None)).order_by(clocks_table.c.deadline))]

    def deadlines(self, match_ids: list[str]) -> dict[str, tuple[dict, int | None, float | None]]:
        """For each clocked match among `match_ids`: (control, running seat, deadline), by primary key."""
        if not match_ids:
            return {}
        with self.reading() as conn:
            rows = conn.execute(select(clocks_table).where(clocks_table.c.match_id.in_(list(match_ids))))
            return {r.match_id: (json.loads(r.control), r.seat, r.deadline) for r in rows}

    # -- the heartbeat ---------------------------------------------------------------------------------
    def last_beat(self) -> float | None:
        with self.reading() as conn:
            row = conn.execute(select(clock_beat_table.c.at).where(clock_beat_table.c.id == 1)).first()
        return None if row is None else row[0]

    def beat(self, now: float, expected: float | None = None) -> bool:
        """Say this server is alive at `now`. With `expected`: only if the last beat is still that one (the one
        process that wins this credits the downtime, see Clocks.resume); True when written."""
        with self.engine.begin() as conn:
            statement = update(clock_beat_table).where(clock_beat_table.c.id == 1).values(at=now)
            if expected is not None:
                statement = statement.where(clock_beat_table.c.at == expected)
            if conn.execute(statement).rowcount == 1:
                return True
            if expected is not None:
                return False
            try:
                with conn.begin_nested():
                    conn.execute(insert(clock_beat_table).values(id=1, at=now))
                return True
            except IntegrityError:
                return False
