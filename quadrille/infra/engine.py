"""How Quadrille connects to its database: the DATABASE setting as a URL, and a SQLAlchemy engine for it.

The default is an embedded SQLite file; a PostgreSQL server (through psycopg 3) stands behind the same engine
when several server processes share one database.

SQLite runs in WAL mode with synchronous=NORMAL: a commit costs ~12 us and a killed server process loses
nothing that was committed (only a power cut could lose the last transactions, which FULL would protect at the
price of stalling the event loop on slow disks).
"""
from __future__ import annotations

import os

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def database_url(setting: str) -> str:
    """The DATABASE setting (and --db) as a SQLAlchemy URL: a URL as it is (postgresql:// means psycopg 3),
    anything else a SQLite file's path."""
    if "://" not in setting:
        return f"sqlite:///{setting}"
    if setting.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + setting.split("://", 1)[1]
    return setting


def configured_database(setting: str | None = None) -> str:
    """The database a command acts on, as app.py chooses it: `setting` (a --db flag) if given, else
    $QUADRILLE_DB, else quadrille.db in the current directory (a SQLite path or a URL: see database_url)."""
    return setting or os.environ.get("QUADRILLE_DB") or "quadrille.db"


def make_engine(url: str) -> Engine:
    if url.startswith("postgresql"):
        from .extras import require
        require("psycopg", "a PostgreSQL database (--db postgresql://..., QUADRILLE_DB)")
        # A pool per process: a request holds a connection for one statement or one short transaction, but
        # under load many requests wait on the database at once, and a connection beyond the pool's size is
        # opened and closed each time (it was a tenth of a process's time): keep enough of them open.
        engine = create_engine(url, pool_size=25, max_overflow=25, pool_timeout=10, pool_use_lifo=True)
    else:
        engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine
