"""Anonymous imports that nobody opened are deleted after a retention (setting IMPORT_RETENTION, a day by
default), so that a script importing records by the thousand does not fill the database for ever.

An import (`POST /api/matches/import`) is stored with `expires` = its creation + the retention. It is kept for
good as soon as anyone does anything with it: its player opens it (a `watch` or a request with its token:
MatchService.seats_of clears `expires`), or anything is written to it (a move, a seat claimed or handed over to
an account, a pause: its `revision` moves from 0). Every other match never expires.

The sweep is a timer (infra/timers.py), so that one process of several runs each: it is scheduled for the
next expiry when the server starts and after each sweep, and an import schedules one for its own expiry (the
earliest schedule stands). A sweep deletes the due imports still unopened (their seats, events and clocks too)
a batch at a time (each batch a turn of the timer), and forgets `expires` on the due ones that were written to.

    retention = Retention(service, timers, seconds)   # the factory; seconds None: imports never expire
    retention.imported()                              # an import was made (the HTTP door)
    retention.sweep()                                 # what the timer runs; tests call it
"""
from __future__ import annotations

import logging
import time

from sqlalchemy import func, select, true, update

from ..infra.schema import clocks_table, events_table, matches_table, seats_table
from .pacing import Pacer

SWEEP_KEY = "retention:sweep"
BATCH = 20     # imports deleted per turn of the sweep
EVENTS = 1000  # events deleted per transaction (an import may hold 26,000)
log = logging.getLogger("quadrille")


class RetentionStore:
    """The retention's rows: `matches.expires` and its index (ix_matches_expires)."""

    def __init__(self, storage):
        self.engine, self.reading = storage.engine, storage.reading

    def due(self, now: float, limit: int | None = None) -> list[str]:
        """Imports due to expire that nothing was written to since they were made, the earliest first."""
        with self.reading() as conn:
            return list(conn.execute(select(matches_table.c.id).where(
                matches_table.c.expires <= now, matches_table.c.revision == 0)
                .order_by(matches_table.c.expires).limit(limit or BATCH)).scalars())

    def keep_written(self, now: float) -> None:
        """Due imports that were written to since (played, claimed) are kept: they leave the index."""
        with self.engine.begin() as conn:
            conn.execute(update(matches_table).where(matches_table.c.expires <= now, matches_table.c.revision != 0)
                         .values(expires=None))

    def next_expiry(self) -> float | None:
        """When the next import is due (the first entry of ix_matches_expires), or None."""
        with self.reading() as conn:
            return conn.execute(select(func.min(matches_table.c.expires))).scalar()

    def delete(self, match_ids, pause=lambda: None) -> list[str]:
        """Delete these matches with their seats, events and clocks, each only while it is still due to expire
        and unwritten (a seat claimed or a move meanwhile keeps it); the ids deleted. The match's row goes first,
        with its seats and clocks, in one transaction (nobody sees it after that), then its events, EVENTS a
        transaction, `pause()` between two (an import may hold 26,000)."""
        deleted = []
        for match_id in match_ids:
            with self.engine.begin() as conn:
                gone = conn.execute(matches_table.delete().where(
                    matches_table.c.id == match_id, matches_table.c.expires.is_not(None),
                    matches_table.c.revision == 0))
                if gone.rowcount != 1:
                    continue
                for table in (seats_table, clocks_table):
                    conn.execute(table.delete().where(table.c.match_id == match_id))
            deleted.append(match_id)
            self._delete_events(match_id, pause)
        return deleted

    def _delete_events(self, match_id: str, pause) -> None:
        while True:
            with self.engine.begin() as conn:
                last = conn.execute(select(events_table.c.seq).where(events_table.c.match_id == match_id)
                                    .order_by(events_table.c.seq).offset(EVENTS - 1).limit(1)).scalar()
                below = events_table.c.seq <= last if last is not None else true()
                conn.execute(events_table.delete().where(events_table.c.match_id == match_id, below))
            if last is None:
                return
            pause()


class Retention:
    def __init__(self, service, timers, seconds: float | None, clock=time.time, sleep=None):
        """`timers`: the service's (their own clock, which may not be wall-clock time); `clock`: wall-clock
        time, the time `expires` is written in; `sleep`: Flask-SocketIO's, to let the others be served during
        a long deletion (pacing.py)."""
        self.service, self.timers, self.seconds, self.clock = service, timers, seconds, clock
        self.sleep = sleep
        self.store = RetentionStore(service.storage)
        service.import_retention = seconds
        timers.handle(SWEEP_KEY, lambda _keys: self.sweep())
        self._schedule(self.store.next_expiry())

    def imported(self) -> None:
        """An anonymous import was made: a sweep when it is due (an earlier one scheduled stands)."""
        if self.seconds is not None:
            self._schedule(self.clock() + self.seconds)

    def sweep(self) -> list[str]:
        """Delete a batch of the unopened imports that are due (answers their ids); the next batch, or the next
        expiry, is the timer's next turn, so that the server serves between two batches."""
        now = self.clock()
        due = self.store.due(now)
        deleted = self.store.delete(due, Pacer(self.sleep))
        self.service.forget(deleted)
        if deleted:
            log.info("retention: %d unopened imports deleted", len(deleted))
        if len(due) == BATCH:
            self._schedule(now)
        else:
            self.store.keep_written(now)
            self._schedule(self.store.next_expiry())
        return deleted

    def _schedule(self, expires: float | None) -> None:
        if expires is not None:
            self.timers.schedule(SWEEP_KEY, self.timers.clock() + max(expires - self.clock(), 0.0) + 1.0)
