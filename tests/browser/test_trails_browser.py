"""Trails and Towers in a real browser: by link with a spectator, reloads, take-backs, files, by name, iframes."""
from __future__ import annotations

import json
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from tests.browser.conftest import api_state, confirm, join_by_invite, lobby_start, match_id, result_title, wait_seats, wait_version

pytestmark = pytest.mark.browser

KEY_FOR = {"up": "ArrowUp", "down": "s", "left": "a", "right": "ArrowRight"}
# The second seat's player sees the board from their side: the keys go where they point on their screen.
TURNED = {"up": "down", "down": "up", "left": "right", "right": "left"}
STEP = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def edge_cell_towards(head, move, size):
    """The board's last cell in the move's direction: a click there must move by the rule distance."""
    dr, dc = STEP[move]
    r, c = head
    while 0 <= r + dr < size and 0 <= c + dc < size:
        r, c = r + dr, c + dc
    return r, c


def play_by_click(page, state, move):
    view = state["view"]
    r, c = edge_cell_towards(view["heads"][state["turn"] - 1], move, view["size"])
    page.click(f'.trails-board .cell[data-r="{r}"][data-c="{c}"]')


def start_from_lobby(page, server, button, size=None, name=None):
    lobby_start(page, server, "trails", button, options={"size": size} if size else None,
                name=name if button == "online" else None)


def test_two_friends_play_a_whole_game_by_link_while_a_third_watches(live_server, new_context, shoot):
    ann, bob, cat = (new_context().new_page() for _ in range(3))
    start_from_lobby(ann, live_server, "online", size=7, name="Ann")
    wait_seats(ann, "1")
    invite = ann.input_value("#invite-link")
    assert invite.startswith(f"{live_server.url}/m/{match_id(ann)}#join=")

    join_by_invite(bob, invite, None, 2)  # the friend takes the free seat (named "Friend" by the helper)
    cat.goto(invite)  # a later visitor of the link watches: no seat is free
    cat.wait_for_function("document.getElementById('presence').textContent.includes('You are watching')")
    ann.wait_for_function("document.getElementById('presence').textContent.includes('1 person watching')")
    assert "Blue: Ann (you)" in ann.inner_text("#seats")
    assert "Red: Friend (you)" in bob.inner_text("#seats")
    shoot(ann, "start")

    match = match_id(ann)
    pages = {1: ann, 2: bob}
    # An out-of-turn key and an illegal direction are refused with a visible reason.
    bob.keyboard.press("ArrowUp")
    bob.wait_for_function("document.getElementById('message').textContent.includes('turn')")
    ann.keyboard.press("ArrowUp")
    ann.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert api_state(live_server, match)["version"] == 0

    state = api_state(live_server, match)
    ply = 0
    while state["outcome"] is None:
        page = pages[state["turn"]]
        move = state["legal"][ply % len(state["legal"])]
        if ply % 2:
            page.keyboard.press(KEY_FOR[TURNED[move] if state["turn"] == 2 else move])
        else:
            play_by_click(page, state, move)
        for p in (ann, bob, cat):
            wait_version(p, state["version"] + 1)
        state = api_state(live_server, match)
        ply += 1
        if ply == 4:
            shoot(cat, "spectator-mid-game")

    winner = state["outcome"]["winners"][0]
    for p, seat in ((ann, 1), (bob, 2)):
        assert result_title(p) == ("You won" if seat == winner else "You lost")
    assert result_title(cat) == ("Blue wins" if winner == 1 else "Red wins")
    cat.click("#look")  # close the result to look at the board
    # The spectator's board matches the server's final position cell by cell.
    final = state["view"]["cells"]
    classes = cat.eval_on_selector_all(".trails-board .cell", "cells => cells.map(c => c.className)")
    symbol = {"free": ".", "p1": "1", "p2": "2", "tower": "T"}
    drawn = ["".join(symbol[cls.split()[1]] for cls in classes[r * 7:(r + 1) * 7]) for r in range(7)]
    assert drawn == final
    assert cat.locator(".trails-board .cell.green").count() == 0
    shoot(ann, "finished")
    shoot(cat, "spectator-finished")


def test_a_reload_mid_game_restores_the_board_and_the_seat(live_server, new_context, shoot):
    page = new_context().new_page()
    start_from_lobby(page, live_server, "local")
    wait_seats(page, "1,2")
    for version, key in enumerate(["ArrowRight", "ArrowUp", "ArrowRight", "ArrowLeft"], start=1):
        page.keyboard.press(key)
        wait_version(page, version)
    before = page.eval_on_selector_all(".trails-board .cell", "cells => cells.map(c => c.className)")
    assert any("green" in c for c in before)
    page.reload()
    wait_seats(page, "1,2")
    wait_version(page, 4)
    after = page.eval_on_selector_all(".trails-board .cell", "cells => cells.map(c => c.className)")
    assert after == before
    shoot(page, "after-reload")
    # A second tab on the same match stays in step, and the seat token survived the reload.
    tab = page.context.new_page()
    tab.goto(page.url)
    wait_seats(tab, "1,2")
    wait_version(tab, 4)
    state = api_state(live_server, match_id(page))
    page.keyboard.press(KEY_FOR[state["legal"][0]])
    wait_version(tab, 5)
    wait_version(page, 5)  # the mover hears its move with the acknowledgement, the tab by the broadcast
    assert tab.eval_on_selector_all(".trails-board .cell", "cells => cells.map(c => c.className)") == \
        page.eval_on_selector_all(".trails-board .cell", "cells => cells.map(c => c.className)")


def test_takeback_rewind_replay_export_and_import(live_server, new_context, shoot, tmp_path):
    context = new_context(accept_downloads=True)
    page = context.new_page()
    start_from_lobby(page, live_server, "local", size=9)
    wait_seats(page, "1,2")
    for version, key in enumerate(["ArrowRight", "ArrowUp", "ArrowRight", "ArrowLeft", "ArrowRight"], start=1):
        page.keyboard.press(key)
        wait_version(page, version)
    match = match_id(page)

    page.click("#takeback")
    wait_version(page, 6)
    assert api_state(live_server, match)["moves"] == ["right", "up", "right", "left"]

    # Step back to move 2, look, and go on from there. The label names a position at once; the board shows it
    # once the server's answer came (`data-shown`), and only then is "continue from here" about that position.
    page.click('#move-list [data-ply="2"]')
    page.wait_for_selector('#ply-label[data-shown="2"]')
    assert page.locator("#ply-label").text_content() == "move 2 of 4"
    assert page.locator(".trails-board.replaying").count() == 1
    page.click("#step-back")
    page.wait_for_selector('#ply-label[data-shown="1"]')
    page.click("#step-forward")
    page.wait_for_selector('#ply-label[data-shown="2"]')
    shoot(page, "replaying")
    page.click("#continue-here")
    confirm(page, "Continue from here")  # it discards later moves: it asks first
    wait_version(page, 7)
    assert api_state(live_server, match)["moves"] == ["right", "up"]
    page.keyboard.press("ArrowRight")
    wait_version(page, 8)

    with page.expect_download() as download:
        page.click("#export")
    path = tmp_path / "record.json"
    download.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["moves"] == ["right", "up", "right"] and record["options"]["size"] == 9

    page.set_input_files("#import-file", str(path))
    page.wait_for_function(f"location.pathname !== '/m/{match}'")
    page.wait_for_url("**/m/**")
    wait_seats(page, "1,2")
    imported = api_state(live_server, match_id(page))
    assert imported["moves"] == record["moves"] and imported["match"] != match
    page.keyboard.press("r")  # R restarts a local game, once the player says so
    page.wait_for_selector("#dialog[open]")
    page.keyboard.press("Escape")  # Esc cancels: nothing lost
    page.wait_for_selector("#dialog:not([open])", state="attached")
    assert api_state(live_server, match_id(page))["moves"] == record["moves"]
    page.keyboard.press("r")
    confirm(page, "Restart")
    page.wait_for_function("document.querySelectorAll('#move-list [data-ply]').length === 0")
    shoot(page, "imported-and-restarted")

    page.keyboard.press("Escape")  # Escape offers to leave; a second Escape closes the dialog
    page.wait_for_selector("dialog[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog:not([open])", state="attached")


def test_two_players_meet_by_match_name(live_server, new_context):
    first, second = new_context().new_page(), new_context().new_page()
    for page in (first, second):
        page.goto(live_server.url + "/")
        page.fill("#match-name", "Sunday Duel")
        page.select_option("#by-name-game", "trails")
        page.click("#by-name button[type=submit]")
        page.wait_for_url("**/m/**")
    wait_seats(first, "1")
    wait_seats(second, "2")
    assert match_id(first) == match_id(second)
    first.keyboard.press("ArrowDown")
    wait_version(second, 1)


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_an_iframe_on_another_site_embeds_a_match_and_a_new_game(live_server, new_context, shoot, tmp_path):
    created = requests.post(f"{live_server.url}/api/matches", json={"game": "trails", "mode": "online"}).json()
    requests.post(f"{live_server.url}/api/matches/{created['match']}/seats", json={"invite": created["invite_secret"]})
    (tmp_path / "index.html").write_text(f"""<!doctype html><title>A game portal</title>
        <h1>Someone else's site</h1>
        <iframe id="watch" name="watch" src="{live_server.url}/embed/{created['match']}" width="500" height="560"></iframe>
        <iframe id="fresh" name="fresh" src="{live_server.url}/embed/new/trails?size=7&towers=1" width="500" height="560"
                allow="fullscreen"></iframe>""")
    host = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=host.serve_forever, daemon=True).start()
    try:
        page = new_context().new_page()
        page.goto(f"http://localhost:{host.server_address[1]}/index.html")  # another origin than the server
        fresh = page.frame_locator("#fresh")
        fresh.locator(".trails-board .cell").first.wait_for()
        assert fresh.locator(".trails-board .cell").count() == 49
        assert fresh.locator("#fullscreen").is_visible()
        fresh.locator('.trails-board .cell[data-r="0"][data-c="6"]').click()  # in line with Blue's head: right
        frame = page.frame(name="fresh")
        frame.wait_for_function("document.getElementById('match').dataset.version === '1'")
        assert frame.evaluate("document.cookie") == ""
        embedded = frame.evaluate("document.getElementById('match').dataset.match")
        assert api_state(live_server, embedded)["moves"] == ["right"]

        # The other frame shows someone else's online match live; the creator moves over HTTP.
        requests.post(f"{live_server.url}/api/matches/{created['match']}/moves", json={"move": "down"},
                      headers={"Authorization": f"Bearer {created['token']}"})
        watch = page.frame(name="watch")
        watch.wait_for_function("document.getElementById('match').dataset.version === '1'")
        assert page.context.cookies() == []
        shoot(page, "embedded")
    finally:
        host.shutdown()
