"""WebSocket frames of Engine.IO packets, built once for every receiver of a broadcast.

python-socketio encodes a broadcast once and python-engineio caches each packet's text, but every receiver's
writer then framed that text again through its WebSocket library (wsproto under gevent, eventlet's own), and,
where the browser offered permessage-deflate, compressed it again with that connection's own compressor: with
600 sockets watching one match, each action was framed (and could be compressed) 600 times.

Here a broadcast's text is a `SharedText`, which keeps its frames (one uncompressed, one per deflate window a
receiver negotiated), and every WebSocket writes frames built here, shared or not, with `sendall`. A frame is
compressed on its own, as if `server_no_context_takeover` had been negotiated: a client that keeps its
decompressor's context reads such frames alike (RFC 7692, 7.1.1), and a frame that does not depend on the ones
before can be sent to anyone. (So no frame of ours leaves through the library's compressor, whose context would
refer to frames it never saw.) Control frames (ping, pong, close) stay the library's.
"""
from __future__ import annotations

import socket
import struct
import zlib

COMPRESS_FROM = 512  # bytes: smaller messages (acknowledgements, presence) go uncompressed
DEFLATE_LEVEL = 6
_SYNC_TAIL = b"\x00\x00\xff\xff"


class SharedText(str):
    """The text of an Engine.IO packet sent to many sockets; its frames are kept on it, built once each."""

    frames: dict


def frame(message: str | bytes, deflate_bits: int | None) -> bytes:
    """The whole WebSocket frame (server to client: unmasked, final) carrying `message`, compressed when the
    connection negotiated permessage-deflate with a window of `deflate_bits` and the message is worth it."""
    if not isinstance(message, SharedText):
        return _build(message, deflate_bits)
    frames = message.__dict__.setdefault("frames", {})
    built = frames.get(deflate_bits)
    if built is None:
        built = frames[deflate_bits] = _build(message, deflate_bits)
    return built


def _build(message: str | bytes, deflate_bits: int | None) -> bytes:
    text = isinstance(message, str)
    payload = message.encode("utf-8") if text else message
    first = 0x80 | (0x1 if text else 0x2)  # FIN, and a text or binary opcode
    # zlib cannot make a raw deflate stream with a window of 256 bytes: such a connection gets plain frames.
    if deflate_bits is not None and deflate_bits >= 9 and len(payload) >= COMPRESS_FROM:
        compressor = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -deflate_bits)
        payload = (compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH))[:-len(_SYNC_TAIL)]
        first |= 0x40  # RSV1: a compressed message
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", first, size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", first, 126, size)
    else:
        head = struct.pack("!BBQ", first, 127, size)
    return head + payload


class _Flush(str):
    """The message that tells a connection's writer to send what is left of a frame begun at once."""


FLUSH = _Flush("flush")


class FrameWriter:
    """Writes frames to one WebSocket connection, under whichever library accepted it.

    `send` is the Engine.IO writer's (it may wait for the client). `send_at_once` lets the sender of a message
    write it itself, without queueing it for the writer and waking it, when nothing else is on its way to that
    connection: one system call per receiver of a broadcast. What the kernel did not take at once is kept and
    written first by the writer, which the caller wakes with FLUSH. `cut()` shuts the connection itself, so that
    a reader and a writer blocked on it both see it end."""

    def __init__(self, sock, deflate_bits: int | None, send, connected):
        self.sock, self.deflate_bits = sock, deflate_bits
        self._send, self._connected = send, connected
        fd = getattr(sock, "fd", None)  # eventlet's green socket wraps the real one as `fd`, gevent's as `_sock`
        self._raw = fd if isinstance(fd, socket.socket) else sock._sock  # non-blocking, both
        self.busy = False  # a frame is being written (and may be waiting for the client)
        self.pending: memoryview | None = None  # the rest of a frame begun by send_at_once

    @classmethod
    def of(cls, ws) -> "FrameWriter | None":
        """For python-engineio's WebSocket object: simple-websocket's (gevent, threading) or eventlet's; None for
        another (its own send is then used)."""
        try:
            inner = getattr(ws, "ws", None)
            if inner is not None and hasattr(inner, "sock"):  # simple-websocket, wsproto underneath
                extensions = inner.ws.connection._proto.extensions
                bits = next((e.server_max_window_bits for e in extensions if e.name == "permessage-deflate"), None)
                return cls(inner.sock, bits, inner.sock.sendall, lambda: inner.connected)
            if hasattr(ws, "_send") and hasattr(ws, "extensions"):  # eventlet.websocket, under its send lock
                deflate = ws.extensions.get("permessage-deflate")
                bits = None if deflate is None else int(deflate.get("server_max_window_bits") or zlib.MAX_WBITS)
                return cls(ws.socket, bits, ws._send, lambda: not ws.websocket_closed)
        except AttributeError:  # a library version laid out otherwise: its own send
            return None
        return None

    def send(self, message: str | bytes) -> None:
        if not self._connected():
            raise OSError("the WebSocket is closed")
        self.busy = True
        try:
            if self.pending is not None:
                rest, self.pending = self.pending, None
                self._send(rest)
            if message is not FLUSH:
                self._send(frame(message, self.deflate_bits))
        finally:
            self.busy = False

    def send_at_once(self, *messages: str | bytes) -> bool | None:
        """Write the messages' frames in one system call. True: written whole. None: their start was written and
        the rest is pending (queue FLUSH for the writer). False: nothing was written (a frame is on its way, or
        the client's buffer is full)."""
        if self.busy or self.pending is not None or not self._connected():
            return False
        if len(messages) == 1:
            data = frame(messages[0], self.deflate_bits)
        else:
            data = b"".join(frame(message, self.deflate_bits) for message in messages)
        try:
            sent = self._raw.send(data)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return False  # a connection that went: the writer finds out, and ends the session
        if sent == len(data):
            return True
        if sent == 0:
            return False
        self.pending = memoryview(data)[sent:]
        return None

    def cut(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
