"""PostgreSQL's own client tools for backups (admin/backups.py): `pg_dump` in its custom format, `pg_restore`.

pg_dump reads the whole database in one snapshot (a repeatable-read transaction), so a dump taken while the
servers write is consistent: every match as it stood at one instant. The connection's details travel to the
tools in libpq's environment variables (PGHOST, PGPASSWORD, ...), never on their command line, which every
user of the machine sees in `ps`.
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

MAGIC = b"PGDMP"   # the first bytes of a custom-format dump


class ToolError(Exception):
    """A tool is missing or failed; the message says which and why (its own words, without a password)."""


def tool(name: str) -> str:
    """The newest installed version of a client tool: Debian keeps each under /usr/lib/postgresql/<major>/bin
    (pg_dump refuses a server newer than itself), elsewhere the one on PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_major)
    if found:
        return found[-1]
    on_path = shutil.which(name)
    if on_path:
        return on_path
    raise ToolError(f"{name} is not installed (Debian and Ubuntu: apt-get install postgresql-client)")


def _major(path: str) -> float:
    try:
        return float(path.split("/")[4])
    except (IndexError, ValueError):
        return 0.0


def environment(url: str) -> dict[str, str]:
    """libpq's variables for a SQLAlchemy URL (postgresql+psycopg://user:password@host:port/name, or a Unix
    socket's directory in `?host=`), over the caller's own environment (a ~/.pgpass keeps working)."""
    parsed = make_url(url)
    query = dict(parsed.query)
    env = dict(os.environ)
    named = {"PGHOST": query.pop("host", None) or parsed.host, "PGPORT": query.pop("port", None) or parsed.port,
             "PGUSER": parsed.username, "PGPASSWORD": parsed.password, "PGDATABASE": parsed.database,
             "PGSSLMODE": query.pop("sslmode", None)}
    env.update({key: str(value) for key, value in named.items() if value})
    return env


def run(argv: list[str], url: str | None = None, stdin=None) -> str:
    """Run a tool; its standard output, or ToolError with what it said on its standard error."""
    done = subprocess.run(argv, env=environment(url) if url else None, stdin=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        said = done.stderr.strip() or done.stdout.strip()
        raise ToolError(f"{Path(argv[0]).name} failed (exit code {done.returncode}): {said}")
    return done.stdout


def dump(url: str, target: Path, snapshot: str | None = None) -> None:
    """The whole database into `target`, in pg_dump's custom format (compressed; pg_restore reads it); in
    `snapshot` (pg_export_snapshot()'s, from a transaction still open) if given."""
    run([tool("pg_dump"), "--format=custom", "--file", str(target),
         *([f"--snapshot={snapshot}"] if snapshot else [])], url)


def tables(dump_path: Path) -> set[str]:
    """The names of the tables a dump holds (from its table of contents, `pg_restore --list`)."""
    listing = run([tool("pg_restore"), "--list", str(dump_path)])
    return {match.group(1) for match in re.finditer(r"^\d+; \d+ \d+ TABLE \S+ (\S+) ", listing, re.MULTILINE)}


def revision(dump_path: Path) -> str | None:
    """The schema revision a dump holds (its alembic_version row), read without any database."""
    script = run([tool("pg_restore"), "--data-only", "--table=alembic_version", "--file=-", str(dump_path)])
    found = re.search(r"^COPY \S*alembic_version \(version_num\) FROM stdin;\n(.*?)\n\\\.$", script,
                      re.MULTILINE | re.DOTALL)
    rows = found.group(1).split("\n") if found and found.group(1) else []
    return rows[0].strip() if rows else None


def restore(dump_path: Path, url: str, clean: bool) -> None:
    """Load a dump into the database of `url`, in one transaction: all of it or, on any error, nothing. Its
    tables are made by the role the URL logs in as (the dump's owners and grants are not replayed, so a
    dump restores into a database of another name or owner); `clean` drops the dump's tables first."""
    argv = [tool("pg_restore"), "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
            "--dbname", _dbname(url)]
    if clean:
        argv += ["--clean", "--if-exists"]
    run([*argv, str(dump_path)], url)


def _dbname(url: str) -> str:
    """pg_restore needs --dbname to restore into a database at all (without it, it prints SQL): the database's
    name alone; the rest of the connection is in the environment."""
    return make_url(url).database or "postgres"
