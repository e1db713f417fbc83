"""Absence follows the clock, in a real browser on a 1366x800 desktop and a 390x844 phone: Blue stays, Red
closes her page. In a game of days per move Blue sees nothing but Red's presence dot (no alarm,
no claim, no hand-over); in a real-time game he sees Red's countdown, scaled to the clock, and the claim only
when it ends; the help beside the board says the rule of the match's clock. Red, reloading her own page, is
never told "Red is back" (issue 23, item 10)."""
from __future__ import annotations

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.conftest import confirm, wait_seats
from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

TIMEOUT, REALTIME = 2.0, 8.0
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Every text the page's message line showed, recorded from the start (a message lasts only seconds).
RECORD_MESSAGES = """
document.addEventListener("DOMContentLoaded", () => {
  window.__messages = [];
  const line = document.getElementById("message");
  if (line) new MutationObserver(() => window.__messages.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
});
"""


@pytest.fixture(scope="module")
def absence_server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("absence") / "absence.db", "gevent",
                         settings={"PRESENCE_GRACE": 1.0, "DISCONNECT_TIMEOUT": TIMEOUT,
                                   "REALTIME_ABSENCE": REALTIME}).start()
    yield proc
    proc.stop()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def both_moved(url, clock):
    """An online Trails match, both seats taken and both moved over HTTP: Blue's turn."""
    created = requests.post(f"{url}/api/matches", json={"game": "trails", "mode": "online", "options": {"size": 7},
                                                        "clock": clock}).json()
    match = created["match"]
    red = requests.post(f"{url}/api/matches/{match}/seats", json={"invite": created["invite_secret"]}).json()
    for token in (created["token"], red["token"]):
        state = requests.get(f"{url}/api/matches/{match}").json()
        requests.post(f"{url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                      headers=bearer(token)).raise_for_status()
    return match, created["token"], red["token"]


def open_as(page, url, match, token, seats):
    page.goto(f"{url}/m/{match}")
    page.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [match, token])
    page.reload()
    wait_seats(page, seats)


def red_leaves(new_context, blue_page, url, match, red):
    """Red opens her page while Blue watches, then closes it: her last tab left."""
    page = new_context().new_page()
    open_as(page, url, match, red, "2")
    blue_page.wait_for_selector("#seats li.seat-2.online")
    page.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_clock_decides_what_a_players_absence_allows(absence_server, new_context, shoot, screen):
    url = absence_server.url
    page = new_context(**(DESKTOP if screen == "desktop" else PHONE)).new_page()
    page.add_init_script(RECORD_MESSAGES)

    # Days per move: Red went quiet long ago; Blue sees her presence dot, and nothing to claim or hand over.
    match, blue, red = both_moved(url, {"kind": "correspondence", "days": 3})
    open_as(page, url, match, blue, "1")
    red_leaves(new_context, page, url, match, red)
    page.wait_for_function("() => window.Quadrille.page.presence().away.some((e) => e.seat === 2)")
    page.wait_for_timeout(int((TIMEOUT + 1.5) * 1000))   # past the timeout of a game without a clock
    assert page.is_hidden("#away") and page.locator("#away button").count() == 0
    assert page.is_hidden("#handover") and page.is_hidden("#computer-box")
    assert "left the game" not in page.title()
    assert page.locator("#seats li.seat-2:not(.online)").count() == 1   # the quiet dot: Red is not here
    assert "only the clock decides" in page.inner_text("#absence-help")
    assert serious_violations(page) == []
    shoot(page, "correspondence")

    # Real time, 5 minutes (blitz): Red's countdown is the clock's grace, not the disconnect timeout ...
    match, blue, red = both_moved(url, {"kind": "realtime", "minutes": 5, "increment": 0})
    open_as(page, url, match, blue, "1")
    red_leaves(new_context, page, url, match, red)
    page.wait_for_selector("#away:not([hidden]) .away-text[data-rule=realtime]")
    text = page.inner_text("#away")
    assert "Red left the game. The clocks do not stop." in text and "you may claim the game" in text
    assert f"away {REALTIME:.0f} s" in page.inner_text("#absence-help")
    page.wait_for_timeout(int((TIMEOUT + 1) * 1000))
    assert page.locator("#away button:text-is('Claim victory')").count() == 0
    assert page.is_hidden("#handover")
    shoot(page, "realtime-countdown")
    # ... then Blue may claim
    page.wait_for_selector("#away button:text-is('Claim victory')", timeout=int(REALTIME * 1000) + 5000)
    assert serious_violations(page) == []
    shoot(page, "realtime-claim")
    page.click("#away button:text-is('Claim victory')")
    page.wait_for_selector("#result:not([hidden])")
    assert requests.get(f"{url}/api/matches/{match}").json()["outcome"]["reason"] == "abandoned"


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_player_who_comes_back_is_not_told_she_is_back(absence_server, new_context, shoot, screen):
    """Red closes her page, Blue sees her leave, Red opens the game again: Blue hears "Red is back.", Red
    does not (her page drew the match before it knew her seat, and took her for someone else who left)."""
    url = absence_server.url
    match, blue, red = both_moved(url, None)
    other = new_context().new_page()
    open_as(other, url, match, blue, "1")
    red_leaves(new_context, other, url, match, red)
    other.wait_for_selector("#away:not([hidden])")
    page = new_context(**(DESKTOP if screen == "desktop" else PHONE)).new_page()
    page.add_init_script(RECORD_MESSAGES)
    page.goto(f"{url}/m/{match}")
    page.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [match, red])
    page.reload()
    wait_seats(page, "2")
    other.wait_for_function("document.getElementById('message').textContent === 'Red is back.'")
    page.wait_for_timeout(1000)
    said = page.evaluate("window.__messages")
    assert not any("is back" in text for text in said), said
    shoot(page, "back")


def rated_match(url, carol: str, dave: str) -> tuple[str, str]:
    """A rated real-time Trails game between two new accounts, the challenger (seat 1) to move first; the
    match and the challenger's seat key."""
    answers = {}
    for name in (carol, dave):
        session = requests.Session()
        answer = session.post(f"{url}/api/account", json={"name": name, "password": "correct horse"})
        assert answer.status_code == 201, answer.text
        answers[name] = (session, answer.json())
    (session, answer), (other, other_answer) = answers[carol], answers[dave]
    made = session.post(f"{url}/api/challenges", headers={"X-CSRFToken": answer["csrf"]},
                        json={"to": dave, "game": "trails", "options": {"size": 7}, "rated": True,
                              "first": "challenger", "clock": {"kind": "realtime", "minutes": 5, "increment": 0}})
    accepted = other.post(f"{url}/api/challenges/{made.json()['challenge']}/accept",
                          headers={"X-CSRFToken": other_answer["csrf"]})
    return accepted.json()["match"], answer["seat_key"]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_rated_game_left_before_both_moved_offers_the_abort_not_a_claim(absence_server, new_context, shoot,
                                                                          screen):
    url = absence_server.url
    match, carol = rated_match(url, f"carol-{screen}", f"dave-{screen}")
    state = requests.get(f"{url}/api/matches/{match}").json()
    requests.post(f"{url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                  headers=bearer(carol)).raise_for_status()       # Carol moved; Dave never came
    # (Dave's acceptance counts as a sighting: he is away once presence's grace after it has passed)
    wait_until(lambda: requests.get(f"{url}/api/matches/{match}", headers=bearer(carol)).json()["away"], 10,
               "Dave to count as away")
    page = new_context(**(DESKTOP if screen == "desktop" else PHONE)).new_page()
    open_as(page, url, match, carol, "1")
    page.wait_for_selector("#away:not([hidden]) .away-text[data-rule=rated-start]")
    assert "A rated game is not won this way: you may abort it (no result)." in page.inner_text("#away")
    assert "In a rated game, nobody wins because the other left before both sides moved" in \
        page.inner_text("#absence-help")  # the help beside the board says the rated game's exception too
    page.wait_for_timeout(int((TIMEOUT + 1) * 1000))
    assert page.locator("#away button:text-is('Claim victory')").count() == 0
    assert page.is_visible("#away button:text-is('Abort')") and page.is_hidden("#handover")
    assert serious_violations(page) == []
    shoot(page, "rated-abort")
    page.click("#away button:text-is('Abort')")
    confirm(page, "Abort")
    page.wait_for_selector("#result:not([hidden])")
    assert requests.get(f"{url}/api/matches/{match}").json()["outcome"]["reason"] == "aborted"
