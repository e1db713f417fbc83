"""A Gamma game against the computer on a small board, played in a browser to the full board: the person takes
fields, keeps the golden move and skips once none is left; the game ends (games/gamma/passes.py) with the result
screen, instead of asking for *Skip* for ever. *Resign* is offered during the game (STATE `resignable`) and
resigns it. On a 1366x800 desktop with the mouse and a 390x844 touch screen with taps."""
from __future__ import annotations


import pytest

from tests.browser.axe import serious_violations
from tests.browser.conftest import api_state, confirm, lobby_start, match_id, my_turn_or_end, result_title
from tests.browser.test_accessibility import overflow, small_controls

pytestmark = pytest.mark.browser

SCREENS = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
OPTIONS = {"width": 3, "height": 3, "players": 2, "areas": 2}


def cell(move):
    x, y = move.split(",")
    return f'.gamma-board .cell[data-x="{x}"][data-y="{y}"]'


def in_view(page, selector) -> bool:
    """Visible without scrolling: inside the viewport."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0 \
        and box["x"] + box["width"] <= size["width"]


@pytest.mark.parametrize("screen", SCREENS)
def test_gamma_against_the_computer_ends_on_the_full_board(live_server, new_context, shoot, screen):
    page = new_context(**SCREENS[screen]).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    press = page.tap if screen == "phone" else page.click
    lobby_start(page, live_server, "gamma", "ai", options=OPTIONS, level=1)
    match = match_id(page)
    state = my_turn_or_end(live_server, page, match)
    assert state["resignable"]
    page.wait_for_selector("#resign", state="visible")  # drawn once the page has this STATE too
    shoot(page, "resign-offered")
    golden_only_seen = False
    for _ in range(30):
        if state["outcome"] is not None:
            break
        fields = [m for m in state["legal"] if m != "skip" and not m.startswith("g")]
        if fields:
            press(cell(fields[0]))
        else:
            # the board is full: only the golden move is left, and the page says what skipping does
            info = page.inner_text("#gamma-info")
            assert "No field is left" in info and "when every player skips in a row, the game ends" in info, info
            if not golden_only_seen:   # and a screen reader hears it with the turn
                page.wait_for_function("() => /Your turn\\. No field is left/.test("
                                       "document.getElementById('announce').textContent)")
                shoot(page, "golden-only")
                assert serious_violations(page) == []
                if screen == "phone":
                    assert small_controls(page) == [] and overflow(page) <= 0
            golden_only_seen = True
            press("#gamma-skip")
        deadline = state["version"]
        page.wait_for_function("v => Number(document.getElementById('match').dataset.version) > v", arg=deadline)
        state = my_turn_or_end(live_server, page, match)
    assert state["outcome"] is not None, state["moves"]      # before: Skip came back for ever
    assert state["outcome"]["reason"] in ("passed", "stuck") and len(state["moves"]) <= 13
    title = result_title(page)
    reason = page.inner_text("#result-reason")
    assert title in ("You won", "You lost", "Draw", "You share the win") or title, title
    assert reason.startswith(("No field was left to take", "Nobody can move any more")), reason
    assert in_view(page, "#result-title")
    assert page.is_hidden("#resign")                             # the game is over: nothing to resign
    shoot(page, "result")
    assert serious_violations(page) == []

    # A second game: Resign is there from the first move, asks first, and the computer wins.
    lobby_start(page, live_server, "gamma", "ai", options=OPTIONS, level=1)
    second = match_id(page)
    my_turn_or_end(live_server, page, second)
    page.wait_for_selector("#resign", state="visible")  # once the page knows the seat is its own
    press("#resign")
    page.wait_for_selector("#dialog[open]")
    assert "The computer wins" in page.inner_text("#dialog-text")
    confirm(page, "Resign")
    assert result_title(page) == "You lost"
    assert page.inner_text("#result-reason") == "You resigned."  # never "Blue resigned." to Blue herself
    assert api_state(live_server, second)["outcome"]["winners"] == [2]
    shoot(page, "resigned")
    assert not errors, errors
