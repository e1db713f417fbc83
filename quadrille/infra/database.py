"""An opened database, as every service uses it: its engine, its dialect, connections for reads, and the
driver's own connection for the hot paths.

Opening a database brings its schema up to date (migrate.py, to the tables of schema.py). The services keep
their SQL beside them and take a Database (the match service's Storage, matches/store.py, is one): the
matches', the clocks' and the players' services all read and write through its engine.
"""
from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy.pool import QueuePool

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
        self._writers: list = []  # SQLite: the driver's connections kept for the hot writes (`_sqlite_writer`)

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

    @contextmanager
    def _sqlite_writer(self):
        """`execute(sql, parameters)` on a SQLite file's own sqlite3 connection for one write transaction (a
        move's append: two statements), begun by its first statement, committed at the end of the block or
        rolled back on any error. Through the engine (`engine.begin()`: pool checkout, begin, commit, return)
        it cost as much as the SQL itself.

        The connections are kept out of the pool (detached: their pool slots freed, closed by `close`) in a
        free list: taken for one block, given back after it. list.pop and list.append are atomic, so two
        threads never hold the same connection. Under gevent or eventlet all greenlets share one thread and
        one connection: sqlite3 never yields to the hub (its calls, a busy wait included, block the thread as
        they did through the engine), so no other greenlet runs between the pop and the append, as long as
        the block itself does not yield (it runs two statements and nothing else)."""
        if self._traced() or not isinstance(self.engine.pool, QueuePool):
            # Through the engine: what listens to its statements sees these too (a tracer, a test of the query
            # plans); and a database in memory is one per pooled connection.
            with self._through_engine() as execute:
                yield execute
            return
        try:
            conn = self._writers.pop()
        except IndexError:
            conn = self._detached()
        try:
            yield conn.execute
            conn.commit()
        except BaseException:
            try:
                conn.rollback()
            except BaseException:
                conn.close()  # a connection in an unknown state is not kept
                raise
            self._writers.append(conn)
            raise
        self._writers.append(conn)

    def _writer(self):
        """`execute(sql, parameters)` (the driver's SQL, as compiled once) for one write transaction: on SQLite
        sqlite3's own connection (`_sqlite_writer`), elsewhere the engine's."""
        return self._sqlite_writer() if self.dialect == "sqlite" else self._through_engine()

    @contextmanager
    def _through_engine(self):
        """`execute(sql, parameters)` in one transaction of the engine's (a list of parameters: executemany)."""
        with self.engine.begin() as conn:
            yield conn.exec_driver_sql

    def _traced(self) -> bool:
        """Whether anything listens to the statements the engine runs (SQLAlchemy's cursor events)."""
        dispatch = self.engine.dispatch
        return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)

    def _detached(self):
        """A new sqlite3 connection of the engine's, detached from its pool (connected as the pool connects:
        engine.py's pragmas)."""
        pooled = self.engine.raw_connection()
        conn = pooled.driver_connection
        pooled.detach()
        conn.isolation_level = "DEFERRED"  # a transaction begun by the first write, as through the engine
        return conn

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
        while self._writers:
            self._writers.pop().close()
        self.engine.dispose()
