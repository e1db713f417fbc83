"""The pages under the site's real Content-Security-Policy (the other browser tests bypass it for their own
scripts): nothing the pages need is blocked, a game is played, and only /embed/ pages may be framed by
another site."""
from __future__ import annotations

import threading
from functools import partial
from http.server import ThreadingHTTPServer

import pytest
import requests

import games
from tests.browser.test_trails_browser import QuietHandler

pytestmark = pytest.mark.browser



def strict_page(new_context):
    """A page that honours the CSP, and the console lines the CSP would write when it blocks something."""
    page = new_context(bypass_csp=False).new_page()
    blocked = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: blocked.append(str(e)))
    return page, blocked


@pytest.mark.parametrize("game", games.names())
def test_each_game_plays_under_the_strict_policy(live_server, new_context, game):
    page, blocked = strict_page(new_context)
    page.goto(f"{live_server.url}/embed/new/{game}")
    page.wait_for_selector('#match[data-version="0"][data-seats]')
    state = requests.get(f"{live_server.url}/api/matches/{page.get_attribute('#match', 'data-match')}").json()
    assert state["legal"]
    if game == "trails":  # a move by key, through the renderer, the socket and the server
        page.keyboard.press("ArrowRight")
        page.wait_for_selector('#match[data-version="1"]')
    page.goto(live_server.url + "/")
    page.wait_for_selector("#recent-list li")
    assert blocked == [], blocked


def test_only_embed_pages_may_be_framed_by_another_site(live_server, new_context, tmp_path):
    created = requests.post(f"{live_server.url}/api/matches", json={"game": "trails", "mode": "local"}).json()
    (tmp_path / "index.html").write_text(
        f'<iframe id="embed" src="{live_server.url}/embed/{created["match"]}" width="600" height="400"></iframe>'
        f'<iframe id="page" src="{live_server.url}/m/{created["match"]}" width="600" height="400"></iframe>')
    host = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=host.serve_forever, daemon=True).start()
    try:
        page, blocked = strict_page(new_context)
        page.goto(f"http://127.0.0.1:{host.server_address[1]}/index.html")  # another origin: another port
        page.frame_locator("#embed").locator('#match[data-version="0"]').wait_for()
        page.wait_for_timeout(500)
        assert page.frame_locator("#page").locator("#match").count() == 0  # frame-ancestors 'none'
        assert any("frame-ancestors" in line for line in blocked), blocked
    finally:
        host.shutdown()
