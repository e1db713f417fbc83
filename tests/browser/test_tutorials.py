"""Each game's tutorial played through to the end in Chromium, on the real engine: the right moves made with the
game's own controls (the keyboard alone for Trails and Gamma), a wrong try answered with a hint, and the end."""
from __future__ import annotations

import json

import pytest

from quadrille import tutorials

pytestmark = pytest.mark.browser

ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


def wait_step(page, index):
    page.wait_for_selector(f'#lesson[data-step="{index}"]:not([data-solved="1"])')


def wait_solved(page, index):
    page.wait_for_selector(f'#lesson[data-step="{index}"][data-solved="1"]')


def wrong_try_gets_a_hint(page, play_wrong, words="Hint:"):
    """`words` tell this answer from the one before it, which may still be showing a hint."""
    play_wrong()
    page.wait_for_function("words => document.getElementById('step-feedback').textContent.includes(words)",
                           arg=words)
    assert page.get_attribute("#lesson", "data-solved") == ""


def finish(page, shoot, index_last):
    """After the last step: Finish shows the end of the lesson."""
    page.keyboard.press("Enter")  # the Finish button has the focus after the right move
    page.wait_for_selector('#lesson[data-finished="1"]')
    assert page.is_visible("#lesson-end")
    shoot(page, "end")


def play_lesson(page, game, make, shoot, keyboard_next=True):
    steps = tutorials.tutorial(game)["steps"]
    for index, step in enumerate(steps):
        wait_step(page, index)
        assert page.inner_text("#step-title") == step["title"]
        if step.get("marks"):
            assert page.locator("#board-area [data-mark]").count() >= 1
        make(step["expect"][0])
        wait_solved(page, index)
        if index == 2:
            shoot(page, f"step{index + 1}-done")
        if index < len(steps) - 1:
            if keyboard_next:
                page.keyboard.press("Enter")  # focus is on Next after a right move
            else:
                page.click("#step-next")
    finish(page, shoot, len(steps) - 1)


def test_trails_tutorial_with_the_keyboard_alone(live_server, new_context, shoot):
    page = new_context().new_page()
    page.goto(f"{live_server.url}/learn/trails")
    wait_step(page, 0)
    shoot(page, "step1")
    wrong_try_gets_a_hint(page, lambda: page.keyboard.press("ArrowRight"))  # legal, but not what the step asks
    # off the board: the engine's reason (naming the head's cell, not a side of the screen), with the hint
    wrong_try_gets_a_hint(page, lambda: page.keyboard.press("ArrowUp"), words="is on the edge")
    assert "Hint:" in page.inner_text("#step-feedback")
    play_lesson(page, "trails", lambda move: page.keyboard.press(ARROWS[move]), shoot)


def test_gamma_tutorial_with_the_keyboard_alone(live_server, new_context, shoot):
    page = new_context().new_page()
    page.goto(f"{live_server.url}/learn/gamma")
    cursor = [0, 0]  # the renderer's cursor starts on (0, 0) and stays where it was

    def go(x, y):
        while cursor[0] != x:
            page.keyboard.press("ArrowRight" if x > cursor[0] else "ArrowLeft")
            cursor[0] += 1 if x > cursor[0] else -1
        while cursor[1] != y:
            page.keyboard.press("ArrowUp" if y > cursor[1] else "ArrowDown")
            cursor[1] += 1 if y > cursor[1] else -1

    def make(move):
        golden = move.startswith("g")
        x, y = map(int, move.lstrip("g").split(","))
        if golden:
            page.keyboard.press("g")
            page.wait_for_selector('#board[data-mode="golden"]')
        go(x, y)
        page.keyboard.press(" ")

    wait_step(page, 0)
    wrong_try_gets_a_hint(page, lambda: make("4,4"))
    shoot(page, "hint")
    play_lesson(page, "gamma", make, shoot)


def test_towers_tutorial_by_taps(live_server, new_context, shoot):
    page = new_context().new_page()
    page.goto(f"{live_server.url}/learn/towers")

    def cell(x, y):
        return f'#board .cell[data-x="{x}"][data-y="{y}"]'

    def make(move):
        if move.startswith("i"):
            page.click("#tw-import")
            return
        src, dst = move[1:].split(":")[0].split(">")
        page.click(cell(*src.split(",")))
        page.wait_for_function("s => document.getElementById('board').dataset.selected === s", arg=src)
        page.click(cell(*dst.split(",")))

    wait_step(page, 0)
    # The master is locked on Blue's first turn: the engine refuses it, and the hint says what to do.
    wrong_try_gets_a_hint(page, lambda: page.keyboard.press("i"))
    assert "locked" in page.inner_text("#step-feedback")
    play_lesson(page, "towers", make, shoot, keyboard_next=False)


def test_lattice_tutorial_on_the_levels(live_server, new_context, shoot):
    page = new_context().new_page()
    page.goto(f"{live_server.url}/learn/lattice")

    def node(name):
        return f'.lattice-levels .cell[data-node="{name}"]'

    def make(move):
        if move.startswith("+"):
            page.click(node(move[1:]))
            return
        points = move.replace("-", ":").split(":")
        page.click(node(points[0]))
        page.click(node(points[-1]))

    wait_step(page, 0)
    play_lesson(page, "lattice", make, shoot)


def test_a_step_api_answers_for_every_step(live_server):
    import requests
    for game in tutorials.names():
        count = len(tutorials.tutorial(game)["steps"])
        for index in range(count):
            step = requests.get(f"{live_server.url}/api/learn/{game}/steps/{index}").json()
            assert step["index"] == index and step["state"]["turn"] == tutorials.tutorial(game).get("you", 1)
        missing = requests.get(f"{live_server.url}/api/learn/{game}/steps/{count}")
        assert missing.status_code == 404 and missing.json()["error"] == "not-found"
    bad = requests.post(f"{live_server.url}/api/learn/trails/steps/0", data=json.dumps({"move": 3}),
                        headers={"Content-Type": "application/json"})
    assert bad.status_code == 400
