"""The challenge is made with the lobby's new-game dialog and read in its words; an accepted challenge takes the
challenger to the game at once; "Your turn in N games" is a link to "my games"; and *Play a friend* lets the
creator move second or leave the side to chance (issue 23, items 8 and 11). On a desktop and a touch phone."""
from __future__ import annotations

import pytest

from tests.browser.axe import serious_violations
from tests.browser.conftest import api_state, join_by_invite, match_id, wait_seats
from tests.browser.test_accessibility import overflow, small_controls
from tests.browser.test_players_browser import sign_up

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
CORNER = "Each master starts in its player's right-hand back corner, not in the middle"
WORDS = f"Board size: 5 cells a side; Alternative rules: {CORNER}"


@pytest.mark.parametrize("screen, names", [("desktop", ("ann", "bob")), ("phone", ("cleo", "dan"))])
def test_a_towers_challenge_through_the_dialog_in_words_and_at_once_to_the_game(live_server, new_context, shoot,
                                                                              screen, names):
    server = live_server
    kind = DESKTOP if screen == "desktop" else PHONE
    challenger, invitee = names
    ann, bob = new_context(**kind).new_page(), new_context(**kind).new_page()
    sign_up(ann, server, challenger)
    sign_up(bob, server, invitee)

    # The dialog of the lobby: Towers' presets, its picture, every option in words (the alternative rules).
    ann.click("#challenge-games [data-challenge=towers]")
    form = "#setup-towers"
    ann.wait_for_selector(f"#setup[open] {form}:not([hidden])")
    assert ann.locator(f"{form} .setup-pic svg").count() == 1
    assert ann.locator(f"{form} input[name=preset]").count() >= 4 and "Quick 5×5" in ann.inner_text(form)
    ann.check(f"{form} input[name=preset][value=quick]")
    ann.click(f"{form} .more-options summary")
    ann.check(f"{form} .more-options input[name=rules][value=master-at-corner]")
    ann.wait_for_selector(f"{form} .preset.custom:not([hidden]) input:checked")  # no longer the preset alone
    ann.fill(f"{form} input[name=to]", invitee)
    ann.check(f"{form} input[name=side][value=first]")
    ann.locator(f"{form} button.start").scroll_into_view_if_needed()
    shoot(ann, "dialog")
    if screen == "phone":
        assert small_controls(ann) == [] and overflow(ann) == 0
    else:
        assert serious_violations(ann, "#setup") == []
    ann.click(f"{form} button.start")
    ann.wait_for_function("document.getElementById('games-message').textContent.startsWith('Challenge sent')")
    assert not ann.locator("#setup[open]").count()

    # The invitee reads it in the dialog's words, live; so does the challenger's list.
    bob.wait_for_function("words => document.getElementById('incoming').textContent.includes(words)", arg=WORDS)
    inbox = bob.inner_text("#incoming")
    assert f"{challenger} challenges you to Towers · {WORDS} · casual · {challenger} moves first" in inbox
    assert "size 5" not in inbox
    # the challenger's list is fetched again after "Challenge sent": wait for it rather than read it at once
    ann.wait_for_function("words => document.getElementById('outgoing').textContent.includes(words)", arg=WORDS)
    shoot(bob, "inbox")

    # Accepted: both are at the game, the challenger at once (over Socket.IO), moving first.
    bob.click("#incoming li:has-text('to Towers') button:text-is('Accept')")
    bob.wait_for_url("**/m/**")
    match = match_id(bob)
    ann.wait_for_url(f"**/m/{match}")
    wait_seats(ann, "1")
    state = api_state(server, match)
    assert state["options"]["size"] == 5 and state["options"]["rules"] == ["master-at-corner"] and state["turn"] == 1
    shoot(ann, "taken-to-the-game")

    # "Your turn in 1 game" is a link to "my games", where the game reads in the same words.
    ann.goto(server.url + "/")
    turn = ann.locator("a[data-your-turn]")
    turn.wait_for()
    assert "Your turn in 1 game" in turn.inner_text()
    turn.click()
    ann.wait_for_url("**/me")
    ann.wait_for_selector(f"#games [data-match='{match}']")
    assert WORDS in ann.inner_text(f"#games [data-match='{match}']")
    shoot(ann, "my-games")


def test_play_a_friend_second_on_a_desktop_and_at_random_on_a_phone(live_server, new_context, shoot):
    server = live_server
    # Second: the creator holds the second seat; the friend takes the first and moves first.
    page = new_context(**DESKTOP).new_page()
    page.goto(server.url + "/")
    page.click("#game-trails [data-mode=online]")
    page.wait_for_selector("#setup-trails:not([hidden])")
    assert page.is_visible("#setup-trails .sides")
    page.check("#setup-trails input[name=side][value=second]")
    shoot(page, "side-second")
    page.click("#setup-trails button.start")
    page.wait_for_url("**/m/**")
    wait_seats(page, "2")
    match = match_id(page)
    page.wait_for_function("document.getElementById('invite-link').value.includes('#join=')")
    friend = new_context(**DESKTOP).new_page()
    join_by_invite(friend, page.input_value("#invite-link"), name="Friend", seat=1)
    state = api_state(server, match)
    assert state["turn"] == 1 and [s["taken"] for s in state["seats"]] == [True, True]

    # At random, on a phone: the page asks the server for a random side, and the server seats the creator.
    phone = new_context(**PHONE).new_page()
    phone.goto(server.url + "/")
    phone.click("#game-towers [data-mode=online]")
    phone.wait_for_selector("#setup-towers:not([hidden])")
    phone.check("#setup-towers input[name=side][value=random]")
    phone.locator("#setup-towers .sides").scroll_into_view_if_needed()
    shoot(phone, "side-random")
    assert small_controls(phone) == [] and overflow(phone) == 0
    with phone.expect_request("**/api/matches") as sent:
        phone.click("#setup-towers button.start")
    assert sent.value.post_data_json["side"] == "random" and "seats" not in sent.value.post_data_json
    phone.wait_for_url("**/m/**")
    seat = api_state(server, match_id(phone))["seats"]
    mine = [s["seat"] for s in seat if s["taken"]]
    assert len(mine) == 1 and mine[0] in (1, 2)
    wait_seats(phone, str(mine[0]))
