"""Gamma in a real browser: three players join by link, the creator starts, and they play to the end with clicks,
taps of the keys (arrows, space, G, C), a golden move through the golden mode and a skip; the creator's start with
the free seats left out, or played by the computer."""
from __future__ import annotations


import pytest
import requests

from tests.browser.conftest import api_state, join_by_invite, lobby_start, match_id, result_title, wait_seats, wait_version

pytestmark = pytest.mark.browser

ARROW = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowUp", (0, -1): "ArrowDown"}


def cell(x, y):
    return f'.gamma-board .cell[data-x="{x}"][data-y="{y}"]'


def count(page, selector):
    return page.locator(selector).count()


def drawn_cells(page, width, height):
    """The board as drawn, as cells[y][x] seat numbers (0 empty), read from the letters and colour classes."""
    rows = page.eval_on_selector_all(
        ".gamma-board .cell",
        "cells => cells.map(c => [Number(c.dataset.x), Number(c.dataset.y), c.textContent, c.className])")
    grid = [[0] * width for _ in range(height)]
    for x, y, text, cls in rows:
        if text:
            seat = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(text) + 1
            assert f"o{(seat - 1) % 16 + 1}" in cls.split()
            grid[y][x] = seat
    return grid


def create_from_lobby(page, server, width, height, players, areas, name):
    lobby_start(page, server, "gamma", "online", name=name,
                options={"width": width, "height": height, "players": players, "areas": areas})
    wait_seats(page, "1")


def join(page, invite, seat):
    join_by_invite(page, invite, f"Player {seat}", seat)  # the link's visitors take the free seats in order


class Player:
    """One person's page, and where the page's keyboard cursor is (it starts on (0, 0) and follows clicks)."""

    def __init__(self, page):
        self.page = page
        self.cursor = (0, 0)

    def steer(self, target):
        """Arrow keys from the cursor to the target (y grows upwards), checking the drawn cursor."""
        x, y = self.cursor
        while (x, y) != tuple(target):
            step = ((target[0] > x) - (target[0] < x), 0) if x != target[0] else (0, (target[1] > y) - (target[1] < y))
            self.page.keyboard.press(ARROW[step])
            x, y = x + step[0], y + step[1]
            self.cursor = (x, y)
        self.page.wait_for_selector(cell(x, y) + ".cursor")

    def click(self, target):
        self.page.click(cell(*target))
        self.cursor = tuple(target)


def test_gamma_three_players_join_by_link_and_play_to_the_end(live_server, new_context, shoot):
    ann, bob, cat = (new_context().new_page() for _ in range(3))
    errors = []
    for p in (ann, bob, cat):
        p.on("pageerror", lambda error: errors.append(str(error)))
    create_from_lobby(ann, live_server, 5, 4, 3, 2, "Ann")
    match = match_id(ann)
    invite = ann.input_value("#invite-link")
    assert invite.startswith(f"{live_server.url}/m/{match}#join=")
    # Before the start: the creator sees the start button, and the choice for free seats while seats are free.
    ann.wait_for_selector("#start-match", state="visible")
    assert ann.is_visible("#gamma-start") and "1 of 3 seats taken" in ann.inner_text("#gamma-start")
    join(bob, invite, 2)
    join(cat, invite, 3)
    ann.wait_for_function("!document.getElementById('seats').textContent.includes('free')")
    assert not ann.is_visible("#gamma-start")  # every seat is taken: nothing to choose
    assert not bob.is_visible("#start-match") and not cat.is_visible("#start-match")
    assert "Pink: Player 3 (you)" in cat.inner_text("#seats")
    assert count(ann, ".gamma-board .cell") == 20 and count(ann, ".gamma-score tbody tr") == 3
    shoot(ann, "before-start")

    bob.keyboard.press("Space")  # nothing happens before the start
    state = api_state(live_server, match)
    assert state["started"] is False and state["moves"] == []
    ann.click("#start-match")
    for p in (ann, bob, cat):
        wait_version(p, state["version"] + 1)
        p.wait_for_selector("#start-box", state="hidden")
    state = api_state(live_server, match)
    assert state["started"] and state["turn"] == 1

    players = {1: Player(ann), 2: Player(bob), 3: Player(cat)}
    # An out-of-turn key is refused with a visible reason, and nothing changes.
    cat.keyboard.press("Space")
    cat.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert api_state(live_server, match)["version"] == state["version"]

    used = {"click": 0, "keys": 0, "golden-mode": 0, "golden-key": 0, "skip": 0}
    ply = 0
    while state["outcome"] is None:
        view, seat = state["view"], state["turn"]
        me = players[seat]
        page = me.page
        # The page shows the server's legal fields of the player to move in green, and only those.
        assert page.get_attribute(".gamma-board", "data-turn") == str(seat)
        assert count(page, ".gamma-board .cell.legal") == len(view["legal"])
        for x, y in view["legal"][:3]:
            assert "legal" in page.get_attribute(cell(x, y), "class")

        if used["skip"] == 0 and ply == 2:
            page.keyboard.press("c")  # C skips (either case works)
            used["skip"] += 1
        elif view["golden"] and (not view["legal"] or (used["golden-mode"] == 0 and ply >= 4)
                                 or (used["golden-mode"] and used["golden-key"] == 0 and ply >= 7)):
            if used["golden-mode"] == 0:  # Escape leaves the golden mode (and does not offer to leave the page)
                page.keyboard.press("G")
                page.wait_for_selector(".gamma-board.golden")
                page.keyboard.press("Escape")
                page.wait_for_selector(".gamma-board:not(.golden)")
                assert not page.is_visible("dialog[open]")
            page.keyboard.press("G" if used["golden-mode"] == 0 else "g")
            page.wait_for_selector(".gamma-board.golden")
            assert page.get_attribute("#gamma-golden", "aria-pressed") == "true"
            # In golden mode the green fields are exactly the golden targets; the normal ones are hidden.
            assert count(page, ".gamma-board .cell.gold") == len(view["golden"])
            assert count(page, ".gamma-board .cell.legal") == 0
            target = view["golden"][-1]
            if used["golden-mode"] == 0:
                shoot(page, "golden-mode")
                me.click(target)  # a click in golden mode makes the golden move
                used["golden-mode"] += 1
            else:
                me.steer(target)
                page.keyboard.press("G")  # G again, with the cursor in use: the golden move at the cursor
                used["golden-key"] += 1
        elif not view["legal"]:
            page.click("#gamma-skip")  # only possible when nothing at all is left; the engine skips those
            used["skip"] += 1
        elif ply % 2:
            me.steer(view["legal"][len(view["legal"]) // 2])
            page.keyboard.press("Space")
            used["keys"] += 1
        else:
            me.click(view["legal"][0])
            used["click"] += 1

        for p in (ann, bob, cat):
            wait_version(p, state["version"] + 1)
        before, state = state, api_state(live_server, match)
        assert state["moves"][:-1] == before["moves"], state["moves"]
        ply += 1
        if ply == 6:
            shoot(cat, "mid-game")
        assert ply < 80

    assert used["golden-mode"] and used["golden-key"] and used["skip"], used
    assert used["keys"] >= 3 and used["click"] >= 3, used
    assert any(m.startswith("g") for m in state["moves"]) and "skip" in state["moves"]
    final = state["view"]
    for p in (ann, bob, cat):
        assert result_title(p) in ("You won", "You lost", "You share the win")
        assert drawn_cells(p, 5, 4) == final["cells"]
        assert count(p, ".gamma-board .cell.legal, .gamma-board .cell.gold") == 0
        assert p.locator("#gamma-golden").is_disabled() and p.locator("#gamma-skip").is_disabled()
    # The score table: fields taken and the golden moves as the server counts them, the winners marked.
    rows = cat.locator(".gamma-score tbody tr")
    for st in final["stats"]:
        row = rows.nth(st["seat"] - 1)
        assert row.locator('[data-col="busy"]').inner_text() == str(st["busy"])
        assert row.locator('[data-col="free"]').inner_text() == str(st["free"])
        assert row.locator('[data-col="golden"]').inner_text() == ("used" if st["golden_used"] else
                                                                   "possible" if st["golden_possible"] else "not now")
        assert ("winner" in (row.get_attribute("class") or "")) == (st["seat"] in final["outcome"]["winners"])
    shoot(ann, "finished")
    shoot(cat, "finished-seat-3")
    assert errors == []


def test_gamma_creator_leaves_free_seats_out(live_server, new_context, shoot):
    ann = new_context().new_page()
    bob = new_context(has_touch=True, is_mobile=True).new_page()  # a phone
    bob.set_viewport_size({"width": 390, "height": 800})
    created = requests.post(f"{live_server.url}/api/matches", json={
        "game": "gamma", "mode": "online", "options": {"width": 4, "height": 3, "players": 4, "areas": 2}}).json()
    ann.goto(live_server.url + "/")
    ann.evaluate("([m, t]) => localStorage.setItem('quadrille.token.' + m, t)", [created["match"], created["token"]])
    ann.goto(f"{live_server.url}/m/{created['match']}")
    wait_seats(ann, "1")
    join(bob, created["invite"], 2)  # the link the API gave the creator
    ann.wait_for_function("document.getElementById('gamma-start-info').textContent.includes('2 of 4 seats taken')")
    assert "start with 2 players" in ann.inner_text("#gamma-start")
    ann.click("#start-match")
    bob.wait_for_function("document.querySelectorAll('.gamma-score tbody tr').length === 2")
    state = api_state(live_server, created["match"])
    assert state["started"] and state["players"] == 2 and len(state["seats"]) == 2
    bob.wait_for_selector("#start-box", state="hidden")
    ann.click(cell(0, 0))
    bob.wait_for_selector(cell(0, 0) + ".owned.o1")
    assert bob.inner_text(cell(0, 0)) == "A"
    # On the phone the board fits the width, and a tap takes a field.
    box = bob.locator(".gamma-board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    bob.wait_for_selector(".gamma-board.playable")
    bob.tap(cell(3, 2))
    ann.wait_for_selector(cell(3, 2) + ".owned.o2")
    shoot(bob, "phone")


def test_gamma_computer_plays_the_free_seats(live_server, new_context, shoot):
    ann, bob = new_context().new_page(), new_context().new_page()
    create_from_lobby(ann, live_server, 4, 3, 3, 2, "Ann")
    match = match_id(ann)
    join(bob, ann.input_value("#invite-link"), 2)
    ann.wait_for_function("document.getElementById('gamma-start-info').textContent.includes('2 of 3 seats taken')")
    ann.check("#gamma-start input[value=computer]")
    ann.select_option("#gamma-level", "1")
    assert "computer will play it" in ann.inner_text("#gamma-start")
    shoot(ann, "start-with-computer")
    ann.click("#start-match")
    ann.wait_for_selector("#start-box", state="hidden")
    state = api_state(live_server, match)
    assert state["players"] == 3 and state["seats"][2]["kind"] == "ai"
    bob.wait_for_function("document.getElementById('seats').textContent.includes('computer (Easy)')")
    assert "computer (Easy)" in bob.inner_text('.gamma-score tr[data-seat="3"]')
    pages = {1: ann, 2: bob}
    while state["outcome"] is None:
        if state["turn"] in pages:
            view = state["view"]
            page = pages[state["turn"]]
            page.wait_for_selector(".gamma-board.playable")
            if view["legal"]:
                page.click(cell(*view["legal"][0]))
            elif view["golden"]:
                page.click("#gamma-golden")
                page.click(cell(*view["golden"][0]))
            else:
                page.keyboard.press("C")
        ann.wait_for_function("v => Number(document.getElementById('match').dataset.version) > v",
                              arg=state["version"])
        state = api_state(live_server, match)
    assert 3 in state["view"]["cells"][0] + state["view"]["cells"][1] + state["view"]["cells"][2]  # it played
    bob.wait_for_selector("#result:not([hidden])")
    shoot(bob, "finished")
