"""The optional parts are optional: with eventlet, psycopg and redis made impossible to import (an import hook
in a sitecustomize of the test's own), the core still imports and serves, and a server asked for one of them
stops at once with an error that names the extra to install. (tests/deploy/test_install.py serves a fresh clone
whose venv has the core alone.)"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import requests

import app
from scripts.services import ROOT
from scripts.services.process import free_port
from tests.support.tasks import kill_if_running
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

BLOCKER = '''
import sys

BLOCKED = {"eventlet", "psycopg", "psycopg_binary", "redis"}


class Blocked:
    """As if these packages were not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Blocked())
'''


@pytest.fixture
def without_extras(tmp_path) -> dict:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(BLOCKER)
    env = {name: value for name, value in os.environ.items() if not name.startswith("QUADRILLE_")}
    env["PYTHONPATH"] = f"{hook}:{ROOT}"
    return env


def run_app(env: dict, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "app.py"), *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_hook_hides_the_optional_packages(without_extras):
    for module in ("eventlet", "psycopg", "redis"):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], env=without_extras, capture_output=True,
                               text=True)
        assert probe.returncode == 1 and f"No module named '{module}'" in probe.stderr


def test_the_core_serves_without_the_optional_packages(without_extras, tmp_path):
    port = free_port()
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen([sys.executable, str(ROOT / "app.py"), "--port", str(port),
                                   "--db", str(tmp_path / "q.db")], cwd=tmp_path, env=without_extras, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: server.poll() is not None or "Quadrille ready" in log_path.read_text(), 90, "the server")
        assert server.poll() is None, log_path.read_text()
        url = f"http://127.0.0.1:{port}"
        assert requests.get(url + "/api/health", timeout=10).json()["ok"]
        created = requests.post(url + "/api/matches", json={"game": "towers", "mode": "local"}, timeout=10)
        assert created.status_code == 201, created.text
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        kill_if_running(server)


@pytest.mark.parametrize("argv, extra, asked", [
    (["--message-queue", "redis://:hunter2secret@127.0.0.1:9/0"], "cluster", "a message queue (--message-queue"),
    (["--db", "postgresql://quadrille:hunter2secret@127.0.0.1:9/quadrille"], "cluster", "a PostgreSQL database"),
    (["--async-mode", "eventlet"], "eventlet", "--async-mode eventlet"),
])
def test_asking_for_a_missing_part_names_its_extra(without_extras, tmp_path, argv, extra, asked):
    ran = run_app(without_extras, "--port", str(free_port()), "--db", str(tmp_path / "q.db"), *argv, cwd=tmp_path)
    assert ran.returncode != 0 and "Quadrille ready" not in ran.stdout
    message = ran.stderr.strip().splitlines()[-1]
    assert message.startswith(asked) and f"install quadrille[{extra}]" in message, ran.stderr
    assert "Traceback" not in ran.stderr and "hunter2secret" not in ran.stdout + ran.stderr


def test_serve_sh_installs_the_extras_its_arguments_need():
    assert app.extras_wanted([]) == []
    assert app.extras_wanted(["--port", "8000", "--db", "/var/lib/q.db"]) == []
    assert app.extras_wanted(["--message-queue", "redis://h:6379/0"]) == ["cluster"]
    assert app.extras_wanted(["--db", "postgresql+psycopg://u@h/q", "--async-mode", "eventlet"]) == ["cluster",
                                                                                                    "eventlet"]
    assert app.extras_wanted(["--help"]) == [] and app.extras_wanted(["--async-mode", "nonsense"]) == []
    with_env = {**os.environ, "QUADRILLE_ASYNC_MODE": "eventlet"}
    probe = "import app; print(app.extras_wanted([]))"
    shown = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=with_env, capture_output=True, text=True)
    assert shown.stdout.strip() == "['eventlet']"
