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

A process that found itself alone in a match trusts that answer for `audience_ttl` seconds (counted from
before it asked) instead of asking Redis at every broadcast: a round trip per move was most of what remained
of a broadcast's cost. A process whose field is new (`RedisPresence.on_new_entry`) tells the others to forget
their answers for that match (`audience_grew`, one small message before its socket reads the match), so they
ask again at their next broadcast. That message may come too late for a move committed in the moment between:
so `audience_ttl` after writing its field, when every answer read before the field existed has expired, the new
process sends the room the STATE of any version it never broadcast (web/sockets.py). A broadcast can therefore
be late by that much for a watcher who joins another process at the instant of a move, or while the message
queue's subscription is down, and is never lost.
"""
from __future__ import annotations

import json
import logging
import time
from typing import Callable

import socketio

from .room_index import RoomIndex

log = logging.getLogger("quadrille.message_queue")

SEPARATOR = b"\n"  # never inside a JSON document that json.dumps wrote (it escapes newlines in strings)
AUDIENCE = "audience"  # the method of the message that says a room's audience grew (its room: the hash's key)


class RoomAwareRedisManager(RoomIndex, socketio.RedisManager):
    name = "redis"
    # room -> the Redis hash whose fields name the processes with a client in that room, or None (always published)
    audience_of: Callable[[str], str | None] | None = None
    node: bytes = b""  # this process's field in those hashes
    audience_ttl = 10.0  # seconds an answer "only this process hears it" is trusted
    MAX_ANSWERS = 10_000  # answers kept before the expired ones are swept
    clock = staticmethod(time.monotonic)  # what answers' ages are read on (a test sets a clock of its own)

    def set_server(self, server):
        super().set_server(server)
        self.json = AddressedJson(self.json)  # the stock `_publish` writes every message through it
        self._alone_until: dict[str, float] = {}  # a hash's key -> until when this process is alone in it
        self._grew_at: dict[str, float] = {}  # a hash's key -> when another process last said it arrived there

    def publish_only_where_heard(self, audience_of: Callable[[str], str | None], node: str,
                                 ttl: float | None = None) -> None:
        """Publish a broadcast to a room that `audience_of` knows only when its hash names another process
        (an answer found alone is trusted for `ttl` seconds)."""
        self.audience_of, self.node = audience_of, node.encode()
        if ttl is not None:
            self.audience_ttl = ttl

    def audience_grew(self, key: str) -> None:
        """This process's field in the hash `key` is new: the other processes forget that they were alone."""
        self._publish({"method": AUDIENCE, "host_id": self.host_id, "room": key})

    def emit(self, event, data, namespace=None, room=None, skip_sid=None, callback=None, to=None, **kwargs):
        if callback is None and not kwargs.get("ignore_queue") and self._heard_only_here(to or room):
            kwargs["ignore_queue"] = True  # handled here only: no message built, scanned, encoded or published
        return super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid, callback=callback,
                            to=to, **kwargs)

    def _heard_only_here(self, room) -> bool:
        key = self.audience_of(room) if self.audience_of is not None and isinstance(room, str) else None
        if key is None or self.redis is None:
            return False
        asked = self.clock()  # before the question: the answer may be older than its arrival
        if self._alone_until.get(key, 0.0) > asked:
            return True
        try:
            alone = all(node == self.node for node in self.redis.hkeys(key))
        except Exception as exc:  # in doubt, publish (the stock `_publish` reconnects and retries)
            log.warning("could not read who hears %s: %s", room, exc)
            return False
        # Trusted only while this process hears the channel, so that it would hear another process arrive
        # (python-socketio subscribes at the first connection a process takes, and again after a reconnection);
        # and not when an arrival was heard while the question was out: it may have come after Redis answered.
        if alone and self._subscribed() and self._grew_at.get(key, float("-inf")) < asked:
            if len(self._alone_until) >= self.MAX_ANSWERS:  # the expired go; if none has, all do (it costs questions)
                kept = {k: until for k, until in self._alone_until.items() if until > asked}
                self._alone_until = kept if len(kept) < self.MAX_ANSWERS else {}
            self._alone_until[key] = asked + self.audience_ttl
        return alone

    def _subscribed(self) -> bool:
        return bool(getattr(getattr(self, "pubsub", None), "subscribed", False))

    def _heard_arrival(self, key: str) -> None:
        """Another process's field in the hash `key` is new: forget being alone there."""
        now = self.clock()
        self._alone_until.pop(key, None)
        if len(self._grew_at) >= self.MAX_ANSWERS:  # an older arrival matters to no answer that could be kept
            self._grew_at = {k: at for k, at in self._grew_at.items() if at > now - self.audience_ttl}
        self._grew_at[key] = now

    def _listen(self):
        for raw in super()._listen():
            if isinstance(raw, str):
                raw = raw.encode()
            head, separator, body = raw.partition(SEPARATOR)
            if not separator:  # the stock format: one JSON document
                yield raw
                continue
            address = json.loads(head)
            if address[1] == AUDIENCE:
                if address[0] != self.host_id:
                    self._heard_arrival(address[3])
            elif self.concerns_this_process(address):
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
