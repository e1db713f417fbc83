"""`python -m quadrille admin backup PATH` and `restore PATH`: the logic is admin/backups.py."""
from __future__ import annotations

import sys

from ..infra.engine import configured_database
from .backups import BackupError, backup, restore
from .cli import database_option


def add_commands(subparsers) -> None:
    made = subparsers.add_parser(
        "backup", help="copy the database, while the servers run, into a file",
        description="Copy the database into PATH while the servers run and write: one consistent instant "
                    "(SQLite: sqlite3's backup API, the write-ahead log included; PostgreSQL: pg_dump's custom "
                    "format). PATH is written whole or not at all, readable by you alone.")
    made.add_argument("path", metavar="PATH", help="the backup file to write (an earlier backup there is replaced)")
    database_option(made)
    made.set_defaults(run=run_backup)

    back = subparsers.add_parser(
        "restore", help="restore a backup into a database, upgrading it with the migrations if older",
        description="Restore the backup at PATH into the database: checks that it is a Quadrille database at a "
                    "schema revision this version knows, refuses a database a running server uses or one that "
                    "holds matches or accounts (unless --force), then upgrades it with the migrations if older.")
    back.add_argument("path", metavar="PATH", help="a file made by `python -m quadrille admin backup`")
    database_option(back)
    back.add_argument("--force", action="store_true",
                      help="replace what the database holds, even while a server runs on it (restart it then)")
    back.set_defaults(run=run_restore)


def run_backup(args) -> int:
    return _report("backup", lambda: backup(configured_database(args.db), args.path))


def run_restore(args) -> int:
    return _report("restore", lambda: restore(args.path, configured_database(args.db), force=args.force))


def _report(name: str, action) -> int:
    try:
        said = action()
    except BackupError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a file that cannot be read or written: said, not a traceback
        print(f"{name}: {exc.strerror or exc}: {exc.filename or ''}; nothing was changed", file=sys.stderr)
        return 1
    for line in said:
        print(line)
    return 0
