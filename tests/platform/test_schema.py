"""infra/schema.py holds every table: the migrations' head makes exactly its metadata on SQLite and on
PostgreSQL, and every service's tables are in it."""
from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from quadrille.infra import migrate
from quadrille.infra.database import Database
from quadrille.infra.schema import metadata


def test_the_head_revision_makes_exactly_the_metadata_of_schema_on_both_databases(empty_database):
    database = empty_database
    opened = Database.open(database)
    try:
        assert opened.applied[-1] == migrate.head()
        with opened.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata) == []
            made = set(inspect(conn).get_table_names()) - {"alembic_version"}
    finally:
        opened.close()
    assert made == set(metadata.tables)
    # the matches', the clocks' and the players' tables, one metadata
    assert {"matches", "seats", "events", "clocks", "clock_beat", "accounts", "challenges", "ratings",
            "blocks", "site_keys"} <= made
