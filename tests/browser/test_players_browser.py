"""Players in real browsers, against a real server process: two people sign up (one keeps the game she played
before), challenge each other, decline one and accept another, play it to the end from "my games", the second
continues from another browser after logging in there, and both ratings and profiles show it: provisional after
one game, not on the leaderboard, which ranks two players who met its rule.
The players' pages have no serious accessibility violation and big enough targets on a phone."""
from __future__ import annotations

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.conftest import api_state, lobby_start, match_id, result_title, wait_seats, wait_version
from tests.browser.test_accessibility import overflow, small_controls
from tests.security.test_fair_play import Player as FairPlayer
from tests.security.test_fair_play import play_rated_games

pytestmark = pytest.mark.browser

KEY_FOR = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
# The second seat's player sees Trails from their side: the arrows go where they point on that screen.
TURNED = {"up": "down", "down": "up", "left": "right", "right": "left"}


def sign_up(page, server, name, password="correct horse"):
    page.goto(server.url + "/account")
    page.fill("#signup-form input[name=name]", name)
    page.fill("#signup-form input[name=password]", password)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url("**/me")


def log_in(page, server, name, password="correct horse"):
    page.goto(server.url + "/account")
    page.fill("#login-form input[name=name]", name)
    page.fill("#login-form input[name=password]", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_url("**/me")


def challenge(page, to, game, options=None, first="random", rated=False, clock="", preset=None, rules=()):
    """Challenge `to` from "my games" through the new-game dialog, as a person does: the game's button, the
    player's name, a preset, the options under "Change the options" (`rules`: Towers' alternative rules, ticked),
    who moves first (challenger, opponent or random), rated, and the clock ("realtime:M+S", "correspondence:D")."""
    page.click(f"#challenge-games [data-challenge={game}]")
    form = f"#setup-{game}"
    page.wait_for_selector(f"#setup[open] {form}:not([hidden])")
    page.fill(f"{form} input[name=to]", to)
    if preset:
        page.check(f"{form} input[name=preset][value={preset}]")
    if options or rules:
        page.click(f"{form} .more-options summary")
    for name, value in (options or {}).items():
        page.fill(f"{form} .more-options [name={name}]", str(value))
    for rule in rules:
        page.check(f"{form} .more-options input[name=rules][value={rule}]")
    if page.locator(f"{form} input[name=side]").count():
        side = {"challenger": "first", "opponent": "second", "random": "random"}[first]
        page.check(f"{form} input[name=side][value={side}]")
    if rated:
        page.check(f"{form} input[name=rated]")
    if clock:
        kind, spec = clock.split(":")
        page.check(f"{form} input[name=clock-kind][value={kind}]")
        page.check(f"{form} input[name={'clock-realtime' if kind == 'realtime' else 'clock-days'}][value='{spec}']")
    page.click(f"{form} button.start")
    page.wait_for_function("document.getElementById('games-message').textContent.startsWith('Challenge sent')")


def incoming_text(page) -> str:
    return page.inner_text("#incoming")


def play_turns(pages, server, match, turns=None):
    """Whoever is to move presses the key of the first legal move, until the game ends (or `turns` are played)."""
    state = api_state(server, match)
    played = 0
    while state["outcome"] is None and (turns is None or played < turns):
        page = pages[state["turn"]]
        move = state["legal"][0]
        page.keyboard.press(KEY_FOR[TURNED[move] if state["turn"] == 2 else move])
        for p in pages.values():
            wait_version(p, state["version"] + 1)
        state = api_state(server, match)
        played += 1
    return state


def test_two_players_challenge_play_from_my_games_continue_elsewhere_and_get_rated(live_server, new_context, shoot):
    server = live_server
    ann, bob = new_context().new_page(), new_context().new_page()

    # Ann plays on one screen before she has an account; signing up keeps that game in her list.
    lobby_start(ann, server, "trails", "local")
    before = match_id(ann)
    sign_up(ann, server, "ann")
    ann.wait_for_selector(f"#games [data-match='{before}']")
    assert "Welcome, ann. 1 game" in ann.inner_text("#games-message")
    sign_up(bob, server, "Bob")

    # Ann challenges Bob to each game; Bob's open "my games" hears them at once (Socket.IO). He declines Towers
    # and accepts Trails; Ann cancels the other two.
    ann.click("#show-finished")
    challenge(ann, "bob", "lattice")
    challenge(ann, "bob", "gamma")
    bob.wait_for_function("document.getElementById('incoming').textContent.includes('to Gamma')")
    challenge(ann, "bob", "towers")
    bob.wait_for_function("document.getElementById('incoming').textContent.includes('to Towers')")
    challenge(ann, "Bob", "trails", options={"size": 5}, first="challenger", rated=True, clock="realtime:15+10")
    bob.wait_for_function("document.getElementById('incoming').textContent.includes('Trails')")
    assert "ann challenges you to Trails and Towers" in incoming_text(bob) and "rated" in incoming_text(bob)
    assert "15 + 10" in incoming_text(bob)
    shoot(bob, "inbox")
    bob.click("#incoming li:has-text('to Towers') button:text-is('Decline')")
    ann.wait_for_function("document.getElementById('outgoing').textContent.includes('declined')")
    bob.click("#incoming li:has-text('to Trails and Towers') button:text-is('Accept')")
    bob.wait_for_url("**/m/**")
    match = match_id(bob)
    wait_seats(bob, "2")
    clock = api_state(server, match)["clock"]  # the challenge's time control, run by its match
    assert (clock["kind"], clock["minutes"], clock["increment"]) == ("realtime", 15, 10)
    assert [c["status"] for c in bob.evaluate("fetch('/api/challenges').then(r => r.json())")["incoming"]] == ["pending", "pending"]
    ann.wait_for_url(f"**/m/{match}")  # the challenger is taken to the game at once
    ann.goto(server.url + "/me")
    ann.wait_for_function("document.getElementById('outgoing').textContent.includes('accepted')")
    for game in ("Lattice", "Gamma"):
        ann.click(f"#outgoing li:has-text('to {game}') button:text-is('Cancel')")
        ann.wait_for_selector(f"#outgoing li.cancelled:has-text('to {game}')")
    shoot(ann, "outgoing")
    assert bob.evaluate("fetch('/api/challenges').then(r => r.json())")["incoming"] == []

    # Ann finds the game in her list, "your turn" first, and plays from there.
    ann.goto(server.url + "/me")
    first = ann.locator("#games li").first
    first.wait_for()
    assert first.get_attribute("data-match") == match and "Your turn" in first.inner_text()
    # this one and her game on one screen (the count is written once the list has been read)
    ann.wait_for_function("document.querySelector('[data-your-turn]').textContent.includes('Your turn in 2 games')")
    shoot(ann, "my-games")
    first.locator("a.game-open").click()
    ann.wait_for_url(f"**/m/{match}")
    wait_seats(ann, "1")
    state = play_turns({1: ann, 2: bob}, server, match, turns=3)
    assert state["outcome"] is None

    # Bob continues from a second browser (a phone) after logging in there: his seat is his account's.
    phone = new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844}).new_page()
    log_in(phone, server, "bob")
    phone.wait_for_selector(f"#games [data-match='{match}']")
    shoot(phone, "phone-my-games")
    assert small_controls(phone) == []
    phone.click(f"#games [data-match='{match}'] a.game-open")
    wait_seats(phone, "2")
    final = play_turns({1: ann, 2: phone}, server, match)
    winner = final["outcome"]["winners"]
    assert result_title(ann) == ("You won" if winner == [1] else "You lost" if winner == [2] else "Draw")
    shoot(phone, "phone-finished")

    # Both ratings moved, as the profiles and their charts show; one game leaves them provisional ("?"), and the
    # leaderboard ranks neither (ratings/standing.py). Two players who met its rule honestly are ranked: 3 rated
    # games with each of 7 newcomers (through the API, each from an address of its own).
    ratings = {name: requests.get(f"{server.url}/api/players/{name}").json()["ratings"]["trails"] for name in ("ann", "bob")}
    assert ratings["ann"]["games"] == ratings["bob"]["games"] == 1
    assert ratings["ann"]["rating"] != 1500 or winner == []
    assert ratings["ann"]["provisional"] and not ratings["ann"]["ranked"]
    rivals = [FairPlayer(server, f"rival{k}") for k in range(7)]
    carol, dave = FairPlayer(server, "carol"), FairPlayer(server, "dave")
    play_rated_games(carol, rivals)
    play_rated_games(dave, rivals, wins=(True, True, False))
    ann.goto(server.url + "/players/ann")
    ann.wait_for_selector(".rating-card[data-game=trails] svg.rating-chart")
    card = ann.inner_text(".rating-card[data-game=trails]")
    assert f"{ratings['ann']['rating']}?" in card and "provisional" in card
    assert ("Not on the leaderboard yet: it takes 19 more rated games, 4 more opponents and a rating no longer "
            "provisional.") in card
    assert match in ann.inner_html(".game-list")
    shoot(ann, "profile")
    assert serious_violations(ann) == []
    ann.goto(server.url + "/players")
    board = ann.inner_text(".board[data-game=trails]")
    assert board.index("dave") < board.index("carol") and "ann" not in board and "Bob" not in board
    assert "Nobody is ranked yet" in ann.inner_text(".board[data-game=towers]")
    shoot(ann, "leaderboard")
    assert serious_violations(ann) == []
    ann.click(".board[data-game=trails] a[href$='/players/carol']")
    ann.wait_for_selector(".rating-card[data-game=trails][data-ranked=yes]")
    assert "?" not in ann.inner_text(".rating-card[data-game=trails] .rating-value")
    assert "On the leaderboard." in ann.inner_text(".rating-card[data-game=trails]")
    shoot(ann, "profile-ranked")
    # Finished games stay in the list when asked for, with their result.
    phone.goto(server.url + "/me")
    phone.click("#show-finished")
    phone.wait_for_selector(f"#games [data-match='{match}'].finished")
    assert ("You won" if winner == [2] else "You lost" if winner == [1] else "Draw") in phone.inner_text(f"#games [data-match='{match}']")
    assert serious_violations(phone) == []
    phone.goto(server.url + "/players/bob")
    assert "provisional" in phone.inner_text(".rating-card[data-game=trails]")
    assert small_controls(phone) == [] and overflow(phone) <= 0
    shoot(phone, "phone-profile")
    phone.goto(server.url + "/players/carol")
    assert small_controls(phone) == [] and overflow(phone) <= 0
    shoot(phone, "phone-profile-ranked")
    phone.goto(server.url + "/players")
    assert "carol" in phone.inner_text(".board[data-game=trails]")
    assert small_controls(phone) == [] and overflow(phone) <= 0 and serious_violations(phone) == []
    shoot(phone, "phone-leaderboard")


def test_the_account_pages_are_accessible_and_fit_a_phone(live_server, new_context, shoot):
    page = new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844}).new_page()
    page.goto(live_server.url + "/account")
    assert serious_violations(page) == [] and small_controls(page) == []
    shoot(page, "account-phone")
    # a wrong password says so, in words that do not tell whether the name exists
    page.fill("#login-form input[name=name]", "nobody-here")
    page.fill("#login-form input[name=password]", "wrong horse")
    page.click("#login-form button[type=submit]")
    page.wait_for_function("document.getElementById('account-message').textContent.includes('Wrong user name or password')")
    sign_up(page, live_server, "cat")
    page.goto(live_server.url + "/account")
    assert serious_violations(page) == [] and small_controls(page) == []
    page.fill("#token-form input[name=password]", "correct horse")
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#new-token:not([hidden])")
    assert page.inner_text("#new-token").startswith("qbt_")
    shoot(page, "account-token")
    page.goto(live_server.url + "/me")
    assert serious_violations(page) == [] and small_controls(page) == []
    page.goto(live_server.url + "/account")
    key = page.evaluate("localStorage.getItem('quadrille.account.key')")
    assert key and key.startswith("qsk_")
    page.evaluate("k => localStorage.setItem('quadrille.token.somematch', k)", key)  # as "my games" leaves them
    page.click("#logout")
    page.wait_for_selector("#login-form")
    # this browser no longer holds the account's key, under any name: a shared computer is safe after logging out
    assert page.evaluate("Object.keys(localStorage).filter(k => localStorage.getItem(k) === '%s')" % key) == []
