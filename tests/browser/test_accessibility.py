"""Accessibility: axe-core finds no serious or critical violation, in the light and the dark theme, on the lobby
(with its new-game dialog open), each game's match page at its start (the waiting room), in the middle (with
another player's offer) and finished (the result screen), a tutorial step of each game, a rules page and an
embed; and on a phone (390x844, touch) every control of the lobby, the tutorials, the match pages (header, side
panel, waiting room, offers, dialogs, result screen) and an embed is at least 44x44 CSS pixels (24x24 with a
mouse), and nothing is wider than the screen at 360 px.

tests/browser/axe.py is the reusable helper: add a page by adding a test that opens it and calls
serious_violations(page).
"""
from __future__ import annotations

import pytest

import games
from tests.browser import positions
from tests.browser.axe import serious_violations

pytestmark = pytest.mark.browser

GAMES = tuple(games.listed())
CONTROLS = ("button, a[href], input, select, summary, [role=button], label:has(> input[type=radio]), "
            "label.file-button")
THEMES = ("light", "dark")


@pytest.mark.parametrize("theme", THEMES)
def test_lobby_has_no_serious_violation(live_server, new_context, shoot, theme):
    page = new_context(color_scheme=theme).new_page()
    positions.online(live_server, "trails", visibility="open")  # the list shows a game to join
    page.goto(live_server.url + "/")
    page.wait_for_selector("#recent-list li.joinable")
    assert serious_violations(page) == []
    assert small_controls(page, 24) == []  # with a mouse: WCAG 2.5.8's 24x24 CSS px
    page.click("#game-towers [data-mode=ai]")
    page.click("#setup-towers .more-options summary")
    assert serious_violations(page, "#setup") == []
    shoot(page, "dialog")
    page.click("#setup-towers input[name=mode][value=online]", force=True)
    assert serious_violations(page, "#setup") == []  # who may join


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_step_and_a_rules_page_have_no_serious_violation(live_server, new_context, game, theme):
    page = new_context(color_scheme=theme).new_page()
    page.goto(f"{live_server.url}/learn/{game}")
    page.wait_for_selector('#lesson[data-step="0"]')
    assert serious_violations(page) == []
    page.goto(f"{live_server.url}/rules/{game}")
    assert serious_violations(page) == []


def show_stage(page, match, stage):
    """The creator's page at this stage, with what it shows there: the waiting room, another player's offer, or
    the result screen."""
    positions.open_as_creator(page, match)
    if stage == "start":
        page.wait_for_selector("#waiting:not([hidden])")
    elif stage == "middle":
        state = match.state()
        if state["turn"] == 1:  # the friend may offer a take-back on any turn once they have moved
            match.post("offer", match.friend["token"], {"offer": "takeback"})
        page.wait_for_function("v => Number(document.getElementById('match').dataset.version) >= v",
                               arg=match.state()["version"])
        if state["turn"] == 1:
            page.wait_for_selector("#offer-bar:not([hidden])")
    else:
        page.wait_for_selector("#result:not([hidden])")


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("stage", ("start", "middle", "end"))
@pytest.mark.parametrize("game", GAMES)
def test_match_pages_have_no_serious_violation(live_server, new_context, shoot, game, stage, theme):
    page = new_context(color_scheme=theme).new_page()
    show_stage(page, positions.at(live_server, game, stage), stage)
    assert serious_violations(page) == []
    # With a mouse the floor is WCAG 2.5.8's 24x24 CSS px.
    assert small_controls(page, 24) == []
    shoot(page, "page")
    page.click("#keys-button")
    assert serious_violations(page, "#keys") == []


@pytest.mark.parametrize("theme", THEMES)
def test_an_embed_has_no_serious_violation(live_server, new_context, theme):
    page = new_context(color_scheme=theme, viewport={"width": 480, "height": 520}).new_page()
    page.goto(f"{live_server.url}/embed/new/towers?size=5")
    page.wait_for_url("**/embed/*")
    page.wait_for_selector("#match[data-version]")
    assert serious_violations(page) == []


def small_controls(page, minimum=44):
    """The visible controls smaller than minimum x minimum CSS pixels (inline links in running text excepted, as
    WCAG 2.5.8 does)."""
    return page.evaluate("""([selector, minimum]) => {
        const out = [];
        for (const el of document.querySelectorAll(selector)) {
            const box = el.getBoundingClientRect();
            const style = getComputedStyle(el);
            if (!box.width || !box.height || style.visibility === 'hidden' || el.closest('[hidden], dialog:not([open])')) continue;
            // a radio or checkbox inside a label counts as the label's size: the label is what is tapped
            if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) continue;
            if (el.matches('input[type=file]') && el.closest('label')) continue;
            if (el.tagName === 'A' && el.closest('p, li') && !el.closest('nav') && getComputedStyle(el).display === 'inline') continue;
            if (box.width < minimum - 0.5 || box.height < minimum - 0.5) {
                out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent || el.value || '').trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
            }
        }
        return out;
    }""", [CONTROLS, minimum])


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.fixture
def phone(new_context):
    def make(width=390, height=844):
        context = new_context(has_touch=True, is_mobile=True, viewport={"width": width, "height": height})
        return context.new_page()
    return make


def test_lobby_on_a_phone_has_big_enough_targets_and_fits(live_server, phone, shoot):
    page = phone()
    page.goto(live_server.url + "/")
    page.wait_for_selector("#recent-list li")
    assert small_controls(page) == []
    assert overflow(page) <= 0
    # The four games and their actions fit in about two screens.
    bottom = page.evaluate("document.getElementById('game-lattice').getBoundingClientRect().bottom + scrollY")
    assert bottom <= 2 * 844, bottom
    shoot(page, "lobby-390")
    page.click("#game-gamma [data-mode=ai]")
    page.click("#setup-gamma .more-options summary")
    assert small_controls(page) == []
    assert overflow(page) <= 0
    shoot(page, "dialog-390")


@pytest.mark.parametrize("game", GAMES)
def test_tutorials_on_a_phone_have_big_enough_targets(live_server, phone, game):
    page = phone()
    page.goto(f"{live_server.url}/learn/{game}")
    page.wait_for_selector('#lesson[data-step="0"]')
    # The lesson's own controls, and the game's controls around its board (not the board's cells).
    assert small_controls(page) == []


@pytest.mark.parametrize("stage", ("start", "middle", "end"))
@pytest.mark.parametrize("game", GAMES)
def test_match_pages_on_a_phone_have_big_enough_targets_and_fit(live_server, phone, shoot, game, stage):
    """Every control around the board (the header, the side panel, the waiting room with its invite, another
    player's offer, a confirmation, the result screen) is 44x44 or more; the board's own cells are the
    renderer's (each game's browser test)."""
    page = phone()
    show_stage(page, positions.at(live_server, game, stage), stage)
    assert small_controls(page) == []
    assert overflow(page) <= 0
    shoot(page, "390")
    if stage == "middle":
        page.click("#keys-button")
        assert small_controls(page) == []
        page.click("#keys-close")
        page.click("#new-game")  # a game under way: it asks first
        page.wait_for_selector("#dialog[open]")
        assert small_controls(page) == []
        page.keyboard.press("Escape")
        page.set_viewport_size({"width": 360, "height": 740})  # the smallest phones: nothing overflows
        assert overflow(page) <= 0
        shoot(page, "360")


@pytest.mark.parametrize("game", GAMES)
def test_an_embed_on_a_phone_has_big_enough_targets(live_server, phone, game):
    page = phone()
    page.goto(f"{live_server.url}/embed/new/{game}?{'&'.join(f'{k}={v}' for k, v in positions.SMALL[game].items())}")
    page.wait_for_url("**/embed/*")
    page.wait_for_selector("#match[data-version]")
    assert small_controls(page) == []
    assert overflow(page) <= 0


@pytest.mark.parametrize("path", ["/", "/learn/trails", "/learn/towers", "/learn/gamma", "/learn/lattice",
                                  "/rules/lattice", "/rules/towers"])
def test_nothing_overflows_at_360_px(live_server, phone, path, shoot):
    page = phone(360, 740)
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    assert overflow(page) <= 0, path
    if path == "/":
        shoot(page, "lobby-360")

