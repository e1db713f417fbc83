"""Light pages in a real browser: three.js is fetched only by the Lattice page and only once its 3D view is
shown, compressed; a return visit takes every static file from the browser's cache."""
from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import wait_seats

pytestmark = pytest.mark.browser


def local_match(server, game):
    created = requests.post(f"{server.url}/api/matches", json={"game": game, "mode": "local"}).json()
    return created["match"], created["token"]


def open_as_player(page, server, game):
    match, token = local_match(server, game)
    page.goto(server.url + "/")
    page.evaluate("([m, t]) => localStorage.setItem('quadrille.token.' + m, t)", [match, token])
    page.goto(f"{server.url}/m/{match}")
    wait_seats(page, "1,2")
    return match


def test_three_is_fetched_only_when_the_3d_view_is_shown(live_server, new_context):
    page = new_context().new_page()
    fetched = []
    page.on("response", lambda r: fetched.append(r) if "/vendor/three/" in r.url else None)
    open_as_player(page, live_server, "trails")
    page.goto(live_server.url + "/")
    page.evaluate("localStorage.setItem('quadrille.lattice.3d', 'off')")  # the player hid the 3D view before
    open_as_player(page, live_server, "lattice")
    page.wait_for_function("window.latticeView && window.latticeView.webgl === null")
    page.wait_for_timeout(500)
    assert page.locator("#lattice-stage").is_hidden()
    assert page.locator("#lattice-levels .cell.node").count() > 0  # the flat levels are drawn without it
    assert fetched == []

    page.click("#lattice-3d-toggle")  # "Show the 3D view"
    page.wait_for_function("window.latticeView.ready")
    assert page.locator("#lattice-stage canvas").count() == 1
    assert len(fetched) == 1
    three = fetched[0]
    assert three.url.split("/")[-1].startswith("three.module.min.") and three.url.endswith(".js")
    headers = three.all_headers()
    assert headers["content-encoding"] == "br"
    assert headers["cache-control"] == "public, max-age=31536000, immutable"


def test_a_return_visit_takes_every_static_file_from_the_cache(live_server, new_context):
    context = new_context()
    match = open_as_player(context.new_page(), live_server, "lattice")

    page = context.new_page()
    cdp = context.new_cdp_session(page)
    seen = {}
    cdp.on("Network.requestWillBeSent", lambda e: seen.setdefault(e["requestId"], {"url": e["request"]["url"]}))
    cdp.on("Network.requestServedFromCache", lambda e: seen.get(e["requestId"], {}).update(cached=True))
    cdp.on("Network.responseReceived", lambda e: seen.get(e["requestId"], {}).update(
        status=e["response"]["status"], cached=seen.get(e["requestId"], {}).get("cached")
        or e["response"].get("fromDiskCache") or e["response"].get("fromMemoryCache")))
    cdp.send("Network.enable")
    page.goto(f"{live_server.url}/m/{match}")
    page.wait_for_function("window.latticeView && window.latticeView.ready")
    static = [r for r in seen.values() if "/static/" in r["url"]]
    assert len(static) >= 9, static  # styles, scripts, the icon and three.js
    assert all(r.get("cached") for r in static), [r for r in static if not r.get("cached")]
