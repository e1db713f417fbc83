"""Schema migrations: Alembic, with the revisions in quadrille/infra/migrations/versions/.

Opening a database (database.py) applies them (`upgrade(engine)`), so a server always runs on the schema its
code expects. An operator can run them by hand too, e.g. before starting a new release:

    python -m quadrille.infra.migrate --db quadrille.db              # upgrade to the newest revision
    python -m quadrille.infra.migrate --db quadrille.db current      # the revision the database is at
    python -m quadrille.infra.migrate --db quadrille.db history
    python -m quadrille.infra.migrate --db quadrille.db downgrade 0001
    python -m quadrille.infra.migrate --url postgresql://… upgrade --sql   # print the SQL, run nothing
    python -m quadrille.infra.migrate --db dev.db revision -m "what it changes" --autogenerate

(--db, a file or a URL, defaults to $QUADRILLE_DB, else quadrille.db, as app.py's; plain `alembic upgrade head`
runs the same migrations through the repository's alembic.ini.) A database made by the first release
(tables made by metadata.create_all, no alembic_version table) is stamped at revision 0001 first, then
upgraded in place.
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from .engine import configured_database, database_url, make_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
RELEASE = "0001"                                # the schema of the release that had no migrations
RELEASE_TABLES = {"matches", "seats", "events"}
PG_LOCK = 0x5175616472696C6C                    # "Quadrill": serialises concurrent upgrades on PostgreSQL

log = logging.getLogger("quadrille.migrate")
# Alembic says at INFO what it is about to do ("Context impl SQLiteImpl.") each time a database is opened;
# start-up logs its own line when it migrates. Quieter by default; the command line below, or an operator's own
# logging settings, can raise it again.
for _name in ("alembic.runtime.migration", "alembic.runtime.plugins"):
    if logging.getLogger(_name).level == logging.NOTSET:
        logging.getLogger(_name).setLevel(logging.WARNING)


def config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic Config built in code: the migrations folder, and the connection (or URL) to run on."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    return ScriptDirectory.from_config(config()).get_current_head()


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: no alembic_version table, or an empty one)."""
    return MigrationContext.configure(connection).get_current_revision()


def _lock(connection: Connection) -> None:
    """Hold the database against a second process upgrading at the same time, until the commit."""
    if connection.dialect.name == "sqlite":
        # pysqlite would begin only at the first INSERT/UPDATE, and DDL would run outside any transaction:
        # begin now, taking the write lock, so that the check and the upgrade are one transaction.
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    elif connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK})


def upgrade(engine: Engine, revision: str = "head") -> list[str]:
    """Bring the database up to `revision`, in one transaction; return the revisions applied, oldest first
    (none when it was there already). A database made by the first release is stamped at 0001 first."""
    script = ScriptDirectory.from_config(config())
    with engine.connect() as connection:
        _lock(connection)
        before = current(connection)
        if before is None and RELEASE_TABLES <= set(inspect(connection).get_table_names()):
            command.stamp(config(connection), RELEASE)
            before = RELEASE
            log.info("a database of the first release: stamped at revision %s", RELEASE)
        try:
            target = script.get_revision(revision).revision
            todo = [r.revision for r in script.iterate_revisions(target, before or "base")][::-1]
        except Exception as exc:  # alembic.util.CommandError and friends: an unknown revision
            raise RuntimeError(f"the database is at revision {before!r}, which this version of Quadrille does "
                               f"not know (was it made by a newer one?)") from exc
        if todo:
            log.info("upgrading the database from revision %s to %s (%s)", before or "(empty)", target,
                     ", ".join(todo))
            command.upgrade(config(connection), target)
        connection.commit()
    return todo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m quadrille.infra.migrate",
                                     description="Quadrille's schema migrations (Alembic).")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", help="the database: a SQLite file or a URL (default: $QUADRILLE_DB, else quadrille.db)")
    where.add_argument("--url", help="a SQLAlchemy database URL instead of a SQLite file")
    commands = parser.add_subparsers(dest="command")
    up = commands.add_parser("upgrade", help="upgrade to a revision (default: the newest); the default command")
    up.add_argument("revision", nargs="?", default="head")
    up.add_argument("--sql", action="store_true", help="print the SQL for --url's dialect, run nothing")
    down = commands.add_parser("downgrade", help="downgrade to a revision (or 'base': drops everything)")
    down.add_argument("revision")
    commands.add_parser("current", help="the revision the database is at")
    commands.add_parser("history", help="the revisions, newest first")
    stamp = commands.add_parser("stamp", help="record a revision without running anything")
    stamp.add_argument("revision")
    new = commands.add_parser("revision", help="a new revision file in quadrille/infra/migrations/versions")
    new.add_argument("-m", "--message", required=True)
    new.add_argument("--autogenerate", action="store_true",
                     help="fill it in from the differences between the database and schema.metadata")
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args([*(argv if argv is not None else sys.argv[1:]), "upgrade"])
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic.runtime.migration").setLevel(logging.INFO)

    url = args.url or database_url(configured_database(args.db))  # as app.py: a path or a URL
    name = args.command
    if name == "history":
        command.history(config())
        return
    if name == "upgrade" and args.sql:
        command.upgrade(config(url=url), args.revision, sql=True)
        return
    engine = make_engine(url)
    try:
        if name == "upgrade":
            applied = upgrade(engine, args.revision)
            print(f"applied {', '.join(applied)}" if applied else "already at that revision; nothing to do")
            return
        with engine.connect() as connection:
            _lock(connection)
            cfg = config(connection)
            if name == "current":
                print(current(connection) or "(no revision)")
            elif name == "downgrade":
                command.downgrade(cfg, args.revision)
            elif name == "stamp":
                command.stamp(cfg, args.revision)
            elif name == "revision":
                command.revision(cfg, message=args.message, autogenerate=args.autogenerate,
                                 rev_id=f"{int(head()) + 1:04d}")  # numbered in order: 0001, 0002, ...
            connection.commit()
    finally:
        engine.dispose()


if __name__ == "__main__":
    main()
