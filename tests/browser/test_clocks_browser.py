"""Clocks in a real browser: the lobby's setup dialog chooses one, the match page shows both clocks counting
down on a desktop and on a 390x844 phone, and a real-time game is lost on time with nobody moving: the server's
flag reaches both pages, the result says who ran out, and the player hears their own time run low."""
from __future__ import annotations

import re

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.conftest import api_state, join_by_invite, match_id, result_title, wait_seats
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory):
    # CLOCK_MINUTES_MIN: a real-time clock of a few seconds, so that a game is lost on time within a test.
    proc = ServerProcess(tmp_path_factory.mktemp("clocks") / "clocks.db", "gevent",
                         settings={"PRESENCE_GRACE": 1.0, "CLOCK_MINUTES_MIN": 0.05}).start()
    yield proc
    proc.stop()


def clock_text(page, seat) -> str:
    return page.inner_text(f"#clocks .clock[data-seat='{seat}'] .clock-time")


def test_the_lobby_chooses_a_clock_and_the_page_counts_it_down(clock_server, new_context, shoot):
    page = new_context().new_page()
    page.goto(clock_server.url + "/")
    page.click("#game-trails [data-mode=local]")
    form = "#setup-trails"
    page.wait_for_selector(f"{form}:not([hidden])")
    # On one screen there is no correspondence; online there is.
    assert not page.is_visible(f"{form} label.clock-online")
    page.check(f"{form} input[name=clock-kind][value=realtime]")
    page.wait_for_selector(f"{form} [data-clock=realtime]:not([hidden])")
    page.check(f"{form} input[name=clock-realtime][value='3+2']")
    shoot(page, "setup-dialog")
    page.check(f"{form} input[name=mode][value=online]")
    assert page.is_visible(f"{form} label.clock-online")
    page.check(f"{form} input[name=mode][value=local]")
    page.click(f"{form} button.start")
    page.wait_for_url("**/m/**")
    match = match_id(page)
    state = api_state(clock_server, match)
    assert state["clock"]["kind"] == "realtime" and state["clock"]["minutes"] == 3 and state["clock"]["increment"] == 2
    page.wait_for_selector("#clocks:not([hidden]) .clock[data-seat='2']")
    assert clock_text(page, 1) == "3:00" and clock_text(page, 2) == "3:00"
    token = page.evaluate("m => localStorage.getItem('quadrille.token.' + m)", match)
    requests.post(f"{clock_server.url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                  headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    page.wait_for_selector("#clocks .clock.running[data-seat='2']")
    first = clock_text(page, 2)
    page.wait_for_timeout(1600)
    later = clock_text(page, 2)
    assert first != later and re.fullmatch(r"2:5\d", later), (first, later)   # counting, on its own
    assert clock_text(page, 1) == "3:02"                                      # the increment
    shoot(page, "counting")


def test_a_real_time_game_is_lost_on_time_on_a_desktop_and_a_phone(clock_server, new_context, shoot):
    ann = new_context().new_page()
    bob = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    created = requests.post(f"{clock_server.url}/api/matches", json={
        "game": "trails", "mode": "online", "options": {"size": 7}, "player": "Ann",
        "clock": {"kind": "realtime", "minutes": 0.25, "increment": 0}}).json()          # 15 s each
    ann.goto(clock_server.url + "/")
    ann.evaluate("c => window.QuadrilleTokens.remember(c)", created)
    ann.goto(f"{clock_server.url}/m/{created['match']}")
    wait_seats(ann, "1")
    join_by_invite(bob, created["invite"], "Bob", 2)
    match = created["match"]
    ann.wait_for_function("document.getElementById('match').dataset.turn === '1'")
    state = api_state(clock_server, match)
    requests.post(f"{clock_server.url}/api/matches/{match}/moves", json={"move": state["legal"][0]},
                  headers={"Authorization": f"Bearer {created['token']}"}).raise_for_status()
    for page in (ann, bob):
        page.wait_for_selector("#clocks .clock.running[data-seat='2']")
        assert page.is_visible("#clocks .clock[data-seat='1']") and page.is_visible("#clocks .clock[data-seat='2']")
    before = clock_text(bob, 2)
    bob.wait_for_timeout(1200)
    assert clock_text(bob, 2) != before                        # Bob's clock runs on his phone
    assert clock_text(ann, 1) == "0:15"                        # Ann's stands
    # the clocks sit above the board, on screen without scrolling, on the phone as on the desktop
    for page, width in ((bob, 390), (ann, 1100)):
        box = page.locator("#clocks").bounding_box()
        assert box["y"] + box["height"] < 844 / 2 and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert serious_violations(bob, "#clocks") == [] and serious_violations(ann, "#clocks") == []
    shoot(bob, "phone-running")
    shoot(ann, "desktop-running")
    bob.wait_for_selector("#clocks .clock.low.running[data-seat='2']", timeout=15_000)   # the last 10 s
    bob.wait_for_function("document.getElementById('announce').textContent === '10 seconds left on your clock'")
    assert "left on your clock" not in ann.inner_text("#announce")  # Ann is not told of Bob's time
    shoot(bob, "phone-low")
    # Nobody moves: the server's flag ends the game on both pages.
    assert result_title(bob) == "You lost"
    assert result_title(ann) == "You won"
    assert bob.inner_text("#result-reason") == "You ran out of time."
    assert ann.inner_text("#result-reason") == "Red ran out of time."
    state = api_state(clock_server, match)
    assert state["outcome"]["reason"] == "time" and state["outcome"]["flagged"] == 2
    assert state["clock"]["left"][1] == 0
    bob.click("#result-actions button:text-is('Look at the board')") if bob.is_visible(
        "#result-actions button:text-is('Look at the board')") else None
    assert clock_text(bob, 2) == "0.0" and bob.is_visible("#clocks .clock.flagged[data-seat='2']")
    shoot(bob, "phone-lost")
    shoot(ann, "desktop-won")


def test_a_match_by_name_gets_the_clock_its_creator_chose(clock_server, new_context, shoot):
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    page.goto(clock_server.url + "/")
    page.fill("#match-name", "slow-sunday")
    page.select_option("#by-name-game", "towers")
    page.check("#by-name input[name=by-name-clock][value='correspondence:3']")
    page.locator("#by-name").scroll_into_view_if_needed()
    shoot(page, "by-name")
    page.click("#by-name button[type=submit]")
    page.wait_for_url("**/m/**")
    state = api_state(clock_server, match_id(page))
    assert state["clock"]["kind"] == "correspondence" and state["clock"]["days"] == 3
    page.wait_for_selector("#clocks:not([hidden]) .clock[data-seat='2']")
    assert page.inner_text("#clocks .clock[data-seat='1'] .clock-time") == "3 days"
    # The friend types the same name, and the creator plays Blue's first turn: Red's three days run.
    friend = new_context().new_page()
    friend.clock.install()  # to move the friend's time on by one redraw of a slow clock, below
    friend.goto(clock_server.url + "/")
    friend.fill("#match-name", "slow-sunday")
    friend.select_option("#by-name-game", "towers")
    friend.click("#by-name button[type=submit]")
    friend.wait_for_url("**/m/**")
    match = match_id(page)
    assert match_id(friend) == match
    token = page.evaluate("m => localStorage.getItem('quadrille.token.' + m)", match)
    state = api_state(clock_server, match)
    move = [m for m in state["legal"] if m != "end"][0]
    requests.post(f"{clock_server.url}/api/matches/{match}/moves", json={"move": move},
                  headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    friend.wait_for_selector("#clocks .clock.running[data-seat='2']")
    # The STATE can arrive within the server's rounding of `left` (0.01 s) of the move, when Red's clock still
    # reads "3 days". A correspondence clock redraws every 30 s: a little past that, it reads a little less.
    friend.clock.fast_forward(31_000)
    friend.wait_for_function("""() => document.querySelector("#clocks .clock[data-seat='2'] .clock-time")
                                      .textContent === '2 days 23 h'""")
    assert friend.get_attribute("#clocks .clock[data-seat='2']", "aria-label") == "Red: 2 days 23 hours left, running"
    shoot(friend, "correspondence")
    # Red comes back later in a tab in the background, having allowed notifications: reminded of the move.
    red_token = friend.evaluate("m => localStorage.getItem('quadrille.token.' + m)", match)
    later = new_context()
    later.add_init_script("""
        window.__notes = [];
        window.Notification = function (text) { window.__notes.push(text); };
        window.Notification.permission = "granted";
        Object.defineProperty(document, "hidden", { get: () => true });
    """)
    back = later.new_page()
    back.goto(clock_server.url + "/")
    back.evaluate("([m, t]) => { localStorage.setItem('quadrille.token.' + m, t); "
                  "localStorage.setItem('quadrille.notify', 'on'); }", [match, red_token])
    back.goto(f"{clock_server.url}/m/{match}")
    wait_seats(back, "2")
    back.wait_for_function("window.__notes.some(n => n.startsWith('Your move: 2 days 23 h'))")
