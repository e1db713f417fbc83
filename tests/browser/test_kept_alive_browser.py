"""A browser keeps its connections to the server alive between pages and sends its next page's request on one
of them. A connection left idle past IDLE_TIMEOUT is closed by the listener's waiting room
(quadrille/web/waiting_room.py); it must be ended for good (shut down), so that the browser opens another, and
never left open and unread: under gevent a closed connection's descriptor outlived its close() while the last
handler's file object still held it, and the next page waited for ever. Pages opened one after another with
pauses around the idle timeout, in both async modes."""
from __future__ import annotations

import pytest

from tests.support.servers import ASYNC_MODES, ServerProcess

pytestmark = pytest.mark.browser

IDLE_TIMEOUT = 1.0
PAGES = ("/", "/players", "/learn/trails", "/rules/trails")
# Around the idle timeout and its sweep (every quarter of it): before, at and after a sweep closes a connection.
PAUSES = (0.0, 1.05, 1.2, 1.3, 1.45, 1.6)


@pytest.fixture(params=ASYNC_MODES)
def idle_server(request, tmp_path):
    proc = ServerProcess(tmp_path / "kept.db", request.param, settings={"IDLE_TIMEOUT": IDLE_TIMEOUT}).start()
    yield proc
    proc.stop()


def test_pages_opened_after_a_pause_past_the_idle_timeout_all_load(idle_server, new_context):
    page = new_context().new_page()
    for k in range(16):
        path = PAGES[k % len(PAGES)]
        answer = page.goto(idle_server.url + path, timeout=10_000)  # the bug: this waited for ever
        assert answer is not None and answer.ok, path
        page.wait_for_timeout(PAUSES[k % len(PAUSES)] * 1000)
