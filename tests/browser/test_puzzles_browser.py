"""Puzzles in Chromium against a real server: a Trails puzzle solved and one failed on a 1366x800 desktop (clicks,
light and dark) and on a 390x844 phone (taps), the next puzzle loaded in place, the lobby's daily tile, and axe.
Every move goes to the server, which checks it on the engine (the page decides nothing)."""
from __future__ import annotations

import json

import pytest
import requests

from quadrille.puzzles import library
from quadrille.puzzles.theme_words import theme_names
from tests.browser.axe import serious_violations
from tests.support.puzzles import longest_puzzle, solver_moves, wrong_first_move

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
STEP = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}  # Trails' directions on its rows, cells
STORE_KEY = "quadrille.puzzleRating"


def open_puzzle(page, server, puzzle):
    page.goto(f"{server.url}/puzzles/{puzzle['game']}?id={puzzle['id']}")
    page.wait_for_selector(f'#puzzle[data-puzzle="{puzzle["id"]}"][data-phase="solving"]')


def play(page, move, tap=False):
    """A Trails move by a click (or a tap) on the cell next to the active head in that direction, as a player
    does: the renderer turns it into the direction, and the page sends it to the server."""
    head = page.locator("#board-area .cell.head")
    r, c = int(head.get_attribute("data-r")), int(head.get_attribute("data-c"))
    dr, dc = STEP[move]
    target = f'#board-area .cell[data-r="{r + dr}"][data-c="{c + dc}"]'
    page.tap(target) if tap else page.click(target)


def solve(page, puzzle, tap=False):
    moves = solver_moves(puzzle)
    for count, move in enumerate(moves, 1):
        page.wait_for_selector('#puzzle[data-phase="solving"]')
        play(page, move, tap)
        if count < len(moves):  # the opponent's reply is played, then it is the solver's turn again
            page.wait_for_selector(f'#puzzle[data-phase="solving"][data-mine="{count}"]')
    page.wait_for_selector('#puzzle[data-result="solved"]')
    assert "Solved" in page.inner_text("#puzzle-task")


def fail(page, puzzle, wrong, tap=False):
    play(page, wrong, tap)
    page.wait_for_selector('#puzzle[data-result="failed"]')
    assert "not the best move" in page.inner_text("#puzzle-feedback")
    assert page.is_visible("#puzzle-next")


def kept_rating(page) -> dict:
    return json.loads(page.evaluate(f"() => localStorage.getItem('{STORE_KEY}')") or "null")


def test_solve_then_the_next_puzzle_and_fail_one_on_a_desktop(live_server, new_context, shoot):
    page = new_context(**DESKTOP).new_page()
    puzzle = longest_puzzle("trails")
    open_puzzle(page, live_server, puzzle)
    assert page.inner_text("#your-rating") == "1500?"  # a newcomer's: provisional
    shoot(page, "puzzle")
    solve(page, puzzle)
    rating = kept_rating(page)  # a guest's rating, kept by the browser as the server answered it
    assert rating and rating["rating"] > 1500
    assert page.inner_text("#your-rating").startswith(str(round(rating["rating"])))
    assert "rises by" in page.inner_text("#puzzle-feedback")
    shoot(page, "solved")
    page.click("#puzzle-next")  # the next Trails puzzle, in place
    page.wait_for_function("id => { const p = document.getElementById('puzzle'); "
                           "return p.dataset.puzzle !== id && p.dataset.phase === 'solving'; }", arg=puzzle["id"])
    wrong_puzzle, wrong = wrong_first_move("trails", short=True)
    open_puzzle(page, live_server, wrong_puzzle)
    fail(page, wrong_puzzle, wrong)
    assert kept_rating(page)["rating"] < rating["rating"]
    shoot(page, "failed")


def test_solve_and_fail_on_a_phone_in_the_dark_theme(live_server, new_context, shoot):
    """Under the site's real content security policy, as a player's browser runs it."""
    page = new_context(**PHONE, color_scheme="dark", bypass_csp=False).new_page()
    puzzle = longest_puzzle("trails")
    open_puzzle(page, live_server, puzzle)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    solve(page, puzzle, tap=True)
    shoot(page, "solved")
    wrong_puzzle, wrong = wrong_first_move("trails", short=True)
    open_puzzle(page, live_server, wrong_puzzle)
    fail(page, wrong_puzzle, wrong, tap=True)
    shoot(page, "failed")
    page.click("#puzzle-next")
    page.wait_for_selector(f'#puzzle:not([data-puzzle="{wrong_puzzle["id"]}"])[data-phase="solving"]')


def test_the_lobbys_daily_tile_opens_the_daily_puzzle(live_server, new_context, shoot):
    page = new_context(**PHONE).new_page()
    page.goto(live_server.url + "/")
    tile = page.locator("#daily-puzzle")
    tile.scroll_into_view_if_needed()
    shoot(page, "lobby")
    tile.get_by_role("link", name="Solve today's puzzle").click()
    page.wait_for_selector('#puzzle[data-mode="daily"][data-phase="solving"]')
    daily = requests.get(f"{live_server.url}/api/puzzles/daily", timeout=10).json()
    assert page.get_attribute("#puzzle", "data-puzzle") == daily["id"]
    assert page.get_attribute("#puzzle", "data-game") == daily["game"]


def test_axe_finds_nothing_serious_on_the_puzzle_page(live_server, new_context):
    for scheme in ("light", "dark"):
        page = new_context(**DESKTOP, color_scheme=scheme).new_page()
        wrong_puzzle, wrong = wrong_first_move("trails", short=True)
        open_puzzle(page, live_server, wrong_puzzle)
        assert serious_violations(page) == []
        fail(page, wrong_puzzle, wrong)
        assert serious_violations(page) == []


def test_every_games_puzzles_are_drawn_by_its_renderer(live_server, new_context, shoot):
    """Each game's puzzle page mounts that game's renderer on the puzzle's position, with no script error; the
    mixed page draws whichever game it drew."""
    page = new_context(**DESKTOP).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    for game in library.games_with_puzzles():
        puzzle = longest_puzzle(game)
        open_puzzle(page, live_server, puzzle)
        assert page.locator("#board-area .cell").count() > 0
        assert page.inner_text("#puzzle-themes") == ", ".join(theme_names(puzzle["themes"]))  # English here
        shoot(page, game)
    page.goto(f"{live_server.url}/puzzles")
    page.wait_for_selector('#puzzle[data-mode="mixed"][data-phase="solving"]')
    assert page.get_attribute("#puzzle", "data-game") in library.games_with_puzzles()
    assert errors == []
