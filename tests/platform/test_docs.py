"""The documentation site builds (scripts/docs.sh: pdoc and scripts/docs_guide.py) without a single warning. Its
front page is a guide for a game's author (the engine contract of docs/engine.md, then a page per game), not a
list of modules; the reference of every module follows, with the engine contract, each engine and the services."""
from __future__ import annotations

import html
import os
import re
import subprocess

import pytest

import games
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


# The front page's sections, in this order: docs/engine.md's headings, then the games and the reference.
GUIDE_SECTIONS = ("The engine contract", "The registry: which games there are", "A board's life",
                  "Copies, records and views", "What a game says of itself", "The games", "Reference")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built once for the module into a temporary directory."""
    output = tmp_path_factory.mktemp("site")
    done = subprocess.run(["bash", "scripts/docs.sh", str(output)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONWARNINGS": "default"})
    assert done.returncode == 0, done.stderr
    # pdoc's warnings (unreadable docstrings, bad specs) go to stderr; the virtual environment's steps
    # (scripts/venv.sh: "quadrille: using ...") are the script saying what it did, not warnings
    warnings = [line for line in done.stderr.splitlines() if not line.startswith("quadrille: ")]
    assert warnings == [], done.stderr
    return output


def links_of(path) -> list[str]:
    return re.findall(r'<a [^>]*href="([^"#]+)', path.read_text())


def test_the_api_reference_builds_without_warnings(site):
    for page, words in PAGES.items():
        assert words in text_of(site / page), page
    assert not list(site.glob("quadrille/infra/migrations*"))   # Alembic's files are not an API
    assert (site / "index.html").exists() and (site / "search.js").exists()
    listed = [link for link in links_of(site / "modules.html") if link.endswith(".html")]
    assert len(listed) > 50 and "games/base.html" in listed     # pdoc's list of every module, kept
    assert all((site / link).is_file() for link in listed)


def test_the_front_page_is_the_engine_guide(site):
    main = (site / "index.html").read_text().split('<main class="pdoc">', 1)[1]     # past the side bar
    front = html.unescape(re.sub(r"<[^>]+>", "", main))
    places = [front.find(section) for section in GUIDE_SECTIONS]
    assert -1 not in places, dict(zip(GUIDE_SECTIONS, places))
    assert places == sorted(places)                             # the contract first, then the games, the reference
    for example in (">>> board.legal_moves()", "games.base.IllegalMove: the head, on e1, is on the edge",
                    "Outcome(winners=(1,), scores=(0, 0), reason='stuck')"):
        assert example in front, example                        # docs/engine.md's examples, as the tests run them
    links = links_of(site / "index.html")
    for name in games.listed():
        assert f"guide/{name}.html" in links, name
    modules = [link for link in links if link.endswith(".html") and not link.startswith(("guide/", "index"))]
    assert len(modules) < 15        # a few ways into the reference, not a flat list of every module
    assert all((site / link).is_file() for link in links if not link.startswith("http"))
    assert "index.html" in links_of(site / "games.html") and "The guide" in text_of(site / "games.html")


@pytest.mark.parametrize("name", games.listed())
def test_each_game_has_its_page(site, name):
    page = site / "guide" / f"{name}.html"
    text = text_of(page)
    game = games.get(name)
    for words in (game.title, game.summary, "Options, moves and endings", "The engine", "Its modules",
                  "Endings"):
        assert words in text, words
    links = links_of(page)
    assert f"../{games.package(name).replace('.', '/')}.html" in links     # its package's reference page
    assert "../index.html" in links
    assert all((page.parent / link).resolve().is_file() for link in links if not link.startswith("http"))
