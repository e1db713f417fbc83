"""Decisions in view and heard (issue 23, item 3): whatever asks the player to decide (another player's take-back
request, a draw offer, the claim once the opponent left, "Take my seat back" once the computer played for them, a
rematch offer, a confirmation) shows its buttons inside the window without scrolling, on a 1366x800 and a 1280x720
desktop and a 390x844 touch screen, for every game, and is said to screen readers (the assertive region
#decision-alert, a labelled group, an alertdialog).

One match per game: Ann holds seat 1 in three browsers at once (the three screens), Bob plays seat 2 and
raises each decision; the moves are played through the HTTP API. Screenshots of the window (not the whole page:
what a person sees without scrolling) go to test-output/: look at them."""
from __future__ import annotations

import re

import pytest

import games
from tests.browser.conftest import OUTPUT, api_state, join_by_invite, match_id, result_title, wait_seats, \
    wait_version
from tests.browser.test_match_life_browser import open_as_creator, play_turn, token_of

pytestmark = pytest.mark.browser

GAMES = games.listed()
SCREENS = {
    "1366x800": {"viewport": {"width": 1366, "height": 800}},
    "1280x720": {"viewport": {"width": 1280, "height": 720}},
    "390x844": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True},
}
# Every game at its default size (the biggest boards are where decisions fell off the screen); Gamma for two.
OPTIONS = {"trails": {}, "lattice": {}, "towers": {}, "gamma": {"players": 2}}

# The buttons of the decision on show that are not inside the window, or covered by something else there.
OUT_OF_VIEW = """sel => [...document.querySelectorAll(sel)].filter(b => b.offsetParent !== null).map(b => {
    const r = b.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const hit = inside && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && hit && b.contains(hit) ? null : `${b.textContent} at y ${Math.round(r.top)} of ${innerHeight}`;
  }).filter(Boolean)"""


def window_shot(page, test, name):
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{test}-{name}.png"))


def check_in_view_and_said(pages, buttons, said, test, name):
    """On each of Ann's screens: the decision's buttons (`buttons`, a selector) are in the window, the page was
    never scrolled, and the alert region says the decision with its choices (`said`, a pattern)."""
    for screen, page in pages.items():
        page.wait_for_selector(buttons)
        window_shot(page, test, f"{name}-{screen}")
        assert page.evaluate("scrollY") == 0, screen
        assert page.evaluate(OUT_OF_VIEW, buttons) == [], screen
        page.wait_for_function("p => new RegExp(p).test(document.getElementById('decision-alert').textContent)",
                               arg=said)
        assert page.get_attribute("#decision-alert", "role") == "alert"


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_is_in_view_on_three_screens_and_said(live_server, new_context, request, game):
    test = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    ann = {screen: new_context(**spec).new_page() for screen, spec in SCREENS.items()}
    first = ann["1366x800"]
    created = open_as_creator(first, live_server, game, OPTIONS[game])
    match = created["match"]
    bob_context = new_context()
    bob = bob_context.new_page()
    join_by_invite(bob, created["invite"], "Bob", 2)
    bob_token = token_of(bob)
    for page in ann.values():
        if page is not first:
            page.goto(live_server.url + "/")
            page.evaluate("c => window.QuadrilleTokens.remember(c)", created)
            page.goto(f"{live_server.url}/m/{match}")
            wait_seats(page, "1")
    if game == "gamma":
        first.click("#start-match")
    first.wait_for_function("document.getElementById('match').dataset.turn === '1'")

    # A confirmation (abort, before both moved) is a modal alertdialog in the window, its safe choice focused.
    for screen, page in ann.items():
        page.wait_for_selector("#abort:not([hidden])")
        page.evaluate("document.getElementById('abort').click()")  # (the side panel is below a phone's board)
        page.wait_for_selector("#dialog[open]")
        assert page.get_attribute("#dialog", "role") == "alertdialog"
        assert "Abort this game" in page.evaluate(
            "document.getElementById(document.getElementById('dialog').getAttribute('aria-labelledby')).textContent")
        assert page.evaluate("document.activeElement.textContent") == "Keep playing"
        assert page.evaluate(OUT_OF_VIEW, "#dialog-actions button") == [], screen
        window_shot(page, test, f"abort-{screen}")
        page.keyboard.press("Escape")

    # Bob asks to take back his move (the page names him by his side's colour).
    red = api_state(live_server, match)["seat_names"][1]
    play_turn(live_server, match, created["token"])
    play_turn(live_server, match, bob_token)
    state = play_turn(live_server, match, created["token"])
    wait_version(bob, state["version"])
    bob.click("#offer-takeback")
    check_in_view_and_said(ann, "#offer-bar:not([hidden]) button",
                           f"{red} asks to take back their last move\\. Choose: Accept or Decline\\.", test, "takeback")
    assert first.get_attribute("#offer-bar", "role") == "group"
    first.click("#offer-bar button:text-is('Decline')")
    first.wait_for_selector("#offer-bar", state="hidden")
    assert first.evaluate("document.activeElement.id") == "status"  # the answered decision gave the focus back

    # Bob offers a draw, where the game has draws.
    if api_state(live_server, match)["draws"]:
        bob.click("#offer-draw")
        check_in_view_and_said(ann, "#offer-bar:not([hidden]) button",
                               f"{red} offers a draw\\. Choose: Accept or Decline\\.", test, "draw")
        first.click("#offer-bar button:text-is('Decline')")
        first.wait_for_selector("#offer-bar", state="hidden")

    # Bob leaves: once the timeout has run, Ann may claim the game.
    bob_context.close()
    check_in_view_and_said(ann, "#away button", "left the game.*Choose: Claim victory", test, "claim")
    # A keyboard user on a choice keeps it while the bar is redrawn (every STATE and presence redraws it).
    first.focus("#away button:text-is('Claim victory')")
    first.evaluate("window.Quadrille.page.render()")
    first.wait_for_function("document.activeElement.textContent === 'Claim victory'")
    assert first.evaluate("document.getElementById('away').contains(document.activeElement)")

    # Ann lets the computer play Bob's seat; Bob, back on three screens, sees how to take it back, and hears it.
    first.click("#away button:text-is('Let the computer play')")
    first.wait_for_function("window.Quadrille.page.state().seats[1].kind === 'ai'")
    bob_pages = {}
    for screen, spec in SCREENS.items():
        page = new_context(**spec).new_page()
        page.goto(live_server.url + "/")
        page.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [match, bob_token])
        page.goto(f"{live_server.url}/m/{match}")
        wait_seats(page, "2")
        bob_pages[screen] = page
    check_in_view_and_said(bob_pages, "#reclaim-bar:not([hidden]) button",
                           "The computer is playing for you\\. Choose: Take my seat back\\.", test, "reclaim")
    assert not bob_pages["1366x800"].is_visible("#computer-box")  # no empty box left in the side panel
    bob_pages["1366x800"].click("#reclaim")
    first.wait_for_function("window.Quadrille.page.state().seats[1].kind === 'human'")
    for page in bob_pages.values():
        page.context.close()
    first.wait_for_selector("#away button:text-is('Claim victory')", timeout=15_000)
    first.click("#away button:text-is('Claim victory')")
    assert result_title(first) == "You won"

    # Bob comes back and offers a rematch: Ann sees it on her result screen, in the window, and hears it.
    bob = new_context().new_page()
    bob.goto(live_server.url + "/")
    bob.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [match, bob_token])
    bob.goto(f"{live_server.url}/m/{match}")
    wait_seats(bob, "2")
    bob.click("#play-again")
    for page in ann.values():
        page.wait_for_function("document.getElementById('play-again').textContent === 'Accept the rematch'")
    check_in_view_and_said(ann, "#play-again",
                           f"{red} offers a rematch\\. Choose: Accept the rematch\\.", test, "rematch")
    assert match_id(first) == match

