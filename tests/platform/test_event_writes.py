"""What an event's own handling sends to its socket leaves in one write when the handler is done
(web/socketio_server.py): the STATE of the mover's move and the move's acknowledgement, one system call and one
wake-up of the client instead of two; in order, and nothing held once the event is over."""
from __future__ import annotations

import socket

import socketio

from quadrille.web.frames import FrameWriter, frame
from quadrille.web.socketio_server import harden


def guarded_server():
    server = harden(socketio.Server(async_mode="threading"), lambda sid, event: None, lambda sid: False)
    writes = []
    server._write = lambda eio_sid, packets, at_once: writes.append((eio_sid, [p.encode() for p in packets]))
    return server, writes


def test_the_state_an_event_broadcasts_to_its_own_socket_leaves_with_its_acknowledgement():
    server, writes = guarded_server()
    mover, other = server.manager.connect("eio-mover", "/"), server.manager.connect("eio-other", "/")
    for sid in (mover, other):
        server.enter_room(sid, "match")

    @server.on("move")
    def move(sid, data):
        server.emit("state", {"version": 1}, to="match")
        assert [eio for eio, _ in writes] == ["eio-other"]  # the other socket hears it at once
        return {"ok": True, "version": 1}

    server._handle_eio_message("eio-mover", '27["move",{}]')
    assert writes == [("eio-other", ['42["state",{"version":1}]']),
                      ("eio-mover", ['42["state",{"version":1}]', '437[{"ok":true,"version":1}]'])]
    assert server._held == {}  # the next broadcast reaches the mover at once
    server.emit("state", {"version": 2}, to="match")
    assert writes[-1] == ("eio-other", ['42["state",{"version":2}]'])
    assert writes[-2] == ("eio-mover", ['42["state",{"version":2}]'])


def test_a_handler_that_fails_still_sends_what_it_held():
    server, writes = guarded_server()
    mover = server.manager.connect("eio-mover", "/")
    server.enter_room(mover, "match")

    @server.on("move")
    def move(sid, data):
        server.emit("state", {"version": 1}, to="match")
        raise RuntimeError("a bug")

    try:
        server._handle_eio_message("eio-mover", '2["move",{}]')
    except RuntimeError:
        pass
    assert writes == [("eio-mover", ['42["state",{"version":1}]'])] and server._held == {}


class _Sock:
    def __init__(self, raw):
        self.fd = raw  # as eventlet's green socket holds the real one


def test_several_frames_are_written_in_one_call_as_their_concatenation():
    ours, theirs = socket.socketpair()
    try:
        ours.setblocking(False)
        writer = FrameWriter(_Sock(ours), None, ours.sendall, lambda: True)
        state, ack = '42["state",{"version":1}]', '47[{"ok":true}]'
        assert writer.send_at_once(state, ack) is True
        expected = frame(state, None) + frame(ack, None)
        theirs.settimeout(5)
        received = b""
        while len(received) < len(expected):
            received += theirs.recv(65536)
        assert received == expected
    finally:
        ours.close()
        theirs.close()
