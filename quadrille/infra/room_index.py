"""python-socketio's rooms with each socket's own rooms indexed, so that a socket that leaves costs the rooms it
was in, not every room of the server.

The library finds a leaving socket's rooms by testing every room of the namespace (`basic_disconnect`: a copy of
the room table, then a membership test in each room): a socket's own room, every match's room and the table of
all sockets. With 200 matches under way that was about 600 tests for each of the two sockets that leave each
game, a greater cost than any of the game's moves' own Socket.IO work, and it grows with the number of sockets.
Here the manager also keeps each socket's rooms as they are entered and left; a leaving socket leaves those,
in the order it entered them, and the rest is the library's (its callbacks and pending lists dropped).
tests/platform/test_room_index.py holds it to the library's own results.
"""
from __future__ import annotations

import socketio


class RoomIndex:
    """Mixed into a python-socketio client manager (before it in the bases)."""

    def _rooms_index(self) -> dict:
        index = self.__dict__.get("_socket_rooms")
        if index is None:
            index = self.__dict__["_socket_rooms"] = {}  # (namespace, sid) -> {room: None}, in the order entered
        return index

    def basic_enter_room(self, sid, namespace, room, eio_sid=None):
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)
        self._rooms_index().setdefault((namespace, sid), {})[room] = None

    def basic_leave_room(self, sid, namespace, room):
        super().basic_leave_room(sid, namespace, room)
        index = self._rooms_index()
        held = index.get((namespace, sid))
        if held is not None:
            held.pop(room, None)
            if not held:
                del index[(namespace, sid)]

    def basic_disconnect(self, sid, namespace, **kwargs):
        held = self._rooms_index().get((namespace, sid), {})
        if namespace not in self.rooms:
            return
        for room in list(held):
            self.basic_leave_room(sid, namespace, room)
        # as the library's basic_disconnect (python-socketio 5) ends
        self.callbacks.pop(sid, None)
        for pending in (self.pending_connect, self.pending_disconnect):
            if namespace in pending and sid in pending[namespace]:
                pending[namespace].remove(sid)
                if len(pending[namespace]) == 0:
                    del pending[namespace]


class IndexedManager(RoomIndex, socketio.Manager):
    """The one-process client manager."""
