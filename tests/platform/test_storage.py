"""Storage's schema and its migrations: a database of the first release upgraded in place, the head revision
equal to `metadata`, opening twice migrating once; and the per-request queries' plans on SQLite.

data/release-0.1.db was made by the first release's code (commit 46cf889, before migrations existed) through
its MatchService: eight matches (online, local with take-backs and rewinds, by name twice, gamma started,
against the computer, imported, one without events), their seats and 21 events.
"""
from __future__ import annotations

import io
import shutil
import sqlite3
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import event

from quadrille.infra import migrate
from quadrille.infra.engine import make_engine
from quadrille.infra.schema import metadata
from quadrille.matches.store import Conflict, EventRow, MatchRow, SeatRow, Storage

RELEASE_DB = Path(__file__).parent / "data" / "release-0.1.db"
REVISIONS = ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010", "0011", "0012", "0013",
             "0014", "0015"]

# The first release's recent list: it grouped every event of every match.
RELEASE_RECENT = """
    SELECT m.id, m.game, m.mode, m.name, m.created, COALESCE(e.version, 0)
    FROM matches m LEFT JOIN (SELECT match_id, MAX(seq) AS version, MAX(at) AS at FROM events GROUP BY match_id) e
         ON e.match_id = m.id
    ORDER BY COALESCE(e.at, m.created) DESC LIMIT ?"""


def connect(path) -> sqlite3.Connection:
    """The committed release database is only read, and left as it is (no -wal or -shm beside it)."""
    return sqlite3.connect(f"file:{path}?immutable=1", uri=True) if path == RELEASE_DB else sqlite3.connect(path)


def schema(path) -> list[tuple]:
    """Every table and index of a SQLite file as SQLite keeps it, but Alembic's own table and SQLite's counter
    of AUTOINCREMENT ids (made by the first such table, 0009's accounts, and never dropped: SQLite refuses)
    (names unquoted: a table that Alembic's batch mode rebuilt is named "matches", in quotes)."""
    with connect(path) as conn:
        return sorted((kind, name, table, sql and sql.replace('"', "")) for kind, name, table, sql in conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master "
            "WHERE tbl_name NOT IN ('alembic_version', 'sqlite_sequence')"))


def rows(path, table: str, columns: str = "*") -> list[tuple]:
    with connect(path) as conn:
        return sorted(conn.execute(f"SELECT {columns} FROM {table}"))


def revision_of(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute("SELECT version_num FROM alembic_version"))


@pytest.fixture
def release_copy(tmp_path) -> Path:
    """A copy of the first release's database: tests may change it."""
    path = tmp_path / "release.db"
    shutil.copy(RELEASE_DB, path)
    return path


def test_revision_1_is_the_first_releases_schema_exactly(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    assert migrate.upgrade(engine, "0001") == ["0001"]
    engine.dispose()
    assert schema(tmp_path / "fresh.db") == schema(RELEASE_DB)
    assert "alembic_version" not in str(schema(RELEASE_DB))


def test_the_head_revision_makes_exactly_the_schema_of_metadata(tmp_path):
    storage = Storage.sqlite(str(tmp_path / "fresh.db"))
    assert storage.applied == REVISIONS and migrate.head() == REVISIONS[-1]
    with storage.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata) == []
    storage.close()


def test_a_database_of_the_first_release_is_upgraded_in_place(release_copy):
    before = {table: rows(release_copy, table) for table in ("matches", "seats", "events")}
    with connect(release_copy) as conn:
        recent = [dict(zip(("id", "game", "mode", "name", "created", "version"), r))
                  for r in conn.execute(RELEASE_RECENT, (100,))]
    storage = Storage.sqlite(str(release_copy))
    assert storage.applied == REVISIONS[1:]  # stamped at 0001, then upgraded from there
    assert revision_of(release_copy) == [(REVISIONS[-1],)]
    with storage.engine.connect() as conn:  # the upgraded schema is the head's
        assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata) == []
    assert len(recent) == 8 and storage.recent_matches(100) == []  # nobody chose to show them: private
    loaded = storage.load_match(recent[1]["id"])
    assert len(loaded.events) == recent[1]["version"] > 0 and loaded.seats and loaded.visibility == "private"
    storage.close()
    for table, old in before.items():
        added = ("version", "updated", "visibility", "listed", "revision", "paused", "summary", "expires")
        columns = ", ".join(c.name for c in metadata.tables[table].columns if c.name not in added)
        assert rows(release_copy, table, columns) == old, table
    assert set(rows(release_copy, "matches", "visibility, listed")) == {("private", 0)}
    assert set(rows(release_copy, "matches", "revision, paused")) == {(0, 0)}  # 0005
    assert rows(release_copy, "clocks") == [] and rows(release_copy, "clock_beat") == []  # 0007: no clocks yet
    assert set(rows(release_copy, "matches", "summary, expires")) == {(None, None)}  # 0008: summarised at start-up
    # the summary columns (0002) made the release's recent list from the events, as it was
    with connect(release_copy) as conn:
        listed = [dict(zip(("id", "game", "mode", "name", "created", "version"), r)) for r in conn.execute(
            "SELECT id, game, mode, name, created, version FROM matches ORDER BY updated DESC")]
    assert listed == recent
    # the summary columns were filled in from the events
    events = before["events"]
    for match_id, created, version, updated in rows(release_copy, "matches", "id, created, version, updated"):
        mine = [e for e in events if e[0] == match_id]
        assert version == max((e[1] for e in mine), default=0)
        assert updated == max((e[5] for e in mine), default=created)
    assert {version for _, version in rows(release_copy, "matches", "id, version")} > {0}


def test_opening_a_database_twice_migrates_it_once(tmp_path, release_copy):
    for path in (tmp_path / "fresh.db", release_copy):
        first = Storage.sqlite(str(path))
        first.close()
        made = schema(path)
        second = Storage.sqlite(str(path))
        assert second.applied == []
        second.close()
        assert schema(path) == made and revision_of(path) == [(REVISIONS[-1],)]


def test_a_database_newer_than_the_code_is_refused(tmp_path):
    path = tmp_path / "newer.db"
    Storage.sqlite(str(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'ffff'")
    with pytest.raises(RuntimeError, match="ffff"):
        Storage.sqlite(str(path))


def test_events_keep_the_summary_and_the_recent_list_follows_activity(tmp_path):
    storage = Storage.sqlite(str(tmp_path / "recent.db"))
    for i, created in enumerate((10.0, 20.0, 30.0)):
        storage.create_match(MatchRow(id=f"m{i}", game="trails", options={}, mode="online", created=created,
                                      visibility=("public", "open", "public")[i]))
    storage.create_match(MatchRow(id="imported", game="trails", options={}, mode="online", created=40.0,
                                  visibility="public",
                                  events=[EventRow(1, "move", {"move": "right"}, None, 40.0),
                                          EventRow(2, "move", {"move": "up"}, None, 40.0)]))
    storage.create_match(MatchRow(id="secret", game="trails", options={}, mode="online", created=41.0))
    storage.create_match(MatchRow(id="hotseat", game="trails", options={}, mode="local", created=42.0))
    assert [m["id"] for m in storage.recent_matches()] == ["imported", "m2", "m1", "m0"]  # private ones unlisted
    assert [m["version"] for m in storage.recent_matches()] == [2, 0, 0, 0]
    storage.append_event("m0", EventRow(1, "move", {"move": "right"}, 1, 50.0))
    storage.append_event("m1", EventRow(1, "move", {"move": "right"}, 1, 45.0))
    storage.append_event("m1", EventRow(2, "move", {"move": "up"}, 2, 46.0))
    assert [(m["id"], m["version"]) for m in storage.recent_matches(3)] == [("m0", 1), ("m1", 2), ("imported", 2)]
    with pytest.raises(Conflict):  # a lost race changes nothing, the summary included
        storage.append_event("m1", EventRow(2, "move", {"move": "left"}, 2, 60.0))
    assert storage.recent_matches(1) == [{"id": "m0", "game": "trails", "mode": "online", "name": None,
                                          "created": 10.0, "version": 1, "visibility": "public",
                                          "free_seats": 0, "revision": 1, "summary": None}]  # no seat rows here
    storage.append_event("secret", EventRow(1, "move", {"move": "right"}, 1, 70.0))
    assert storage.recent_matches(1)[0]["id"] == "m0"  # a private match's activity does not list it
    summary = {r[0]: r[1:] for r in rows(tmp_path / "recent.db", "matches", "id, version, updated")}
    assert summary == {"m0": (1, 50.0), "m1": (2, 46.0), "m2": (0, 30.0), "imported": (2, 40.0),
                       "secret": (1, 70.0), "hotseat": (0, 42.0)}
    storage.close()


def plans(storage: Storage, call) -> dict[str, list[str]]:
    """Run `call`, then ask SQLite how it ran each statement: SQL -> the lines of its EXPLAIN QUERY PLAN."""
    seen = []

    def spy(conn, cursor, statement, parameters, context, executemany):
        seen.append((statement, parameters))

    event.listen(storage.engine, "before_cursor_execute", spy)
    try:
        call()
    finally:
        event.remove(storage.engine, "before_cursor_execute", spy)
    with storage.engine.connect() as conn:
        return {" ".join(sql.split()): [row[-1] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, args)]
                for sql, args in seen}


@pytest.fixture
def busy(tmp_path):
    """A database with 300 matches of 6 events each, some with names (one name used many times), two in
    three of them listed (public), the others private."""
    storage = Storage.sqlite(str(tmp_path / "busy.db"))
    for i in range(300):
        storage.create_match(MatchRow(
            id=f"m{i:03d}", game="trails", options={}, mode="online", created=float(i),
            visibility="private" if i % 3 == 2 else "public",
            name="friday" if i % 3 == 0 else f"name {i}" if i % 3 == 1 else None,
            seats=[SeatRow(1, token_hash="h" * 64), SeatRow(2)],
            events=[EventRow(seq, "move", {"move": "right"}, 1, float(i + seq)) for seq in range(1, 7)]))
    with storage.engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")  # as a long-running database would have statistics
    yield storage
    storage.close()


def test_the_recent_list_reads_the_newest_entries_of_its_index_and_no_event(busy):
    plan = plans(busy, lambda: busy.recent_matches(20))
    # no sort, no event; each listed match's free seats come from the seats' primary key
    assert list(plan.values()) == [["SEARCH matches USING INDEX ix_matches_listed_updated (listed=?)",
                                    "CORRELATED SCALAR SUBQUERY 1",
                                    "SEARCH seats USING INDEX sqlite_autoindex_seats_1 (match_id=?)"]]
    recent = busy.recent_matches(20)
    assert [m["id"] for m in recent] == [f"m{i:03d}" for i in range(299, 0, -1) if i % 3 != 2][:20]
    assert all(m["version"] == 6 for m in recent)
    assert all(m["free_seats"] == 1 for m in recent)


def test_an_appended_event_touches_one_match_row_by_its_key(busy):
    plan = plans(busy, lambda: busy.append_event("m007", EventRow(7, "move", {"move": "up"}, 2, 1000.0)))
    assert plan == {
        "INSERT INTO events (match_id, seq, kind, data, seat, at) VALUES (?, ?, ?, ?, ?, ?)": [],
        "UPDATE matches SET version=?, updated=?, revision=(matches.revision + 1), summary=? WHERE matches.id = ?":
            ["SEARCH matches USING INDEX sqlite_autoindex_matches_1 (id=?)"]}
    assert busy.recent_matches(1)[0] == {"id": "m007", "game": "trails", "mode": "online", "name": "name 7",
                                         "created": 7.0, "version": 7, "visibility": "public", "free_seats": 1,
                                         "revision": 1, "summary": None}


def test_every_other_per_request_query_finds_its_rows_through_a_key_or_an_index(busy):
    seen = {}
    for call in (lambda: busy.find_by_name("friday"), lambda: busy.load_match("m150"),
                 lambda: busy.claim_seat("m150", 2, "t" * 64, "Bob", 5.0),
                 lambda: busy.update_seat("m150", SeatRow(2, "ai")),
                 lambda: busy.listed(["m007", "m150", "m299"]), lambda: busy.seats_of_matches(["m007", "m150"]),
                 lambda: busy.set_summary("m007", 0, "{}")):
        seen.update(plans(busy, call))
    assert len(seen) == 11  # claim_seat (with the summary) and update_seat bump the revision with one statement
    for sql, plan in seen.items():
        assert len(plan) == 1 and plan[0].startswith("SEARCH ") and " USING " in plan[0], (sql, plan)
    by_name = [plan for sql, plan in seen.items() if "WHERE matches.name = ?" in sql]
    assert by_name == [["SEARCH matches USING INDEX ix_matches_name_created (name=?)"]]  # no sort of its 100 matches
    assert busy.find_by_name("friday").id == "m297" and busy.find_by_name("nobody") is None
    assert sorted(busy.listed(["m007", "m150", "nope"])) == ["m007", "m150"]
    assert [s.seat for s in busy.seats_of_matches(["m007"])["m007"]] == [1, 2]


def test_the_command_line_goes_down_and_up_again(release_copy):
    def run(*argv) -> str:
        out = io.StringIO()
        with redirect_stdout(out):
            migrate.main(["--db", str(release_copy), *argv])
        return out.getvalue()

    upgraded = f"applied {', '.join(REVISIONS[1:])}" if REVISIONS[1:] else "nothing to do"
    assert upgraded in run()  # stamped at 0001 (the release), then upgraded
    assert run("current").strip() == REVISIONS[-1]
    assert "nothing to do" in run("upgrade")
    run("downgrade", "0001")
    assert run("current").strip() == "0001" and schema(release_copy) == schema(RELEASE_DB)
    assert upgraded in run("upgrade", "head")
    assert len(rows(release_copy, "events")) == 21


def test_the_migrations_render_for_postgresql_without_a_server():
    out = io.StringIO()
    with redirect_stdout(out):
        migrate.main(["--url", "postgresql://quadrille@localhost/quadrille", "upgrade", "--sql"])
    sql = out.getvalue()
    assert "CREATE TABLE matches" in sql and "CREATE TABLE events" in sql
    assert f"'{REVISIONS[-1]}'" in sql and sql.rstrip().endswith("COMMIT;")


def test_the_clocks_rows_are_read_and_written_by_key_and_the_running_ones_by_their_index(busy):
    from quadrille.clocks.store import ClockStore
    clocks = ClockStore(busy)
    for i in range(0, 300, 2):
        clocks.set_deadline(f"m{i:03d}", {"kind": "realtime", "minutes": 1, "increment": 0},
                            1 if i % 4 else None, 1000.0 + i if i % 4 else None)
    with busy.engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")
    seen = {}
    for call in (lambda: clocks.set_deadline("m010", {"kind": "correspondence", "days": 2}, 2, 5.0),
                 lambda: clocks.deadlines(["m010", "m011", "m012"]), lambda: clocks.running(),
                 lambda: clocks.beat(7.0), lambda: clocks.last_beat()):
        seen.update(plans(busy, call))
    for sql, plan in seen.items():
        if not sql.startswith(("SELECT", "UPDATE")):
            continue  # an insert, or the savepoint around one
        assert plan and all(line.startswith("SEARCH ") and " USING " in line for line in plan), (sql, plan)
    running = clocks.running()
    assert running[0] == ("m010", 2, 5.0) and len(running) == 75 and [r[2] for r in running] == sorted(r[2] for r in running)
    assert set(clocks.deadlines(["m010", "m011", "m012"])) == {"m010", "m012"}
