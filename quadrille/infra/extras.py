"""Quadrille's optional parts and the extras of pyproject.toml that install them. The core (one process on
SQLite, under gevent) needs none of them; a cluster needs `quadrille[cluster]` (psycopg for PostgreSQL, redis
for the message queue), `--async-mode eventlet` needs `quadrille[eventlet]`. The code imports them where they
are used, through `require`, so that a site without them starts, and one that asks for them without having them
is told which extra to install. app.py says the same for eventlet itself (it is imported before this package,
which must come after the monkey-patching)."""
from __future__ import annotations

import importlib
from types import ModuleType

EXTRA_OF = {"psycopg": "cluster", "redis": "cluster", "eventlet": "eventlet"}


class MissingExtra(RuntimeError):
    """An optional part was asked for and is not installed; the message names the extra."""


def missing_message(module: str, wanted_for: str) -> str:
    extra = EXTRA_OF[module]
    return (f"{wanted_for} needs the Python package {module}, which is not installed: install quadrille[{extra}] "
            f"(in the repository: python -m pip install -c constraints.txt -e '.[{extra}]'; scripts/serve.sh and "
            f"scripts/cluster.sh install it when their arguments ask for it)")


def require(module: str, wanted_for: str) -> ModuleType:
    """`import module`, or MissingExtra naming the extra to install and what wanted it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and exc.name.split(".")[0] != module:
            raise  # the package is there but one of its own imports failed: its own error says more
        raise MissingExtra(missing_message(module, wanted_for)) from exc

