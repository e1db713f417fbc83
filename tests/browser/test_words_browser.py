"""One vocabulary for every viewer (issue 23, items 6, 10 and 11), in a real browser:

- Trails seen from the second seat: both players (a 1366x800 desktop and a 390x844 phone) and a spectator who
  flips the board read the same move names, cell names read off the coordinates drawn on the board's edges; a
  refusal speaks of the board as its reader sees it (a cell's name, never "the bottom edge"), as a sentence;
  every cell has an accessible name (its coordinates);
- every game's move list is the same for both players and a spectator, and is the STATE's `move_names`;
- the words of the lobby's new-game dialog on the page: Lattice's sides by their colours, the computer's level as
  the dialog names it, Gamma's *Skip* and one-based field names, what a spectator of a watchable game reads.

Screenshots go to test-output/ (look at them)."""
from __future__ import annotations

import re

import pytest
import requests

import games
from tests.browser.axe import serious_violations
from tests.browser.conftest import api_state, wait_seats, wait_version

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
CELL_NAME = re.compile(r"^[a-z]+\d+: ")


def create(server, game, mode="online", options=None, **extra):
    answer = requests.post(f"{server.url}/api/matches", json={"game": game, "mode": mode, "options": options or {},
                                                               **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def take_second_seat(server, created):
    answer = requests.post(f"{server.url}/api/matches/{created['match']}/seats", json={"invite": created["invite_secret"]})
    assert answer.status_code == 201, answer.text
    return answer.json()


def open_as(page, server, held):
    """Open a match page holding these tokens (as the browser that created or joined the match would)."""
    page.goto(server.url + "/")
    page.evaluate("c => window.QuadrilleTokens.remember(c)", held)
    page.goto(f"{server.url}/m/{held['match']}")
    wait_seats(page, ",".join(map(str, held["seats"])))


def api_move(server, token, match, move):
    answer = requests.post(f"{server.url}/api/matches/{match}/moves", json={"move": move},
                           headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def move_list(page):
    return page.eval_on_selector_all("#move-list button.mv", "bs => bs.map(b => b.textContent)")


def message(page):
    return page.inner_text("#message")


# -- Trails from both seats ----------------------------------------------------------------------------------------
def test_trails_both_seats_read_the_same_move_names_and_their_own_edges(live_server, new_context, shoot):
    created = create(live_server, "trails", options={"size": 7})
    red = take_second_seat(live_server, created)
    alice = new_context(**DESKTOP).new_page()
    bob = new_context(**PHONE).new_page()
    carol = new_context(**DESKTOP).new_page()
    open_as(alice, live_server, created)
    open_as(bob, live_server, red)
    carol.goto(f"{live_server.url}/m/{created['match']}")
    match = created["match"]

    # Blue goes down by the keyboard: a7 -> a6
    alice.keyboard.press("ArrowDown")
    for page in (alice, bob):
        wait_version(page, 1)
    # Red, whose board is turned, presses ↑ with the head on the top edge of their screen (the engine's bottom
    # edge): the reason names the head's cell, g1, and no side of the board, as a sentence.
    bob.keyboard.press("ArrowUp")
    bob.wait_for_function("document.getElementById('message').textContent.length > 0")
    said = message(bob)
    assert "g1" in said and "edge" in said, said
    assert said[0].isupper() and said.endswith("."), said
    for side in ("bottom", "top", "left", "right", " up", "down"):
        assert side not in said, said
    shoot(bob, "phone-red-refused-at-the-edge")
    # Red's → on the turned board goes where it points: to f1 (the engine's "left")
    bob.keyboard.press("ArrowRight")
    wait_version(bob, 2)
    token = {1: created["token"], 2: red["token"]}
    state = api_state(live_server, match)
    while len(state["moves"]) < 6:
        state = api_move(live_server, token[state["turn"]], match, state["legal"][0])
    carol.click("#flip")  # a spectator turns the board: the names do not change
    for page in (alice, bob, carol):
        wait_version(page, state["version"])
        page.wait_for_function("n => document.querySelectorAll('#move-list button.mv').length === n", arg=6)
    names = state["move_names"]
    assert names[:2] == ["a6", "f1"], names
    assert move_list(alice) == move_list(bob) == move_list(carol) == names
    # The names are read off the board: ranks along the left edge and files along the bottom one, as each sees it.
    # Red's bottom-left corner is a7, Blue's is a1.
    for page, corner in ((alice, "a1"), (bob, "g7")):
        ranks = page.eval_on_selector_all(".trails-board .coord.rank", "cs => cs.map(c => c.dataset.coord)")
        files = page.eval_on_selector_all(".trails-board .coord.file", "cs => cs.map(c => c.dataset.coord)")
        assert sorted(ranks) == [str(k) for k in range(1, 8)] and sorted(files) == list("abcdefg")
        rows = page.locator(".trails-board .trails-row")
        bottom_left = rows.nth(6).locator(".cell").first
        assert bottom_left.get_attribute("aria-label").startswith(f"{corner}: ")
        assert sorted(bottom_left.locator(".coord").evaluate_all("cs => cs.map(c => c.dataset.coord)")) == sorted(
            [corner[0], corner[1:]])
    # every cell has an accessible name: its coordinates, then what stands on it
    labels = bob.eval_on_selector_all(".trails-board .cell", "cs => cs.map(c => c.getAttribute('aria-label') || '')")
    assert len(labels) == 49 and all(CELL_NAME.match(label) for label in labels), labels
    assert any(label.endswith("Red's head") for label in labels)
    assert serious_violations(bob, "#board") == []
    shoot(alice, "desktop-blue")
    shoot(bob, "phone-red")
    shoot(carol, "spectator-flipped")


# -- every game: the same move list for every viewer ---------------------------------------------------------------
OPENINGS = {"trails": {}, "towers": {"size": 6}, "gamma": {"width": 6, "height": 5}, "lattice": {}}


@pytest.mark.parametrize("game", games.listed())
def test_every_viewer_reads_the_same_move_list(live_server, new_context, shoot, game):
    created = create(live_server, game, options=OPENINGS[game])
    second = take_second_seat(live_server, created)
    match = created["match"]
    token = {1: created["token"], 2: second["token"]}
    if not api_state(live_server, match)["started"]:  # Gamma waits for its creator's start
        answer = requests.post(f"{live_server.url}/api/matches/{match}/start",
                               headers={"Authorization": f"Bearer {created['token']}"})
        assert answer.status_code == 200, answer.text
    state = api_state(live_server, match)
    while len(state["moves"]) < 6 and state["turn"] is not None:
        legal = [m for m in state["legal"] if not m.startswith("g")] or state["legal"]
        state = api_move(live_server, token[state["turn"]], match, legal[len(state["moves"]) % len(legal)])
    first = new_context(**DESKTOP).new_page()
    other = new_context(**PHONE).new_page()
    watcher = new_context(**DESKTOP).new_page()
    open_as(first, live_server, created)
    open_as(other, live_server, second)
    watcher.goto(f"{live_server.url}/m/{match}")
    if watcher.is_visible("#flip"):
        watcher.click("#flip")
    count = len(state["moves"])
    for page in (first, other, watcher):
        wait_version(page, state["version"])
        page.wait_for_function("n => document.querySelectorAll('#move-list button.mv').length === n", arg=count)
    # the players (one of them seeing the board turned) and a spectator who turned it read the same list ...
    assert move_list(first) == move_list(other) == move_list(watcher)
    # ... which is the STATE's, the one every bot and page gets
    assert len(state["move_names"]) == count and move_list(first) == state["move_names"]
    # a name is no move string of the API: it is read off the board's coordinates
    assert state["move_names"] != state["moves"]
    shoot(other, "second-seat-phone")


# -- the dialog's words on the page ------------------------------------------------------------------------------
SCREENS = ["desktop", "phone"]


def person(new_context, screen):
    return new_context(**(DESKTOP if screen == "desktop" else PHONE)).new_page()


@pytest.mark.parametrize("screen", SCREENS)
def test_lattice_names_sides_and_levels_as_the_dialog_does(live_server, new_context, shoot, screen):
    """The dialog names the sides as the page does, by their colours (following the colour chosen), and the page
    names the computer's level as the dialog did."""
    page = person(new_context, screen)
    page.goto(live_server.url + "/")
    page.click("#game-lattice [data-mode=ai]")
    form = "#setup-lattice"
    page.wait_for_selector(f"{form}:not([hidden])")
    sides = page.eval_on_selector_all(f"{form} .you-play label", "ls => ls.map(l => l.textContent.trim())")
    first = page.eval_on_selector_all(f"{form} [name=first] option", "os => os.map(o => o.textContent.trim())")
    assert (sides, first) == (["Blue, the bottom side", "Red, the top side"], ["The bottom side", "The top side"])
    page.click(f"{form} .more-options summary")
    page.select_option(f"{form} [name=color_b]", "green")
    page.wait_for_function("f => document.querySelector(f + ' .you-play label').textContent.includes('Green')", arg=form)
    assert "B's" not in page.inner_text(form) and "T's" not in page.inner_text(form)
    page.check(f"{form} input[name=ai-level][value='classic-3']")
    level = page.inner_text(f"{form} input[name=ai-level][value='classic-3'] + span")
    shoot(page, "lattice-dialog")
    page.click(f"{form} button.start")
    page.wait_for_url("**/m/**")
    wait_seats(page, "1")
    seats = page.inner_text("#seats")
    assert f"computer ({level})" in seats and "classic" not in seats, seats
    assert "Green" in seats and "Red" in seats
    page.wait_for_selector("#lattice-level-1")
    assert "Green's first" in page.inner_text("#lattice-level-1"), page.inner_text("#lattice-level-1")
    assert "Green" in page.inner_text("#lattice-score")
    shoot(page, "lattice-page")


@pytest.mark.parametrize("screen", SCREENS)
def test_gamma_speaks_the_dialogs_words(live_server, new_context, shoot, screen):
    """Against the computer at "Easy" the seat says so; the fields are named from a1, as in the move list, and
    those coordinates are drawn; the button and the rules say Skip."""
    page = person(new_context, screen)
    page.goto(live_server.url + "/")
    page.click("#game-gamma [data-mode=ai]")
    form = "#setup-gamma"
    page.wait_for_selector(f"{form}:not([hidden])")
    easy = page.inner_text(f"{form} input[name=ai-level][value='1'] + span")
    page.click(f"{form} button.start")
    page.wait_for_url("**/m/**")
    wait_seats(page, "1")
    height = int(page.get_attribute("#board", "data-height"))
    corner = page.locator(f'.gamma-board .cell[data-x="0"][data-y="{height - 1}"]')
    # every word checked, and every one that differs from the dialog's or the move list's said at once
    heard = {"tooltip": corner.get_attribute("title"), "name": corner.get_attribute("aria-label").split(":")[0],
             "seats": f"computer ({easy})" in page.inner_text("#seats"),
             "score table": f"computer ({easy})" in page.inner_text("#gamma-score"),
             "skip button": page.inner_text("#gamma-skip").split()[0], "skip title": page.get_attribute("#gamma-skip", "title")}
    wanted = {"tooltip": f"a{height}", "name": f"a{height}", "seats": True, "score table": True,
              "skip button": "Skip", "skip title": "Skip this turn (C)"}
    assert heard == wanted
    page.click('.gamma-board .cell[data-x="2"][data-y="0"]')
    page.wait_for_function("() => document.querySelectorAll('#move-list button.mv').length >= 1")
    assert move_list(page)[0] == "c1"
    # a refusal names the field as the move list does, and reads as a sentence
    page.wait_for_function("() => document.getElementById('match').dataset.turn === '1'", timeout=30_000)
    page.click('.gamma-board .cell[data-x="2"][data-y="0"]')
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert message(page) == "c1 is taken."
    files = page.eval_on_selector_all(".gamma-board .coord.file", "cs => cs.map(c => c.dataset.coord)")
    ranks = page.eval_on_selector_all(".gamma-board .coord.rank", "cs => cs.map(c => c.dataset.coord)")
    assert files[:3] == ["a", "b", "c"] and sorted(map(int, ranks)) == list(range(1, height + 1)), (files, ranks)
    shoot(page, "gamma-page")
    rules = requests.get(f"{live_server.url}/rules/gamma").text
    assert not re.search(r"\bpass(es|ing)?\b", rules, re.I) and "skip your turn" in rules


@pytest.mark.parametrize("screen", SCREENS)
def test_a_spectator_of_a_watchable_game_is_not_told_it_is_private(live_server, new_context, shoot, screen):
    page = person(new_context, screen)
    public = create(live_server, "towers", visibility="public")  # "My friend, and anyone may watch"
    page.goto(f"{live_server.url}/m/{public['match']}")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    said = message(page)
    assert "private" not in said and "Anyone may watch" in said, said
    shoot(page, "spectator-of-a-public-game")
