"""Clusters for the tests: app processes on a PostgreSQL database and a Redis database of their own (on the
session's PostgreSQL and Redis servers, tests/conftest.py), with nginx in front, all started by
scripts/cluster.py's Cluster (its servers: scripts/services/) and stopped by PID. nginx reaches the app processes
through their Unix sockets, as in `scripts/cluster.sh`'s cluster; each also listens on a loopback port here, for
the tests that must reach one process directly (test_cluster_security.py's cluster has none, as a real one)."""
from __future__ import annotations

import multiprocessing
import uuid

import pytest

import shutil

from scripts.cluster import Cluster
from tests.support.databases import drop_database
from tests.support.servers import service_directory

# Quicker than the defaults, so that a death is noticed within seconds of the test's time.
SETTINGS = {"PRESENCE_TTL": 3.0, "LEASE_TTL": 3.0, "TAKEOVER_INTERVAL": 1.0, "PRESENCE_INTERVAL": 0.05,
            "COMPUTER_WORKERS": 1,
            # the players of tests/cluster/players.py play up to 100 tables from one address, making ~900
            # matches a minute: far more than the defaults let one address make
            "MATCH_CREATION_RATE": "3000 per minute", "HTTP_RATE": "6000 per minute"}


@pytest.fixture
def make_cluster(postgres_server, redis_url):
    made = []
    # nginx runs as its own system user when the tests run as root: pytest's tmp_path is closed to it.
    where = service_directory("quadrille-clusters-")

    def make(processes: int = 2, settings: dict | None = None, async_mode: str = "gevent") -> Cluster:
        name = f"c_{uuid.uuid4().hex[:12]}"
        # app_ports: each app process on a loopback port too, where the tests' own clients reach one process
        # directly (App.url), counted as their own addresses (scripts/cluster.py says why that stays honest)
        cluster = Cluster(where / f"cluster{len(made)}", processes, async_mode=async_mode,
                          settings={**SETTINGS, **(settings or {})},
                          database_url=postgres_server.create_database(name), queue_url=redis_url, app_ports=True)
        made.append((cluster, name))
        return cluster.start()
    yield make
    for cluster, name in made:
        cluster.stop()
        drop_database(postgres_server, name)
    shutil.rmtree(where, ignore_errors=True)


def in_another_process(function, *args):
    """Run `function(*args)` in a forked process (clients of their own, as real ones); returns a handle whose
    .result() waits for what it returned."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()

    def body():
        queue.put(function(*args))
    process = context.Process(target=body, daemon=True)
    process.start()

    class Handle:
        @staticmethod
        def result(timeout: float = 180):
            value = queue.get(timeout=timeout)
            process.join(10)
            return value
    return Handle()
