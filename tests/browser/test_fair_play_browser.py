"""Blocks and names in a real browser (Debian's chromium), against a real server process (issue 22's Low items):
a player blocks another from their profile and the account page, and unblocks them; a match page marks the
seats accounts hold (a link to the profile, a mark no guest's name can have) and isolates every name in <bdi>."""
from __future__ import annotations

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.conftest import wait_seats
from tests.browser.test_players_browser import sign_up

pytestmark = pytest.mark.browser


def api_account(server, name, password="correct horse") -> tuple[requests.Session, dict]:
    session = requests.Session()
    answer = session.post(f"{server.url}/api/account", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return session, answer.json()


def challenge_of(server, session, csrf, to) -> requests.Response:
    return session.post(f"{server.url}/api/challenges", json={"to": to, "game": "trails", "options": {"size": 5}},
                        headers={"X-CSRFToken": csrf})


def test_a_player_blocks_and_unblocks_another_from_the_profile_and_the_account_page(live_server, new_context, shoot):
    server = live_server
    quiet = new_context().new_page()
    sign_up(quiet, server, "quiet")
    pest, pest_answer = api_account(server, "pest")
    assert challenge_of(server, pest, pest_answer["csrf"], "quiet").status_code == 201
    quiet.reload()
    quiet.wait_for_function("document.getElementById('incoming').textContent.includes('pest challenges you')")

    quiet.goto(server.url + "/players/pest")
    quiet.click("a:has-text('Block pest')")
    quiet.wait_for_url("**/account?block=pest#blocks")
    assert quiet.input_value("#block-name") == "pest"
    quiet.click("#block-form button[type=submit]")
    quiet.wait_for_selector("#block-list li:has-text('pest') button:text-is('Unblock')")
    assert "pest is blocked" in quiet.inner_text("#account-message")
    assert quiet.locator("#block-list bdi").inner_text() == "pest"
    shoot(quiet, "blocked")
    assert serious_violations(quiet) == []

    refused = challenge_of(server, pest, pest_answer["csrf"], "quiet")
    assert refused.status_code == 403 and refused.json()["reason"] == "Your challenge was not accepted."
    quiet.goto(server.url + "/me")
    quiet.wait_for_selector("#incoming-empty:not([hidden])")  # the waiting challenge was declined

    quiet.goto(server.url + "/account")
    quiet.click("#block-list button[aria-label='Unblock pest']")
    quiet.wait_for_selector("#block-list li:has-text('Nobody.')")
    assert challenge_of(server, pest, pest_answer["csrf"], "quiet").status_code == 201


def test_a_match_page_marks_account_seats_and_isolates_every_name(live_server, new_context, shoot):
    server = live_server
    dora = new_context().new_page()
    sign_up(dora, server, "dora")
    eve, eve_answer = api_account(server, "eve")
    made = dora.evaluate("""async () => (await window.QuadrillePlayers.api('/api/challenges',
        {to: 'eve', game: 'trails', options: {size: 5}, first: 'challenger'}))""")
    match = eve.post(f"{server.url}/api/challenges/{made['challenge']}/accept",
                     headers={"X-CSRFToken": eve_answer["csrf"]}).json()["match"]
    # Dora waits on /me: an accepted challenge takes the challenger to the game at once (a goto would race it).
    dora.wait_for_url(f"**/m/{match}")
    wait_seats(dora, "1")
    dora.wait_for_selector("#seats li[data-seat='2'] .account-mark")
    seat = dora.locator("#seats li[data-seat='2']")
    assert seat.locator("a.account-name").get_attribute("href") == "/players/eve"
    assert seat.locator("bdi").inner_text() == "eve" and "(account)" in seat.inner_text()
    shoot(dora, "account-seats")

    # A guest whose name is written right to left, in an open match: isolated, and never marked.
    created = requests.post(f"{server.url}/api/matches", json={"game": "trails", "mode": "online",
                                                               "visibility": "open", "player": "Ann"}).json()
    joined = requests.post(f"{server.url}/api/matches/{created['match']}/seats", json={"player": "שלום 42"})
    assert joined.status_code == 201, joined.text
    watcher = new_context().new_page()
    watcher.goto(f"{server.url}/m/{created['match']}#watch")
    watcher.wait_for_selector("#seats li[data-seat='2'] bdi")
    assert watcher.locator("#seats li[data-seat='2'] bdi").inner_text() == "שלום 42"
    assert watcher.locator("#seats .account-mark").count() == 0
    assert watcher.inner_text("#seats li[data-seat='2']").endswith("שלום 42")
    shoot(watcher, "guest-names")
