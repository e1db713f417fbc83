"""Plain `alembic` runs Quadrille's migrations (the repository's alembic.ini) on the server's database, taken
from $QUADRILLE_DB as app.py takes it (a path or a URL): up to the head, which makes exactly the tables of
quadrille/infra/schema.py, down one revision and up again."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from quadrille.infra import migrate
from quadrille.infra.engine import database_url, make_engine
from quadrille.infra.schema import metadata
from tests.support.paths import ROOT


def alembic(*argv: str, database: str) -> subprocess.CompletedProcess:
    """The `alembic` command of this Python's environment, from the repository's root."""
    program = Path(sys.executable).with_name("alembic")
    program = str(program) if program.exists() else shutil.which("alembic")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}  # alembic.ini's own path
    done = subprocess.run([program, *argv], cwd=ROOT, env={**env, "QUADRILLE_DB": database}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def differences(database: str) -> tuple[str | None, list, set]:
    """The database's revision, how its schema differs from schema.py's metadata, and its tables."""
    engine = make_engine(database_url(database))
    try:
        with engine.connect() as conn:
            return (migrate.current(conn),
                    compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata),
                    set(inspect(conn).get_table_names()) - {"alembic_version"})
    finally:
        engine.dispose()


def test_plain_alembic_upgrades_downgrades_and_upgrades_the_servers_database(empty_database):
    database = empty_database   # a SQLite file's path, or a PostgreSQL URL
    previous = f"{int(migrate.head()) - 1:04d}"
    said = alembic("upgrade", "head", database=database)
    assert f"Running upgrade {previous} -> {migrate.head()}" in said.stderr  # alembic.ini's logging
    assert differences(database) == (migrate.head(), [], set(metadata.tables))

    alembic("downgrade", "-1", database=database_url(database))   # a SQLAlchemy URL, as QUADRILLE_DB may be
    revision, changed, _ = differences(database)
    assert revision == previous and changed  # the head's change is undone

    alembic("upgrade", "head", database=database)
    assert differences(database) == (migrate.head(), [], set(metadata.tables))
    assert alembic("current", database=database).stdout.strip() == f"{migrate.head()} (head)"
