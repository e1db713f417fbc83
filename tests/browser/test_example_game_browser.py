"""The example game of docs/new-game.md (tests/example_game: a race to ten, from a package outside games/) in a
real browser, on a real server started with QUADRILLE_GAME_PACKAGES: its lobby tile with its picture, a match
played from the lobby against the computer (in a worker process, which knows the game too) by clicks and keys,
its tutorial and its rules page."""
from __future__ import annotations

import time

import pytest

from tests.browser.conftest import api_state, lobby_start, match_id, result_title, wait_seats, wait_version
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.browser

DESKTOP, PHONE = {"width": 1366, "height": 800}, {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def race_server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("race") / "race.db", "gevent",
                         settings={"GAME_PACKAGES": ["tests.example_game"], "COMPUTER_WORKERS": 1}).start()
    yield proc
    proc.stop()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_example_game_plays_against_the_computer_from_the_lobby(race_server, new_context, shoot, viewport):
    touch = viewport is PHONE
    page = new_context(viewport=viewport, has_touch=touch, is_mobile=touch).new_page()
    page.goto(race_server.url + "/")
    tile = page.locator("#game-race")
    assert "Race to Ten" in tile.inner_text() and tile.locator("svg.pic-race").count() == 1
    tile.scroll_into_view_if_needed()
    shoot(page, "lobby")

    lobby_start(page, race_server, "race", "ai", level=1)
    wait_seats(page, "1")
    page.wait_for_selector(".race-board .cell.green")
    shoot(page, "start")
    page.click('.race-board .cell[data-point="5"]')  # too far: the server refuses it, in the engine's words
    page.wait_for_function("document.getElementById('message').textContent.includes('add 1 or 2')")
    match = match_id(page)
    turns, deadline = 0, time.monotonic() + 60
    while (state := api_state(race_server, match))["outcome"] is None:
        assert time.monotonic() < deadline, state
        if state["turn"] != 1:  # the computer thinks
            page.wait_for_timeout(100)
            continue
        total, step = state["view"]["total"], state["legal"][-1]
        wait_version(page, state["version"])  # the page has drawn the position the move is made in
        if turns % 2:  # by key and by click, in turn
            page.keyboard.press(step)
        else:
            page.click(f'.race-board .cell[data-point="{total + int(step)}"]')
        turns += 1
        moved = "v => Number(document.getElementById('match').dataset.version) > v"
        page.wait_for_function(moved, arg=state["version"])
    wait_version(page, state["version"])
    assert result_title(page) == ("You won" if state["outcome"]["winners"] == [1] else "You lost")
    assert state["seat_names"][state["outcome"]["winners"][0] - 1] + " reached the goal" in page.inner_text("#result")
    cells = page.locator(".race-board .cell")
    assert cells.count() == 10
    owned = [cells.nth(k).get_attribute("class") for k in range(10)]
    assert [("p1" in c) + 2 * ("p2" in c) for c in owned] == state["view"]["path"]  # drawn as the server has it
    shoot(page, "end")


def test_the_example_games_tutorial_and_rules_page(race_server, new_context, shoot):
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(race_server.url + "/learn/race")
    page.wait_for_selector('.race-board .cell[data-point="2"][data-mark]')
    shoot(page, "tutorial")
    page.click('.race-board .cell[data-point="2"]')
    page.wait_for_function("document.getElementById('lesson').dataset.solved === '1'")
    shoot(page, "tutorial-solved")
    page.goto(race_server.url + "/rules/race")
    assert "Two players share one count" in page.inner_text("main")
    assert page.locator("svg.pic-race").count() == 1
