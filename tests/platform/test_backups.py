"""quadrille/admin/backups.py: a backup of an older schema is upgraded as it is restored (SQLite and
PostgreSQL); whatever is not a Quadrille backup this version knows, or a database that holds matches, is
refused with a clear message and nothing changes. (tests/server/test_backups_server.py: backups of running servers.)"""
from __future__ import annotations

import sqlite3
import uuid

import pytest

from quadrille.admin import cli
from quadrille.admin.backups import BackupError, backup, contents, restore
from quadrille.infra import migrate
from quadrille.infra.engine import make_engine
from tests.support.databases import drop_database

OLD = "0005"


def revision_of(database: str) -> str:
    engine = make_engine(database if "://" in database else f"sqlite:///{database}")
    try:
        return contents(engine).revision
    finally:
        engine.dispose()


@pytest.fixture
def new_database(request, tmp_path):
    """Another empty database of the same kind as the test's `empty_database` (the restore's target)."""
    made = []

    def new(like: str) -> str:
        if "://" not in like:
            return str(tmp_path / f"target-{len(made)}.db")
        server = request.getfixturevalue("postgres_server")
        made.append(f"t_{uuid.uuid4().hex[:12]}")
        return server.create_database(made[-1])
    yield new
    for name in made:
        drop_database(request.getfixturevalue("postgres_server"), name)


def test_a_backup_of_an_older_schema_is_upgraded_by_the_migrations_as_it_is_restored(empty_database, new_database,
                                                                                   tmp_path):
    engine = make_engine(empty_database if "://" in empty_database else f"sqlite:///{empty_database}")
    try:
        migrate.upgrade(engine, OLD)
    finally:
        engine.dispose()
    said = backup(empty_database, tmp_path / "old.backup")
    assert f"schema revision {OLD}" in said[0]
    target = new_database(empty_database)
    said = restore(tmp_path / "old.backup", target)
    assert f"at schema revision {OLD}" in said[0]  # read from the backup itself (a pg_dump archive: pg_restore)
    newer = [f"{n:04d}" for n in range(int(OLD) + 1, int(migrate.head()) + 1)]
    assert said[-1] == f"upgraded it with the migrations {', '.join(newer)}"
    assert revision_of(target) == migrate.head()


@pytest.fixture
def played(sqlite_database):
    """A SQLite database holding a match with a move, whose server stopped a minute ago."""
    from quadrille import create_app
    app = create_app({"DATABASE": sqlite_database})
    client = app.test_client()
    created = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    state = client.get(f"/api/matches/{created['match']}").json
    client.post(f"/api/matches/{created['match']}/moves", json={"move": state["legal"][0]},
                headers={"Authorization": f"Bearer {created['token']}"})
    app.extensions["quadrille.storage"].close()
    with sqlite3.connect(sqlite_database) as conn:  # its server stopped a minute ago (its heartbeat's age)
        conn.execute("UPDATE clock_beat SET at = at - 60")
    conn.close()
    return sqlite_database


def test_a_restore_refuses_a_database_that_holds_matches_unless_forced(played, tmp_path):
    backup(played, tmp_path / "played.backup")
    other = tmp_path / "other.db"
    restore(tmp_path / "played.backup", str(other))
    with pytest.raises(BackupError, match=r"is not empty \(schema revision \d+: 1 matches.*--force"):
        restore(tmp_path / "played.backup", str(other))
    said = restore(tmp_path / "played.backup", str(other), force=True)
    assert any(line.startswith("--force: replaced") for line in said)
    assert "1 matches, 1 events and moves" in said[-2]


def test_a_restore_refuses_a_database_a_server_runs_on_unless_forced(played, tmp_path):
    """A running server writes the clocks' heartbeat every CLOCK_BEAT (clocks/service.py)."""
    backup(played, tmp_path / "played.backup")
    with sqlite3.connect(played) as conn:
        conn.execute("UPDATE clock_beat SET at = strftime('%s', 'now')")
    conn.close()
    with pytest.raises(BackupError, match=r"a server is running on .* \(its heartbeat is \d+\.\d s old\)"):
        restore(tmp_path / "played.backup", played)
    said = restore(tmp_path / "played.backup", played, force=True)
    assert said[1].startswith("--force: a server is running") and "restart it now" in said[1]


def test_what_is_not_a_quadrille_backup_this_version_knows_is_refused_and_nothing_changes(played, tmp_path):
    backup(played, tmp_path / "played.backup")
    target = tmp_path / "target.db"

    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    with pytest.raises(BackupError, match="is not a backup made by"):
        restore(text, str(target))

    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    conn.close()
    with pytest.raises(BackupError, match="is not a Quadrille database"):
        restore(foreign, str(target))
    with pytest.raises(BackupError, match="is not a Quadrille database"):
        backup(str(foreign), tmp_path / "foreign.backup")
    assert not (tmp_path / "foreign.backup").exists() and not list(tmp_path.glob(".*.partial"))

    newer = tmp_path / "newer.backup"
    newer.write_bytes((tmp_path / "played.backup").read_bytes())
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.close()
    with pytest.raises(BackupError, match="revision 9999, which this version of Quadrille does not know"):
        restore(newer, str(target))

    with pytest.raises(BackupError, match="is a sqlite backup and .* a postgresql database"):
        restore(tmp_path / "played.backup", "postgresql://quadrille:secret@127.0.0.1:1/quadrille")
    assert not target.exists()

    with pytest.raises(BackupError, match="does not exist: nothing was restored"):
        restore(tmp_path / "played.backup", str(tmp_path / "nowhere" / "target.db"))

    with pytest.raises(BackupError, match="is the database itself"):
        backup(played, played)
    with pytest.raises(BackupError, match="exists and is not a Quadrille backup"):
        backup(played, text)
    assert text.read_text() == "not a database"


def test_the_commands_say_what_they_did_and_refusals_exit_1(played, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("QUADRILLE_DB", played)
    assert cli.main(["backup", str(tmp_path / "played.backup")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"backed up {played} (schema revision {migrate.head()}: 1 matches, 1 events and moves")
    assert cli.main(["restore", str(tmp_path / "played.backup")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"restore: {played} is not empty") and "nothing was changed" in err
    assert cli.main(["restore", str(tmp_path / "played.backup"), "--db", str(tmp_path / "new.db")]) == 0
    assert "restored into" in capsys.readouterr().out
