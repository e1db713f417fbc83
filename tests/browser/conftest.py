"""Browser tests: Playwright driving Debian's Chromium against a real server process.

Screenshots go to test-output/ at the repository root, so a failure can be looked at.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests

from scripts.services.chromium import CHROMIUM, CHROMIUM_ARGS, launch  # noqa: F401  (CHROMIUM*: for modules)
from tests.support.paths import ROOT
from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

OUTPUT = ROOT / "test-output"


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = launch(p)  # Playwright's own build on a machine without Debian's (the test command installs it)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    # A short presence grace, so that a player who leaves counts as gone within a test's patience.
    # A short disconnect timeout, so that a player who leaves may be claimed against within a test's patience.
    proc = ServerProcess(tmp_path_factory.mktemp("browser") / "browser.db", "gevent",
                         settings={"PRESENCE_GRACE": 1.0, "DISCONNECT_TIMEOUT": 3.0}).start()
    yield proc
    proc.stop()


@pytest.fixture
def shoot(request):
    """shoot(page, name): save a screenshot as test-output/<test>-<name>.png."""
    OUTPUT.mkdir(exist_ok=True)
    test = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def take(page, name: str) -> Path:
        path = OUTPUT / f"{test}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path
    return take


@pytest.fixture
def new_context(browser):
    """Fresh browser contexts (separate storage: separate people), closed after the test."""
    contexts = []

    def make(**kwargs):
        # Playwright's wait_for_function evaluates strings, which the site's CSP forbids: the tests' own
        # scripts bypass it. tests/browser/test_security_browser.py checks the pages under the real policy.
        kwargs.setdefault("bypass_csp", True)
        kwargs.setdefault("viewport", {"width": 1100, "height": 800})
        context = browser.new_context(**kwargs)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context
    yield make
    for context in contexts:
        context.close()


# -- what every game's browser test asks of a match page ------------------------------------------------
def api_state(server, match):
    """The match as the server has it (the truth the page must show)."""
    return requests.get(f"{server.url}/api/matches/{match}").json()


def match_id(page):
    return page.locator("#match").get_attribute("data-match")


def wait_version(page, version):
    """Wait until the page has drawn the match at this version."""
    page.wait_for_function("v => document.getElementById('match').dataset.version === String(v)", arg=version)


def wait_seats(page, seats):
    """Wait until the page knows it holds these seats ("1", "2", "1,2", or "" for a spectator)."""
    page.wait_for_function("s => document.getElementById('match').dataset.seats === s", arg=seats)


def my_turn_or_end(server, page, match):
    """The server's STATE once it is the person's turn (seat 1) or the game is over, drawn by the page: the
    computer has answered."""
    def answered():
        state = api_state(server, match)
        return state if state["outcome"] is not None or state["turn"] == 1 else None
    state = wait_until(answered, 30, "the computer's answer", interval=0.05)
    wait_version(page, state["version"])
    return state


# -- the lobby ----------------------------------------------------------------------------------------------
def lobby_start(page, server, game, mode, options=None, level=None, you=None, name=None, demo=False, side=None):
    """Start a match from the lobby as a person does: the game's tile, one of its three ways to play (`online`:
    play a friend, `ai`: the computer, `local`: this screen), the new-game dialog's options (opened under
    "Change the options"), online the side (`first`, the default, `second` or `random`), then Start (or, with
    `demo`, the computer against itself). Waits for the match page."""
    page.goto(server.url + "/")
    page.click(f"#game-{game} [data-mode={'ai' if demo else mode}]")
    form = f"#setup-{game}"
    page.wait_for_selector(f"{form}:not([hidden])")
    if name is not None:
        page.fill(f"{form} input[name=player]", name)
    if options:
        page.click(f"{form} .more-options summary")
        for key, value in options.items():
            field = f"{form} .more-options [name={key}]"
            if page.eval_on_selector(field, "e => e.tagName") == "SELECT":
                page.select_option(field, str(value))
            else:
                page.fill(field, str(value))
    if level is not None:
        page.check(f"{form} input[name=ai-level][value='{level}']")  # a segmented choice
    if you is not None:
        page.check(f"{form} input[name=ai-you][value='{you}']")
    if side is not None:
        page.check(f"{form} input[name=side][value={side}]")
    page.click(f"{form} [data-demo]" if demo else f"{form} button.start")
    page.wait_for_url("**/m/**")


def join_by_invite(page, invite, name=None, seat=None):
    """A friend opens the invite link, is asked for a name (prefilled with the one this browser remembers),
    and takes the seat."""
    page.goto(invite)
    page.wait_for_selector("#join[open]")
    if name is not None:
        page.fill("#join-name", name)
    elif not page.input_value("#join-name"):
        page.fill("#join-name", "Friend")
    page.click("#join-go")
    if seat is not None:
        wait_seats(page, str(seat))


def confirm(page, button_text):
    """Answer the page's confirmation dialog (restart, continue from here, leave, resign…) with this button."""
    page.wait_for_selector("#dialog[open]")
    page.click(f"#dialog-actions button:text-is('{button_text}')")
    page.wait_for_selector("#dialog:not([open])", state="attached")


def result_title(page) -> str:
    page.wait_for_selector("#result:not([hidden])")
    return page.inner_text("#result-title")
