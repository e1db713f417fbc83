"""Towers in a real browser: two people play a whole online game with drags, the End turn button, an import and an
undo within a turn; a hot-seat game by keys, a right-drag split, the pawn-count selector and the automatic end of
turn.

Every move is checked against the server's legal list (`GET /api/matches/<id>`) before the browser plays it, so a
scripted line that stopped being legal fails here rather than somewhere vague.
"""
from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import api_state, join_by_invite, lobby_start, match_id, result_title, wait_seats, wait_version

pytestmark = pytest.mark.browser


def cell(page, x, y):
    return page.locator(f'.tw-board .cell[data-x="{x}"][data-y="{y}"]')


def centre(page, x, y):
    box = cell(page, x, y).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def green_cells(page):
    return sorted(tuple(int(v) for v in c.split(",")) for c in page.eval_on_selector_all(
        ".tw-board .cell.green", "cells => cells.map(c => c.dataset.x + ',' + c.dataset.y)"))


def server_targets(state, src, count=None):
    """The server's targets of the tower at src for `count` pawns (default: the whole tower)."""
    for s in state["view"]["legal"]["sources"]:
        if tuple(s["from"]) == src:
            k = count or s["height"]
            return sorted(tuple(t["to"]) for t in s["targets"] if k in t["counts"])
    return []


def drag(page, src, dst, button="left", check=None):
    """A real mouse drag from cell src to cell dst; `check()` runs while the tower hangs over the board."""
    page.mouse.move(*centre(page, *src))
    page.mouse.down(button=button)
    x0, y0 = centre(page, *src)
    x1, y1 = centre(page, *dst)
    page.mouse.move(x0 + (x1 - x0) * 0.3, y0 + (y1 - y0) * 0.3, steps=4)
    page.wait_for_selector(".tw-ghost")
    if check:
        check()
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up(button=button)


def bar(page, player):
    """(unused, used) move points as the reserve bar shows them, and the pawns drawn on each side."""
    unused = int(page.inner_text(f"#tw-bar-{player} .tw-unused"))
    used = int(page.inner_text(f"#tw-bar-{player} .tw-used"))
    drawn = page.eval_on_selector_all(f"#tw-bar-{player} .tw-pawn", "ps => ps.map(p => p.classList.contains('used'))")
    assert drawn.count(False) == unused and drawn.count(True) == used
    return unused, used


class Game:
    """Both players' pages and the server's truth; every step waits until both pages show the new version."""

    def __init__(self, server, pages):
        self.server, self.pages = server, pages
        self.match = match_id(pages[1])
        self.state = api_state(server, self.match)

    def refresh(self, version):
        for page in self.pages.values():
            wait_version(page, version)
        self.state = api_state(self.server, self.match)
        return self.state

    def page(self):
        return self.pages[self.state["turn"]]

    def drag(self, move, src, dst, **kwargs):
        assert move in self.state["legal"], (move, self.state["legal"])
        version = self.state["version"]
        drag(self.page(), src, dst, **kwargs)
        self.refresh(version + 1)
        assert self.state["moves"][-1] == move

    def click(self, selector, move=None):
        if move:
            assert move in self.state["legal"], (move, self.state["legal"])
        version = self.state["version"]
        self.page().click(selector)
        self.refresh(version + 1)


def test_two_players_play_a_whole_game_online_with_drags_import_undo_and_end_turn(live_server, new_context, shoot):
    ann, bob = new_context().new_page(), new_context().new_page()
    lobby_start(ann, live_server, "towers", "online", name="Ann", options={"size": 5})
    wait_seats(ann, "1")
    join_by_invite(bob, ann.input_value("#invite-link"), "Bob", 2)  # the invite link gives the friend seat 2
    ann.wait_for_selector("#seats li.seat-2.online")  # Ann sees Bob arrive (presence comes a moment later)
    assert "Blue: Ann (you)" in ann.inner_text("#seats") and "Red:" in bob.inner_text("#seats")
    game = Game(live_server, {1: ann, 2: bob})
    assert game.state["options"]["size"] == 5 and game.state["turn"] == 1
    assert ann.locator(".tw-board .cell").count() == 25
    assert ann.locator(".cell.master.p1").count() == 1 and ann.locator(".cell.master.p2").count() == 1
    assert ann.locator(".cell.locked .lock-mark").count() == 1  # Blue's master is locked on the first turn
    assert ann.is_enabled("#tw-end") and bob.is_disabled("#tw-end") and bob.is_disabled("#tw-import")
    shoot(ann, "start")

    # 1. Blue drags a pawn forward; the green cells shown mid-drag are exactly the server's targets.
    def greens_match():
        assert green_cells(ann) == server_targets(game.state, (2, 3))
    game.drag("m2,3>2,2:1", (2, 3), (2, 2), check=greens_match)
    assert game.state["turn"] == 2  # one point, spent: the turn ended by itself

    # A drop on a cell the server refuses keeps the board and says why (the engine's reason and its detail).
    drag(bob, (0, 1), (0, 3))
    bob.wait_for_function("document.getElementById('message').textContent.includes('move points')")
    assert api_state(live_server, game.match)["version"] == game.state["version"]

    # 2. Red puts a pawn onto its own master (the master tower is exported into the reserve at the turn's end).
    game.drag("m2,1>2,0:1", (2, 1), (2, 0))
    assert game.state["view"]["reserve"] == [1, 2]
    # 3. Blue walks up to Red's master, which is now marked in danger on both screens.
    game.drag("m2,2>2,1:1", (2, 2), (2, 1))
    for page in (ann, bob):
        page.wait_for_selector('.cell.master.p2.danger[data-x="2"][data-y="0"]')
    assert bar(bob, 2) == (2, 0)

    # 4. Red (two points): raise a pawn (its cell locks), undo it, import a pawn, and end the turn by the button.
    game.drag("m3,1>3,0:1", (3, 1), (3, 0))
    assert game.state["turn"] == 2 and game.state["view"]["locked"] == [[3, 0]]
    bob.wait_for_selector('.cell.locked[data-x="3"][data-y="0"] .lock-mark')
    assert cell(bob, 3, 0).locator(".height").inner_text() == "2"
    assert bar(bob, 2) == (1, 1)
    shoot(bob, "locked-mid-turn")
    assert bob.is_enabled("#tw-undo") and ann.is_disabled("#tw-undo")
    game.click("#tw-undo")
    assert game.state["moves"][-1] == "m2,2>2,1:1"
    assert game.state["view"]["locked"] == [] and game.state["view"]["move_points"] == 2
    bob.wait_for_selector(".tw-board:not(:has(.cell.locked))")
    assert cell(bob, 3, 1).get_attribute("data-sig").split("|")[0] == "2.1.0.0"  # owner.height.master.locked|side
    assert bar(bob, 2) == (2, 0)
    game.click("#tw-import", "i1")
    assert game.state["moves"][-1] == "i1"
    bob.wait_for_function("document.querySelector('.cell.master.p2 .height')?.textContent === '2'")
    assert bar(bob, 2) == (1, 1)
    shoot(bob, "after-import")
    game.click("#tw-end", "end")
    assert game.state["turn"] == 1 and game.state["moves"][-2:] == ["i1", "end"]

    # 5. Blue takes Red's master: the game is over on both screens.
    game.drag("m2,1>2,0:1", (2, 1), (2, 0))
    assert game.state["outcome"]["winners"] == [1]
    for page in (ann, bob):
        assert result_title(page) == ("You won" if page is ann else "You lost")
        assert "Red's master was captured" in page.inner_text("#result-reason")
        page.click("#look")  # close the result to look at the board
        assert page.locator(".tw-board .cell.green").count() == 0
        assert page.is_disabled("#tw-end") and page.is_disabled("#tw-import") and page.is_disabled("#tw-undo")
    assert ann.locator("#tw-bar-1.winner").count() == 1
    # The board drawn on Red's screen (seen from Red's side: the cells in the other order) is the server's final
    # position, cell by cell.
    final = game.state["view"]["board"]
    cells = bob.eval_on_selector_all(".tw-board .cell", "cs => cs.map(c => [+c.dataset.x, +c.dataset.y, c.dataset.sig.split('|')[0]])")
    assert [c[:2] for c in cells[:2]] == [[4, 4], [3, 4]]
    sig = {(x, y): s for x, y, s in cells}
    drawn = [[0 if not sig[x, y] else (1 if sig[x, y][0] == "1" else -1) * int(sig[x, y].split(".")[1]) for x in range(5)]
             for y in range(5)]
    assert drawn == final
    assert game.state["moves"] == ["m2,3>2,2:1", "m2,1>2,0:1", "m2,2>2,1:1", "i1", "end", "m2,1>2,0:1"]
    shoot(ann, "finished")
    shoot(bob, "finished-red")


def start_local(page, server, size):
    lobby_start(page, server, "towers", "local", options={"size": size})
    wait_seats(page, "1,2")
    return Game(server, {1: page, 2: page})


def test_keys_count_selector_right_drag_split_and_undo_in_a_hot_seat_game(live_server, new_context, shoot):
    page = new_context().new_page()
    game = start_local(page, live_server, 6)

    # Keys: a tap on an empty cell focuses the board (and does nothing else); the first arrow shows the cursor
    # there, the next ones move it; Enter picks up the pawn under it and Enter drops it on the green cell.
    cell(page, 0, 2).click()
    assert page.locator(".cell.cursor").count() == 0
    for key in ["ArrowDown", "ArrowDown", "ArrowDown", "Enter"]:
        page.keyboard.press(key)
    assert page.locator('.cell.sel[data-x="0"][data-y="4"]').count() == 1
    assert green_cells(page) == server_targets(game.state, (0, 4))
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.locator('.cell.cursor.drop[data-x="0"][data-y="2"]').count() == 1  # path and cost preview
    assert "costs 2 × 1 = 2 points" in page.inner_text("#tw-info")
    assert "m0,4>0,2:1" in game.state["legal"]
    page.keyboard.press("Enter")
    game.refresh(1)
    assert game.state["moves"] == ["m0,4>0,2:1"] and game.state["turn"] == 2  # both points spent

    # Red: a digit chooses how many pawns I imports; Escape forgets it; I imports one.
    page.keyboard.press("2")
    assert page.inner_text("#tw-import") == "Import 2"
    page.keyboard.press("Escape")
    assert page.inner_text("#tw-import") == "Import"
    page.keyboard.press("i")
    game.refresh(2)
    assert game.state["moves"][-1] == "i1"

    # The master tower (2 pawns, 1 point left) can only split: the selector starts at 1 pawn; with 2 nothing is
    # green (the targets turn pale), back at 1 the green cells are the server's single-pawn targets.
    cell(page, 2, 0).click()
    assert page.is_visible("#tw-count")
    assert page.inner_text("#tw-count-value") == "1" and page.inner_text("#tw-count-max") == "2"
    assert green_cells(page) == server_targets(game.state, (2, 0), 1) == [(1, 0), (2, 1), (3, 0)]
    page.click("#tw-more")
    assert page.inner_text("#tw-count-value") == "2"
    assert green_cells(page) == server_targets(game.state, (2, 0), 2) == []
    assert page.locator(".tw-board .cell.pale").count() == 3
    shoot(page, "count-selector")
    page.click("#tw-less")
    assert green_cells(page) == [(1, 0), (2, 1), (3, 0)]
    page.keyboard.press("Escape")
    assert page.locator(".cell.sel").count() == 0 and page.is_hidden("#tw-count")

    # A right-drag lifts a single pawn off the master tower.
    def one_pawn_hangs():
        assert page.locator(".tw-ghost .disc").count() == 1
        assert page.inner_text("#tw-count-value") == "1"
    game.drag("m2,0>1,0:1", (2, 0), (1, 0), button="right", check=one_pawn_hangs)
    assert game.state["turn"] == 1 and game.state["view"]["reserve"] == [2, 1]

    # Blue attacks (the cell locks), U undoes it, E ends the turn: a pass, since nothing of it stayed.
    game.drag("m0,2>0,1:1", (0, 2), (0, 1))
    page.wait_for_selector('.cell.locked.p1[data-x="0"][data-y="1"]')
    assert page.inner_text("#tw-end") == "End turn"
    page.keyboard.press("u")
    game.refresh(5)
    assert game.state["moves"] == ["m0,4>0,2:1", "i1", "m2,0>1,0:1"]
    assert page.inner_text("#tw-end") == "Pass"
    page.keyboard.press("e")
    game.refresh(6)
    assert game.state["moves"][-1] == "end" and game.state["turn"] == 2 and game.state["view"]["passes"] == 1
    shoot(page, "hot-seat")


# Blue's tenth action raises its own master and keeps one point, but then nothing can move (every Blue tower is
# two high or locked) and nothing can be imported (the master's cell is locked): only "end" is left.
NOTHING_LEFT_AFTER = ["m3,3>3,2:1", "m3,1>2,1:1", "m1,4>2,4:1", "m0,1>0,2:1", "m0,3>1,3:1", "m4,3>4,4:1",
                      "m2,0>3,0:1", "m3,2>3,4:1", "m0,2>0,4:1"]


def test_end_my_turn_automatically_is_a_remembered_preference(live_server, new_context, shoot):
    created = requests.post(f"{live_server.url}/api/matches/import", json={
        "game": "towers", "options": {"size": 5}, "moves": NOTHING_LEFT_AFTER}).json()
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.evaluate("([m, t]) => localStorage.setItem('quadrille.token.' + m, t)", [created["match"], created["token"]])
    page.goto(f"{live_server.url}/m/{created['match']}")
    wait_seats(page, "1,2")
    game = Game(live_server, {1: page, 2: page})
    assert not page.is_checked("#tw-auto-end")  # off by default, as in the original
    page.check("#tw-auto-end")
    page.reload()
    wait_seats(page, "1,2")
    assert page.is_checked("#tw-auto-end")  # kept in this browser's storage

    version = game.state["version"]
    assert "m2,3>2,4:1" in game.state["legal"]
    drag(page, (2, 3), (2, 4))  # one point left after it, but nothing to spend it on
    game.refresh(version + 2)
    assert game.state["moves"][-2:] == ["m2,3>2,4:1", "end"] and game.state["turn"] == 2
    page.wait_for_function("document.getElementById('tw-info').textContent.includes('ended automatically')")
    shoot(page, "ended-automatically")
