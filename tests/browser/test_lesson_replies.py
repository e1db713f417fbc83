"""A lesson's step shows the opponent's reply on the board as its closing sentence announces it, and never lights
the opponent's targets (issue 23, item 9): Trails on a desktop, Gamma on a touch phone."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# Watches the board: every position drawn while the opponent (seat 2) is to move, and the cells lit then.
WATCH = """() => {
  window.seen = { opponentTurns: 0, litForOpponent: 0 };
  const board = document.getElementById('board');
  const look = () => {
    if (board.dataset.turn !== '2') return;
    window.seen.opponentTurns += 1;
    window.seen.litForOpponent += board.querySelectorAll('.cell.green, .cell.legal').length;
  };
  new MutationObserver(look).observe(board, { attributes: true, subtree: true });
}"""


def solved(page, index):
    page.wait_for_selector(f'#lesson[data-step="{index}"][data-solved="1"]')
    page.wait_for_function("() => document.getElementById('step-feedback').classList.contains('right')")


def test_trails_lesson_shows_reds_reply_on_a_desktop(live_server, new_context, shoot):
    page = new_context(viewport={"width": 1366, "height": 800}).new_page()
    page.goto(f"{live_server.url}/learn/trails")
    page.wait_for_selector('#lesson[data-step="0"]')
    page.evaluate(WATCH)
    page.keyboard.press("ArrowDown")
    solved(page, 0)
    assert "Red answers by moving up" in page.inner_text("#step-feedback")
    # The board shows the reply: Red's head went up from the bottom-right corner, and it is Blue's turn again.
    assert "head2" in page.get_attribute('#board .cell[data-r="5"][data-c="6"]', "class")
    assert page.get_attribute("#board", "data-turn") == "1"
    seen = page.evaluate("window.seen")
    assert seen["opponentTurns"] >= 1 and seen["litForOpponent"] == 0, seen
    shoot(page, "reply-shown")


def test_gamma_lesson_shows_bs_reply_on_a_phone(live_server, new_context, shoot):
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    page.goto(f"{live_server.url}/learn/gamma")
    page.wait_for_selector('#lesson[data-step="0"]')
    page.evaluate(WATCH)
    page.tap('#board .cell[data-x="1"][data-y="1"]')
    solved(page, 0)
    assert "B answered on d4" in page.inner_text("#step-feedback")
    assert "owned" in page.get_attribute('#board .cell[data-x="3"][data-y="3"]', "class")  # B's reply, d4
    assert page.get_attribute("#board", "data-turn") == "1"
    seen = page.evaluate("window.seen")
    assert seen["opponentTurns"] >= 1 and seen["litForOpponent"] == 0, seen
    shoot(page, "reply-shown")
