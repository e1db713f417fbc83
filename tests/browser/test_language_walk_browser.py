"""A walk through Quadrille in each of its six languages, in Chromium on one real server (issue 27's check): the
lobby at 1366x800 and on a 390x844 touch screen, the Trails and Towers lesson played to its end, a Gamma game
against the computer on the smallest board played to its result screen, and the page a bad match link gives.

On every page `<html lang>` is the language asked for (the browser's Accept-Language, as a person's browser
sends it), the words are the catalog's (looked up here through Babel, in the same .po files the server and the
browser read, never copied into this file), nothing is wider than the window, and the lobby's and the result
screen's controls are on the screen. axe finds nothing serious in the lobby. The screenshots (test-output/
test_a_walk_in_each_language_<lang>-*.png) are what a person looks at: German and Russian have the longest
words. test_languages_browser.py and test_game_words_browser.py check the menu, the reload, plurals and the
match page's finer words; this module checks that every language goes the whole way."""
from __future__ import annotations

import pytest

from quadrille import tutorials
from quadrille.i18n import SHIPPED
from quadrille.i18n.catalogs import read
from quadrille.i18n.translations import for_language
from tests.browser.axe import serious_violations
from tests.browser.conftest import lobby_start, match_id, my_turn_or_end, wait_seats

pytestmark = pytest.mark.browser

DESK = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
# the smallest board the lobby offers: 4 fields, one area each, so the game ends in a few moves
GAMMA = {"width": 2, "height": 2, "players": 2, "areas": 1}
DARK = "de"  # the one language also looked at in the dark theme


# -- the catalogs' words ------------------------------------------------------------------------------------
def server_says(lang: str, msgid: str) -> str:
    """A sentence of the server's catalogs (messages, games) in this language."""
    return for_language(lang).gettext(msgid)


_SCRIPT: dict[str, dict] = {}


def script_says(lang: str, msgid: str) -> str:
    """A sentence of the browser's catalog (js.po) in this language, as static/i18n/<lang>/<bundle>.js give it."""
    if lang not in _SCRIPT:
        _SCRIPT[lang] = {m.id: m.string for m in read(lang, "js") if m.id and isinstance(m.id, str)}
    return _SCRIPT[lang].get(msgid) or msgid


def before_placeholder(text: str) -> str:
    """A sentence's words up to its first {placeholder}: what a page shows whatever the number."""
    return text.split("{", 1)[0]


# -- what a person sees ---------------------------------------------------------------------------------------
def html_lang(page) -> str:
    return page.get_attribute("html", "lang")


def fits(page) -> bool:
    """Nothing wider than the window: a long word must not push the page sideways."""
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def off_screen(page, selector: str) -> list[str]:
    """The shown elements of `selector` that reach past the window's left or right edge."""
    return page.eval_on_selector_all(selector, """(els) => els.map(e => [e, e.getBoundingClientRect()])
        .filter(([e, b]) => b.width && (b.left < -0.5 || b.right > window.innerWidth + 0.5))
        .map(([e, b]) => `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 30)}" ${b.left}..${b.right}`)""")


def scrolls(page, selector: str) -> bool:
    """Part of the element hidden under its own scroll bar (a card taller than the board it covers)."""
    return page.eval_on_selector(selector, "e => e.scrollHeight > e.clientHeight + 1")


def wide_and_narrow(page, shoot, name: str, keys: str, whole: str | None = None) -> None:
    """The page as it is, then at 390 px (or 1366 px from a phone): fits, its `keys` on screen, `whole` not
    scrolled inside, a screenshot each."""
    start = page.viewport_size
    other = {"width": 1366, "height": 800} if start["width"] < 1000 else {"width": 390, "height": 844}
    for size in (start, other):
        page.set_viewport_size(size)
        shoot(page, f"{name}-{size['width']}")  # first: a failure below is looked at
        assert fits(page), f"{name} is wider than {size['width']} px"
        assert off_screen(page, keys) == [], (name, size)
        assert whole is None or not scrolls(page, whole), (name, size, whole)
    page.set_viewport_size(start)


# -- the walk -------------------------------------------------------------------------------------------------
def the_lobby(page, phone, server, shoot, lang):
    page.goto(server.url + "/")
    page.wait_for_selector("#recent-list")
    assert html_lang(page) == lang
    assert page.inner_text("#game-trails .tile-actions button.primary") == server_says(lang, "Play a friend")
    assert page.input_value(".lobby-header form[data-language-menu] select") == lang
    shoot(page, "lobby-1366")
    assert serious_violations(page) == []
    phone.goto(server.url + "/")
    assert html_lang(phone) == lang
    assert fits(phone)
    assert off_screen(phone, ".tile-actions button, .lobby-header select, .lobby-header button") == []
    shoot(phone, "lobby-390")


def a_lesson(phone, server, shoot, lang):
    """Trails and Towers' lesson, its steps with the arrow keys, to the closing words (on the phone)."""
    steps = tutorials.tutorial("trails")["steps"]
    phone.goto(server.url + "/learn/trails")
    assert html_lang(phone) == lang
    for index, step in enumerate(steps):
        phone.wait_for_selector(f'#lesson[data-step="{index}"]:not([data-solved="1"])')
        assert phone.inner_text("#step-title") == server_says(lang, step["title"])
        phone.keyboard.press(ARROWS[step["expect"][0]])
        phone.wait_for_selector(f'#lesson[data-step="{index}"][data-solved="1"]')
        assert phone.inner_text("#step-feedback") == server_says(lang, step["done"])
        if index == 0:
            assert fits(phone)
            shoot(phone, "lesson-step1-390")
        phone.keyboard.press("Enter")  # Next (Finish after the last step) has the focus after the right move
    phone.wait_for_selector('#lesson[data-finished="1"]')
    assert phone.inner_text("#lesson-end-title") == server_says(lang, "Well done!")
    wide_and_narrow(phone, shoot, "lesson-end", "#lesson-end .button")


def a_game_against_the_computer(page, server, shoot, lang):
    """Gamma on a 2x2 board against level 1, from the lobby, to the result screen: take a field while one is
    open, then skip (the golden move kept), until everybody has skipped in a row."""
    lobby_start(page, server, "gamma", "ai", options=GAMMA, level=1)
    assert html_lang(page) == lang
    match = match_id(page)
    wait_seats(page, "1")  # the page knows the seat is its own: a click before that is a spectator's
    state = my_turn_or_end(server, page, match)
    for _ in range(12):
        if state["outcome"] is not None:
            break
        fields = [m for m in state["legal"] if m != "skip" and not m.startswith("g")]
        if fields:
            x, y = fields[0].split(",")
            page.click(f'.gamma-board .cell[data-x="{x}"][data-y="{y}"]')
        else:
            page.click("#gamma-skip")
        page.wait_for_function("v => Number(document.getElementById('match').dataset.version) > v",
                               arg=state["version"])
        state = my_turn_or_end(server, page, match)
    assert state["outcome"] is not None, state["moves"]
    page.wait_for_selector("#result:not([hidden])")
    titles = {script_says(lang, t) for t in ("You won", "You lost", "Draw", "You share the win")}
    assert page.inner_text("#result-title") in titles
    reasons = [before_placeholder(script_says(lang, r)) for r in (
        "No field was left to take, and every player who still had a golden move skipped it.",
        "Nobody can move any more.")]
    assert page.inner_text("#result-reason").startswith(tuple(r.rstrip(".") for r in reasons))
    assert page.inner_text("#result-new") == script_says(lang, "New game")
    wide_and_narrow(page, shoot, "result", "#result button, #result a", whole="#result .card")


def a_bad_match_link(page, server, shoot, lang):
    answer = page.goto(server.url + "/m/no-such-match")
    assert answer.status == 404 and html_lang(page) == lang
    assert page.title() == server_says(lang, "Quadrille: not here")
    assert page.inner_text(".error-text") == server_says(lang, "There is no such page.")
    wide_and_narrow(page, shoot, "error", "main a")


@pytest.mark.parametrize("lang", SHIPPED)
def test_a_walk_in_each_language(live_server, new_context, shoot, lang):
    page = new_context(locale=lang, **DESK).new_page()
    phone = new_context(locale=lang, **PHONE).new_page()
    errors = []
    for p in (page, phone):
        p.on("pageerror", lambda error: errors.append(str(error)))
    the_lobby(page, phone, live_server, shoot, lang)
    a_lesson(phone, live_server, shoot, lang)
    a_game_against_the_computer(page, live_server, shoot, lang)
    a_bad_match_link(page, live_server, shoot, lang)
    if lang == DARK:  # one look at the dark theme: the lesson's end and the lobby on the phone
        phone.emulate_media(color_scheme="dark")
        phone.wait_for_function("document.documentElement.dataset.theme === 'dark'")
        shoot(phone, "lesson-end-390-dark")
        phone.goto(live_server.url + "/")
        shoot(phone, "lobby-390-dark")
        assert serious_violations(phone) == []
    assert not errors, errors
