"""A socket's reader handles its events inline (web/socketio_server.py) and gives the others a turn before its next
message only when it would not wait for one: a client that sends faster than it is served never keeps the event
loop, and a move that is alone costs no extra turn of the loop. (The flood tests of tests/security measure what
the others feel; this says when the turn is given.)"""
from __future__ import annotations

import socketio

from quadrille.web.socketio_server import _CheckedWebSocket, harden


class SimpleWebSocket:
    """What simple-websocket's Server holds of the messages read and not yet taken."""

    def __init__(self, buffered: list):
        self.input_buffer = buffered


class EngineIOWrapper:
    """python-engineio's wrapper around simple-websocket's Server (async_drivers/_websocket_wsgi.py)."""

    def __init__(self, inner):
        self.ws = inner


class OtherWebSocket:
    """A WebSocket that does not show what it holds (eventlet's)."""


def server_with_socket(websocket):
    server = harden(socketio.Server(async_mode="threading"), lambda sid, event: None, lambda sid: False)
    turns = []
    server.sleep = turns.append
    server.manager.connect("eio-1", "/")
    environ = {}
    if websocket is not None:
        _CheckedWebSocket(websocket, environ)
    server.environ["eio-1"] = environ

    @server.on("move")
    def move(sid, data):
        return {"ok": True}
    return server, turns


def test_a_reader_with_nothing_more_to_read_gives_no_extra_turn():
    server, turns = server_with_socket(EngineIOWrapper(SimpleWebSocket([])))
    server._handle_eio_message("eio-1", '21["move",{}]')
    assert turns == []


def test_a_reader_with_a_message_waiting_gives_the_others_a_turn_first():
    server, turns = server_with_socket(EngineIOWrapper(SimpleWebSocket(['42["move",{}]'])))
    server._handle_eio_message("eio-1", '21["move",{}]')
    assert turns == [0]


def test_where_the_buffer_cannot_be_seen_or_there_is_no_websocket_the_turn_is_always_given():
    for websocket in (OtherWebSocket(), None):  # eventlet's WebSocket; a long-polling request's packets
        server, turns = server_with_socket(websocket)
        server._handle_eio_message("eio-1", '21["move",{}]')
        assert turns == [0]
