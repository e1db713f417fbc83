"""Backups of a live Quadrille database and their restores (`python -m quadrille admin backup|restore`).

A backup is taken while the servers run and write, and holds the database as it stood at one instant:

- SQLite: sqlite3's backup API (`Connection.backup`) copies every page in one step, inside one read
  transaction, so what the write-ahead log holds and the main file does not yet is copied too. A plain `cp`
  of the file misses it (issue 25: 62 of 1,395 events), and a `cp` of the file and its WAL can tear between
  the two. The copy is one self-contained file (journal mode DELETE), checked (`PRAGMA quick_check`).
- PostgreSQL: `pg_dump --format=custom` (admin/pg_tools.py), which reads in one snapshot.

Either is written beside PATH under a temporary name, readable by its owner alone (it holds password hashes
and the site's keys), and renamed over PATH only once complete.

A restore checks that the backup is a Quadrille database at a schema revision this code knows, refuses to
overwrite a database that a running server uses (its clocks' heartbeat is fresh) or that holds anything,
unless forced, then upgrades the restored database with the migrations if it is older, as a server's start
would. A SQLite backup restores into a SQLite database, a PostgreSQL dump into a PostgreSQL one.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from ..infra import migrate
from ..infra.engine import database_url, make_engine
from ..infra.schema import accounts_table, clock_beat_table, events_table, matches_table
from ..settings import DEFAULTS
from . import pg_tools

SQLITE_MAGIC = b"SQLite format 3\x00"
IN_USE_BEATS = 5   # a heartbeat younger than this many CLOCK_BEATs: a server is running on the database
IN_USE_MIN = 5.0   # seconds, at least


class BackupError(Exception):
    """A backup or restore refused or failed; the message says why. Nothing was changed."""


@dataclass
class Contents:
    """What a database holds, as an operator recognises it."""
    tables: set
    revision: str | None
    matches: int = 0
    events: int = 0
    accounts: int = 0
    last_beat: float | None = None

    @property
    def quadrille(self) -> bool:
        return migrate.RELEASE_TABLES <= self.tables

    @property
    def empty(self) -> bool:
        return not self.tables

    def summary(self) -> str:
        revision = self.revision or f"{migrate.RELEASE} (the first release's, unstamped)"
        return (f"schema revision {revision}: {self.matches} matches, {self.events} events and moves, "
                f"{self.accounts} accounts")


def contents(engine) -> Contents:
    """Read what a database holds (nothing but SELECTs)."""
    with engine.connect() as conn:
        return contents_on(conn)


def contents_on(conn) -> Contents:
    tables = set(inspect(conn).get_table_names())
    found = Contents(tables, migrate.current(conn) if "alembic_version" in tables else None)
    for table, field in ((matches_table, "matches"), (events_table, "events"), (accounts_table, "accounts")):
        if table.name in tables:
            setattr(found, field, conn.execute(select(func.count()).select_from(table)).scalar_one())
    if clock_beat_table.name in tables:
        found.last_beat = conn.execute(select(func.max(clock_beat_table.c.at))).scalar()
    return found


def reader(url: str):
    """An engine that only looks: no pragmas (make_engine's would turn a backup file's journal to WAL), no
    pool left behind."""
    return create_engine(url, poolclass=NullPool)


def known_revision(revision: str | None) -> bool:
    if revision is None:
        return True  # the first release's database, stamped at 0001 by the migrations
    try:
        return ScriptDirectory.from_config(migrate.config()).get_revision(revision) is not None
    except Exception:  # alembic's CommandError/ResolutionError: a revision of a newer Quadrille
        return False


def beat_interval() -> float:
    raw = os.environ.get("QUADRILLE_CLOCK_BEAT")
    try:
        return float(json.loads(raw)) if raw else float(DEFAULTS["CLOCK_BEAT"])
    except (ValueError, TypeError):
        return float(DEFAULTS["CLOCK_BEAT"])


def in_use(found: Contents, now: float | None = None) -> float | None:
    """The age of the heartbeat, in seconds, when a server is running on the database (None: none is). Each
    server process writes it every CLOCK_BEAT (clocks/service.py), and a last one as it stops."""
    if found.last_beat is None:
        return None
    age = (time.time() if now is None else now) - found.last_beat
    return age if age < max(IN_USE_MIN, IN_USE_BEATS * beat_interval()) else None


# -- backup -------------------------------------------------------------------------------------------------
def backup(setting: str, path: str | Path) -> list[str]:
    """Back the database of `setting` (a SQLite path or a URL, as --db) up into `path`; what it did, in lines."""
    url, path = database_url(setting), Path(path)
    _check_target_file(path, url)
    started = time.monotonic()
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    _create_private(partial)
    try:
        if url.startswith("sqlite"):
            found, how = _sqlite_backup(_sqlite_path(url), partial), "sqlite3's backup API"
        else:
            found, how = _postgres_backup(url, partial), "pg_dump --format=custom"
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    seconds = time.monotonic() - started
    return [f"backed up {_shown(setting)} ({found.summary()})",
            f"to {path} ({path.stat().st_size:,} bytes, {how}, {seconds:.2f} s); it holds password hashes and the "
            f"site's keys: keep it where only you can read it"]


def _check_target_file(path: Path, url: str) -> None:
    if path.is_dir():
        raise BackupError(f"{path} is a directory: name the backup file to write")
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent} does not exist")
    if url.startswith("sqlite") and path.exists() and path.resolve() == Path(_sqlite_path(url)).resolve():
        raise BackupError(f"{path} is the database itself: name another file")
    if path.exists() and path.stat().st_size and _kind(path) is None:
        raise BackupError(f"{path} exists and is not a Quadrille backup: nothing was written over it")


def _create_private(path: Path) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _sqlite_backup(source: str, target: Path) -> Contents:
    if not Path(source).is_file():
        raise BackupError(f"there is no database at {source}")
    src, dst = sqlite3.connect(source, timeout=30), sqlite3.connect(target)
    try:
        src.backup(dst)  # pages=-1: every page in one step, one read transaction (the WAL's pages included)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        _quick_check(dst, f"the copy of {source}")
    except sqlite3.Error as exc:
        raise BackupError(f"the backup of {source} failed: {exc}") from exc
    finally:
        src.close()
        dst.close()
    found = _contents_of_sqlite_file(target)
    if not found.quadrille:
        raise BackupError(f"{source} is not a Quadrille database (it has no matches, seats and events tables)")
    return found


def _quick_check(conn: sqlite3.Connection, what: str) -> None:
    verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
    if verdict != "ok":
        raise BackupError(f"{what} is damaged: {verdict}")


def _postgres_backup(url: str, target: Path) -> Contents:
    """pg_dump in a snapshot exported by a transaction of ours, which counts what the dump holds in that same
    snapshot (counted before or after, the writers would have moved on)."""
    engine = reader(url)
    try:
        with engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn, conn.begin():
            snapshot = conn.execute(text("SELECT pg_export_snapshot()")).scalar_one()
            found = contents_on(conn)
            if not found.quadrille:
                raise BackupError(f"{_shown(url)} is not a Quadrille database (it has no matches, seats and "
                                  f"events tables)")
            pg_tools.dump(url, target, snapshot)  # while the transaction holds the snapshot open
    except pg_tools.ToolError as exc:
        raise BackupError(str(exc)) from exc
    except SQLAlchemyError as exc:
        raise BackupError(f"cannot read {_shown(url)}: {_shown(str(exc.orig or exc)).splitlines()[0]}") from exc
    finally:
        engine.dispose()
    return found


# -- restore ------------------------------------------------------------------------------------------------
def restore(path: str | Path, setting: str, force: bool = False) -> list[str]:
    """Restore the backup at `path` into the database of `setting`; what it did, in lines."""
    url, path = database_url(setting), Path(path)
    kind = _kind(path) if path.is_file() else None
    if kind is None:
        raise BackupError(f"{path} is not a backup made by `python -m quadrille admin backup` "
                          f"(neither a SQLite file nor a pg_dump custom-format archive)")
    dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
    if kind != dialect:
        raise BackupError(f"{path} is a {kind} backup and {_shown(setting)} a {dialect} database: a backup restores "
                          f"into a database of its own kind")
    said = []
    if kind == "sqlite" and not Path(_sqlite_path(url)).parent.is_dir():
        raise BackupError(f"{Path(_sqlite_path(url)).parent} does not exist: nothing was restored")
    if kind == "sqlite":
        backed_up = _contents_of_sqlite_file(path, check=True)
        _check_backup(path, backed_up.tables, backed_up.revision)
        said.append(f"{path}: a Quadrille backup at {backed_up.summary()}")
        said += _refusals_or_warnings(_sqlite_target_contents(url), setting, force)
        _sqlite_restore(path, _sqlite_path(url))
    else:
        revision = _pg(pg_tools.revision, path)
        _check_backup(path, _pg(pg_tools.tables, path), revision)
        said.append(f"{path}: a Quadrille dump at schema revision {revision or migrate.RELEASE}")
        target = _contents_of(url)
        said += _refusals_or_warnings(target, setting, force)
        _postgres_restore(path, url, target)
    engine = make_engine(url)
    try:
        applied = migrate.upgrade(engine)
        now = contents(engine)
    finally:
        engine.dispose()
    said.append(f"restored into {_shown(setting)}: {now.summary()}")
    said.append(f"upgraded it with the migrations {', '.join(applied)}" if applied
                else "its schema is this version's; no migration was needed")
    return said


def _check_backup(path: Path, tables: set, revision: str | None) -> None:
    if not migrate.RELEASE_TABLES <= tables:
        raise BackupError(f"{path} is not a Quadrille database (it has no matches, seats and events tables)")
    if not known_revision(revision):
        raise BackupError(f"{path} is at schema revision {revision}, which this version of Quadrille does not "
                          f"know (made by a newer one?): restore it with that version")


def _refusals_or_warnings(target: Contents | None, setting: str, force: bool) -> list[str]:
    """Refuse to overwrite a database in use or one that holds anything, unless forced (then say so)."""
    if target is None or target.empty:
        return []
    said, shown = [], _shown(setting)
    age = in_use(target)
    if age is not None:
        if not force:
            raise BackupError(f"a server is running on {shown} (its heartbeat is {age:.1f} s old): stop every "
                              f"server process on it first, or pass --force; nothing was changed")
        said.append(f"--force: a server is running on {shown}; restart it now, as it still holds matches "
                    f"from before in memory")
    if target.quadrille and not (target.matches or target.accounts):
        return said  # a schema and a server's own rows, nothing a player made: nothing to lose
    if not force:
        what = target.summary() if target.quadrille else f"{len(target.tables)} tables"
        raise BackupError(f"{shown} is not empty ({what}): restore into a new database, or pass --force to "
                          f"replace what it holds; nothing was changed")
    said.append(f"--force: replaced what {shown} held ({target.summary() if target.quadrille else 'its tables'})")
    return said


def _sqlite_restore(backup_path: Path, target: str) -> None:
    """Copy the backup in through sqlite3's backup API: into an existing database (a server's, even) through
    SQLite's own locking, all pages in one write transaction; a new file is written aside and renamed."""
    destination = Path(target)
    fresh = not destination.exists()
    into = destination.with_name(f".{destination.name}.{os.getpid()}.partial") if fresh else destination
    if fresh:
        _create_private(into)
    src = sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True)
    dst = sqlite3.connect(into, timeout=30)
    try:
        src.backup(dst)
        if fresh:
            dst.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as exc:
        if fresh:
            into.unlink(missing_ok=True)
        raise BackupError(f"the restore into {target} failed: {exc}; nothing was changed") from exc
    finally:
        src.close()
        dst.close()
    if fresh:
        os.replace(into, destination)


def _postgres_restore(path: Path, url: str, target: Contents) -> None:
    """pg_restore in one transaction; a forced restore drops the tables the dump holds first (in the same
    transaction) and, before it, any table of the target's that the dump has not (a newer schema's)."""
    extra = target.tables - _pg(pg_tools.tables, path)
    if extra:
        with make_engine(url).begin() as conn:
            for name in sorted(extra):
                conn.execute(text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))
    _pg(pg_tools.restore, path, url, not target.empty)


def _pg(action, *args):
    try:
        return action(*args)
    except pg_tools.ToolError as exc:
        raise BackupError(str(exc)) from exc


# -- reading databases --------------------------------------------------------------------------------------
def _contents_of(url: str) -> Contents:
    engine = reader(url)
    try:
        return contents(engine)
    except SQLAlchemyError as exc:
        raise BackupError(f"cannot read {_shown(url)}: {_shown(str(exc.orig or exc)).splitlines()[0]}") from exc
    finally:
        engine.dispose()


def _contents_of_sqlite_file(path: Path, check: bool = False) -> Contents:
    if check:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            _quick_check(conn, str(path))
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path} cannot be read as a database: {exc}") from exc
        finally:
            conn.close()
    return _contents_of(f"sqlite:///file:{path}?mode=ro&uri=true")


def _sqlite_target_contents(url: str) -> Contents | None:
    path = Path(_sqlite_path(url))
    return _contents_of(url) if path.exists() and path.stat().st_size else None


def _sqlite_path(url: str) -> str:
    return url.split(":///", 1)[1]


def _kind(path: Path) -> str | None:
    with open(path, "rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        return "sqlite"
    return "postgresql" if head.startswith(pg_tools.MAGIC) else None


def _shown(location: str) -> str:
    """A database's location for the operator's eyes and logs: a URL without its password."""
    import re
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", location)
