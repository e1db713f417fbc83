"""Both themes are legible everywhere: axe-core's color-contrast rule finds no violation on any page of the site
(the lobby, each lesson and rules page, each game's match in play and finished, each embed, the account pages,
a profile, an error page), in light and in dark. Towers' move-point numbers read on their bars in dark; the
account pages have the theme button, and its pick lasts across them."""
from __future__ import annotations

import pytest
import requests

from tests.browser import positions
from tests.browser.axe import run_axe
from tests.browser.test_accessibility import small_controls
from tests.browser.test_themes import contrast, theme

pytestmark = pytest.mark.browser

GAMES = positions.GAMES
CONTRAST_ONLY = {"runOnly": {"type": "rule", "values": ["color-contrast"]}, "resultTypes": ["violations", "incomplete"]}


def contrast_violations(page, where: str) -> list[str]:
    """One line per element whose text fails WCAG AA contrast, with the colours axe measured: axe's violations,
    and the elements axe measured but left undecided because their text is short (a number, a letter: Towers'
    move points), which are text all the same."""
    results = run_axe(page, None, CONTRAST_ONLY)
    nodes = [node for violation in results["violations"] for node in violation["nodes"]]
    for undecided in results["incomplete"]:
        for node in undecided["nodes"]:
            data = measured(node)
            if data.get("messageKey") == "shortTextContent" and data.get("contrastRatio") \
                    and data["contrastRatio"] < float(data["expectedContrastRatio"].split(":")[0]):
                nodes.append(node)
    lines = []
    for node in nodes:
        data = measured(node)
        lines.append(f'{where}: {" ".join(map(str, node["target"]))} "{node["html"][:60]}" '
                     f'{data.get("fgColor")} on {data.get("bgColor")} = {data.get("contrastRatio")}')
    return lines


def measured(node) -> dict:
    return (node.get("any") or [{}])[0].get("data") or {}


@pytest.fixture(scope="module")
def matches(live_server):
    """Each game in play (both have moved) and finished (the friend resigned)."""
    return {(game, stage): positions.at(live_server, game, stage) for game in GAMES for stage in ("middle", "end")}


@pytest.fixture(scope="module")
def player(live_server):
    """An account with a profile to look at."""
    name = "Contrast"
    answer = requests.post(f"{live_server.url}/api/account", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    return name


def open_page(page, server, path: str) -> None:
    page.goto(server.url + path)
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe_color_contrast_in_both_themes(live_server, new_context, matches, player, scheme):
    server = live_server
    page = new_context(color_scheme=scheme, viewport={"width": 1366, "height": 800}).new_page()
    found = []

    def check(where):
        assert theme(page) == scheme, where
        found.extend(contrast_violations(page, where))

    open_page(page, server, "/")
    page.wait_for_selector("#recent-list li")
    check("lobby")
    page.click("#game-towers [data-mode=ai]")
    page.click("#setup-towers .more-options summary")
    check("lobby's new-game dialog")
    for game in GAMES:
        open_page(page, server, f"/learn/{game}")
        page.wait_for_selector('#lesson[data-step="0"]')
        check(f"/learn/{game}")
        open_page(page, server, f"/rules/{game}")
        check(f"/rules/{game}")
    for (game, stage), match in matches.items():
        positions.open_as_creator(page, match)
        page.wait_for_function("v => Number(document.getElementById('match').dataset.version) >= v",
                               arg=match.state()["version"])
        if stage == "end":
            page.wait_for_selector("#result:not([hidden])")
        check(f"{game} match, {stage}")
    page.set_viewport_size({"width": 480, "height": 520})
    for game in GAMES:
        query = "&".join(f"{k}={v}" for k, v in positions.SMALL[game].items())
        open_page(page, server, f"/embed/new/{game}?{query}")
        page.wait_for_url("**/embed/*")
        page.wait_for_selector("#match[data-version]")
        check(f"{game} embed")
    page.set_viewport_size({"width": 1366, "height": 800})
    open_page(page, server, "/embed/new/towers?size=99")
    check("error page")
    for path in ("/account", "/me", "/players", f"/players/{player}"):
        open_page(page, server, path)
        check(path + " (logged out)")
    # Logged in, in a context of its own (logging in hands this browser's seats over to the account).
    page = new_context(color_scheme=scheme, viewport={"width": 1366, "height": 800}).new_page()
    page.goto(server.url + "/account")
    page.fill("#login-form input[name=name]", player)
    page.fill("#login-form input[name=password]", "correct horse")
    page.click("#login-form button[type=submit]")
    page.wait_for_url("**/me")
    page.wait_for_load_state("networkidle")
    check("/me (logged in)")
    open_page(page, server, "/account")
    check("/account (logged in)")
    assert not found, "\n".join(found)


def bar_contrasts(page) -> list[tuple[str, float]]:
    """Each text of Towers' reserve bars (the side's name, the move points left and used) with its contrast
    against its bar."""
    found = page.evaluate("""() => [...document.querySelectorAll('.tw-bar .tw-who, .tw-bar .tw-n')].map((el) =>
        [el.className + ' ' + el.textContent, getComputedStyle(el).color,
         getComputedStyle(el.closest('.tw-bar')).backgroundColor])""")
    return [(what, contrast(ink, ground)) for what, ink, ground in found]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_towers_move_points_read_on_their_bars_in_dark(live_server, new_context, shoot, device):
    screen = ({"viewport": {"width": 1366, "height": 800}} if device == "desktop" else
              {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True})
    page = new_context(color_scheme="dark", **screen).new_page()
    positions.open_as_creator(page, positions.at(live_server, "towers", "middle"))
    page.wait_for_selector("#tw-bar-1 .tw-unused")
    contrasts = bar_contrasts(page)
    assert len(contrasts) == 6 and all(ratio >= 4.5 for _, ratio in contrasts), contrasts
    shoot(page, "towers-match-dark")
    page.goto(live_server.url + "/learn/towers")
    page.wait_for_selector('#lesson[data-step="0"]')
    contrasts = bar_contrasts(page)
    assert len(contrasts) == 6 and all(ratio >= 4.5 for _, ratio in contrasts), contrasts
    shoot(page, "towers-lesson-dark")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_account_pages_have_the_theme_button_and_keep_its_pick(live_server, new_context, player, shoot, device):
    screen = ({"viewport": {"width": 1366, "height": 800}} if device == "desktop" else
              {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True})
    page = new_context(color_scheme="light", **screen).new_page()
    page.goto(live_server.url + "/account")
    button = page.locator(".players-header [data-theme-toggle]")
    assert button.get_attribute("aria-label") == "Dark theme" and button.get_attribute("aria-pressed") == "false"
    assert small_controls(page, 24 if device == "desktop" else 44) == []
    button.click()
    assert theme(page) == "dark" and button.get_attribute("aria-pressed") == "true"
    page.reload()
    assert theme(page) == "dark"
    shoot(page, "account-dark")
    for path in ("/me", "/players", f"/players/{player}", "/"):
        page.goto(live_server.url + path)
        assert theme(page) == "dark", path
        assert page.locator("[data-theme-toggle]").get_attribute("aria-pressed") == "true", path
    page.goto(f"{live_server.url}/players/{player}")
    page.click(".players-header [data-theme-toggle]")  # back to the system's light, from a profile
    assert theme(page) == "light" and page.evaluate("localStorage.getItem('quadrille.theme')") is None
    page.goto(live_server.url + "/players")
    assert theme(page) == "light"
