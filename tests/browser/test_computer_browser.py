"""Playing the computer in the browser: a game against level 1, a demo, and handing an absent seat over."""
from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import lobby_start, result_title, wait_version

pytestmark = pytest.mark.browser


def version(page) -> int:
    return int(page.locator("#match").get_attribute("data-version"))


def test_a_game_against_the_computer_from_the_lobby(live_server, new_context, shoot):
    page = new_context().new_page()
    lobby_start(page, live_server, "trails", "ai", options={"size": 7}, level=1)
    page.wait_for_function("document.getElementById('match').dataset.seats === '1'")
    assert "computer (Easy)" in page.inner_text("#seats")  # the dialog's word for level 1
    match = page.locator("#match").get_attribute("data-match")
    while True:
        state = requests.get(f"{live_server.url}/api/matches/{match}").json()
        if state["outcome"]:
            break
        if state["turn"] == 1:
            wait_version(page, state["version"])  # the page must know the computer's move before ours
            page.keyboard.press({"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
                                 "right": "ArrowRight"}[state["legal"][0]])
        page.wait_for_function("v => Number(document.getElementById('match').dataset.version) > v",
                               arg=state["version"])
    assert result_title(page) in ("You won", "You lost")
    shoot(page, "finished")
    page.click("#takeback")  # against the computer, a take-back also undoes its reply
    page.wait_for_function("document.getElementById('match').dataset.turn === '1'")


def test_a_demo_plays_itself_and_pauses(live_server, new_context, shoot):
    page = new_context().new_page()
    lobby_start(page, live_server, "trails", "ai", options={"size": 9}, demo=True)
    page.wait_for_function("Number(document.getElementById('match').dataset.version) >= 2")
    page.keyboard.press("p")
    page.wait_for_function("document.getElementById('pause').textContent.startsWith('Resume')")
    page.wait_for_timeout(300)
    paused_at = version(page)
    page.wait_for_timeout(1500)
    assert version(page) <= paused_at + 1  # at most the move being thought about when P was pressed
    page.click("#pause")
    page.wait_for_function("v => Number(document.getElementById('match').dataset.version) > v + 1", arg=paused_at)
    shoot(page, "demo")


def test_a_player_hands_an_absent_opponents_seat_to_the_computer(live_server, new_context):
    ann = new_context().new_page()
    created = requests.post(f"{live_server.url}/api/matches", json={"game": "trails", "mode": "online"}).json()
    requests.post(f"{live_server.url}/api/matches/{created['match']}/seats",
                  json={"invite": created["invite_secret"]})  # a friend who left
    ann.goto(f"{live_server.url}/m/{created['match']}")
    ann.evaluate(f"window.QuadrilleTokens.set({created['match']!r}, {created['token']!r})")
    ann.reload()
    ann.wait_for_function("document.getElementById('match').dataset.seats === '1'")
    ann.wait_for_selector("#handover:not([hidden])")
    ann.wait_for_timeout(1100)  # the friend has been gone for longer than the server's grace period
    ann.click("#handover-go")
    ann.wait_for_function("document.getElementById('seats').textContent.includes('computer')")
    ann.keyboard.press("ArrowRight")
    ann.wait_for_function("Number(document.getElementById('match').dataset.version) >= 3")
    assert requests.get(f"{live_server.url}/api/matches/{created['match']}").json()["turn"] == 1
