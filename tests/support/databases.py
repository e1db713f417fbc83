"""Databases for the tests, already at the newest schema.

Running every migration for every test cost the platform tests about half their time (0.8 s a database on
PostgreSQL). Instead the migrations run once a session into a template, and each test gets a copy of it: a
file copy on SQLite, `CREATE DATABASE ... TEMPLATE` on PostgreSQL (which copies the template's files). The
template holds the schema and nothing else (no row a server writes when it starts, such as the clocks' beat or
the site's keys), exactly what opening an empty database makes.
Tests of the migrations themselves ask for an empty database instead (the `empty_database` fixture).
"""
from __future__ import annotations

import shutil
import sqlite3
import uuid
from pathlib import Path

TEMPLATE = "quadrille_template"


def migrate(database: str) -> None:
    """Bring a database (a SQLite path or a URL) to the newest schema, as opening it does."""
    from quadrille.infra.database import Database
    Database.open(database).close()


class SqliteTemplate:
    """A SQLite file at the newest schema, copied whole for each test."""

    def __init__(self, directory: Path):
        self.path = directory / "template.db"
        migrate(str(self.path))
        # One file to copy: the write-ahead log folded in and switched off (the app turns it on again).
        with sqlite3.connect(self.path) as conn:
            conn.execute("PRAGMA journal_mode=DELETE")
        conn.close()

    def copy(self, path: Path) -> str:
        shutil.copyfile(self.path, path)
        return str(path)


class PostgresTemplate:
    """A PostgreSQL database at the newest schema on `server` (scripts/services/postgres.py's Postgres),
    which each test's database is made from. Nothing stays connected to it: PostgreSQL copies a template
    only while nobody else uses it."""

    def __init__(self, server):
        self.server = server
        self.server.drop_database(TEMPLATE)
        migrate(server.create_database(TEMPLATE))

    def copy(self, name: str | None = None) -> tuple[str, str]:
        """A new database, a copy of the template, owned by the app's role: (its name, its URL)."""
        from psycopg import sql
        name = name or f"t_{uuid.uuid4().hex[:12]}"
        with self.server.admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {} OWNER {}").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE), sql.Identifier(self.server.USER)))
        return name, self.server.url(name)


def drop_database(server, name: str) -> None:
    """Drop a test's database (as the server's superuser: the app's role may not)."""
    try:
        server.drop_database(name)
    except Exception:
        pass


def stored_matches(storage) -> int:
    """How many matches a Storage holds, listed or not (the public list shows only listed ones): for tests
    that check that a refused request created nothing."""
    from sqlalchemy import func, select

    from quadrille.infra.schema import matches_table
    with storage.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(matches_table)).scalar_one()
