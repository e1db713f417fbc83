"""Shared test fixtures. The specifications and reference data live in ../shared
(beside the repository), and are read from there, never copied in."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def wait_until(predicate, timeout: float = 30.0, what: str = "the condition") -> None:
    """Poll `predicate` until it is true; fail the test after `timeout` seconds."""
    deadline = time.time() + timeout
    while not predicate():
        if time.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


@pytest.fixture(scope="session")
def shared() -> Path:
    assert SHARED.is_dir(), f"the shared specifications are expected at {SHARED}"
    return SHARED


# -- a real server process ----------------------------------------------------------
from scripts.services.app import App

ASYNC_MODES = ("gevent", "eventlet")


class ServerProcess(App):
    """`python app.py` on a free local port with its own database file, and a message queue only when given:
    the cluster's app process (scripts/services/app.py), alone. Its output goes to `log_path`, beside the database."""

    def __init__(self, db: Path, async_mode: str = "gevent", port: int | bool | None = None,
                 settings: dict | None = None, queue: str | None = None, unix_socket: Path | None = None):
        """`settings`: quadrille/settings.py names to values, passed as QUADRILLE_<NAME> (JSON). `unix_socket`:
        listen there (`app.py --unix-socket`; a proxy's way in), and on a TCP port as well only if `port`."""
        super().__init__(db.parent, 1, str(db), queue, port=port, async_mode=async_mode, settings=settings,
                         unix_socket=unix_socket)
        if unix_socket is not None:  # app.py asks for it: a Unix socket has no address to make links from
            self.public_url = f"http://127.0.0.1:{self.port}" if self.port else "http://quadrille.test"
        self.db = db
        self.log_path = db.with_suffix(f".{self.port or 'unix'}.log")


@pytest.fixture(params=ASYNC_MODES)
def server(request, tmp_path):
    """A real server process, once under each async mode."""
    proc = ServerProcess(tmp_path / "server.db", request.param).start()
    yield proc
    proc.stop()


def stored_matches(storage) -> int:
    """How many matches a Storage holds, listed or not (the public list shows only listed ones): for tests
    that check that a refused request created nothing."""
    from sqlalchemy import func, select

    from quadrille.infra.schema import matches_table
    with storage.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(matches_table)).scalar_one()


# -- real PostgreSQL and Redis servers, started by the tests in temporary directories --------------------
# As scripts/cluster.py starts them: passwords on every connection (the URLs below carry them), the databases
# owned by an ordinary role, each server as its own system user when the tests run as root.
import shutil
import tempfile
import uuid

from scripts.services.postgres import Postgres
from scripts.services.redis import Redis

DATABASES = ("sqlite", "postgresql")


def service_directory(prefix: str) -> Path:
    """A temporary directory the `postgres` system user can reach (pytest's own are private to root)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path


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


@pytest.fixture(params=DATABASES)
def database(request, tmp_path):
    """A new, empty database for one test: a SQLite file's path, or a PostgreSQL database's URL. Tests that
    touch storage run on both."""
    if request.param == "sqlite":
        yield str(tmp_path / "quadrille.db")
        return
    server = request.getfixturevalue("postgres_server")
    name = f"t_{uuid.uuid4().hex[:12]}"
    yield server.create_database(name)
    drop_database(server, name)


def drop_database(server, name: str) -> None:
    """Drop a test's database (as the server's superuser: the app's role may not)."""
    try:
        server.drop_database(name)
    except Exception:
        pass
