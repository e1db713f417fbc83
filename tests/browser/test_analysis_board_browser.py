"""The analysis board in Chromium, on a real server: opened from a finished game at the position shown, moves
played for both sides, stepping back and forth, the computer's evaluation and best line following the position,
the shared link reproducing the line, the export downloading it; refused from an online game under way; the
page on a desktop and a 390x844 phone in both themes, with axe."""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.conftest import wait_version

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


def finished_trails(server, size=7) -> tuple[str, list[str]]:
    """A game of Trails on one screen, played to its end over the API (first legal move each time)."""
    created = requests.post(f"{server.url}/api/matches",
                            json={"game": "trails", "mode": "local", "options": {"size": size}}).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    state = requests.get(f"{server.url}/api/matches/{created['match']}").json()
    while state["outcome"] is None:
        state = requests.post(f"{server.url}/api/matches/{created['match']}/moves", json={"move": state["legal"][0]},
                              headers=auth).json()
    return created["match"], state["moves"]


def board_state(server, moves, size=7) -> dict:
    return requests.post(f"{server.url}/api/analysis/board/state",
                         json={"game": "trails", "options": {"size": size}, "moves": moves}).json()


def branching_ply(server, moves) -> tuple[int, str, str]:
    """The latest position of the game where another move than the game's leaves the other side a reply."""
    for ply in range(len(moves) - 2, 0, -1):
        for other in board_state(server, moves[:ply])["legal"]:
            replies = board_state(server, moves[:ply] + [other])["legal"]
            if other != moves[ply] and replies:
                return ply, other, replies[0]
    raise AssertionError("no position to branch from")


def wait_ply(page, ply, length=None):
    page.wait_for_function("([p, n]) => { const d = document.getElementById('analysis').dataset;"
                           " return d.ply === String(p) && (n === null || d.length === String(n)); }",
                           arg=[ply, length])


def wait_evaluated(page, moves):
    """The evaluation box shows the computer's answer for the position after these moves."""
    page.wait_for_function("k => document.getElementById('evaluation').dataset.for === k", arg=" ".join(moves),
                           timeout=30_000)
    return page.eval_on_selector("#evaluation", "e => ({...e.dataset})")


def test_from_a_finished_game_play_step_evaluate_share_and_export(live_server, new_context, shoot, tmp_path):
    match, moves = finished_trails(live_server)
    page = new_context(**DESKTOP, permissions=["clipboard-read", "clipboard-write"]).new_page()
    page.goto(f"{live_server.url}/m/{match}")
    wait_version(page, len(moves))
    link = page.locator("#analysis-board-link")
    assert link.is_visible()
    ply, other, reply = branching_ply(live_server, moves)
    page.click(f"#move-list button.mv[data-ply='{ply}']")  # the match page shows that move: the board opens there
    page.wait_for_selector(f"#ply-label[data-shown='{ply}']")
    shoot(page, "match-page")
    link.click()
    page.wait_for_url("**/analysis/trails?**")
    wait_ply(page, ply, len(moves))
    assert page.locator("#move-list button.mv").count() == len(moves)
    assert page.locator("#move-list button.mv.current").get_attribute("data-ply") == str(ply)

    # step back and forth: the buttons, [ and ], a move of the list; the address follows
    page.click("#step-back")
    wait_ply(page, ply - 1)
    page.keyboard.press("]")
    wait_ply(page, ply)
    page.click("#move-list button.mv[data-ply='1']")
    wait_ply(page, 1)
    page.click("#step-first")
    wait_ply(page, 0)
    page.click("#step-last")
    wait_ply(page, len(moves))
    assert "ply" not in parse_qs(urlsplit(page.url).query)
    page.click(f"#move-list button.mv[data-ply='{ply}']")
    wait_ply(page, ply)

    # play other moves for both sides (Trails: the arrows play, outside the move list, whose arrows step); the
    # rest of the line goes
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press(ARROWS[other])
    wait_ply(page, ply + 1, ply + 1)
    page.keyboard.press(ARROWS[reply])
    line = moves[:ply] + [other, reply]
    wait_ply(page, len(line), len(line))
    assert parse_qs(urlsplit(page.url).query)["moves"] == [" ".join(line)]
    assert page.locator("#original-line").is_visible()
    shoot(page, "branched")

    # the computer's evaluation and best line follow the position shown
    shown = wait_evaluated(page, line)
    assert -1000 <= int(shown["eval"]) <= 1000 and page.inner_text("#eval-score")
    page.click("#step-back")
    wait_ply(page, len(line) - 1)
    before = wait_evaluated(page, line[:-1])
    assert before["best"] and page.inner_text("#eval-line").strip() not in ("", "–")
    page.click("#step-forward")
    wait_ply(page, len(line))
    shoot(page, "played")
    assert serious_violations(page) == []  # with the move list, the evaluation and the way back to the first line

    # the shared link opens the same line at the same position
    page.click("#step-back")
    wait_ply(page, len(line) - 1)
    shared = page.input_value("#share-link")
    page.click("#copy-link")
    page.wait_for_selector("#board-message:text('Link copied.')")
    assert page.evaluate("() => navigator.clipboard.readText()") == shared == page.url
    other_page = new_context(**DESKTOP).new_page()
    other_page.goto(shared)
    wait_ply(other_page, len(line) - 1, len(line))
    assert other_page.locator("#move-list button.mv").count() == len(line)

    # the export: the line up to the position shown, as the JSON record (Trails has no save format of its own)
    with page.expect_download() as download:
        page.click("a.export-line[data-format=json]")
    saved = tmp_path / "line.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["game"] == "trails" and record["moves"] == line[:-1] and record["options"]["size"] == 7

    # back to the game's own line, where the two parted
    page.click("#original-line")
    wait_ply(page, ply, len(moves))
    assert page.locator("#original-line").is_hidden()


def test_refused_from_an_online_game_under_way(live_server, new_context):
    created = requests.post(f"{live_server.url}/api/matches", json={"game": "trails", "mode": "online"}).json()
    page = new_context(**DESKTOP).new_page()
    page.goto(f"{live_server.url}/m/{created['match']}")
    page.wait_for_selector("#match[data-version]")
    assert page.locator("#analysis-board-link").is_hidden()  # no way in from the page of a game under way
    answer = page.goto(f"{live_server.url}/analysis/from/{created['match']}")
    assert answer.status == 409 and "still being played" in page.inner_text("body")


def test_the_rules_page_opens_the_start_position_on_a_desktop_and_a_phone(live_server, new_context, shoot):
    for name, screen in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_context(**screen).new_page()
        page.goto(f"{live_server.url}/rules/towers")
        page.click("a:text-is('Analysis board')")
        page.wait_for_url("**/analysis/towers")
        wait_ply(page, 0, 0)
        for theme in ("light", "dark"):
            page.evaluate("t => document.documentElement.dataset.theme = t", theme)
            assert serious_violations(page) == [], (name, theme)
            shoot(page, f"{name}-{theme}")
        if name == "phone":
            assert page.locator(".key-hint").is_hidden()  # no keys to press on a touch screen
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, width
            small = page.eval_on_selector_all(
                ".analysis-side button:not([hidden]), .analysis-side a.button",
                "els => els.filter(e => e.offsetParent && (e.getBoundingClientRect().height < 44"
                " || e.getBoundingClientRect().width < 44)).map(e => e.id || e.textContent)")
            assert small == []
