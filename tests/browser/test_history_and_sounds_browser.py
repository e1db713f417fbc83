"""Small things of the match page (issue 23, item 11), in a real browser on a 1366x800 desktop and a 390x844
touch screen:

- stepping back through the game (‹, «, a click on a move) the status line says which move is shown, not whose
  turn it is in the game; back at the live position it says the turn again;
- the move list's sticky header never covers its first round: stepped back to move 1, row 1 is whole in view;
- sounds wait for the player's first gesture: no AudioContext is made (and the browser warns of none refused)
  before a click, a tap or a key in the page, though sounds were due (a friend joined, moves landed); after it,
  the next sound is made, running.

Screenshots go to test-output/: look at them."""
from __future__ import annotations

import random

import pytest
import requests

from tests.browser.conftest import api_state, join_by_invite, wait_version
from tests.browser.test_moves_browser import PHONE, api_move, create, gamma_text, open_match, settled

pytestmark = pytest.mark.browser

SCREENS = {"desktop": {"viewport": {"width": 1366, "height": 800}}, "phone": PHONE}

# The whole button of a move, top edge included, is the topmost thing drawn there (not the sticky header), once
# the page shows the list (a phone's is below the board).
WHOLE_IN_VIEW = """p => { const b = document.querySelector(`#move-list [data-ply="${p}"]`);
    document.getElementById('move-list').scrollIntoView({block: 'nearest'}); // the page, not the list
    const r = b.getBoundingClientRect(), box = document.getElementById('move-list').getBoundingClientRect();
    const x = r.left + r.width / 2;
    return r.top >= box.top && r.bottom <= box.bottom && b.contains(document.elementFromPoint(x, r.top + 1))
      && b.contains(document.elementFromPoint(x, r.bottom - 1)); }"""


def status(page):
    return page.inner_text("#status")


@pytest.mark.parametrize("screen", SCREENS)
def test_stepping_back_the_status_names_the_move_shown_and_row_1_is_not_under_the_header(
        live_server, new_context, shoot, screen):
    page = new_context(**SCREENS[screen]).new_page()
    created = create(live_server, "gamma", "local", {"width": 10, "height": 10, "players": 2})
    open_match(page, live_server, created, "1,2")
    rng = random.Random(14)
    state = api_state(live_server, created["match"])
    for _ in range(30):
        normal = [m for m in state["legal"] if not m.startswith("g") and m != "skip"]
        state = api_move(live_server, created, rng.choice(normal))
    settled(page, state["version"])
    names = [f"{n} ({'AB'[i]})" for i, n in enumerate(state["seat_names"])]
    live = status(page)
    assert not live.startswith("Showing")

    # One step back: the status says the move shown, by whom, in the move list's words.
    page.click("#step-back")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '29'")
    assert status(page) == f"Showing move 29 of 30: {names[0]}, {gamma_text(state['moves'][28])}"
    assert "your-turn" not in page.get_attribute("#status", "class")

    # A click on a move of the list: that one.
    page.click("#move-list [data-ply='12']")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '12'")
    assert status(page) == f"Showing move 12 of 30: {names[1]}, {gamma_text(state['moves'][11])}"

    # Back to the first round with the keyboard in the list: row 1 whole, not under the sticky header.
    page.focus("#move-list [data-ply='12']")
    for _ in range(11):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '1'")
    page.wait_for_selector("#move-list [data-ply='1'][aria-current=step]")
    assert page.evaluate(WHOLE_IN_VIEW, 1) and page.evaluate(WHOLE_IN_VIEW, 2)
    assert status(page) == f"Showing move 1 of 30: {names[0]}, {gamma_text(state['moves'][0])}"
    page.locator("#move-list").scroll_into_view_if_needed()
    shoot(page, "move-1")
    # ... and a move further down, stepped to from below, is whole under the header too.
    page.press("#move-list [data-ply='1']", "End")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === 'live'")
    page.click("#move-list [data-ply='20']")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '20'")
    for ply in range(19, 4, -1):
        page.click("#step-back")
        page.wait_for_function("p => document.getElementById('ply-label').dataset.shown === p", arg=str(ply))
        assert page.evaluate(WHOLE_IN_VIEW, ply), ply

    # The start position, then the game again.
    page.click("#step-first")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '0'")
    assert status(page) == "Showing the start position"
    page.click("#step-last")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === 'live'")
    assert status(page) == live


COUNT_AUDIO = """(() => {
  window.audioMade = [];
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.audioMade.push(this); }
  };
})()"""


def test_sounds_wait_for_the_first_gesture(live_server, new_context):
    warnings = []
    pages = {}
    for screen, spec in SCREENS.items():
        context = new_context(**spec)
        context.add_init_script(COUNT_AUDIO)
        page = context.new_page()
        page.on("console", lambda m: warnings.append(m.text) if "AudioContext" in m.text else None)
        pages[screen] = page
    created = create(live_server, "trails", "online", {"size": 7}, player="Ann")
    for page in pages.values():
        open_match(page, live_server, created, "1")
    bob = new_context().new_page()
    join_by_invite(bob, created["invite"], "Bob", 2)
    state = api_move(live_server, created, api_state(live_server, created["match"])["legal"][0])
    for page in pages.values():
        wait_version(page, state["version"])
        page.wait_for_function("document.getElementById('match').dataset.sound === 'move'")  # sounds were due
        assert page.evaluate("window.audioMade.length") == 0  # ... and none was made before a gesture
    # The first gesture: a click on the desktop, a tap on the phone. The next move is heard.
    pages["desktop"].click("#status")
    pages["phone"].tap("#status")
    bob_token = bob.evaluate("m => localStorage.getItem('quadrille.token.' + m)", created["match"])
    state = api_move(live_server, created, state["legal"][0], token=bob_token)
    for page in pages.values():
        wait_version(page, state["version"])
        page.wait_for_function("window.audioMade.length === 1")
        page.wait_for_function("window.audioMade[0].state === 'running'")
    assert warnings == []


def test_stepping_back_on_your_own_turn_says_the_turn_is_yours(live_server, new_context):
    page = new_context(**SCREENS["desktop"]).new_page()
    created = create(live_server, "trails", "online", {"size": 7}, player="Ann")
    open_match(page, live_server, created, "1")
    joined = requests.post(f"{live_server.url}/api/matches/{created['match']}/seats",
                           json={"invite": created["invite_secret"], "player": "Bob"}).json()
    state = api_move(live_server, created, api_state(live_server, created["match"])["legal"][0])
    state = api_move(live_server, created, state["legal"][0], token=joined["token"])
    wait_version(page, state["version"])
    assert status(page) == "Your turn"
    page.click("#step-back")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '1'")
    assert status(page).startswith("Showing move 1 of 2: Blue, ") and status(page).endswith("(your turn in the game)")
    assert "your-turn" not in page.get_attribute("#status", "class")  # the green "your turn" look is the live one's
