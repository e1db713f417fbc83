"""Light and dark themes: the page takes the system's setting before its first paint, follows the system's live
changes while nobody picked, and the header's theme button (named, with a pressed state) picks one that the
browser remembers across reloads and pages. Embeds follow the system (or the host's ?theme=), never the site's
remembered pick. Screenshots of the lobby, a match and a tutorial in both themes go to test-output/."""
from __future__ import annotations

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser


def theme(page) -> str:
    return page.evaluate("document.documentElement.dataset.theme")


def ground(page) -> str:
    """The page's background colour as drawn."""
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def luminance(rgb: str) -> float:
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_the_system_dark_setting_gives_the_dark_theme_before_the_first_paint(live_server, new_context, shoot):
    context = new_context(color_scheme="dark")
    page = context.new_page()
    # What the first paint sees: data-theme is set by the head's script, before the body exists.
    page.add_init_script("""document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') window.themeAtFirstParse = document.documentElement.dataset.theme; },
        {once: true});""")
    page.goto(live_server.url + "/")
    assert theme(page) == "dark" and page.evaluate("window.themeAtFirstParse") == "dark"
    assert luminance(ground(page)) < 0.15
    button = page.locator(".lobby-header [data-theme-toggle]")
    assert button.get_attribute("aria-label") == "Dark theme" and button.get_attribute("aria-pressed") == "true"
    page.wait_for_selector("#recent-list li")
    shoot(page, "lobby-dark")
    page.click("#game-towers [data-mode=ai]")
    shoot(page, "dialog-dark")

    # A match and a tutorial, also dark; and on a phone.
    match = positions.at(live_server, "towers", "middle")
    positions.open_as_creator(page, match)
    assert theme(page) == "dark" and luminance(ground(page)) < 0.15
    shoot(page, "towers-match-dark")
    page.goto(live_server.url + "/learn/lattice")
    page.wait_for_selector('#lesson[data-step="0"]')
    assert theme(page) == "dark"
    shoot(page, "lattice-lesson-dark")
    phone = new_context(color_scheme="dark", viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True).new_page()
    phone.goto(live_server.url + "/")
    phone.wait_for_selector("#recent-list li")
    assert theme(phone) == "dark"
    shoot(phone, "lobby-dark-390")


def test_the_theme_button_picks_a_theme_that_is_remembered_across_reloads_and_pages(live_server, new_context, shoot):
    page = new_context(color_scheme="light").new_page()
    page.goto(live_server.url + "/")
    assert theme(page) == "light" and luminance(ground(page)) > 0.8
    button = page.locator(".lobby-header [data-theme-toggle]")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert theme(page) == "dark" and button.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('quadrille.theme')") == "dark"
    page.reload()
    assert theme(page) == "dark" and luminance(ground(page)) < 0.15  # remembered
    assert page.locator(".lobby-header [data-theme-toggle]").get_attribute("aria-pressed") == "true"
    # ... on every page of the site: a match, a lesson, the rules
    match = positions.at(live_server, "trails", "middle")
    positions.open_as_creator(page, match)
    assert theme(page) == "dark"
    assert page.locator(".match-header [data-theme-toggle]").get_attribute("aria-pressed") == "true"
    shoot(page, "trails-match-picked-dark")
    for path in ("/learn/gamma", "/rules/towers"):
        page.goto(live_server.url + path)
        assert theme(page) == "dark", path
    # Picking what the system says forgets the pick: the page follows the system again, live.
    page.click("[data-theme-toggle]")
    assert theme(page) == "light" and page.evaluate("localStorage.getItem('quadrille.theme')") is None
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    page.emulate_media(color_scheme="light")
    page.wait_for_function("document.documentElement.dataset.theme === 'light'")
    shoot(page, "rules-light")


def test_an_embed_follows_the_system_or_its_host_never_the_sites_pick(live_server, new_context):
    context = new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.evaluate("localStorage.setItem('quadrille.theme', 'light')")  # the site's own pages: light
    page.reload()
    assert theme(page) == "light"
    page.goto(live_server.url + "/embed/new/trails?size=7")
    page.wait_for_url("**/embed/*")
    page.wait_for_selector("#match")
    assert theme(page) == "dark"  # the system's (the host's) setting
    assert page.locator("[data-theme-toggle]").count() == 0
    # The host asks for light: the embed keeps it through its own navigations (a new game in the frame).
    page.goto(live_server.url + "/embed/new/trails?size=7&theme=light")
    page.wait_for_selector("#match")
    assert theme(page) == "light" and "/embed/new/" not in page.url
    first = page.locator("#match").get_attribute("data-match")
    page.click("#new-game")
    page.wait_for_url(lambda url: "/embed/" in url and first not in url)
    page.wait_for_selector("#match")
    assert theme(page) == "light"


def contrast(a: str, b: str) -> float:
    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def relative(rgb):
        r, g, b_ = (int(float(v)) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b_)
    hi, lo = sorted((relative(a), relative(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_keyboard_focus_ring_stands_out_in_both_themes(live_server, new_context, shoot, scheme):
    """Tabbing shows a ring of at least 2 px that contrasts 3:1 with the page (WCAG 2.4.11's non-text contrast),
    on a plain button, a primary (filled) button, a select and a file picker."""
    page = new_context(color_scheme=scheme).new_page()
    page.goto(live_server.url + "/")
    page.wait_for_selector("#recent-list li")
    seen = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => {
            const el = document.activeElement;
            const ring = el.closest('.file-button') || el;  // a file picker's ring is its label's
            const style = getComputedStyle(ring);
            return {kind: el.matches('.primary') ? 'primary' : el.tagName === 'SELECT' ? 'select'
                          : el.type === 'file' ? 'file' : el.tagName === 'BUTTON' ? 'button' : 'other',
                    width: parseFloat(style.outlineWidth), style: style.outlineStyle, color: style.outlineColor,
                    ground: getComputedStyle(document.documentElement).backgroundColor};
        }""")
        if focused["kind"] == "other" or focused["kind"] in seen:
            continue
        seen.add(focused["kind"])
        assert focused["style"] == "solid" and focused["width"] >= 2, focused
        assert contrast(focused["color"], focused["ground"]) >= 3, focused
        if focused["kind"] == "primary":
            shoot(page, "focus-primary")
    assert seen == {"primary", "button", "select", "file"}


@pytest.mark.parametrize("path", ["/", "match"])
def test_controls_are_drawn_by_the_stylesheet_not_the_browser(live_server, new_context, path):
    """No default dropdown and no bare "Choose File": every select is drawn by the stylesheet, every file input is
    an invisible layer over a button-like label that names it; buttons and button-links share one shape (the
    move list's entries are flat, like links)."""
    page = new_context().new_page()
    if path == "match":
        positions.open_as_creator(page, positions.at(live_server, "towers", "middle"))
    else:
        page.goto(live_server.url + "/")
        page.click("#game-gamma [data-mode=ai]")  # the dialog's selects, visible
    found = page.evaluate("""() => {
        const visible = (el) => !el.closest('[hidden], dialog:not([open])') && el.getClientRects().length;
        const selects = [...document.querySelectorAll('select')].filter(visible);
        const files = [...document.querySelectorAll('input[type=file]')];
        const buttons = [...document.querySelectorAll('button:not(.quiet, .linkish, .mv), a.button, .file-button')]
            .filter(visible).filter((el) => !el.closest('.board-area'));
        return {
            selects: selects.map((s) => getComputedStyle(s).appearance),
            files: files.map((f) => [getComputedStyle(f).opacity, !!f.closest('label.file-button'),
                                     f.closest('label') ? f.closest('label').textContent.trim() : '']),
            radii: [...new Set(buttons.map((b) => getComputedStyle(b).borderRadius))],
        };
    }""")
    assert found["selects"] and set(found["selects"]) == {"none"}, found
    assert found["files"] and all(f[0] == "0" and f[1] and f[2] for f in found["files"]), found
    assert found["radii"] == ["8px"], found
