"""Small and touch screens: a 320x480 Lattice embed plays on the flat view alone, every node at least 24 px to
tap (the 3D view, whose nodes were 12 px there, is not even loaded); and a touch screen shows no key hints (a
key's cap on a button, "press G", a help's keys, a lesson's keyboard line), which a desktop still shows."""
from __future__ import annotations

import re

import pytest

from tests.browser import positions
from tests.browser.conftest import OUTPUT, wait_version

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
# What a key hint reads like, in the words the pages use.
KEY_WORDS = re.compile(r"press G\b|press space|Escape|arrow keys|With the keyboard|Keys[:,]|\(keys 1|\(P\)|All keys")


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_a_320x480_lattice_embed_plays_on_nodes_of_at_least_24_px(live_server, new_context, shoot, touch):
    page = new_context(viewport={"width": 320, "height": 480}, has_touch=touch, is_mobile=touch).new_page()
    page.goto(live_server.url + "/embed/new/lattice")
    page.wait_for_url("**/embed/*")
    page.wait_for_selector("#match[data-version]")
    page.wait_for_timeout(300)  # the frame's fit (a ResizeObserver, then a frame)
    sizes = page.evaluate("""() => [...document.querySelectorAll('.lattice .cell.node')].map((el) => {
        const box = el.getBoundingClientRect();
        return [el.dataset.node, Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10,
                box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth]; })""")
    assert sizes and all(w >= 24 and h >= 24 and inside for _, w, h, inside in sizes), sizes
    # The flat view alone: no stage, no 3D button, three.js not loaded; the player's 3D preference untouched.
    assert not page.is_visible("#lattice-stage") and not page.is_visible("#lattice-3d-toggle")
    assert page.evaluate("window.latticeView.webgl") is not True
    assert page.evaluate("localStorage.getItem('quadrille.lattice.3d')") is None
    shoot(page, "lattice-embed-320x480")
    # It plays: a piece of Blue's, then one of its green targets.
    version = int(page.get_attribute("#match", "data-version"))
    movable = page.locator(".lattice .cell.movable").first
    movable.tap() if touch else movable.click()
    target = page.locator(".lattice .cell.target").first
    target.wait_for()
    target.tap() if touch else target.click()
    wait_version(page, version + 1)
    shoot(page, "lattice-embed-320x480-played")


def visible_key_hints(page) -> list[str]:
    """The key caps a person sees, and the sentences of the page's text that name keys."""
    caps = page.evaluate("""() => [...document.querySelectorAll('kbd')]
        .filter((k) => k.getClientRects().length && !k.closest('dialog:not([open]), [hidden]')).map((k) => k.textContent)""")
    text = page.evaluate("document.body.innerText")
    return caps + [line.strip() for line in text.splitlines() if KEY_WORDS.search(line)]


def snap(page, name: str) -> None:
    """A screenshot of what the screen shows. (A full-page screenshot, as `shoot` takes, briefly resizes an emulated
    phone, and Chromium then matches (hover: hover) while it draws: the key hints would show in the picture.)"""
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"test_key_hints_touch-{name}.png"))


def gamma_with_a_golden_move(server) -> positions.Online:
    """A Gamma match in play where the creator, to move, may make a golden move (the status says how)."""
    match = positions.online(server, "gamma").join()
    for _ in range(12):
        state = match.state()
        if state["turn"] == 1 and (state["view"].get("stats") or [{}])[0].get("golden_possible"):
            return match
        match.play_turns(1)
    raise AssertionError("no golden move came up")


@pytest.mark.parametrize("device", ["desktop", "touch"])
def test_key_hints_show_with_a_keyboard_and_not_on_a_touch_screen(live_server, new_context, shoot, device):
    page = new_context(**(PHONE if device == "touch" else DESKTOP)).new_page()
    found = {}
    gamma = gamma_with_a_golden_move(live_server)
    positions.open_as_creator(page, gamma)
    page.wait_for_selector("#gamma-golden:not([disabled])")
    found["gamma match"] = visible_key_hints(page)
    if device == "touch":
        snap(page, "gamma-match")
        page.evaluate("document.getElementById('help').scrollIntoView()")
        snap(page, "gamma-help")
    else:
        shoot(page, "gamma-match")
    page.click("#gamma-golden")
    page.wait_for_selector("#gamma-golden[aria-pressed=true]")
    found["gamma golden move"] = visible_key_hints(page)
    for game in ("towers", "lattice", "trails"):
        positions.open_as_creator(page, positions.at(live_server, game, "middle"))
        found[f"{game} match"] = visible_key_hints(page)
    for game in positions.GAMES:
        page.goto(f"{live_server.url}/learn/{game}")
        page.wait_for_selector('#lesson[data-step="0"]')
        found[f"/learn/{game}"] = visible_key_hints(page)
    page.evaluate("document.querySelector('.lesson-keys').scrollIntoView()")
    snap(page, "lesson") if device == "touch" else shoot(page, "lesson")
    if device == "touch":
        assert {where: hints for where, hints in found.items() if hints} == {}
    else:  # the same pages with a keyboard: the hints are there
        assert all(found.values()), {where: len(hints) for where, hints in found.items()}
        assert "G" in found["gamma match"] and any("press G" in line for line in found["gamma match"])
