"""The README's two commands on a fresh clone, with Debian's own Python first on the PATH: its `python3` is
externally managed (PEP 668), so the commands must make a virtual environment of their own (scripts/venv.sh) and
run everything from it. pip takes the packages from its cache on this machine (a minute at most; about 20 s for
serve.sh's first start, 15 s more for the test extra)."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from scripts.services import ROOT
from scripts.services.process import free_port
from tests.support.tasks import kill_if_running
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

DEBIAN_PYTHON = Path("/usr/bin/python3")


def fresh_clone(where: Path) -> Path:
    """A clone of the commit under test, with the working tree's uncommitted changes to tracked files on it."""
    clone = where / "quadrille"
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", head.stdout.strip()], check=True)
    changes = subprocess.run(["git", "-C", str(ROOT), "diff", "HEAD", "--binary"], capture_output=True, check=True)
    if changes.stdout:
        subprocess.run(["git", "-C", str(clone), "apply", "-"], input=changes.stdout, check=True)
    return clone


def debian_environment(where: Path) -> dict:
    """An environment whose `python3` is Debian's, with no pyenv shims, no active virtual environment and no
    PYTHONPATH: what a user of stock Debian has."""
    bin_dir = where / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(DEBIAN_PYTHON)
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("PYENV", "VIRTUAL_ENV", "PYTHON", "QUADRILLE_"))}
    env["PATH"] = f"{bin_dir}:/usr/local/sbin:/usr/sbin:/usr/sbin:/usr/bin:/sbin:/bin"
    return env


@pytest.fixture
def clone(tmp_path):
    externally_managed = list(Path("/usr/lib").glob("python3*/EXTERNALLY-MANAGED"))
    assert DEBIAN_PYTHON.exists() and externally_managed, "this test wants stock Debian's python3"
    refused = subprocess.run([str(DEBIAN_PYTHON), "-m", "pip", "install", "--dry-run", "flask"],
                             capture_output=True, text=True)
    assert "externally-managed-environment" in refused.stderr  # what the commands used to stop on
    return fresh_clone(tmp_path), debian_environment(tmp_path)


def venv_python(clone: Path) -> str:
    return str(clone / ".venv" / "bin" / "python")


def test_serve_sh_makes_a_venv_with_debians_python_and_serves(clone):
    clone, env = clone
    port = free_port()
    began = time.monotonic()
    log_path = clone.parent / "serve.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(["bash", "scripts/serve.sh", "--port", str(port)], cwd=clone, env=env,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: server.poll() is not None or health(port), 240, "the fresh clone's server",
                   interval=0.5)
        assert server.poll() is None, log_path.read_text()
        first_start = time.monotonic() - began
        print(f"fresh clone: venv, pip install and first answer in {first_start:.1f} s")
        said = log_path.read_text()
        assert f"creating the virtual environment {clone}/.venv ({clone.parent}/bin/python3 -m venv)" in said, said
        assert "installing -e . into" in said and "Quadrille ready on http://127.0.0.1:" in said
        assert health(port)["ok"]
        served = requests.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert served.status_code == 200 and "Trails and Towers" in served.text
        # the server is the venv's Python (Debian's underneath), the one exec'd by serve.sh: stopped by its PID
        assert os.readlink(f"/proc/{server.pid}/exe").startswith("/usr/bin/python3")
        assert open(f"/proc/{server.pid}/cmdline").read().split("\0")[:2] == ["python", "app.py"]
        environ = open(f"/proc/{server.pid}/environ").read().split("\0")
        assert f"VIRTUAL_ENV={clone}/.venv" in environ
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        kill_if_running(server)
    probe = "import sys; print(sys.prefix, sys.base_prefix)"
    prefix, base = subprocess.run([venv_python(clone), "-c", probe], capture_output=True, text=True,
                                  check=True).stdout.split()
    assert prefix == str(clone / ".venv") and base == "/usr"
    # the core alone: the optional parts (quadrille[cluster], quadrille[eventlet]) were not installed
    for optional in ("eventlet", "psycopg", "redis"):
        found = subprocess.run([venv_python(clone), "-c", f"import {optional}"], capture_output=True)
        assert found.returncode != 0, f"{optional} was installed with the core"

    # a second start finds everything installed and says so in one line
    port = free_port()
    began = time.monotonic()
    with open(log_path, "wb") as log:
        server = subprocess.Popen(["bash", "scripts/serve.sh", "--port", str(port)], cwd=clone, env=env,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: server.poll() is not None or health(port), 60, "the second start", interval=0.2)
        print(f"second start: first answer in {time.monotonic() - began:.1f} s")
        said = log_path.read_text()
        assert f"using the virtual environment {clone}/.venv" in said and "installing" not in said, said
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


def test_test_sh_makes_the_venv_and_runs_pytest_from_it(clone):
    """Not the whole suite again (this test is part of it): pytest collecting one module, from the venv."""
    clone, env = clone
    began = time.monotonic()
    ran = subprocess.run(["bash", "scripts/test.sh", "--co", "tests/games/test_gamma_passes.py"], cwd=clone,
                         env=env, capture_output=True, text=True, timeout=600)
    print(f"test.sh on a fresh clone: venv, pip install of the test extra and collection in "
          f"{time.monotonic() - began:.1f} s")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"creating the virtual environment {clone}/.venv" in ran.stderr
    assert "installing -e .[test] into" in ran.stderr
    assert "tests/games/test_gamma_passes.py::" in ran.stdout and "collected" in ran.stdout
    probe = "import eventlet, psycopg, redis, playwright, pytest, sys; print(sys.prefix)"
    installed = subprocess.run([venv_python(clone), "-c", probe], capture_output=True, text=True)
    assert installed.returncode == 0 and installed.stdout.strip() == str(clone / ".venv"), installed.stderr


def health(port: int) -> dict | None:
    try:
        return requests.get(f"http://127.0.0.1:{port}/api/health", timeout=2).json()
    except (requests.RequestException, ValueError):
        return None
