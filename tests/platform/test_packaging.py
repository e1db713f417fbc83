"""What is shipped: the versions tested are pinned, the tests run on them, and the container is not root."""
from __future__ import annotations

import re
import tomllib
from importlib import metadata

from tests.support.paths import ROOT


def pins() -> dict[str, str]:
    text = (ROOT / "constraints.txt").read_text()
    return {name.lower(): version for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.M)}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_pinned_in_the_constraints_file():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + [requirement for extra in project["optional-dependencies"].values()
                                        for requirement in extra]
    pinned = {canonical(name) for name in pins()}
    for requirement in wanted:
        name = canonical(re.match(r"[A-Za-z0-9_.-]+", requirement).group(0))
        if name == "quadrille":
            continue  # the test extra names the other extras (quadrille[cluster,eventlet])
        assert name in pinned, f"{name} is not pinned in constraints.txt"


def test_the_optional_parts_are_extras_that_the_tests_include():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {canonical(re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)) for requirement in project["dependencies"]}
    assert not core & {"eventlet", "psycopg", "redis"}, core
    extras = project["optional-dependencies"]
    assert extras["cluster"] == ["psycopg[binary]>=3.2", "redis>=5.0"] and extras["eventlet"] == ["eventlet>=0.35"]
    assert "quadrille[cluster,eventlet]" in extras["test"]


def test_the_tests_run_on_the_pinned_versions():
    wrong = {}
    for name, version in pins().items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency of a dependency that this platform does not need
        if installed != version:
            wrong[name] = (installed, version)
    assert not wrong, f"installed versions differ from constraints.txt: {wrong}"


def test_the_scripts_install_from_the_constraints_file():
    assert "-c constraints.txt" in (ROOT / "scripts" / "venv.sh").read_text()
    for script in ("scripts/test.sh", "scripts/serve.sh", "scripts/cluster.sh"):
        assert "install_into_venv" in (ROOT / script).read_text(), script
    assert "-c constraints.txt" in (ROOT / "Dockerfile").read_text()


def test_the_container_runs_as_a_user_of_its_own():
    users = re.findall(r"^USER\s+(\S+)", (ROOT / "Dockerfile").read_text(), re.M)
    assert users and users[-1] not in ("root", "0"), users
