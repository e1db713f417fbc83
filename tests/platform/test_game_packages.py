"""A game is one folder (games/<name>/): one registry lists the games, and everything else finds a game's files from
it. The engines stay pure; a non-editable install carries every game's data, renderer and templates; a game from
a package outside games/ joins with games.register (the server's GAME_PACKAGES) and plays like the others
(tests/example_game, a two-player race to ten: its engine, picture, words, tutorial, computer, templates and
renderer; docs/new-game.md walks through it)."""
from __future__ import annotations

import ast
import subprocess
import sys

import pytest

import ai
import games
from quadrille import catalog, create_app, pictures, tutorials
from tests.support.paths import ROOT

EXAMPLE = "tests.example_game"


# -- the registry --------------------------------------------------------------------------------------------
def test_the_registry_lists_every_game_once_in_the_lobbys_order():
    assert games.names() == sorted(games.listed())
    assert games.listed()[0] == "trails"  # the quickest to pick up first
    for name in games.listed():
        assert games.get(name).name == name
        assert games.folder(name) == ROOT / "games" / name
        assert games.package(name) == f"games.{name}"
    with pytest.raises(KeyError):
        games.package("chess")


def test_each_game_packages_its_engine_computer_picture_words_tutorial_renderer_and_templates():
    for name in games.names():
        folder = games.folder(name)
        for part in ("__init__.py", "computer.py", "picture.py", "words.json", "tutorial.json",
                     f"static/{name}.js", "templates/board.html", "templates/help.html", "templates/rules.html"):
            assert (folder / part).is_file(), (name, part)
        assert games.part(name, "computer").MODEL and games.part(name, "picture").picture
    assert games.part("trails", "nothing") is None


def test_no_module_under_games_imports_flask():
    """Engines are pure: the server finds a game's files, a game never reaches for the server."""
    for path in (ROOT / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [m for m in imported if m.split(".")[0] in ("flask", "flask_socketio", "quadrille")], path


def _named_games(path) -> list[str]:
    """The game names a Python file or template spells out as strings (docstrings and comments aside)."""
    names = set(games.names())
    if path.suffix == ".py":
        return [node.value for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Constant) and node.value in names]
    text = path.read_text()
    return [name for name in names if f"'{name}'" in text or f'"{name}"' in text]


def test_nothing_but_the_registry_names_the_games():
    """The catalog, the lobby's order, the computer's levels, the tutorials, the pages, their templates and the
    shared scripts all come from games/__init__.py; only each game's own folder names itself."""
    offenders = {}
    server = [*(ROOT / "quadrille").rglob("*.py"), *(ROOT / "ai").rglob("*.py"), ROOT / "app.py"]
    pages = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "static" / "js").rglob("*.js")]
    for path in server + pages:
        if found := _named_games(path):
            offenders[str(path.relative_to(ROOT))] = found
    assert not offenders


def test_a_game_package_may_join_and_leave_the_registry(monkeypatch):
    assert games.register(EXAMPLE) == "race"
    try:
        assert games.listed()[-1] == "race" and "race" in games.names()
        assert games.register(EXAMPLE) == "race"  # again: nothing changes (every process does it at start-up)
        assert games.registered() == [EXAMPLE]
        with monkeypatch.context() as m:  # another package that already holds the name
            m.setitem(games._MODULES, "race", "elsewhere.race")
            with pytest.raises(ValueError, match="already"):
                games.register(EXAMPLE)
    finally:
        games.unregister("race")
    assert "race" not in games.names() and games.registered() == []
    with pytest.raises(ValueError):
        games.unregister("trails")


def test_every_game_file_is_in_a_non_editable_install(tmp_path):
    """pyproject's package data: what `pip install .` copies (setuptools' build_py, as a wheel would)."""
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py", "-d",
                    str(tmp_path)], cwd=ROOT, check=True, capture_output=True)
    for name in games.names():
        folder = games.folder(name)
        for path in folder.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert (tmp_path / "games" / name / path.relative_to(folder)).is_file(), path


# -- an example game from outside games/ ----------------------------------------------------------------------
@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "race.db"), "COMPUTER_WORKERS": 0, "GAME_PACKAGES": EXAMPLE})
    yield app
    app.extensions["quadrille.storage"].close()
    games.unregister("race")


@pytest.fixture
def client(app):
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_the_example_game_is_offered_with_its_words_picture_tutorial_and_levels(client):
    listed = {g["name"]: g for g in client.get("/api/games").json}
    assert listed["race"]["title"] == "Race to Ten"
    assert [lv["id"] for lv in listed["race"]["levels"]] == [1, 2, 3]  # its computer.py
    assert ai.LEVELS["race"] == [1, 2, 3, "random"] and "race" in list(ai.LEVELS)
    assert "race" in pictures.names() and "race" in tutorials.names()
    assert catalog.words("race")["pitch"].startswith("Add one or two")
    lobby = client.get("/").get_data(as_text=True)
    assert 'id="game-race"' in lobby and "pic-race" in lobby  # its tile, with its picture
    assert lobby.index('id="game-lattice"') < lobby.index('id="game-race"')  # after Quadrille's own
    svg = client.get("/api/games/race/preview.svg?goal=5")
    drawn = svg.get_data(as_text=True)
    assert svg.status_code == 200 and drawn.count("<rect") == 5 and 'viewBox="0 0 50 10"' in drawn  # one row of 5


def test_the_example_game_plays_through_the_http_api_to_its_end(client, app):
    created = client.post("/api/matches", json={"game": "race", "mode": "local"}).json
    match, token = created["match"], created["token"]
    page = client.get(f"/m/{match}").get_data(as_text=True)
    built = app.extensions["quadrille.assets"]
    assert f'/static/{built.url_name("games/race.js")}' in page and built.url_name("games/race.js") != "games/race.js"
    assert f'/static/{built.url_name("games/race.css")}' in page
    assert 'class="race-board"' in page and "press 1 or 2" in page  # its board.html and help.html
    script = client.get(f'/static/{built.url_name("games/race.js")}', headers={"Accept-Encoding": "br"})
    assert script.status_code == 200 and script.headers["Cache-Control"].endswith("immutable")
    refused = client.post(f"/api/matches/{match}/moves", json={"move": "3"}, headers=auth(token))
    assert refused.status_code == 400 and "add 1 or 2" in refused.json["reason"]
    for move in ["2", "1", "2", "2", "1", "2"]:
        state = client.post(f"/api/matches/{match}/moves", json={"move": move}, headers=auth(token)).json
    assert state["view"]["total"] == 10 and state["turn"] is None
    assert state["outcome"]["winners"] == [2] and state["outcome"]["reason"] == "goal"
    assert state["seat_names"] == ["Blue", "Red"]
    rules = client.get("/rules/race").get_data(as_text=True)
    assert "Two players share one count" in rules and "pic-race" in rules  # its rules.html, with a real diagram


def test_the_example_games_tutorial_is_served_and_checked_on_its_engine(client):
    assert client.get("/learn/race").status_code == 200
    step = client.get("/api/learn/race/steps/0").json
    assert step["marks"] == [{"point": 2}] and step["state"]["view"]["total"] == 0
    wrong = client.post("/api/learn/race/steps/0", json={"move": "1"}).json
    assert wrong["verdict"] == "other"
    right = client.post("/api/learn/race/steps/1", json={"move": "2"}).json
    assert right["verdict"] == "right" and right["last"] and right["state"]["outcome"]["winners"] == [1]


def test_the_example_games_computer_plays_the_winning_count():
    games.register(EXAMPLE)
    try:
        board = games.get("race").new()
        board.push("2")  # 8 left: the computer leaves a multiple of 3 (7 -> 6 left: adds 2)
        assert ai.choose_move(board, 2, seed=1) == "2"
    finally:
        games.unregister("race")
