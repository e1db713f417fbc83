"""The life of a match in a real browser, for every game: a private invite and its waiting room, a stranger who
finds the match and cannot take the seat, the friend who takes it through the link, turn signals, take-back
offers declined and accepted, an opponent who leaves and the other who claims the game after the timeout, the
result screen and Play again, R asking before it restarts, and embeds that fit their frame and come back.

The moves themselves are played through the HTTP API with the players' own tokens (each game's own tests play
them with clicks and keys); what is checked here is what the pages show and send around them."""
from __future__ import annotations

import os
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

import games
from tests.browser.conftest import (CHROMIUM, CHROMIUM_ARGS, api_state, confirm, join_by_invite, match_id,
                                    result_title, wait_seats, wait_version)

pytestmark = pytest.mark.browser

GAMES = games.listed()
SMALL = {"trails": {"size": 7}, "lattice": {}, "towers": {"size": 5}, "gamma": {"width": 5, "height": 4}}


def token_of(page):
    return page.evaluate("m => localStorage.getItem('quadrille.token.' + m)", match_id(page))


def play_turn(server, match, token):
    """The seat to move plays a whole turn: an action other than ending it, then (Towers) ends it."""
    state = api_state(server, match)
    seat, first = state["turn"], True
    while state["turn"] == seat and state["outcome"] is None:
        legal = state["legal"]
        if first:
            move = ([m for m in legal if m != "end"] or legal)[0]
        else:  # a turn of several actions (Towers) ends; a Lattice promotion brings its ball back
            move = "end" if "end" in legal else legal[0]
        first = False
        answer = requests.post(f"{server.url}/api/matches/{match}/moves", json={"move": move},
                               headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.json()
        state = answer.json()
    return state


def open_as_creator(page, server, game, options=None):
    """The creator's browser, as the lobby leaves it: the match's token and its invite link kept."""
    created = requests.post(f"{server.url}/api/matches", json={
        "game": game, "mode": "online", "options": {**SMALL[game], **(options or {})}, "player": "Ann"}).json()
    page.goto(server.url + "/")
    page.evaluate("c => window.QuadrilleTokens.remember(c)", created)
    page.goto(f"{server.url}/m/{created['match']}")
    wait_seats(page, "1")
    return created


def begin(ann, bob, server, game):
    """Ann invites, Bob joins through the link; Gamma's creator starts the match."""
    created = open_as_creator(ann, server, game)
    join_by_invite(bob, created["invite"], "Bob", 2)
    if game == "gamma":
        ann.click("#start-match")
    ann.wait_for_function("document.getElementById('match').dataset.turn !== ''")
    return created["match"]


@pytest.mark.parametrize("game", GAMES)
def test_a_private_invite_a_stranger_the_friend_signals_take_backs_and_a_claim_after_leaving(
        live_server, new_context, shoot, game):
    ann, cat = new_context().new_page(), new_context().new_page()
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    bob = phone.new_page()
    created = open_as_creator(ann, live_server, game)
    match = created["match"]

    # The waiting room: the invite link, large, with Copy and a QR code; the board is locked.
    ann.wait_for_selector("#waiting:not([hidden])")
    assert ann.input_value("#invite-link") == created["invite"] and "#join=" in created["invite"]
    assert ann.locator("#invite-qr svg").count() == 1
    assert "Waiting for" in ann.title()
    if game != "gamma":  # two seats: the game waits for the friend, nobody can move or resign
        assert ann.is_visible("text=Waiting for your friend") and not ann.is_visible("#resign")
        assert api_state(live_server, match)["turn"] is None
    shoot(ann, "waiting-room")

    # A stranger who finds the plain address watches, and cannot take the seat even by asking the server.
    cat.goto(f"{live_server.url}/m/{match}")
    cat.wait_for_function("document.getElementById('match').dataset.version !== undefined")
    wait_seats(cat, "")
    cat.wait_for_function("document.getElementById('message').textContent.includes('Only the invited friend may join')")
    assert not cat.is_visible("#join")
    ack = cat.evaluate("m => new Promise(r => window.quadrilleSocket.emit('claim', {match: m, invite: 'guess'}, r))",
                       match)
    assert ack["ok"] is False and ack["error"] == "invite-required" and "invite link" in ack["reason"]
    assert api_state(live_server, match)["seats"][1]["taken"] is False

    # The friend opens the link on a phone: asked for a name, then seated; the secret leaves the address bar.
    bob.goto(created["invite"])
    bob.wait_for_selector("#join[open]")
    assert "#join=" not in bob.url and "You will play" in bob.inner_text("#join-text")
    shoot(bob, "name-prompt-phone")
    bob.fill("#join-name", "Bob")
    bob.click("#join-go")
    wait_seats(bob, "2")
    assert api_state(live_server, match)["seats"][1]["name"] == "Bob"
    if game == "gamma":
        ann.click("#start-match")
    else:
        ann.wait_for_function("document.getElementById('message').textContent.includes('Bob joined')")
    ann.wait_for_selector("#waiting", state="hidden")

    # Turn signals: "Your turn" in the page and in the tab title.
    ann.wait_for_function("document.getElementById('status').textContent === 'Your turn'")
    assert ann.title().startswith("Your turn")
    state = play_turn(live_server, match, created["token"])
    wait_version(bob, state["version"])
    bob.wait_for_function("document.title.startsWith('Your turn')")
    assert "Your turn" in bob.inner_text("#status")
    state = play_turn(live_server, match, token_of(bob))
    wait_version(ann, state["version"])
    ann.wait_for_function("document.title.startsWith('Your turn')")
    moves = len(state["moves"])

    # A take-back offered and declined: it cannot be offered again until a move is made.
    ann.click("#offer-takeback")
    bob.wait_for_selector("#offer-bar:not([hidden])")
    assert "asks to take back" in bob.inner_text("#offer-bar")
    bob.click("#offer-bar button:text-is('Decline')")
    ann.wait_for_function("document.getElementById('message').textContent.includes('declined')")
    assert ann.is_disabled("#offer-takeback") and len(api_state(live_server, match)["moves"]) == moves
    # ... then, a move later, offered again and accepted: back to before Ann's last move.
    state = play_turn(live_server, match, created["token"])
    state = play_turn(live_server, match, token_of(bob))
    wait_version(ann, state["version"])
    ann.wait_for_function("!document.getElementById('offer-takeback').disabled")
    ann.click("#offer-takeback")
    bob.wait_for_selector("#offer-bar:not([hidden])")
    bob.click("#offer-bar button:text-is('Accept')")
    # (it was Ann's turn before too: wait for the take-back itself, then for her turn)
    ann.wait_for_function("n => window.Quadrille.page.state().moves.length < n", arg=len(state["moves"]))
    ann.wait_for_function("document.getElementById('status').textContent === 'Your turn'")
    after = api_state(live_server, match)
    assert after["turn"] == 1 and len(after["moves"]) < len(state["moves"])

    # Bob leaves: Ann sees it at once, with a countdown, then may claim the game.
    phone.close()
    ann.wait_for_selector("#away:not([hidden])")
    assert "left the game" in ann.inner_text("#away")
    shoot(ann, "left-the-game")
    ann.wait_for_selector("#away button:text-is('Claim victory')", timeout=10_000)
    if game in ("lattice", "towers"):
        assert ann.is_visible("#away button:text-is('Call it a draw')")
    else:
        assert not ann.is_visible("#away button:text-is('Call it a draw')")
    ann.click("#away button:text-is('Claim victory')")
    assert result_title(ann) == "You won"
    assert "left the game" in ann.inner_text("#result-reason")
    assert result_title(cat) == "Blue wins"  # the spectator, in players' colours
    final = api_state(live_server, match)["outcome"]
    assert final["reason"] == "abandoned" and final["winners"] == [1]
    shoot(ann, "claimed")


@pytest.mark.parametrize("game", GAMES)
def test_the_result_screen_and_play_again_with_sides_swapped(live_server, new_context, shoot, game):
    ann, bob = new_context().new_page(), new_context().new_page()
    match = begin(ann, bob, live_server, game)
    ann.wait_for_function("document.getElementById('status').textContent === 'Your turn'")
    if game in ("lattice", "towers"):  # a draw by agreement, where the game has draws
        ann.click("#offer-draw")
        bob.wait_for_selector("#offer-bar:not([hidden])")
        assert "offers a draw" in bob.inner_text("#offer-bar")
        bob.click("#offer-bar button:text-is('Accept')")
        for page in (ann, bob):
            assert result_title(page) == "Draw"
        assert "agreed" in ann.inner_text("#result-reason")
    else:
        assert not ann.is_visible("#offer-draw")  # no draws in this game
        play_turn(live_server, match, token_of(ann))
        play_turn(live_server, match, token_of(bob))
        bob.click("#resign")
        confirm(bob, "Resign")
        assert result_title(ann) == "You won" and result_title(bob) == "You lost"
        red = api_state(live_server, match)["seat_names"][1]  # Gamma's second player is Orange
        assert f"{red} resigned" in ann.inner_text("#result-reason")
    assert not ann.is_visible("#pause") and not ann.is_visible("#offer-takeback")  # live-only controls are gone
    shoot(ann, "result")
    for button in ("#play-again", "#result-new", "#look"):
        assert ann.is_visible(button)
    ann.click("#look")  # look at the board; the result comes back with its button
    ann.wait_for_selector("#result", state="hidden")
    ann.click("#show-result")
    ann.wait_for_selector("#result:not([hidden])")

    ann.click("#play-again")  # online: a rematch offer, which Bob accepts from his result screen
    bob.wait_for_function("document.getElementById('play-again').textContent === 'Accept the rematch'")
    bob.click("#play-again")
    for page in (ann, bob):
        page.wait_for_function("m => document.getElementById('match').dataset.match !== m", arg=match)
    rematch = match_id(ann)
    assert match_id(bob) == rematch
    wait_seats(ann, "2")  # sides swapped
    wait_seats(bob, "1")
    assert api_state(live_server, rematch)["started"]


@pytest.mark.parametrize("game", GAMES)
def test_r_asks_before_restarting_and_escape_keeps_the_game(live_server, new_context, game):
    page = new_context().new_page()
    created = requests.post(f"{live_server.url}/api/matches", json={
        "game": game, "mode": "local", "options": SMALL[game]}).json()
    page.goto(live_server.url + "/")
    page.evaluate("c => window.QuadrilleTokens.remember(c)", created)
    page.goto(f"{live_server.url}/m/{created['match']}")
    wait_seats(page, "1,2")
    state = play_turn(live_server, created["match"], created["token"])
    wait_version(page, state["version"])
    page.locator("body").click(position={"x": 2, "y": 2})  # the page, not a control, has the keyboard
    page.keyboard.press("r")
    page.wait_for_selector("#dialog[open]")
    assert "will be lost" in page.inner_text("#dialog-text")
    page.keyboard.press("Escape")
    page.wait_for_selector("#dialog:not([open])", state="attached")
    assert api_state(live_server, created["match"])["moves"] == state["moves"]
    page.keyboard.press("r")
    confirm(page, "Restart")
    page.wait_for_function("document.querySelectorAll('#move-list [data-ply]').length === 0")
    assert api_state(live_server, created["match"])["moves"] == []


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def host_site(tmp_path):
    """Another site (another origin) that embeds Quadrille in frames of given sizes."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def page_with(name, src, width, height):
        (tmp_path / name).write_text(f'<!doctype html><title>A portal</title><body style="margin:0">'
                                     f'<iframe name="game" src="{src}" width="{width}" height="{height}" '
                                     f'style="border:0" allow="fullscreen"></iframe>')
        return f"http://localhost:{server.server_address[1]}/{name}"
    yield page_with
    server.shutdown()


CONTROLS = "#takeback, #restart, #new-game, #step-first, #step-back, #step-forward, #step-last, #sound, #fullscreen"


def outside_the_frame(frame) -> list:
    """The visible controls (the page's and the game's) not wholly inside the frame, and how far it scrolls."""
    return frame.evaluate("""() => {
        const out = [...document.querySelectorAll('button, input, select, a')]
            .filter(e => e.offsetParent !== null && !e.closest('dialog') && !e.closest('[hidden]'))
            .filter(e => { const r = e.getBoundingClientRect();
                           return r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
            .map(e => e.id || e.textContent.trim());
        const d = document.documentElement;
        if (d.scrollHeight > d.clientHeight + 1 || d.scrollWidth > d.clientWidth + 1) out.push('the frame scrolls');
        return out;
    }""")


@pytest.fixture(scope="module")
def storing_browser(browser):
    """Chromium as most readers' browsers are: a frame of another site has storage of its own (partitioned by the
    host site). Debian's Chromium blocks it by default (its third-party cookie phase-out): there, an embedded
    game works all the same (its token rides in the address's fragment) but cannot be found after a reload."""
    debian = {"executable_path": CHROMIUM} if os.path.exists(CHROMIUM) else {}
    other = browser.browser_type.launch(**debian, args=CHROMIUM_ARGS + [
        "--disable-features=TrackingProtection3pcd,ThirdPartyCookieDeprecationTrial"])
    yield other
    other.close()


@pytest.mark.parametrize("game", GAMES)
def test_an_embed_fits_its_frame_and_a_reload_of_the_host_page_keeps_the_game(
        live_server, storing_browser, host_site, shoot, game):
    context = storing_browser.new_context(viewport={"width": 700, "height": 600}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    url = host_site(f"{game}.html", f"{live_server.url}/embed/new/{game}", 320, 480)
    page.goto(url)
    frame = page.frame(name="game")
    frame.wait_for_url("**/embed/*")
    frame.wait_for_function("document.getElementById('match') && document.getElementById('match').dataset.seats === '1,2'")
    page.wait_for_timeout(500)  # the board has sized itself to the frame
    for selector in CONTROLS.split(", "):
        assert frame.locator(selector).is_visible(), selector
    assert outside_the_frame(frame) == []
    shoot(page, "embed-320x480")
    first = frame.evaluate("document.getElementById('match').dataset.match")
    state = play_turn(live_server, first, frame.evaluate("m => window.QuadrilleTokens.get(m)", first))
    frame.wait_for_function("v => document.getElementById('match').dataset.version === String(v)",
                            arg=state["version"])
    assert api_state(live_server, first)["visibility"] == "private"

    page.reload()  # the reader comes back: the frame finds its game where they left it
    frame = page.frame(name="game")
    frame.wait_for_function("m => document.getElementById('match')?.dataset.match === m", arg=first)
    frame.wait_for_function("v => document.getElementById('match').dataset.version === String(v)",
                            arg=state["version"])
    frame.click("#new-game")
    confirm(frame, "New game")  # the game under way stays saved; the frame starts another
    frame.wait_for_function("m => document.getElementById('match')?.dataset.match !== m", arg=first)
    second = frame.evaluate("document.getElementById('match').dataset.match")
    assert second != first and api_state(live_server, second)["moves"] == []
    page.reload()
    frame = page.frame(name="game")
    frame.wait_for_function("m => document.getElementById('match')?.dataset.match === m", arg=second)
    listed = [m["id"] for m in requests.get(f"{live_server.url}/api/matches/recent").json()]
    assert first not in listed and second not in listed  # embedded games are never listed
    context.close()


@pytest.mark.parametrize("size", [(600, 400), (480, 520), (320, 480)])
@pytest.mark.parametrize("game", GAMES)
def test_every_control_of_an_embed_shows_without_scrolling(live_server, new_context, host_site, shoot, game, size):
    width, height = size
    page = new_context(viewport={"width": width + 20, "height": height + 20}).new_page()
    page.goto(host_site(f"{game}-{width}.html", f"{live_server.url}/embed/new/{game}", width, height))
    frame = page.frame(name="game")
    frame.wait_for_url("**/embed/*")
    frame.wait_for_function("document.getElementById('match') && document.getElementById('match').dataset.seats === '1,2'")
    page.wait_for_timeout(500)
    assert outside_the_frame(frame) == []
    shoot(page, f"embed-{width}x{height}")
