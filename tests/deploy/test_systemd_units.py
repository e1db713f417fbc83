"""deploy/systemd/'s units: checked by systemd's own `systemd-analyze verify` and its offline security review
(no systemd runs here as PID 1 to start them: tests/deploy/test_single_process.py runs the single unit's
command with its environment behind nginx-single.conf), and their fields read and checked against each other
and against nginx's recipes."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from scripts.services import ROOT
from tests.deploy.units import UNITS, environment, for_this_machine, read_unit, value, values

SINGLE, TEMPLATE = UNITS / "quadrille.service", UNITS / "quadrille@.service"


@pytest.fixture
def on_this_machine(tmp_path):
    """The units with their paths made real (verify checks that ExecStart's program exists)."""
    for unit in (SINGLE, TEMPLATE):
        (tmp_path / unit.name).write_text(for_this_machine(unit.read_text()))
    return tmp_path


def analyze(*argv: str) -> subprocess.CompletedProcess:
    assert shutil.which("systemd-analyze"), "systemd-analyze (Debian's systemd package) is expected here"
    return subprocess.run(["systemd-analyze", *argv], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", ["quadrille.service", "quadrille@1.service"])
def test_systemd_analyze_verify_finds_nothing_to_say(on_this_machine, name):
    if "@1" in name:
        shutil.copy(on_this_machine / "quadrille@.service", on_this_machine / name)
    checked = analyze("verify", str(on_this_machine / name))
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stdout + checked.stderr


def test_verify_would_catch_a_mistake(on_this_machine):
    unit = on_this_machine / "quadrille.service"
    unit.write_text(unit.read_text().replace("ProtectSystem=strict", "ProtectSystem=strict\nProtectSystm=strict"))
    checked = analyze("verify", str(unit))
    assert "Unknown key 'ProtectSystm'" in checked.stderr


@pytest.mark.parametrize("name", ["quadrille.service", "quadrille@.service"])
def test_the_security_review_rates_them_well_exposed_little(on_this_machine, name):
    review = analyze("security", "--offline=yes", str(on_this_machine / name))
    exposure = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", review.stdout)
    assert exposure, review.stdout + review.stderr
    assert float(exposure.group(1)) <= 2.0 and exposure.group(2) == "OK", exposure.group(0)


@pytest.mark.parametrize("path", [SINGLE, TEMPLATE])
def test_both_units_are_hardened_and_restart_on_failure(path):
    unit = read_unit(path)
    assert value(unit, "Restart") == "on-failure" and value(unit, "NoNewPrivileges") == "yes"
    assert value(unit, "ProtectSystem") == "strict" and value(unit, "ProtectHome") == "yes"
    assert value(unit, "User") == "quadrille" and value(unit, "Group") == "quadrille"
    assert value(unit, "CapabilityBoundingSet") == "" and value(unit, "PrivateTmp") == "yes"
    assert value(unit, "ExecStart") == "/opt/quadrille/.venv/bin/python /opt/quadrille/app.py"
    assert value(unit, "KillSignal") == "SIGTERM" and value(unit, "WantedBy", "Install") == "multi-user.target"
    env = environment(unit)
    assert env["QUADRILLE_PROXY_HOPS"] == "1" and env["QUADRILLE_UNIX_SOCKET"].startswith("/run/quadrille/")
    assert "/run/quadrille" in value(unit, "ReadWritePaths").split()
    # no password in a unit file (world-readable): URLs with credentials come from the environment file
    assert not any(re.search(r"://[^/\s]*:[^@\s]*@", value) for _, _, value in unit)
    assert value(unit, "EnvironmentFile").startswith("/etc/quadrille/")


def test_the_single_unit_writes_its_database_and_nowhere_else():
    unit = read_unit(SINGLE)
    database = environment(unit)["QUADRILLE_DB"]
    assert database == "/var/lib/quadrille/quadrille.db"
    assert sorted(value(unit, "ReadWritePaths").split()) == ["/run/quadrille", "/var/lib/quadrille"]
    assert value(unit, "StateDirectory") == "quadrille" and value(unit, "StateDirectoryMode") == "0700"
    assert value(unit, "RuntimeDirectory") == "quadrille" and value(unit, "RuntimeDirectoryMode") == "0750"


def test_the_single_units_socket_is_the_one_nginx_single_conf_proxies_to():
    socket = environment(read_unit(SINGLE))["QUADRILLE_UNIX_SOCKET"]
    conf = (ROOT / "deploy" / "nginx-single.conf").read_text()
    assert re.findall(r"server unix:(\S+)", conf) == [socket]


def test_the_template_puts_each_instance_on_a_socket_of_its_own():
    unit = read_unit(TEMPLATE)
    assert environment(unit)["QUADRILLE_UNIX_SOCKET"] == "/run/quadrille/app%i.sock"
    assert value(unit, "RuntimeDirectoryPreserve") == "yes"  # one instance stopping keeps the others' sockets
    assert value(unit, "EnvironmentFile") == "/etc/quadrille/cluster.env"
    assert "QUADRILLE_DB" not in environment(unit) and not values(unit, "StateDirectory")
