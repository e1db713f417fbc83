"""deploy/systemd/'s units read as systemd reads them (keys may repeat: Environment=, SystemCallFilter=), and
rewritten for this machine: /opt/quadrille to the repository, its venv's python to the tests' own, the
directories under /var/lib and /run to a test's own."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from scripts.services import ROOT

UNITS = ROOT / "deploy" / "systemd"


def read_unit(path: Path) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment, in order."""
    found, section = [], None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, value = line.split("=", 1)
        found.append((section, key.strip(), value.strip()))
    return found


def values(unit: list, key: str, section: str = "Service") -> list[str]:
    return [value for where, name, value in unit if where == section and name == key]


def value(unit: list, key: str, section: str = "Service") -> str:
    found = values(unit, key, section)
    assert len(found) == 1, f"{key}= is set {len(found)} times"
    return found[0]


def environment(unit: list) -> dict[str, str]:
    pairs = [item.split("=", 1) for assignment in values(unit, "Environment") for item in assignment.split()]
    return dict(pairs)


def for_this_machine(text: str, state: Path | None = None, run: Path | None = None) -> str:
    text = text.replace("/opt/quadrille/.venv/bin/python", sys.executable).replace("/opt/quadrille", str(ROOT))
    if state is not None:
        text = text.replace("/var/lib/quadrille", str(state))
    if run is not None:
        text = text.replace("/run/quadrille", str(run))
    return text


def read_only_places() -> list[Path]:
    """The code and the Python installation it runs (the venv, and the Python it was made from)."""
    places = []
    for place in sorted({ROOT.resolve(), Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}):
        if not any(place.is_relative_to(outer) for outer in places):
            places.append(place)
    return places


def sandboxed(argv: list[str], unit: list) -> list[str]:
    """`argv` in a mount namespace of its own where read_only_places() are read-only (the rest of the system
    cannot be made so here: the test's directories are under /tmp, which the unit keeps private anyway), with an
    empty capability bounding set, no new privileges and the unit's UMask."""
    mounts = " && ".join(f"mount --bind {shlex.quote(str(p))} {shlex.quote(str(p))} && "
                         f"mount -o remount,bind,ro {shlex.quote(str(p))}" for p in read_only_places())
    assert value(unit, "CapabilityBoundingSet") == "" and value(unit, "NoNewPrivileges") == "yes"
    script = (f'{mounts} && umask {value(unit, "UMask")} && '
              'exec setpriv --no-new-privs --bounding-set=-all --inh-caps=-all -- "$@"')
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sandbox", *argv]
