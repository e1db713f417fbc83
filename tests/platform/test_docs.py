"""The API reference builds from the docstrings (scripts/docs.sh, pdoc) without a single warning, and holds the
engine contract, each engine and the services."""
from __future__ import annotations

import html
import os
import re
import subprocess

from tests.support.paths import ROOT

PAGES = {
    "games/base.html": "The engine contract",
    "games/trails.html": "Trails",
    "games/lattice.html": "Lattice",
    "games/towers.html": "Towers",
    "games/gamma.html": "Gamma",
    "quadrille/matches/service.html": "The match service",
    "quadrille/clocks/service.html": "The clocks service",
    "quadrille/clocks/control.html": "parse_time_control",
    "quadrille/matches/store.html": "The matches' SQL",
    "quadrille/infra/timers.html": "fire_due",
}


def text_of(path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text()))


def test_the_api_reference_builds_without_warnings(tmp_path):
    done = subprocess.run(["bash", "scripts/docs.sh", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONWARNINGS": "default"})
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr      # pdoc's warnings (unreadable docstrings, bad specs) go to stderr
    for page, words in PAGES.items():
        assert words in text_of(tmp_path / page), page
    assert not list(tmp_path.glob("quadrille/infra/migrations*"))   # Alembic's files are not an API
    assert (tmp_path / "index.html").exists() and (tmp_path / "search.js").exists()
