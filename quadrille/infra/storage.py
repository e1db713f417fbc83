"""Storage of matches: options, seats and the append-only list of events.

Storage never imports an engine: it keeps options and move strings, and the
match service replays them. It speaks SQLAlchemy Core, so a server database can
stand behind the same interface later; the default is an embedded SQLite file.

The schema is `metadata` below; the migrations in migrations/ make it, and Storage applies them when it
opens a database (see migrate.py). Change both together: a test checks that they agree.

SQLite runs in WAL mode with synchronous=NORMAL: a commit costs ~12 us and a
killed server process loses nothing that was committed (only a power cut could
lose the last transactions, which FULL would protect at the price of stalling
the event loop on slow disks).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from sqlalchemy import (Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text, bindparam,
                        create_engine, event, false, func, insert, select, true, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

matches_table = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),       # JSON object
    Column("mode", String(16), nullable=False),    # online | local | ai
    Column("name", String(64)),                    # match name for by-name play, else NULL
    Column("meta", Text, nullable=False, default="{}"),  # JSON: e.g. ai settings, the invite secret's hash
    Column("created", Float, nullable=False),
    # A summary of the match's events, kept by append_event in the same transaction: the recent list reads
    # these through ix_matches_listed_updated and never the events.
    Column("version", Integer, nullable=False, server_default="0"),  # the number of events: the highest seq
    Column("updated", Float, nullable=False),                        # the last event's time, else created
    # Who may see the match in the public list, as its creator chose: private (unlisted, the default),
    # public (listed, to watch) or open (listed, and a free seat is anyone's). `listed` says whether it is in
    # the list, so that the list reads one range of one index.
    Column("visibility", String(16), nullable=False, server_default="private"),
    Column("listed", Boolean, nullable=False, server_default=false()),
    Index("ix_matches_listed_updated", "listed", "updated"),
    Index("ix_matches_name_created", "name", "created"),  # find_by_name: the newest match of a name
)

seats_table = Table(
    "seats", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),    # human | ai
    Column("token_hash", String(64)),              # sha256 hex of the seat token; NULL = free
    Column("name", String(64)),                    # display name
    Column("claimed", Float),
)

events_table = Table(
    "events", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),      # 1, 2, ...: the match version after this event
    Column("kind", String(16), nullable=False),    # move | rewind | resign | start | ...
    Column("data", Text, nullable=False),          # JSON
    Column("seat", Integer),
    Column("at", Float, nullable=False),
)


VISIBILITIES = ("private", "public", "open")
LISTED = ("public", "open")  # the visibilities shown in the public list


class Conflict(Exception):
    """A write lost a race (an event with this sequence number already exists)."""


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


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    engine = create_engine(url, future=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class Storage:
    """Matches, seats and events in a SQL database (SQLite by default).

    Opening a database brings its schema up to date (quadrille/infra/migrate.py): `applied` lists the
    migrations that this opening ran, oldest first (none when it was up to date)."""

    def __init__(self, url: str):
        from . import migrate  # here, so that `python -m quadrille.infra.migrate` runs a module not yet imported
        self.engine = make_engine(url)
        self.applied = migrate.upgrade(self.engine)
        self._append_sql, self._append_args = self._for_driver(self._insert_event, [c.name for c in events_table.c])
        self._summarise_sql, self._summarise_args = self._for_driver(self._summarise)

    @classmethod
    def sqlite(cls, path: str) -> "Storage":
        return cls(f"sqlite:///{path}")

    def close(self) -> None:
        self.engine.dispose()

    # -- writes -------------------------------------------------------------
    def create_match(self, m: MatchRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(matches_table).values(
                id=m.id, game=m.game, options=json.dumps(m.options), mode=m.mode, name=m.name,
                meta=json.dumps(m.meta), created=m.created, version=max((e.seq for e in m.events), default=0),
                visibility=m.visibility, listed=m.visibility in LISTED,
                updated=max((e.at for e in m.events), default=m.created)))
            for s in m.seats:
                conn.execute(insert(seats_table).values(
                    match_id=m.id, seat=s.seat, kind=s.kind, token_hash=s.token_hash, name=s.name,
                    claimed=s.claimed))
            if m.events:
                conn.execute(self._insert_event, [
                    {"match_id": m.id, "seq": e.seq, "kind": e.kind, "data": json.dumps(e.data), "seat": e.seat,
                     "at": e.at} for e in m.events])

    # The hot path, one per move: both statements are compiled once for this engine's dialect (in __init__) and
    # handed to the driver as they are. The UPDATE then adds about 10 us of CPU to an append that cost 65 us;
    # through Core it added 30-50 us (bench/storage.py).
    _insert_event = insert(events_table)
    _summarise = (update(matches_table).where(matches_table.c.id == bindparam("match_id"))
                  .values(version=bindparam("seq"), updated=bindparam("at")))

    def _for_driver(self, statement, keys=None):
        """`statement` as this engine's driver takes it: its SQL, and a function putting the values in order."""
        compiled = statement.compile(dialect=self.engine.dialect, column_keys=keys)
        if compiled.positional:
            order = tuple(compiled.positiontup)
            return compiled.string, lambda values: tuple(values[key] for key in order)
        return compiled.string, lambda values: values

    def append_event(self, match_id: str, e: EventRow) -> None:
        """Append one event and update the match's version and time with it; Conflict if its sequence number
        is taken (a lost race), and then nothing changed."""
        values = {"match_id": match_id, "seq": e.seq, "kind": e.kind, "data": json.dumps(e.data), "seat": e.seat,
                  "at": e.at}
        try:
            with self.engine.begin() as conn:
                conn.exec_driver_sql(self._append_sql, self._append_args(values))
                conn.exec_driver_sql(self._summarise_sql, self._summarise_args(values))
        except IntegrityError as exc:
            raise Conflict(f"event {e.seq} of match {match_id} exists") from exc

    def claim_seat(self, match_id: str, seat: int, token_hash: str, name: str | None, at: float) -> bool:
        """Give a free seat to a token; False if it was taken meanwhile."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(seats_table)
                .where(seats_table.c.match_id == match_id, seats_table.c.seat == seat,
                       seats_table.c.token_hash.is_(None), seats_table.c.kind == "human")
                .values(token_hash=token_hash, name=name, claimed=at))
            return result.rowcount == 1

    def update_seat(self, match_id: str, seat: SeatRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.match_id == match_id, seats_table.c.seat == seat.seat)
                .values(kind=seat.kind, token_hash=seat.token_hash, name=seat.name, claimed=seat.claimed))

    # -- reads --------------------------------------------------------------
    def load_match(self, match_id: str) -> MatchRow | None:
        with self.engine.connect() as conn:
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
            events=[EventRow(e.seq, e.kind, json.loads(e.data), e.seat, e.at) for e in events])

    def find_by_name(self, name: str) -> str | None:
        """The newest match with this name, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches_table.c.id).where(matches_table.c.name == name)
                               .order_by(matches_table.c.created.desc()).limit(1)).first()
        return row.id if row else None

    # The newest entries of ix_matches_listed_updated under listed: its cost does not grow with the number of
    # matches or events, listed or not.
    # The free seats of each listed match: people's seats that nobody holds (read by the seats' primary key).
    _free_seats = (select(func.count()).select_from(seats_table)
                   .where(seats_table.c.match_id == matches_table.c.id, seats_table.c.kind == "human",
                          seats_table.c.token_hash.is_(None))
                   .scalar_subquery())
    _recent = (select(matches_table.c.id, matches_table.c.game, matches_table.c.mode, matches_table.c.name,
                      matches_table.c.created, matches_table.c.version, matches_table.c.visibility,
                      _free_seats.label("free_seats"))
               .where(matches_table.c.listed == true())
               .order_by(matches_table.c.updated.desc()).limit(bindparam("limit")))

    def recent_matches(self, limit: int = 20) -> list[dict]:
        """The most recently active listed matches, newest first: id, game, mode, name, created, version,
        visibility, free_seats (the people's seats nobody holds). Unlisted matches (private ones, local, against the computer, embedded) never appear."""
        with self.engine.connect() as conn:
            return [r._asdict() for r in conn.execute(self._recent, {"limit": limit})]
