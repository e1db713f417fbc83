"""The Dockerfile and .dockerignore. No container engine runs on this machine (the docker client is there, no
daemon), so the image is not built here: the Dockerfile is parsed, its HEALTHCHECK command is run for real
against a real server, and .dockerignore is applied to the repository's files as `docker build` applies it."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from scripts.services import ROOT
from scripts.services.process import free_port
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.server


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined, comments left out."""
    found, pending = [], ""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.lstrip().startswith("#") and not pending:
            continue
        if not line.strip():
            continue
        pending += line.rstrip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        name, _, arguments = pending.strip().partition(" ")
        found.append((name.upper(), arguments.strip()))
        pending = ""
    return found


def one(name: str) -> str:
    found = [arguments for instruction, arguments in instructions() if instruction == name]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def healthcheck_command() -> list[str]:
    options, command = one("HEALTHCHECK").split(" CMD ", 1)
    assert re.search(r"--interval=\d+s", options) and re.search(r"--timeout=\d+s", options)
    return json.loads(command)  # the exec form: no shell in the way


def test_the_image_installs_the_packages_plainly_and_runs_as_a_user_of_its_own():
    runs = [arguments for instruction, arguments in instructions() if instruction == "RUN"]
    installs = [run for run in runs if "pip install" in run]
    assert len(installs) == 1 and "-c constraints.txt" in installs[0]
    assert not re.search(r"(^|\s)(-e|--editable)(\s|$)", installs[0]), installs[0]  # not editable
    assert '".[${EXTRAS}]"' in installs[0] and one("ARG") == "EXTRAS=cluster"  # compose runs it on PostgreSQL
    order = [instruction for instruction, _ in instructions()]
    assert order.index("USER") > max(i for i, (instruction, _) in enumerate(instructions()) if instruction == "RUN")
    assert one("USER") == "quadrille" and json.loads(one("CMD")) == ["python", "app.py"]
    assert one("STOPSIGNAL") == "SIGTERM" and one("FROM").startswith("python:3.11")


def test_docker_compose_builds_the_image_with_the_cluster_extra():
    import yaml
    spec = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    for name in ("app1", "app2"):
        build = spec["services"][name]["build"]
        assert build["context"] == ".." and "cluster" in build["args"]["EXTRAS"].split(",")


def test_the_healthcheck_asks_api_health_with_python_alone():
    command = healthcheck_command()
    assert command[:2] == ["python", "-c"] and "urllib.request" in command[2] and "/api/health" in command[2]
    assert "curl" not in command[2] and "wget" not in command[2]  # python:3.11-slim has neither


def test_the_healthcheck_passes_on_a_serving_server_and_fails_otherwise(tmp_path):
    command = [sys.executable, *healthcheck_command()[1:]]
    server = ServerProcess(tmp_path / "q.db").start()
    try:
        env = {**os.environ, "QUADRILLE_PORT": str(server.port)}
        assert subprocess.run(command, env=env, capture_output=True, timeout=30).returncode == 0
    finally:
        server.stop()
    nobody = {**os.environ, "QUADRILLE_PORT": str(free_port())}
    assert subprocess.run(command, env=nobody, capture_output=True, timeout=30).returncode != 0


def ignore_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def pattern_regex(pattern: str) -> re.Pattern:
    """A .dockerignore pattern (Go's filepath.Match, plus `**` for any number of folders) as a regex matching a
    path or any folder above it (an ignored folder leaves out everything in it)."""
    pattern = pattern.strip("/")
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + "(?:/.*)?")


def ignored(path: str) -> bool:
    assert not any(pattern.startswith("!") for pattern in ignore_patterns())  # no exceptions to reason about
    return any(pattern_regex(pattern).fullmatch(path) for pattern in ignore_patterns())


def test_dockerignore_leaves_out_what_is_not_the_site():
    for path in ("cluster/postgres/PG_VERSION", "cluster/cluster.json", "build/lib/quadrille/__init__.py",
                 ".venv/bin/python", "test-output/lobby.png", "quadrille.db", "data/quadrille.db-wal",
                 "tests/platform/data/old.db", ".git/HEAD", "deploy/.env", "quadrille/__pycache__/x.cpython-311.pyc",
                 "quadrille.egg-info/PKG-INFO", "node_modules/socket.io-client/package.json"):
        assert ignored(path), path


def test_dockerignore_keeps_everything_the_image_copies():
    sources = [source for instruction, arguments in instructions() if instruction == "COPY"
               for source in arguments.split()[:-1]]  # COPY SRC... DEST
    assert sorted(sources) == sorted(["pyproject.toml", "constraints.txt", "README.md", "games", "quadrille", "ai",
                                      "app.py", "templates", "static"])
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for source in sources:
        inside = [path for path in files if path == source or path.startswith(source + "/")]
        assert inside and not any(ignored(path) for path in inside), source
