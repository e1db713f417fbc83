"""python-socketio's server, hardened against what a hostile client sends.

- A packet that does not decode (junk, deep nesting, an id of a hundred digits, a binary packet: the pages
  never send binary) is refused: it is logged once per socket at warning, without a traceback, and when its
  acknowledgement id can be read the client is answered `bad-request`.
- An event must be `[name, payload]` with a known name: any other shape, an unknown name, or a name that
  only the server may raise (`connect`, `disconnect`) is answered with an error and never dispatched, so a
  client cannot, say, run the disconnect handler while it stays connected.
- Before anything else runs, `gate(sid, event)` spends the socket's budget (an event's cost depends on its
  name; anything malformed costs as much as the dearest event); an event over budget is answered
  `rate-limited`, and a socket that keeps sending after many refusals is closed. These answers come before any
  request context exists: their reasons are said in the language of the socket's handshake (`_answer`).
- Each socket's packets are read, checked and handled by that socket's own reader, one at a time, in
  order, and the reader yields to every other socket after each packet (python-engineio and python-socketio
  would start a task per message, and a flood's tasks would all run before anyone else's): a flood on one
  socket waits behind itself instead of in front of every other socket. No task per event is cheaper too.
- Acknowledgements from clients are ignored quietly: the server never asks for one. A packet with binary
  attachments (the pages never send one) is answered `bad-request` at once, never held waiting for them.
- What the server sends: what an event's own handling sends to its socket (the STATE of the move it made, then
  its acknowledgement) leaves in one write when the handler is done, one system call and one wake-up of the
  client instead of one each; a broadcast is framed once for all its receivers (web/frames.py), and a socket whose
  unsent messages pass `send_queue_limit` (a client that does not read) is disconnected and its connection cut,
  instead of its queue growing without end. When a WebSocket session ends, its connection is shut at once: a
  client that stopped reading (or answering pings) holds nothing once Engine.IO let it go.
"""
from __future__ import annotations

import logging
import re
import time
from typing import Callable

import socketio
from engineio import packet as eio_packet
from socketio import packet

from ..i18n.web import connection_language
from ..i18n.words import N_, _l, in_language
from .frames import FLUSH, FrameWriter, SharedText

log = logging.getLogger("quadrille.sockets")

RESERVED_EVENTS = frozenset({"connect", "connect_error", "disconnect", "disconnecting", "newListener",
                             "removeListener", "message"})
# The acknowledgement id of an event: `2[/namespace,]<id>[...]`, or `5<attachments>-[/namespace,]<id>[...]`.
_EVENT_ID = re.compile(r"(?:2|5\d{1,9}-)(?:/[^,]{0,100},)?(\d{1,15})(?!\d)")
BINARY_PACKETS = ("5", "6")  # an event, or an acknowledgement, with binary attachments to follow
BROADCAST_SLICE = 0.01  # seconds a broadcast writes to its receivers itself before queueing for the rest


def warn_once(environ: dict, what: str) -> None:
    """Log a refused packet once per connection (its WSGI environ), at warning, without a traceback."""
    if environ.get("quadrille.refused"):
        return
    environ["quadrille.refused"] = True
    log.warning("refused %s from %s; further refusals on this connection are not logged", what,
                environ.get("REMOTE_ADDR", "?"))


def refusal(error: str, reason: str) -> dict:
    return {"ok": False, "error": error, "reason": reason}


class GuardedServer(socketio.Server):
    """Installed on Flask-SocketIO's server by `harden(socketio, gate)`."""

    gate: Callable[[str, str | None], dict | None] = staticmethod(lambda sid, event: None)
    should_close: Callable[[str], bool] = staticmethod(lambda sid: False)
    send_queue_limit: int | None = None  # messages waiting to be sent to one socket, at most
    _last_broadcast = None  # the Engine.IO packet of the broadcast under way, framed once for all its receivers
    _broadcast_until = 0.0  # until when that broadcast writes to its receivers itself
    _held: dict  # eio_sid -> [(packet, at_once)]: sent to a socket while its own event is handled (harden sets it)

    # -- packets -------------------------------------------------------------------------------------
    def _handle_eio_message(self, eio_sid, data):
        try:
            if not isinstance(data, str):
                self._refuse_packet(eio_sid, data, "a binary packet")
            elif data[:1] in BINARY_PACKETS:
                self._refuse_packet(eio_sid, data, "a packet with binary attachments")
            else:
                super()._handle_eio_message(eio_sid, data)
        except Exception as exc:  # noqa: BLE001 - whatever the decoder raises, the client sent it
            self._refuse_packet(eio_sid, data, f"{type(exc).__name__}: {str(exc)[:80]}")
        finally:
            # (async_handlers is off only in Flask-SocketIO's test client, which runs everything inline)
            if self.async_handlers and self._reads_on_without_waiting(eio_sid):
                self.sleep(0)  # let every other socket's reader run before this one reads on

    def _reads_on_without_waiting(self, eio_sid) -> bool:
        """Whether this socket's reader would go on to its next message without waiting: over a WebSocket, when
        one is already buffered (a client sending faster than it is served); the packets of a long-polling
        request always. Otherwise the reader's wait lets every other socket run anyway, and a yield here would
        only cost the move another turn of the event loop."""
        websocket = (self.environ.get(eio_sid) or {}).get("quadrille.websocket")
        return websocket is None or websocket.has_buffered()

    def _refuse_packet(self, eio_sid, data, why: str) -> None:
        self._binary_packet.pop(eio_sid, None)
        warn_once(self.environ.get(eio_sid) or {}, f"a malformed Socket.IO packet ({why})")
        sid = self.manager.sid_from_eio_sid(eio_sid, "/")
        if sid is None:
            return
        answer = self._spend(sid, None) or refusal("bad-request", N_("That message could not be read."))
        match = _EVENT_ID.match(data) if isinstance(data, str) else None
        if match:
            self._answer(eio_sid, "/", int(match.group(1)), answer)

    def _handle_ack(self, eio_sid, namespace, id, data):
        sid = self.manager.sid_from_eio_sid(eio_sid, namespace or "/")
        if sid is not None:
            self._spend(sid, None)

    # -- events --------------------------------------------------------------------------------------
    def _handle_event(self, eio_sid, namespace, id, data):
        namespace = namespace or "/"
        sid = self.manager.sid_from_eio_sid(eio_sid, namespace)
        if sid is None or not self.manager.is_connected(sid, namespace):
            session = self.eio.sockets.get(eio_sid)
            if session is None or session.closed or session.closing:
                return  # read after the server closed the session (a stopping process): the client reconnects
            if id is not None:
                self._answer(eio_sid, namespace, id, refusal("not-connected", N_("Connect before sending events.")))
            return
        name = data[0] if isinstance(data, list) and data and isinstance(data[0], str) else None
        answer = self._spend(sid, name) or self._check_shape(namespace, data)
        if answer is not None:
            if id is not None:
                self._answer(eio_sid, namespace, id, answer)
            return
        self._held[eio_sid] = []  # what is sent to this socket meanwhile goes out with the acknowledgement
        try:
            self._handle_event_internal(self, sid, eio_sid, data, namespace, id)
        finally:
            self._release(eio_sid)

    def _check_shape(self, namespace: str, data) -> dict | None:
        if not isinstance(data, list) or not data or not isinstance(data[0], str) or len(data) > 2:
            return refusal("bad-request", N_("An event is a name and one payload object."))
        name = data[0]
        if name in RESERVED_EVENTS or name not in self.handlers.get(namespace, {}):
            shown = name if len(name) <= 40 and name.isprintable() else name[:40].encode("unicode_escape").decode()
            return refusal("unknown-event", _l("There is no event called %(name)s.", name=repr(shown)))
        return None

    def _spend(self, sid: str, event: str | None) -> dict | None:
        answer = self.gate(sid, event)
        if answer is not None and self.should_close(sid):
            log.warning("closing a socket that kept sending over its budget")
            self.start_background_task(self.disconnect, sid)
        return answer

    def _answer(self, eio_sid, namespace, id, answer: dict) -> None:
        """Answer an event before any handler (and so any request context) runs: its reason is said in the
        socket's language, read from its handshake (`?lang=`, the `lang` cookie, Accept-Language)."""
        if answer.get("reason"):
            language = connection_language(self.environ.get(eio_sid) or {})
            answer = {**answer, "reason": in_language(answer["reason"], language)}
        self._send_packet(eio_sid, self.packet_class(packet.ACK, namespace=namespace, id=id, data=[answer]))

    # -- sending -------------------------------------------------------------------------------------
    def _send_eio_packet(self, eio_sid, eio_pkt):
        """A broadcast's packet, the same object for each of its receivers (python-socketio encodes it once and
        python-engineio caches its text): its text becomes a SharedText, whose frames are built once."""
        if eio_pkt is not self._last_broadcast and not eio_pkt.binary:
            eio_pkt.encode_cache = SharedText(eio_pkt.encode())
            self._last_broadcast = eio_pkt
            self._broadcast_until = time.monotonic() + BROADCAST_SLICE
        # Past its slice, a broadcast to a crowd goes through the receivers' queues: their writers take turns
        # with everyone else, instead of this one greenlet writing to all of them in a row.
        self._deliver(eio_sid, eio_pkt, at_once=time.monotonic() < self._broadcast_until)

    def _send_packet(self, eio_sid, pkt):
        encoded = pkt.encode()
        for text in encoded if isinstance(encoded, list) else [encoded]:
            self._deliver(eio_sid, eio_packet.Packet(eio_packet.MESSAGE, text))

    def _deliver(self, eio_sid, eio_pkt, at_once: bool = True) -> None:
        """Send a packet to one socket, or hold it while that socket's own event is handled (`_release`)."""
        held = self._held.get(eio_sid)
        if held is not None:
            held.append((eio_pkt, at_once))
            return
        self._write(eio_sid, [eio_pkt], at_once)

    def _release(self, eio_sid) -> None:
        """The socket's event was handled: what was held for it leaves in order, in one write when it can."""
        held = self._held.pop(eio_sid, None)
        if held:
            self._write(eio_sid, [pkt for pkt, _ in held], at_once=all(at_once for _, at_once in held))

    def _write(self, eio_sid, packets: list, at_once: bool) -> None:
        """Send packets to one socket: at once over its WebSocket, in one system call, when nothing else waits to
        go to it (no queue, no writer to wake), else through its queue, which may hold `send_queue_limit`
        packets at most. A socket with packets waiting gets every later one through its queue too, so packets
        never overtake each other."""
        session = self.eio.sockets.get(eio_sid)
        if session is None or session.closed or not session.check_ping_timeout():
            return  # gone, or found gone now (a client that stopped answering pings: the session closed)
        if at_once and not session.queue.qsize() and session.upgraded and not any(p.binary for p in packets):
            websocket = (self.environ.get(eio_sid) or {}).get("quadrille.websocket")
            writer = websocket._writer if websocket is not None else None
            if writer is not None:
                written = writer.send_at_once(*[pkt.encode() for pkt in packets])
                if written:
                    return
                if written is None:  # begun: the writer sends the rest before anything else
                    session.send(_flush_packet())
                    return
        for pkt in packets:
            if self.send_queue_limit is not None and session.queue.qsize() >= self.send_queue_limit:
                self._drop_lagging(eio_sid, session)
                return
            session.send(pkt)

    def _drop_lagging(self, eio_sid, session) -> None:
        """A client that does not read what it is sent: its waiting messages are dropped, its session closed and
        its connection cut (its writer may be blocked on a full socket), once."""
        if getattr(session, "quadrille_dropped", False):
            return
        session.quadrille_dropped = True
        environ = self.environ.get(eio_sid) or {}
        log.warning("closing a socket of %s that does not read what it is sent (%d messages waiting)",
                    environ.get("REMOTE_ADDR", "?"), session.queue.qsize())
        writer = environ.get("quadrille.websocket")
        while not session.queue.empty():  # free what only this socket held
            session.queue.get_nowait()
            session.queue.task_done()

        def close() -> None:
            session.close(wait=False, abort=True)
            if writer is not None:
                writer.cut()
        self.start_background_task(close)


def _flush_packet():
    pkt = eio_packet.Packet(eio_packet.NOOP)
    pkt.encode_cache = FLUSH  # what the writer hands the WebSocket: send the rest of the frame begun
    return pkt


ENGINEIO_PACKET_TYPES = "0123456"


class _CheckedWebSocket:
    """The WebSocket an Engine.IO session reads from and writes to, except that frames which are not Engine.IO
    packets (python-engineio would raise while decoding them, out of the WSGI call, as a 500 and a traceback)
    are dropped, and logged once per connection; that what it sends is framed here (web/frames.py); and that
    once closed, its connection is shut (`cut`), which ends a reader still waiting on it."""

    def __init__(self, ws, environ: dict):
        self._ws = ws
        self._environ = environ
        self._writer = FrameWriter.of(ws)
        environ["quadrille.websocket"] = self

    def __getattr__(self, name):
        return getattr(self._ws, name)

    def send(self, message) -> None:
        if self._writer is None:
            return self._ws.send(message)
        self._writer.send(message)

    def close(self) -> None:
        try:
            self._ws.close()
        except Exception:  # noqa: BLE001 - closing a connection that already went
            pass
        self.cut()

    def cut(self) -> None:
        if self._writer is not None:
            self._writer.cut()

    def has_buffered(self) -> bool:
        """A message has arrived that the reader has not taken yet (simple-websocket's buffer, under python-engineio's
        wrapper); True where that cannot be told (eventlet's WebSocket), as if one always had."""
        buffered = getattr(getattr(self._ws, "ws", None), "input_buffer", None)
        return True if buffered is None else bool(buffered)

    def wait(self):
        while True:
            frame = self._ws.wait()
            if frame is None or isinstance(frame, bytes) or (frame and frame[0] in ENGINEIO_PACKET_TYPES):
                return frame
            warn_once(self._environ, "a WebSocket frame that is not an Engine.IO packet")


def _checked_websockets(websocket_class):
    class CheckedWebSocketWSGI:
        def __init__(self, handler, server):
            self._handler, self._server = handler, server

        def __call__(self, environ, start_response):
            inner = websocket_class(lambda ws: self._handler(_CheckedWebSocket(ws, environ)), self._server)
            return inner(environ, start_response)
    return CheckedWebSocketWSGI


def harden(server: socketio.Server, gate: Callable[[str, str | None], dict | None],
           should_close: Callable[[str], bool], send_queue_limit: int | None = None):
    """Turn Flask-SocketIO's server into a GuardedServer in place (Flask-SocketIO builds the server itself)."""
    server.__class__ = GuardedServer
    # Engine.IO holds the handlers bound when the server was built: bind the guarded ones, and have each
    # socket's reader handle its own messages instead of starting a task per message.
    server.eio.async_handlers = False
    if server.eio._async.get("websocket") is not None:
        server.eio._async = {**server.eio._async, "websocket": _checked_websockets(server.eio._async["websocket"])}
    server.eio.on("message", server._handle_eio_message)
    server.eio.on("disconnect", server._handle_eio_disconnect)
    server._held = {}  # eio_sid -> [(packet, at_once)] sent to a socket while its own event is handled
    server.gate = gate
    server.should_close = should_close
    server.send_queue_limit = send_queue_limit
    return server
