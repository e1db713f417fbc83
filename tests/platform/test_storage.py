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

from quadrille.infra import migrate
from quadrille.infra.storage import Storage, make_engine, metadata

RELEASE_DB = Path(__file__).parent / "data" / "release-0.1.db"
REVISIONS = ["0001"]


def schema(path) -> list[tuple]:
    """Every table and index of a SQLite file as SQLite keeps it, but Alembic's own table."""
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                   "WHERE tbl_name != 'alembic_version'"))


def rows(path, table: str, columns: str = "*") -> list[tuple]:
    with sqlite3.connect(path) as conn:
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
    storage = Storage.sqlite(str(release_copy))
    assert storage.applied == REVISIONS[1:]  # stamped at 0001, then upgraded from there
    assert revision_of(release_copy) == [(REVISIONS[-1],)]
    with storage.engine.connect() as conn:  # the upgraded schema is the head's
        assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata) == []
    storage.close()
    for table, old in before.items():
        columns = ", ".join(c.name for c in metadata.tables[table].columns if c.name not in ("version", "updated"))
        assert rows(release_copy, table, columns) == old, table


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
