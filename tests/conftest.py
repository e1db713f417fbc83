"""Fixtures shared by every tier of tests. The harness they use lives in tests/support/ (see its __init__):
a real server process, databases copied from a migrated template, wait_until. The specifications and
reference data live in ../shared (beside the repository), and are read from there, never copied in."""
from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

from scripts.services.postgres import Postgres
from scripts.services.redis import Redis
from tests.support.databases import PostgresTemplate, SqliteTemplate, drop_database
from tests.support.paths import SHARED
from tests.support.servers import ASYNC_MODES, ServerProcess, service_directory


@pytest.fixture(scope="session")
def shared() -> Path:
    assert SHARED.is_dir(), f"the shared specifications are expected at {SHARED}"
    return SHARED


# -- a real server process ----------------------------------------------------------
@pytest.fixture(params=ASYNC_MODES)
def server(request, tmp_path):
    """A real server process, once under each async mode."""
    proc = ServerProcess(tmp_path / "server.db", request.param).start()
    yield proc
    proc.stop()


# -- real PostgreSQL and Redis servers, started by the tests in temporary directories --------------------
# As scripts/cluster.py starts them: passwords on every connection (the URLs below carry them), the databases
# owned by an ordinary role, each server as its own system user when the tests run as root. Under
# pytest-xdist each worker starts its own (free ports, directories of their own).
DATABASES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of the tests' own (as the `postgres` system user when run as root), stopped by PID.
    `create_database` answers a URL with the app role's password; `drop_database` works as its superuser."""
    where = service_directory("quadrille-pg-")
    server = Postgres(where / "postgres", durable=False).start()
    yield server
    server.stop()
    shutil.rmtree(where, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server():
    """A Redis server of the tests' own (as the `redis` system user when run as root); its URLs carry its
    password."""
    where = service_directory("quadrille-redis-")
    server = Redis(where).start()
    yield server
    server.stop()
    shutil.rmtree(where, ignore_errors=True)


_redis_databases = iter(range(1_000_000))


@pytest.fixture
def redis_url(redis_server):
    """A Redis database of its own for one test (one of the server's 16, in turn, emptied first)."""
    import redis
    url = redis_server.url(next(_redis_databases) % 15 + 1)
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


# -- databases: copies of a template migrated once a session (tests/support/databases.py) ----------------
@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> SqliteTemplate:
    return SqliteTemplate(tmp_path_factory.mktemp("template"))


@pytest.fixture(scope="session")
def postgres_template(postgres_server) -> PostgresTemplate:
    return PostgresTemplate(postgres_server)


@pytest.fixture
def sqlite_database(sqlite_template, tmp_path) -> str:
    """A SQLite database file of the test's own, at the newest schema."""
    return sqlite_template.copy(tmp_path / "quadrille.db")


@pytest.fixture(params=DATABASES)
def database(request, tmp_path):
    """A database of the test's own at the newest schema: a SQLite file's path, or a PostgreSQL database's
    URL. Tests that touch storage run on both."""
    if request.param == "sqlite":
        yield request.getfixturevalue("sqlite_database")
        return
    template = request.getfixturevalue("postgres_template")
    name, url = template.copy()
    yield url
    drop_database(template.server, name)


@pytest.fixture(params=DATABASES)
def empty_database(request, tmp_path):
    """A new, empty database (no schema at all): for the tests of the migrations themselves."""
    if request.param == "sqlite":
        yield str(tmp_path / "quadrille.db")
        return
    server = request.getfixturevalue("postgres_server")
    name = f"t_{uuid.uuid4().hex[:12]}"
    yield server.create_database(name)
    drop_database(server, name)
