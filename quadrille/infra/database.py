"""An opened database, as every service uses it: its engine, its dialect, connections for reads, and the
driver's own connection for the hot paths.

Opening a database brings its schema up to date (migrate.py, to the tables of schema.py). The services keep
their SQL beside them and take a Database (the match service's Storage, matches/store.py, is one): the
matches', the clocks' and the players' services all read and write through its engine.
"""
from __future__ import annotations

from contextlib import contextmanager

from .engine import database_url, make_engine


class Database:
    """A SQL database (SQLite by default), migrated when it is opened: `applied` lists the migrations that
    this opening ran, oldest first (none when it was up to date)."""

    def __init__(self, url: str):
        from . import migrate  # here, so that `python -m quadrille.infra.migrate` runs a module not yet imported
        self.engine = make_engine(database_url(url))
        self.dialect = self.engine.dialect.name   # "sqlite" or "postgresql"
        self.applied = migrate.upgrade(self.engine)
        # Reads need no transaction around them (see `reading`): on a server database each BEGIN and COMMIT
        # is a round trip of its own.
        self._autocommit = (self.engine if self.dialect == "sqlite"
                            else self.engine.execution_options(isolation_level="AUTOCOMMIT"))

    @classmethod
    def sqlite(cls, path: str):
        return cls(f"sqlite:///{path}")

    @classmethod
    def open(cls, setting: str):
        """The DATABASE setting: a SQLite file's path, or a database URL (postgresql+psycopg://...)."""
        return cls(database_url(setting))

    @contextmanager
    def _driver(self):
        """A pooled PostgreSQL connection's own psycopg connection, in autocommit: for the one-statement hot
        paths (the append, the check), SQLAlchemy's compiled SQL handed to the driver as it is, prepared once
        per connection; it halved their CPU against going through SQLAlchemy's Connection."""
        import psycopg
        pooled = self.engine.raw_connection()
        conn = pooled.driver_connection
        try:
            conn.autocommit = True
            yield conn
            conn.autocommit = False
        except psycopg.IntegrityError:
            conn.autocommit = False
            raise
        except BaseException:
            pooled.invalidate()  # a connection in an unknown state (the server went away) is not reused
            raise
        finally:
            pooled.close()

    def reading(self):
        """A connection for reads only (`with storage.reading() as conn:`). On SQLite its statements share one
        snapshot, as in any transaction. On PostgreSQL it runs without a transaction: at its READ COMMITTED
        level each statement takes its own snapshot inside a transaction too, so the transaction bought
        nothing but a BEGIN and a ROLLBACK, and psycopg forgets its prepared statements at every ROLLBACK (the
        next append on that connection was prepared again)."""
        return self._autocommit.connect()

    def ping(self) -> None:
        """Raise if the database cannot be reached (for the health check)."""
        with self.reading() as conn:
            conn.exec_driver_sql("SELECT 1")

    def close(self) -> None:
        self.engine.dispose()
