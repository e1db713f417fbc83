"""The Socket.IO message queue between processes: python-socketio's Redis manager, reading only what concerns
this process.

Every process hears every broadcast of every process on one Redis channel, its own included, and the stock
manager decodes each whole message (a STATE is several kilobytes of JSON) before it looks at whom it is for:
with two processes each one decoded every move's broadcasts twice, and dropped half of them, its own, unread.
Here each message is published with a one-line address in front of it (the sending process, the method, the
namespace and room), and a process decodes the body only when it has something to do with it: a message from
another process, for a room where it has at least one client (or for everyone, or an acknowledgement).

A message without the address line (published by a process that runs the stock manager, during a rolling
upgrade) is decoded and handled as the stock manager would. Nothing else changes: the sender still handles its
own emits at once, in process, as python-socketio does.

A broadcast to a match's room is published only when another process has a client in that room, which presence
records (`RedisPresence`: one field per process in the match's hash, written before the socket joins the room).
With nginx sending every socket of a match to one process, that is rare, and a move then costs no message to
encode, publish and hear back. Why nothing is missed: a process writes its field, joins the room, then reads the
match; the mover commits, then reads the fields. If the watcher's read missed the move, the move was committed
after that read began, so after the field was written, and the mover, reading later still, sees the field and
publishes. A field of a process that died without removing it costs a publish nobody needs until it lapses;
a live process whose field lapsed (its refreshes failed for longer than PRESENCE_TTL) and was reaped is told when
it writes the field again, and sends its sockets there the STATE (`RedisPresence.on_restored`).
"""
from __future__ import annotations

import json
import logging
from typing import Callable

import socketio

log = logging.getLogger("quadrille.message_queue")

SEPARATOR = b"\n"  # never inside a JSON document that json.dumps wrote (it escapes newlines in strings)


class RoomAwareRedisManager(socketio.RedisManager):
    name = "redis"
    # room -> the Redis hash whose fields name the processes with a client in that room, or None (always published)
    audience_of: Callable[[str], str | None] | None = None
    node: bytes = b""  # this process's field in those hashes

    def set_server(self, server):
        super().set_server(server)
        self.json = AddressedJson(self.json)  # the stock `_publish` writes every message through it

    def publish_only_where_heard(self, audience_of: Callable[[str], str | None], node: str) -> None:
        """Publish a broadcast to a room that `audience_of` knows only when its hash names another process."""
        self.audience_of, self.node = audience_of, node.encode()

    def emit(self, event, data, namespace=None, room=None, skip_sid=None, callback=None, to=None, **kwargs):
        if callback is None and not kwargs.get("ignore_queue") and self._heard_only_here(to or room):
            kwargs["ignore_queue"] = True  # handled here only: no message built, scanned, encoded or published
        return super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid, callback=callback,
                            to=to, **kwargs)

    def _heard_only_here(self, room) -> bool:
        key = self.audience_of(room) if self.audience_of is not None and isinstance(room, str) else None
        if key is None or self.redis is None:
            return False
        try:
            return all(node == self.node for node in self.redis.hkeys(key))
        except Exception as exc:  # in doubt, publish (the stock `_publish` reconnects and retries)
            log.warning("could not read who hears %s: %s", room, exc)
            return False

    def _listen(self):
        for raw in super()._listen():
            if isinstance(raw, str):
                raw = raw.encode()
            head, separator, body = raw.partition(SEPARATOR)
            if not separator:  # the stock format: one JSON document
                yield raw
            elif self.concerns_this_process(json.loads(head)):
                yield self.json.loads(body)

    def concerns_this_process(self, address: list) -> bool:
        """Whether this process has anything to do with a message, from its address line alone."""
        host_id, method, namespace, room = address
        if method == "callback":
            return host_id == self.host_id  # an acknowledgement, returned to the process that asked for it
        if host_id == self.host_id:
            return False  # this process handled its own message when it sent it
        if method != "emit" or room is None:
            return True
        rooms = self.rooms.get(namespace or "/", {})
        return any(r in rooms for r in (room if isinstance(room, list) else [room]))


class AddressedJson:
    """The manager's JSON module: a message is written as its address line, then the message itself."""

    def __init__(self, inner):
        self.inner = inner

    def dumps(self, message: dict) -> bytes:
        address = [message.get("host_id"), message.get("method"), message.get("namespace"), message.get("room")]
        body = self.inner.dumps(message)
        return json.dumps(address).encode() + SEPARATOR + (body if isinstance(body, bytes) else body.encode())

    def loads(self, data):
        return self.inner.loads(data)
