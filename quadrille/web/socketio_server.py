"""python-socketio's server, hardened against what a hostile client sends.

- A packet that does not decode (junk, deep nesting, an id of a hundred digits, a binary packet: the pages
  never send binary) is refused: it is logged once per socket at warning, without a traceback, and when its
  acknowledgement id can be read the client is answered `bad-request`.
- An event must be `[name, payload]` with a known name: any other shape, an unknown name, or a name that
  only the server may raise (`connect`, `disconnect`) is answered with an error and never dispatched, so a
  client cannot, say, run the disconnect handler while it stays connected.
- Before anything else runs, `gate(sid, event)` spends the socket's budget (an event's cost depends on its
  name; anything malformed costs as much as the dearest event); an event over budget is answered
  `rate-limited`, and a socket that keeps sending after many refusals is closed.
- Each socket's packets are read, checked and handled by that socket's own reader, one at a time, in
  order, and the reader yields to every other socket after each packet (python-engineio and python-socketio
  would start a task per message, and a flood's tasks would all run before anyone else's): a flood on one
  socket waits behind itself instead of in front of every other socket. No task per event is cheaper too.
- Acknowledgements from clients are ignored quietly: the server never asks for one.
"""
from __future__ import annotations

import logging
import re
from typing import Callable

import socketio
from socketio import packet

log = logging.getLogger("quadrille.sockets")

RESERVED_EVENTS = frozenset({"connect", "connect_error", "disconnect", "disconnecting", "newListener",
                             "removeListener", "message"})
_EVENT_ID = re.compile(r"2(?:/[^,]{0,100},)?(\d{1,15})(?!\d)")


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

    # -- packets -------------------------------------------------------------------------------------
    def _handle_eio_message(self, eio_sid, data):
        try:
            if not isinstance(data, str):
                self._refuse_packet(eio_sid, data, "a binary packet")
            else:
                super()._handle_eio_message(eio_sid, data)
        except Exception as exc:  # noqa: BLE001 - whatever the decoder raises, the client sent it
            self._refuse_packet(eio_sid, data, f"{type(exc).__name__}: {str(exc)[:80]}")
        finally:
            if self.async_handlers:  # (not in Flask-SocketIO's test client, which runs everything inline)
                self.sleep(0)  # let every other socket's reader run before this one reads on

    def _refuse_packet(self, eio_sid, data, why: str) -> None:
        self._binary_packet.pop(eio_sid, None)
        warn_once(self.environ.get(eio_sid) or {}, f"a malformed Socket.IO packet ({why})")
        sid = self.manager.sid_from_eio_sid(eio_sid, "/")
        if sid is None:
            return
        answer = self._spend(sid, None) or refusal("bad-request", "That message could not be read.")
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
                self._answer(eio_sid, namespace, id, refusal("not-connected", "Connect before sending events."))
            return
        name = data[0] if isinstance(data, list) and data and isinstance(data[0], str) else None
        answer = self._spend(sid, name) or self._check_shape(namespace, data)
        if answer is not None:
            if id is not None:
                self._answer(eio_sid, namespace, id, answer)
            return
        self._handle_event_internal(self, sid, eio_sid, data, namespace, id)

    def _check_shape(self, namespace: str, data) -> dict | None:
        if not isinstance(data, list) or not data or not isinstance(data[0], str) or len(data) > 2:
            return refusal("bad-request", "An event is a name and one payload object.")
        name = data[0]
        if name in RESERVED_EVENTS or name not in self.handlers.get(namespace, {}):
            shown = name if len(name) <= 40 and name.isprintable() else name[:40].encode("unicode_escape").decode()
            return refusal("unknown-event", f"There is no event called {shown!r}.")
        return None

    def _spend(self, sid: str, event: str | None) -> dict | None:
        answer = self.gate(sid, event)
        if answer is not None and self.should_close(sid):
            log.warning("closing a socket that kept sending over its budget")
            self.start_background_task(self.disconnect, sid)
        return answer

    def _answer(self, eio_sid, namespace, id, answer: dict) -> None:
        self._send_packet(eio_sid, self.packet_class(packet.ACK, namespace=namespace, id=id, data=[answer]))


ENGINEIO_PACKET_TYPES = "0123456"


class _CheckedWebSocket:
    """The WebSocket an Engine.IO session reads from, except that frames which are not Engine.IO packets
    (python-engineio would raise while decoding them, out of the WSGI call, as a 500 and a traceback) are
    dropped, and logged once per connection."""

    def __init__(self, ws, environ: dict):
        self._ws = ws
        self._environ = environ

    def __getattr__(self, name):
        return getattr(self._ws, name)

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
           should_close: Callable[[str], bool]):
    """Turn Flask-SocketIO's server into a GuardedServer in place (Flask-SocketIO builds the server itself)."""
    server.__class__ = GuardedServer
    # Engine.IO holds the handlers bound when the server was built: bind the guarded ones, and have each
    # socket's reader handle its own messages instead of starting a task per message.
    server.eio.async_handlers = False
    if server.eio._async.get("websocket") is not None:
        server.eio._async = {**server.eio._async, "websocket": _checked_websockets(server.eio._async["websocket"])}
    server.eio.on("message", server._handle_eio_message)
    server.eio.on("disconnect", server._handle_eio_disconnect)
    server.gate = gate
    server.should_close = should_close
    return server
