"""quadrille/pictures.py and quadrille/tutorials.py: each game's pictures, lobby words and tutorial, checked against the real engine, and the routes
that serve them (previews, lesson steps and tries, tutorial and rules pages)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import games
from quadrille import catalog, create_app, pictures, tutorials

GAMES = games.names()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("guide") / "g.db"), "COMPUTER_WORKERS": 0})
    return app.test_client()


def test_every_game_has_a_picture_and_a_tutorial():
    assert pictures.names() == tutorials.names() == GAMES == games.names()


# -- pictures ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_pictures_are_small_escaped_svg_of_the_real_position(name):
    picture = str(pictures.tile_picture(name))
    root = ET.fromstring(picture)  # well-formed XML
    assert root.tag.endswith("svg") and root.get("role") == "img" and root.get("aria-label")
    assert len(picture) < 8_000
    for preset in catalog.words(name)["presets"]:
        assert len(str(pictures.preview(name, preset["options"]))) < 20_000
    board = pictures.position(name, tutorials.tutorial(name)["options"], tutorials.tutorial(name)["steps"][2]["moves"])
    marked = str(pictures.picture(name, board.view(), marks=tutorials.tutorial(name)["steps"][2]["marks"], legal=True,
                               label='<b>"x" & y</b>'))
    ET.fromstring(marked)
    assert "&lt;b&gt;" in marked and "pic-mark" in marked and "<b>" not in marked


def test_previews_are_cached_per_options():
    first = pictures.preview("trails", {"size": 9})
    assert pictures.preview("trails", {"size": 9, "towers": 3}) is not None
    assert pictures._preview.cache_info().hits >= 1 and str(first) == str(pictures.preview("trails", {"size": 9}))
    with pytest.raises(ValueError):
        pictures.preview("trails", {"size": 99})


# -- lobby words -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_words_cover_every_option_and_presets_are_valid(name):
    game = games.get(name)
    words = catalog.words(name)
    assert words["pitch"] and len(words["pitch"]) < 130  # one line
    for option, spec in game.options.items():
        if spec.kind == "text":
            continue
        assert words["options"][option]["label"], option
        if spec.kind in ("list", "choice") and option not in ("color_b", "color_t", "first"):
            assert set(map(str, spec.choices)) <= set(words["options"][option].get("values", {})), option
    assert len(words["presets"]) >= 2
    for preset in words["presets"]:
        game.normalise(preset["options"])  # the engine accepts it
    assert set(words.get("advanced", ())) <= set(game.options)


# -- lessons ---------------------------------------------------------------------------------------------
def _after(name, lesson, step):
    board = pictures.position(name, lesson["options"], step["moves"])
    before = board.copy()
    board.push(step["expect"][0])
    return before, board


def check_trails(rule, before, after, move, you):
    v0, v1 = before.view(), after.view()
    claimed = v0["legal"][move]
    if rule == "first-move":
        assert len(v0["legal"]) == 2 and len(claimed) == 1
    elif rule == "boost":
        assert v0["dirs"][you - 1] == move and len(claimed) >= 2
    elif rule == "turn-one-cell":
        assert v0["dirs"][you - 1] != move and len(claimed) == 1
    elif rule == "take-tower":
        assert v1["taken"][you - 1] == v0["taken"][you - 1] + 1
    elif rule == "run-lands-free":
        assert v0["dirs"][you - 1] not in v0["legal"]  # the run is refused: it would land on a trail
    elif rule == "run-jumps":  # the README's jump: a run of 2 cells or more, landing where the rules say
        head = v0["heads"][you - 1]
        assert v0["dirs"][you - 1] == move and max(abs(r - head[0]) + abs(c - head[1]) for r, c in claimed) >= 2
    elif rule == "tower-win":
        assert after.outcome().reason == "towers" and after.outcome().winners == (you,)
    else:
        raise AssertionError(f"unknown rule {rule}")


def check_towers(rule, before, after, move, you):
    v0, v1 = before.view(), after.view()
    if rule == "first-turn-master-lock":
        assert v0["ply"] == 0 and v0["masters"][0] in v0["locked"] and "i1" not in before.legal_moves()
        assert not any(s["from"] == v0["masters"][0] for s in v0["legal"]["sources"])
    elif rule == "move-points":
        assert v0["move_points"] <= v0["points_at_turn_start"] == v0["reserve"][you - 1] and v0["move_points"] >= 1
    elif rule == "turn-ends":
        assert after.turn != you and v0["move_points"] == 1
    elif rule == "raise-lock":
        x, y = map(int, move.split(">")[1].split(":")[0].split(","))
        assert v1["board"][y][x] > 1 and [x, y] in v1["locked"] and v0["board"][y][x] > 0
    elif rule == "attack-lock":
        x, y = map(int, move.split(">")[1].split(":")[0].split(","))
        assert v0["board"][y][x] < 0 < v1["board"][y][x]
    elif rule == "export":
        assert after.turn != you and v1["reserve"][you - 1] > v0["reserve"][you - 1]
    elif rule == "import":
        mx, my = v0["masters"][you - 1]
        assert v1["board"][my][mx] == v0["board"][my][mx] + 1 and v1["reserve"][you - 1] == v0["reserve"][you - 1] - 1
    elif rule == "l-move":
        x, y = map(int, move.split(">")[1].split(":")[0].split(","))
        assert after.turn == you and any(s["from"] == [x, y] for s in v1["legal"]["sources"])
    elif rule == "master-capture":
        assert after.outcome().reason == "master-captured" and after.outcome().winners == (you,)
    else:
        raise AssertionError(f"unknown rule {rule}")


def check_gamma(rule, before, after, move, you):
    s0, s1 = before.view()["stats"][you - 1], after.view()["stats"][you - 1]
    limit = before.view()["areas"]
    if rule == "place":
        assert s1["busy"] == s0["busy"] + 1
    elif rule == "areas":
        assert s1["areas"] == s0["areas"] + 1
    elif rule == "area-limit":
        empty = [f"{x},{y}" for y, row in enumerate(before.view()["cells"]) for x, v in enumerate(row) if not v]
        assert s0["areas"] == limit and set(empty) - set(before.legal_moves())  # some empty fields are closed
        assert s1["areas"] < s0["areas"]
    elif rule == "golden-move":
        assert move.startswith("g") and s0["golden_possible"] and s1["golden_used"]
        owned = [f"g{x},{y}" for y, row in enumerate(before.view()["cells"]) for x, v in enumerate(row) if v and v != you]
        assert set(owned) - set(before.legal_moves())  # some of the others' fields are out of bounds for it
    elif rule == "game-end":
        assert after.outcome() is not None and after.outcome().winners == (you,)
    else:
        raise AssertionError(f"unknown rule {rule}")


def check_lattice(rule, before, after, move, you):
    v0, v1 = before.view(), after.view()
    level = {n["id"]: n["level"] for n in v0["nodes"]}
    if rule == "diagonal-levels":
        a, b = move.split("-")
        assert level[b] == level[a] + 1 and a[:2] != b[:2] and (a[0] == b[0] or a[1] == b[1])
    elif rule == "captures-all-directions":
        assert after.turn != you and v1["must_capture"]  # the opponent has to take the ball just moved
    elif rule == "mandatory-capture":
        assert v0["must_capture"] and all(":" in m for m in before.legal_moves())
    elif rule == "star":
        stars0 = {n["id"] for n in v0["nodes"] if n["star"] and n["seat"] == you}
        stars1 = {n["id"] for n in v1["nodes"] if n["star"] and n["seat"] == you}
        assert stars1 - stars0 or (move.split(":")[0] in stars0)
    elif rule == "return":
        assert v0["pending"] == "return" and move.startswith("+") and v1["bench"][you - 1] == v0["bench"][you - 1] - 1
    elif rule == "extra-turn":
        assert v0["extra_turn"] and before.turn == you
    elif rule == "score":
        assert v1["score"][you - 1] < v0["score"][you - 1]
    else:
        raise AssertionError(f"unknown rule {rule}")


CHECKS = {"trails": check_trails, "towers": check_towers, "gamma": check_gamma, "lattice": check_lattice}
# What each game's lesson must teach (issue 14): the rules that surprise newcomers.
MUST_TEACH = {
    "trails": {"boost", "run-jumps", "take-tower", "run-lands-free"},
    "towers": {"move-points", "raise-lock", "attack-lock", "import", "export", "first-turn-master-lock"},
    "gamma": {"areas", "area-limit", "golden-move"},
    "lattice": {"diagonal-levels", "mandatory-capture", "star", "return"},
}


@pytest.mark.parametrize("name", GAMES)
def test_each_lesson_replays_on_the_engine_and_teaches_what_it_names(name):
    lesson = tutorials.tutorial(name)
    you = lesson.get("you", 1)
    assert len(lesson["steps"]) >= 6
    taught = set()
    for step in lesson["steps"]:
        board = pictures.position(name, lesson["options"], step["moves"])  # every setup move is legal
        assert board.turn == you, step["id"]
        assert step["expect"] and set(step["expect"]) <= set(board.legal_moves()), step["id"]
        assert step["text"] and step["hint"] and step["title"] and len(step["text"]) < 400
        for mark in step.get("marks", ()):
            assert pictures.mark_attrs(name, mark)
        before, after = _after(name, lesson, step)
        for rule in step["teaches"]:
            CHECKS[name](rule, before, after, step["expect"][0], you)
            taught.add(rule)
    assert MUST_TEACH[name] <= taught


def test_a_try_is_checked_against_the_lesson_and_the_engine():
    right = tutorials.attempt("towers", 0, "m3,4>3,3:1")
    assert right["verdict"] == "right" and right["state"]["turn"] == 1 and right["done"]
    locked = tutorials.attempt("towers", 0, "i1")  # Blue's master is locked on its first turn: the engine says so
    assert locked["verdict"] == "illegal" and "locked" in locked["reason"] and locked["hint"]
    other = tutorials.attempt("trails", 0, "right")
    assert other["verdict"] == "other" and other["hint"]
    with pytest.raises(tutorials.TutorialError):
        tutorials.step("trails", 99)



@pytest.mark.parametrize("name", GAMES)
def test_each_right_move_ends_with_the_learners_turn_and_no_opponent_target(name):
    """Issue 23: a step's closing sentence announces the opponent's reply, so the board shows it: after the
    learner's move and the step's `reply`, it is the learner's turn again (or the game is over), the reply is
    how the next step goes on, and no position shown while the opponent is to move carries its moves."""
    lesson = tutorials.tutorial(name)
    you = lesson.get("you", 1)
    steps = lesson["steps"]
    for index, step in enumerate(steps):
        answer = tutorials.attempt(name, index, step["expect"][0])
        assert len(answer["states"]) == 1 + len(step.get("reply", ())), step["id"]
        assert answer["state"] == answer["states"][-1]
        last = answer["state"]
        assert last["turn"] == you or last["outcome"] is not None, step["id"]
        for shown in answer["states"][:-1]:
            if shown["turn"] not in (you, None):
                assert shown["legal"] == [], step["id"]
                assert shown["view"] == pictures.module(name).no_targets(shown["view"]), step["id"]
        if index + 1 < len(steps):
            played = [*step["moves"], step["expect"][0], *step.get("reply", ())]
            assert steps[index + 1]["moves"][:len(played)] == played, step["id"]


# -- routes ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_tutorial_and_rules_pages(client, name):
    learn = client.get(f"/learn/{name}")
    assert learn.status_code == 200 and b'id="lesson-data"' in learn.data
    rules = client.get(f"/rules/{name}")
    assert rules.status_code == 200 and rules.data.count(b'<figure class="diagram">') >= 3
    assert b"&lt;svg" not in rules.data  # the pictures are markup, not escaped text
    assert "script-src 'self'" in rules.headers["Content-Security-Policy"]


def test_unknown_games_are_404(client):
    assert client.get("/learn/chess").status_code == 404
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/api/games/chess/preview.svg").status_code == 404
    assert client.get("/api/learn/chess/steps/0").status_code == 404


def test_preview_route(client):
    answer = client.get("/api/games/gamma/preview.svg?width=12&height=7&players=3")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert 'viewBox="0 0 120 70"' in answer.get_data(as_text=True)
    assert client.get("/api/games/towers/preview.svg?size=6&rules=master-at-corner").status_code == 200
    assert client.get("/api/games/gamma/preview.svg?width=41").status_code == 400  # beyond what the form offers
    assert client.get("/api/games/gamma/preview.svg?width=100000").status_code == 400
    assert client.get("/api/games/trails/preview.svg?colour=red").status_code == 400
    assert client.get("/api/games/lattice/preview.svg?start=x").status_code == 400


def test_lesson_try_route(client):
    answer = client.post("/api/learn/lattice/steps/2", json={"move": "Dc2:Da4"}).get_json()
    assert answer["verdict"] == "right" and answer["state"]["view"]["pending"] == "return"
    assert client.post("/api/learn/lattice/steps/2", json={"move": "x" * 500}).status_code == 400
    assert client.post("/api/learn/lattice/steps/2", data="Dc2:Da4").status_code == 415
    assert client.post("/api/learn/lattice/steps/9", json={"move": "Dc2:Da4"}).status_code == 404


def test_lobby_has_four_tiles_with_pictures_and_three_actions(client):
    page = client.get("/").get_data(as_text=True)
    assert page.count('class="tile"') == 4 and page.count('<svg class="pic') >= 8
    for name in GAMES:
        tile = page.split(f'id="game-{name}"')[1].split("</article>")[0]
        for mode in ("online", "ai", "local"):
            assert f'data-mode="{mode}"' in tile
        assert f"/learn/{name}" in tile and f"/rules/{name}" in tile
    assert "Classic 11×11" in page and "Quick 7×7" in page
    assert "Blue&#39;s master is not locked on the very first turn." in page  # a rule in words, not an identifier
