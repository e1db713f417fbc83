"""Attacks on a real server process (gevent), each measured by a victim's Socket.IO round trips.

The attacker runs in its own process, as a real one would, so that the test process's own work does not
stand between the victim and the server. Each role has its own loopback address (see clients.py)."""
from __future__ import annotations

import multiprocessing
import re

import pytest

from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.clients import Victim

# The finding's bar: whatever one client sends, another client's round trip stays under this.
WORST_ROUND_TRIP_MS = 250

# Budgets tighter than the defaults (which must let bench/load.py's 400 clients play from one address), so
# that each attack reaches them within a few seconds.
SETTINGS = {
    "CONNECTIONS_PER_ADDRESS": 100,
    "CONNECTION_RATE": "300 per minute",
    "MATCH_CREATION_RATE": "40 per minute",
    "HTTP_RATE": "2000 per minute",
    "PRESENCE_GRACE": 2.0,
    "VOTE_TTL": 3.0,
}


@pytest.fixture(scope="module", params=ASYNC_MODES)
def target(request, tmp_path_factory):
    """A real server under each async mode (gevent, the default, and eventlet), one per test module, with the
    module's own `SERVER_SETTINGS` where it has them (else SETTINGS below)."""
    settings = getattr(request.module, "SERVER_SETTINGS", SETTINGS)
    name = request.module.__name__.rsplit(".", 1)[-1]
    proc = ServerProcess(tmp_path_factory.mktemp(name) / f"{name}.db", request.param, settings=settings).start()
    yield proc
    proc.stop()


@pytest.fixture
def victim(target):
    person = Victim(target.url)
    yield person
    person.close()


def run_attack(victim: Victim, attack, *args, timeout: float = 60):
    """Run `attack(*args)` in another process while `victim` probes; return what the attack returned."""
    results = multiprocessing.get_context("fork").Queue()

    def body():
        results.put(attack(*args))
    process = multiprocessing.get_context("fork").Process(target=body, daemon=True)
    process.start()
    victim.probe_while(process.is_alive)
    process.join(timeout)
    assert process.exitcode == 0, f"the attack itself failed (exit code {process.exitcode})"
    return results.get(timeout=5)


def log_of(server: ServerProcess) -> str:
    return server.log_path.read_text(errors="replace")


def tracebacks(text: str) -> int:
    return len(re.findall(r"^Traceback \(most recent call last\)", text, re.M))
