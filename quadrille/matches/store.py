"""The matches' SQL: options, seats and the append-only list of events (their tables: infra/schema.py).

Storage never imports an engine: it keeps options and move strings, and the match service replays them. It
speaks SQLAlchemy Core on the database it opens (infra/database.py: SQLite by default, or PostgreSQL through
psycopg 3 when several server processes share one database), which the other services share through it.

Each match has a `revision`, bumped by every write to it (an event, a seat, a pause) in the same statement or
transaction: a process that caches matches while others write to the same database checks it and reads the
events it lacks in one statement (`since(match_id, version)`: a primary-key read and an index range), and
reads the seats again when the revision moved by more than the new events (`seats(match_id)`).
"""
from __future__ import annotations

import json
import sqlite3
import time
from json.encoder import encode_basestring_ascii
from dataclasses import dataclass, field

from sqlalchemy import (Float, Integer, String, Text, bindparam, cast, exists, insert, literal_column, select,
                        update)
from sqlalchemy.exc import IntegrityError

from ..infra.database import Database
from ..infra.schema import events_table, matches_table, seats_table
from .list_reads import ListReads

EVENT_COLUMNS = ("match_id", "seq", "kind", "data", "seat", "at")
EVENT_BATCH = 1000  # events of a long import written per transaction, the other clients served between two
VISIBILITIES = ("private", "public", "open")
LISTED = ("public", "open")  # the visibilities shown in the public list


class Conflict(Exception):
    """A write lost a race (an event with this sequence number already exists)."""


def _summarised(appended):
    """The append as one statement on PostgreSQL: the match's summary updated from the event `appended` (a CTE
    that inserts it) inserted, in the same statement."""
    return (update(matches_table).where(matches_table.c.id == appended.c.match_id)
            .values(version=appended.c.seq, updated=appended.c.at, summary=bindparam("summary", type_=Text),
                    revision=matches_table.c.revision + literal_column("1")))


class RevisionMoved(Conflict):
    """A guarded append found the match changed since the writer's copy (a seat handed over, a pause), though
    no event was added: nothing was written."""


@dataclass
class SeatRow:
    seat: int
    kind: str = "human"
    token_hash: str | None = None
    name: str | None = None
    claimed: float | None = None


@dataclass
class EventRow:
    seq: int
    kind: str
    data: dict
    seat: int | None
    at: float


@dataclass
class MatchRow:
    id: str
    game: str
    options: dict
    mode: str
    name: str | None = None
    meta: dict = field(default_factory=dict)
    created: float = field(default_factory=time.time)
    visibility: str = "private"
    seats: list[SeatRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    revision: int = 0
    paused: bool = False
    summary: str | None = None      # what lists show (JSON; matches/summary.py), written with the match
    expires: float | None = None    # an anonymous import nobody opened goes after this (matches/retention.py)


class Storage(ListReads, Database):
    """Matches, seats and events in the database it opens (and migrates: infra/database.py)."""

    def __init__(self, url: str):
        super().__init__(url)
        if self.dialect == "postgresql":
            # The append as one statement (the event inserted, the summary updated from it): atomic by itself,
            # one round trip instead of four.
            self._append_sql, self._append_args = self._for_driver(self._append_cte)
            self._guarded_sql, self._guarded_args = self._for_driver(self._append_guarded_cte)
            self._summarise_sql = None
        else:
            self._append_sql, self._append_args = self._for_driver(self._insert_event,
                                                                   [c.name for c in events_table.c])
            self._summarise_sql, self._summarise_args = self._for_driver(self._summarise)
            self._guarded_sql, self._guarded_args = self._for_driver(self._summarise_guarded)
        self._revision_sql, self._revision_args = self._for_driver(self._revision)
        self._events_sql, _ = self._for_driver(self._insert_event, list(EVENT_COLUMNS))
        compiled = self._insert_event.compile(dialect=self.engine.dialect, column_keys=list(EVENT_COLUMNS))
        self._events_positional = compiled.positional
        assert not compiled.positional or tuple(compiled.positiontup) == EVENT_COLUMNS
        self._since_sql, self._since_args = self._for_driver(self._since)
        # once per game (creating it, claiming its seats): compiled here, not per call (it was most of their cost)
        self._match_sql, self._match_args = self._for_driver(insert(matches_table), [
            c.name for c in matches_table.c if c.name not in ("revision", "paused")])  # those two: their defaults
        self._seat_sql, self._seat_args = self._for_driver(insert(seats_table), [c.name for c in seats_table.c])
        self._claim_sql, self._claimed_sql = self._for_driver(self._claim), self._for_driver(self._claimed)

    # -- writes -------------------------------------------------------------
    def create_match(self, m: MatchRow, pause=None) -> None:
        """Store a new match with its seats and events. `pause()`: lets the other clients be served now and then
        (matches/pacing.py), called along a long import's events: those are written first, EVENT_BATCH a transaction
        (one transaction of 25,000 events held the event loop for 0.1-0.2 s), and the match itself, its seats and
        its last events in one transaction at the end, so that nobody sees the match before it is whole (a
        process dying meanwhile leaves events of a match that does not exist, which nothing reads)."""
        pause = pause or (lambda: None)
        rows = self._event_rows(m.id, m.events, pause)
        while len(rows) > EVENT_BATCH:
            batch, rows = rows[:EVENT_BATCH], rows[EVENT_BATCH:]
            with self.engine.begin() as conn:
                conn.exec_driver_sql(self._events_sql, batch)
            pause()
        with self._through_engine() if rows else self._writer() as execute:
            self._insert_match(execute, m)
            if rows:  # the driver's executemany, as compiled once
                execute(self._events_sql, rows)

    def _insert_match(self, execute, m: MatchRow) -> None:
        """The match's row and its seats' rows (a new game, without events, on SQLite: through sqlite3's own
        connection, as a move's append)."""
        execute(self._match_sql, self._match_args({
            "id": m.id, "game": m.game, "options": json.dumps(m.options), "mode": m.mode, "name": m.name,
            "meta": json.dumps(m.meta), "created": m.created, "version": max((e.seq for e in m.events), default=0),
            "visibility": m.visibility, "listed": m.visibility in LISTED,
            "updated": max((e.at for e in m.events), default=m.created), "summary": m.summary,
            "expires": m.expires}))
        for s in m.seats:
            execute(self._seat_sql, self._seat_args({"match_id": m.id, **vars(s)}))  # SeatRow: the seats' columns

    def _event_rows(self, match_id: str, events: list[EventRow], pause) -> list:
        """Events as the driver takes them (tuples in column order, or dicts). A move's data, most of an
        import, is written without the JSON encoder's own per-call cost (a quarter of a long import's time)."""
        def data(e: EventRow) -> str:
            move = e.data.get("move")
            if e.kind == "move" and len(e.data) == 1 and isinstance(move, str):
                return '{"move": ' + encode_basestring_ascii(move) + "}"  # what json.dumps writes
            return json.dumps(e.data)
        rows = []
        for e in events:
            rows.append((match_id, e.seq, e.kind, data(e), e.seat, e.at))
            pause()
        if self._events_positional:
            return rows
        return [dict(zip(EVENT_COLUMNS, row)) for row in rows]

    # The hot path, one per move: both statements are compiled once for this engine's dialect (in __init__) and
    # handed to the driver as they are. The UPDATE then adds about 10 us of CPU to an append that cost 65 us;
    # through Core it added 30-50 us (bench/storage.py).
    _insert_event = insert(events_table)
    _summarise = (update(matches_table).where(matches_table.c.id == bindparam("match_id"))
                  .values(version=bindparam("seq"), updated=bindparam("at"), summary=bindparam("summary"),
                          revision=matches_table.c.revision + literal_column("1")))
    _appended = (insert(events_table).values(match_id=bindparam("match_id"), seq=bindparam("seq"),
                                             kind=bindparam("kind"), data=bindparam("data"), seat=bindparam("seat"),
                                             at=bindparam("at"))
                 .returning(events_table.c.match_id, events_table.c.seq, events_table.c.at).cte("appended"))
    _append_cte = _summarised(_appended)
    # Guarded by the revision the writer's copy holds (several processes): the event is inserted only while the
    # match's revision is still that one, and the summary's update, joined on what was inserted, follows it.
    _unchanged = exists().where(matches_table.c.id == bindparam("match_id", type_=String),
                                matches_table.c.revision == bindparam("revision", type_=Integer))
    _appended_guarded = (insert(events_table).from_select(
        ["match_id", "seq", "kind", "data", "seat", "at"],
        select(bindparam("match_id", type_=String), bindparam("seq", type_=Integer), bindparam("kind", type_=String),
               bindparam("data", type_=Text), bindparam("seat", type_=Integer), cast(bindparam("at"), Float))
        .where(_unchanged))
        .returning(events_table.c.match_id, events_table.c.seq, events_table.c.at).cte("appended"))
    _append_guarded_cte = _summarised(_appended_guarded)
    _summarise_guarded = _summarise.where(matches_table.c.revision == bindparam("revision"))
    _revision = select(matches_table.c.revision).where(matches_table.c.id == bindparam("match_id"))

    def _for_driver(self, statement, keys=None):
        """`statement` as this engine's driver takes it: its SQL, and a function putting the values in order."""
        compiled = statement.compile(dialect=self.engine.dialect, column_keys=keys)
        if compiled.positional:
            order = tuple(compiled.positiontup)
            return compiled.string, lambda values: tuple(values[key] for key in order)
        return compiled.string, lambda values: values

    def append_event(self, match_id: str, e: EventRow, revision: int | None = None,
                     summary: str | None = None) -> None:
        """Append one event and update the match's version, time and `summary` (what lists show after it; None:
        unknown, summarised again when a list meets it) with it, in the same statement or transaction; Conflict
        if its sequence number is taken (a lost race), and then nothing changed. Given the `revision` the
        writer's copy of the match holds, RevisionMoved (nothing written) if the match's revision moved since,
        without an event."""
        values = {"match_id": match_id, "seq": e.seq, "kind": e.kind, "data": json.dumps(e.data), "seat": e.seat,
                  "at": e.at, "revision": revision, "summary": summary}
        if self._summarise_sql is None:
            import psycopg
            sql, args = ((self._append_sql, self._append_args) if revision is None
                         else (self._guarded_sql, self._guarded_args))
            try:
                with self._driver() as conn:
                    written = conn.execute(sql, args(values), prepare=True).rowcount
            except psycopg.IntegrityError as exc:
                raise Conflict(f"event {e.seq} of match {match_id} exists") from exc
            if revision is not None and written != 1:
                raise RevisionMoved(f"match {match_id} changed since revision {revision}")
            return
        summarise, args = ((self._summarise_sql, self._summarise_args) if revision is None
                           else (self._guarded_sql, self._guarded_args))
        try:  # sqlite3's own connection, one transaction (infra/database.py): half the cost of the engine's
            with self._sqlite_writer() as execute:
                execute(self._append_sql, self._append_args(values))
                if execute(summarise, args(values)).rowcount != 1 and revision is not None:
                    # rolls the insert back with it
                    raise RevisionMoved(f"match {match_id} changed since revision {revision}")
        except (sqlite3.IntegrityError, IntegrityError) as exc:  # the driver's, or as the engine wraps it
            raise Conflict(f"event {e.seq} of match {match_id} exists") from exc

    def _bump(self, conn, match_id: str, **values) -> None:
        conn.execute(update(matches_table).where(matches_table.c.id == match_id)
                     .values(revision=matches_table.c.revision + literal_column("1"), **values))

    def set_paused(self, match_id: str, paused: bool) -> None:
        with self.engine.begin() as conn:
            self._bump(conn, match_id, paused=paused)

    def claim_seat(self, match_id: str, seat: int, token_hash: str, name: str | None, at: float,
                   summary: str | None = None) -> bool:
        """Give a free seat to a token, and the match its `summary` after the claim (the claim that takes the
        last seat begins the game); False if it was taken meanwhile."""
        values = {"match_id": match_id, "seat": seat, "token": token_hash, "player": name, "at": at,
                  "summary": summary}
        with self._writer() as execute:
            if execute(self._claim_sql[0], self._claim_sql[1](values)).rowcount != 1:
                return False  # the seat was taken: nothing written
            execute(self._claimed_sql[0], self._claimed_sql[1](values))
            return True

    _claim = (update(seats_table)
              .where(seats_table.c.match_id == bindparam("match_id"), seats_table.c.seat == bindparam("seat"),
                     seats_table.c.token_hash.is_(None), seats_table.c.kind == literal_column("'human'"))
              .values(token_hash=bindparam("token"), name=bindparam("player"), claimed=bindparam("at")))
    _claimed = (update(matches_table).where(matches_table.c.id == bindparam("match_id"))
                .values(revision=matches_table.c.revision + literal_column("1"), summary=bindparam("summary")))

    def update_seat(self, match_id: str, seat: SeatRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.match_id == match_id, seats_table.c.seat == seat.seat)
                .values(kind=seat.kind, token_hash=seat.token_hash, name=seat.name, claimed=seat.claimed))
            self._bump(conn, match_id)

    # -- reads --------------------------------------------------------------
    def load_match(self, match_id: str) -> MatchRow | None:
        with self.reading() as conn:
            row = conn.execute(select(matches_table).where(matches_table.c.id == match_id)).first()
            if row is None:
                return None
            seats = conn.execute(select(seats_table).where(seats_table.c.match_id == match_id)
                                 .order_by(seats_table.c.seat)).all()
            events = conn.execute(select(events_table).where(events_table.c.match_id == match_id)
                                  .order_by(events_table.c.seq)).all()
        return MatchRow(
            id=row.id, game=row.game, options=json.loads(row.options), mode=row.mode, name=row.name,
            meta=json.loads(row.meta or "{}"), created=row.created, visibility=row.visibility,
            seats=[SeatRow(s.seat, s.kind, s.token_hash, s.name, s.claimed) for s in seats],
            events=[EventRow(e.seq, e.kind, json.loads(e.data), e.seat, e.at) for e in events],
            revision=row.revision, paused=bool(row.paused), summary=row.summary, expires=row.expires)

    # The check and the catch-up in one statement (one snapshot, one round trip): the match's revision and
    # pause, and the events after `since`, if any (none: one row of NULLs beside them).
    _since = (select(matches_table.c.revision, matches_table.c.paused, events_table.c.seq, events_table.c.kind,
                     events_table.c.data, events_table.c.seat, events_table.c.at)
              .select_from(matches_table.outerjoin(events_table, (events_table.c.match_id == matches_table.c.id)
                                                   & (events_table.c.seq > bindparam("since"))))
              .where(matches_table.c.id == bindparam("match_id")).order_by(events_table.c.seq))

    def since(self, match_id: str, since: int) -> tuple[int, bool, list[EventRow]] | None:
        """The match's revision, whether it is paused, and its events after `since` (None: no such match):
        what a process that holds the match up to `since` checks before each use, in one round trip."""
        args = self._since_args({"match_id": match_id, "since": since})
        if self.dialect == "postgresql":
            with self._driver() as conn:
                rows = conn.execute(self._since_sql, args, prepare=True).fetchall()
        else:
            with self.reading() as conn:
                rows = conn.exec_driver_sql(self._since_sql, args).all()
        if not rows:
            return None
        return rows[0][0], bool(rows[0][1]), [EventRow(r[2], r[3], json.loads(r[4]), r[5], r[6])
                                              for r in rows if r[2] is not None]

    def seats(self, match_id: str) -> list[SeatRow]:
        with self.reading() as conn:
            return [SeatRow(s.seat, s.kind, s.token_hash, s.name, s.claimed) for s in conn.execute(
                select(seats_table).where(seats_table.c.match_id == match_id).order_by(seats_table.c.seat))]

    def revision(self, match_id: str) -> int | None:
        """The match's revision (None: no such match): one read of a primary key, the check a process makes
        before it uses a match it cached while other processes may have written to it."""
        with self.reading() as conn:
            row = conn.exec_driver_sql(self._revision_sql, self._revision_args({"match_id": match_id})).first()
        return None if row is None else row[0]

    def seats_of_matches(self, match_ids) -> dict[str, list[SeatRow]]:
        """The seats of these matches, in seat order, by the seats' primary key (for a list of games: who holds
        which seat, and their names)."""
        match_ids = list(match_ids)
        if not match_ids:
            return {}
        found: dict[str, list[SeatRow]] = {}
        with self.reading() as conn:
            for s in conn.execute(select(seats_table).where(seats_table.c.match_id.in_(match_ids))
                                  .order_by(seats_table.c.match_id, seats_table.c.seat)):
                found.setdefault(s.match_id, []).append(SeatRow(s.seat, s.kind, s.token_hash, s.name, s.claimed))
        return found

    def set_summary(self, match_id: str, revision: int, summary: str) -> bool:
        """Write the summary of a match that had none or an outdated one (an earlier release's), as of
        `revision`: a write since (which wrote its own summary) wins. Not a change of the match: its revision
        stays."""
        with self.engine.begin() as conn:
            return conn.execute(update(matches_table).where(
                matches_table.c.id == match_id, matches_table.c.revision == revision)
                .values(summary=summary)).rowcount == 1

    def keep(self, match_id: str) -> None:
        """The match was opened: it never expires (matches/retention.py)."""
        with self.engine.begin() as conn:
            conn.execute(update(matches_table).where(matches_table.c.id == match_id).values(expires=None))
