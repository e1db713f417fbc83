"""docs/configuration.md names every setting of quadrille/settings.py with its environment variable, so it
cannot drift from the code; deploy/quadrille.env.example sets only real settings, read as their defaults'
types by a shell as by app.py."""
from __future__ import annotations

import re
import subprocess

import app
from quadrille.settings import DEFAULTS
from tests.support.paths import ROOT

FLAG_VARIABLES = {"HOST", "PORT", "UNIX_SOCKET", "DB", "MESSAGE_QUEUE", "ASYNC_MODE", "PUBLIC_URL"}  # app.py's
FLAG_SETTINGS = {"DATABASE": "QUADRILLE_DB"}  # the one flag setting whose variable is not QUADRILLE_<NAME>


def rows() -> dict[str, str]:
    """The settings' tables of docs/configuration.md: each setting's row."""
    text = (ROOT / "docs/configuration.md").read_text()
    return {name: line for line in text.splitlines() for name in re.findall(r"^\| `([A-Z_]+)` \|", line)}


def test_the_configuration_page_names_every_setting_with_its_variable_and_default():
    found = rows()
    assert set(DEFAULTS) <= set(found), f"not in docs/configuration.md: {sorted(set(DEFAULTS) - set(found))}"
    assert set(found) <= set(DEFAULTS), f"not settings: {sorted(set(found) - set(DEFAULTS))}"
    for name, row in found.items():
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row
        assert cells[1] == f"`{FLAG_SETTINGS.get(name, f'QUADRILLE_{name}')}`", row


def test_the_configuration_page_names_every_flag_of_app_py():
    text = (ROOT / "docs/configuration.md").read_text()
    flags = set(re.findall(r'add_argument\("(--[a-z-]+)"', (ROOT / "app.py").read_text()))
    assert flags and all(f"| `{flag}" in text for flag in flags), flags
    assert all(f"`QUADRILLE_{name}`" in text for name in FLAG_VARIABLES)


def test_the_sample_environment_file_sets_real_settings_that_app_py_reads_as_their_types(monkeypatch):
    path = ROOT / "deploy/quadrille.env.example"
    lines = [re.sub(r"^# ?", "", line) for line in path.read_text().splitlines()
             if re.match(r"^#? ?QUADRILLE_[A-Z_]+=", line)]   # set, and shown commented
    names = {line.split("=", 1)[0].removeprefix("QUADRILLE_") for line in lines}
    assert names and names <= set(DEFAULTS) | FLAG_VARIABLES, names - set(DEFAULTS) - FLAG_VARIABLES
    # every line, commented or not, as a shell reads it (the quoting is one that systemd and docker read alike)
    script = "set -a\n" + "\n".join(lines) + "\nenv -0"
    shell = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env={}, check=True).stdout
    environment = dict(item.split("=", 1) for item in shell.split("\0") if item.startswith("QUADRILLE_"))
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    read = app.settings_from_environment(DEFAULTS)
    settings = names & set(DEFAULTS) - app.FLAG_SETTINGS
    assert set(read) == settings
    for name in settings:
        default = DEFAULTS[name]
        kinds = {float: (float, int), list: (list, str)}.get(type(default), type(default))  # lists: or "a,b"
        assert default is None or isinstance(read[name], kinds), (name, read[name])
    assert read["HTTP_RATE"] == "1200 per minute" and read["PROXY_HOPS"] == 1
