"""`python -m quadrille admin <command> ...`: the operator's commands, one module per family.

Each module in COMMAND_MODULES has `add_commands(subparsers)`, which adds its subcommands; each subcommand sets
`run(args) -> int` with `parser.set_defaults(run=...)`. The database is the one the server uses: `--db`, or
QUADRILLE_DB (a file path or a database URL) as app.py reads it.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from ..observability import logs

# the families of commands; a new one adds its module here
COMMAND_MODULES: list[str] = [
    "quadrille.admin.backup_commands",
    "quadrille.admin.moderation_commands",
]


def database_option(parser: argparse.ArgumentParser) -> None:
    """`--db`: every command acts on the server's database, chosen as app.py chooses it
    (infra/engine.configured_database)."""
    parser.add_argument("--db", help="the server's database: a SQLite file's path or a database URL "
                                     "(default: $QUADRILLE_DB, else quadrille.db, as app.py)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m quadrille admin",
                                     description="Administer a Quadrille site: matches, accounts, backups.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:  # the server's log format and level (QUADRILLE_LOG_FORMAT, _LEVEL): moderation lines look the same
        logs.configure_from_environment()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
