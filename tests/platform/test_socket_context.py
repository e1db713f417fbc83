"""A Socket.IO event's Flask context (web/socket_context.py): built once per socket, it must look to a handler
exactly as Flask-SocketIO's own did, event after event."""
from __future__ import annotations

import gc

import pytest
from flask import g, request, session
from werkzeug.exceptions import HTTPException
from werkzeug.test import EnvironBuilder

from quadrille import create_app
from quadrille.web.socket_context import ENGINE_IO_ENDPOINT


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "q.db")})
    seen = app.extensions["seen"] = []

    @app.extensions["socketio"].on("probe")
    def probe(data):
        seen.append({"sid": request.sid, "namespace": request.namespace, "event": request.event["message"],
                     "address": request.remote_addr, "g_before": getattr(g, "mark", None),
                     "session_before": session.get("count"), "path": request.path,
                     "routing": type(request.routing_exception).__name__})
        g.mark = data["n"]
        session["count"] = data["n"]  # the socket's own copy of the session, kept between its events
        return {"ok": True}
    yield app
    app.extensions["quadrille.storage"].close()


def test_every_event_sees_its_socket_its_session_and_a_fresh_g(app):
    socketio = app.extensions["socketio"]
    browser = app.test_client()
    with browser.session_transaction() as cookie_session:
        cookie_session["count"] = 5  # the page's session cookie, sent with the Socket.IO handshake
    first = socketio.test_client(app, flask_test_client=browser)
    second = socketio.test_client(app)
    for n in (1, 2, 3):
        assert first.emit("probe", {"n": n}, callback=True) == {"ok": True}
    assert second.emit("probe", {"n": 9}, callback=True) == {"ok": True}
    seen = app.extensions["seen"]
    sid_of = socketio.server.manager.sid_from_eio_sid
    assert [s["sid"] for s in seen] == [sid_of(first.eio_sid, "/")] * 3 + [sid_of(second.eio_sid, "/")]
    assert {(s["namespace"], s["event"], s["path"]) for s in seen} == {("/", "probe", "/socket.io")}
    assert [s["address"] for s in seen[:3]] == ["127.0.0.1"] * 3  # the connection's, event after event
    assert {s["routing"] for s in seen} == {"NoneType"}  # the Socket.IO path's own route, matched once
    assert [s["g_before"] for s in seen] == [None] * 4  # `g` lives for one event, as before
    assert [s["session_before"] for s in seen] == [5, 1, 2, None]  # the cookie's, then each socket's own copy
    with browser.session_transaction() as cookie_session:
        assert cookie_session["count"] == 5  # a socket's copy never writes the cookie


def test_a_socket_after_its_first_event_still_connects_and_disconnects_through_flask_socketio(app):
    socketio = app.extensions["socketio"]
    client = socketio.test_client(app)
    assert client.emit("probe", {"n": 1}, callback=True) == {"ok": True}
    assert client.emit("probe", {"n": 2}, callback=True) == {"ok": True}
    client.disconnect()
    assert not client.is_connected()
    again = socketio.test_client(app)
    assert again.emit("probe", {"n": 3}, callback=True) == {"ok": True}
    assert app.extensions["seen"][-1]["session_before"] is None  # a new socket: a new copy of the session


@pytest.mark.parametrize("method, headers", [
    ("GET", {"Upgrade": "websocket", "Connection": "Upgrade"}),   # a WebSocket's handshake
    ("GET", {}), ("POST", {}),                                    # long polling's requests
])
def test_a_sockets_request_context_finds_a_route_and_leaves_no_cycle_behind(app, method, headers):
    """Without a route, matching raised NotFound (or WebsocketMismatch); the request kept it, and its traceback
    held the frame that held the context: a cycle for the garbage collector at every connect and disconnect."""
    environ = EnvironBuilder(path="/socket.io/", query_string="EIO=4&transport=websocket", method=method,
                             headers=headers).get_environ()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        with app.request_context(environ) as context:
            assert context.request.routing_exception is None
            assert context.request.endpoint == ENGINE_IO_ENDPOINT
        del context
        gc.collect()
        kept = [o for o in gc.garbage if isinstance(o, HTTPException)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kept == []


def test_the_socketio_path_is_still_no_page(app):
    """The route is never served: Engine.IO answers under the path, and Flask answers the rest 404 as before."""
    client = app.test_client()
    assert client.get("/socket.io").status_code == 404
    assert client.post("/socket.io").status_code == 404
