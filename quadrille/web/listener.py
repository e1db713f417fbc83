"""The HTTP listener of the one process: it holds alone on the open internet, without a proxy in front.

gevent's WSGIServer (and eventlet.wsgi) would wait forever for a request that never comes or never ends, and
serve a request cut off in the middle of its headers as if it were complete. Here, for both async modes:

- **At accept**, before a byte is read, `ConnectionGate` (web/admission.py) refuses an address past its cap of
  open connections, and near the descriptor limit cuts the newest connection of the address that holds the most.
  A trusted proxy's connections (web/security.py's ProxyTrust: TRUSTED_PROXIES, or a peer on a Unix socket)
  are not capped: its clients are many.
- **Unix sockets** (`app.py --unix-socket`, for a proxy on the same machine) are served the same way: the same
  timeouts, whole requests only. Their peer has no address; its REMOTE_ADDR is empty (UNIX_SOCKET_PEER).
- **Idle**: a connection waits at most IDLE_TIMEOUT (and up to a quarter more, so that a flood's connections do
  not all close in one instant) for the first byte of its next request (after it opened, or after its last
  answer), then closes.
- **Headers**: from that first byte, the request line and every header must arrive within HEADER_TIMEOUT, and
  end with the empty line: a connection that stalls, or closes, before that is closed unanswered.
- **Body**: a request body is read whole (at most MAX_CONTENT_LENGTH) before the application runs, within
  TRANSFER_TIMEOUT; a body that stops short is never served. A larger one is refused at once, unread (413).
  (The reading itself, the same for both servers: web/whole_requests.py.)
- **Answers** must be taken within TRANSFER_TIMEOUT (a send that makes no progress for that long ends the
  connection), except a WebSocket's: from its upgrade on, Engine.IO's pings decide when it is gone, and when its
  session ends the connection is shut (socketio_server.py).
"""
from __future__ import annotations

import io
import logging
import socket
import struct
import time
from dataclasses import dataclass
from functools import partial

from .admission import ConnectionGate, Ticket
from .security import UNIX_SOCKET_PEER, ProxyTrust
from .whole_requests import HEAD_TOO_LARGE, TOO_LARGE, TooLarge, receive_body, receive_head, refusal

REFUSALS_IN_A_ROW = 16  # connections accepted (or refused) in a row before the event loop serves everyone else


@dataclass(frozen=True)
class ConnectionLimits:
    """The settings of the listener (quadrille/settings.py), the gate that counts connections, and who is the
    proxy (whose connections the gate does not cap)."""

    header_timeout: float
    idle_timeout: float
    transfer_timeout: float
    max_body: int
    gate: ConnectionGate
    proxies: ProxyTrust

    @classmethod
    def from_config(cls, config) -> "ConnectionLimits":
        return cls(config["HEADER_TIMEOUT"], config["IDLE_TIMEOUT"], config["TRANSFER_TIMEOUT"],
                   config["MAX_CONTENT_LENGTH"],
                   ConnectionGate(config["TCP_CONNECTIONS_PER_ADDRESS"], config["DESCRIPTOR_RESERVE"]),
                   ProxyTrust.from_config(config))


class Peer(tuple):
    """A client's (host, port), as the WSGI servers expect it, carrying its connection's ticket. Two peers are
    never equal: every Unix socket peer is ("", 0), and eventlet.wsgi keeps its connections by peer."""

    ticket: Ticket
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


def abort(sock) -> None:
    """Close a refused connection with a reset: nothing is read, and no state lingers for it."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass


def cut(sock) -> None:
    """End an admitted connection from outside its handler: whatever it waits for sees the end of the stream."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def admit(limits: ConnectionLimits, sock, address) -> Peer | None:
    """The peer of an accepted socket with its ticket, or None (the socket is then closed, unread). A Unix
    socket's peer (its address is not a (host, port)) is ("", 0)."""
    host = address[0] if isinstance(address, tuple) else UNIX_SOCKET_PEER
    ticket = limits.gate.admit(host, partial(cut, sock), proxy=limits.proxies.trusts(host))
    if ticket is None:
        abort(sock)
        return None
    peer = Peer(address if isinstance(address, tuple) else (host, 0))
    peer.ticket = ticket
    return peer


class ServerErrorLog:
    """Where the WSGI server writes malformed requests and connection errors: one line each, at most 200
    characters (a malformed request line is the client's text, up to 8 KB), and at most 20 lines a minute
    (the rest are counted), so that no client can flood the log through it."""

    LINES_PER_MINUTE = 20

    def __init__(self):
        self.log = logging.getLogger("quadrille.wsgi")
        self.window, self.lines, self.dropped = 0, 0, 0

    def write(self, text: str) -> None:
        text = text.strip()
        if not text:
            return
        minute = int(time.monotonic() // 60)
        if minute != self.window:
            if self.dropped:
                self.log.warning("%d more server error lines were not logged", self.dropped)
            self.window, self.lines, self.dropped = minute, 0, 0
        self.lines += 1
        if self.lines > self.LINES_PER_MINUTE:
            self.dropped += 1
            return
        line = text.splitlines()[-1] if text.startswith("Traceback") else text
        self.log.warning("%s", line if len(line) <= 200 else line[:200] + "…")

    def flush(self) -> None:
        pass


# -- gevent ------------------------------------------------------------------------------------------
def gevent_server(sock, app, limits: ConnectionLimits):
    """gevent's WSGIServer on the listening socket, with the gate at accept and the handler below."""
    from gevent import Timeout
    from gevent.pywsgi import Input, WSGIHandler, WSGIServer

    class Handler(WSGIHandler):
        head: bytes | None = b""

        def read_requestline(self):
            received = receive_head(self.rfile, Timeout, limits)
            if received is None:
                return ""  # nothing to serve: the connection closes
            line, self.head = received
            return line.decode("latin-1")

        def MessageClass(self, fp, *args):  # the headers from the block read whole, never from the stream
            if self.head is None:
                raise ValueError("request header fields too large")  # answered 431 below
            return super().MessageClass(io.BytesIO(self.head), *args)

        def _handle_client_error(self, ex):
            super()._handle_client_error(ex)  # logs it (ServerErrorLog)
            status, error, reason = HEAD_TOO_LARGE if self.head is None else ("400 Bad Request", "bad-request",
                                                                               "That request could not be read.")
            return status[:3], refusal(status, error, reason)

        def handle_one_response(self):
            if self._take_body():
                super().handle_one_response()
            else:
                self.close_connection = True

        def _take_body(self) -> bool:
            if self._connection_upgrade_requested():
                self.socket.settimeout(None)  # a WebSocket: Engine.IO's pings watch it from now on
                limits.gate.weigh(self.client_address.ticket, 2)  # simple-websocket works on a duplicate
                return True
            self.socket.settimeout(limits.transfer_timeout)  # the answer must be taken within this
            chunked = self.environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked"
            length = self.content_length or 0
            if not chunked and not length:
                return True
            try:
                if length > limits.max_body:
                    raise TooLarge("the body is too large")
                body = receive_body(self.wsgi_input, length, chunked, limits, Timeout)
            except TooLarge:
                self._refuse(*TOO_LARGE)
                return False
            if body is None:
                return False
            self.wsgi_input = Input(io.BytesIO(body), len(body))
            self.environ["wsgi.input"] = self.wsgi_input
            self.environ["CONTENT_LENGTH"] = str(len(body))
            self.environ.pop("HTTP_TRANSFER_ENCODING", None)
            return True

        def _refuse(self, status: str, error: str, reason: str) -> None:
            try:
                self.socket.sendall(refusal(status, error, reason, self.environ.get("PATH_INFO", "/")))
            except OSError:
                pass

        def run_application(self):
            # A WebSocket session owns its connection to the end: when it is over (even cut short by a malformed
            # frame), the connection closes, instead of its leftover frames being read as the next request.
            try:
                super().run_application()
            finally:
                if self.environ.get("HTTP_UPGRADE", "").lower() == "websocket":
                    self.close_connection = True

    class Server(WSGIServer):
        def do_read(self):
            for _ in range(REFUSALS_IN_A_ROW):  # refused connections are closed here, a few at a time
                accepted = super().do_read()
                if accepted is None:
                    return None
                peer = admit(limits, *accepted)
                if peer is not None:
                    return accepted[0], peer
            return None  # the rest of a flood waits for the next turn of the loop: everyone else goes first

        def do_close(self, sock, peer):
            limits.gate.release(peer.ticket)
            sock.close()

    return Server(sock, app, log=None, error_log=ServerErrorLog(), handler_class=Handler)


# -- eventlet ----------------------------------------------------------------------------------------
class GatedListener:
    """eventlet.wsgi's listening socket, with the gate at accept: refused connections never reach the server."""

    def __init__(self, sock, limits: ConnectionLimits):
        self._sock, self._limits = sock, limits
        self._accepted = 0

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def accept(self):
        import errno

        import eventlet
        while True:
            self._accepted += 1
            if self._accepted % REFUSALS_IN_A_ROW == 0:
                eventlet.sleep(0)  # a flood of connections waits its turn: everyone else goes first
            try:
                client, address = self._sock.accept()
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE):  # out of descriptors: eventlet.wsgi would stop
                    eventlet.sleep(0.1)
                    continue
                raise
            peer = admit(self._limits, client, address)
            if peer is not None:
                return client, peer


def eventlet_protocol(limits: ConnectionLimits):
    """eventlet.wsgi's request handler with the same rules as gevent's above."""
    import eventlet
    from eventlet import wsgi

    error_log = ServerErrorLog()

    class Protocol(wsgi.HttpProtocol):
        head: bytes | None = b""

        def log_message(self, format, *args):  # the standard library's error lines, as gevent's (ServerErrorLog)
            error_log.write(f"(from {self.client_address[0]}) {format % args}")

        def send_error(self, code, message=None, explain=None):  # a JSON answer with the security headers
            phrase = self.responses.get(code, ("Error",))[0]
            self.log_error("code %d, message %s", code, message)
            self.close_connection = 1
            try:
                self.wfile.write(refusal(f"{code} {phrase}", "bad-request", "That request could not be read."))
            except OSError:
                pass

        def _read_request_line(self):
            if self.rfile.closed:
                self.close_connection = 1
                return b""
            received = receive_head(self.rfile, eventlet.Timeout, limits)
            if received is None:
                self.close_connection = 1
                return b""
            line, self.head = received
            return line

        def parse_request(self):
            if self.head is None:
                self.wfile.write(refusal(*HEAD_TOO_LARGE))
                self.close_connection = 1
                return False
            stream, self.rfile = self.rfile, io.BytesIO(self.head)
            try:
                return super().parse_request()
            finally:
                self.rfile = stream

        def handle_one_response(self):
            if self._take_body():
                super().handle_one_response()
            else:
                self.close_connection = 1

        def _take_body(self) -> bool:
            environ = self.environ
            if environ.get("HTTP_UPGRADE", "").lower() == "websocket":
                self.connection.settimeout(None)
                return True
            self.connection.settimeout(limits.transfer_timeout)
            stream = environ["eventlet.input"]
            chunked, length = stream.chunked_input, stream.content_length or 0
            if not chunked and not length:
                return True
            try:
                if length > limits.max_body:
                    raise TooLarge("the body is too large")
                body = receive_body(stream, length, chunked, limits, eventlet.Timeout)
            except TooLarge:
                self._refuse(*TOO_LARGE)
                return False
            if body is None:
                return False
            environ["wsgi.input"] = environ["eventlet.input"] = wsgi.Input(io.BytesIO(body), len(body),
                                                                          self.connection)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            return True

        def _refuse(self, status: str, error: str, reason: str) -> None:
            try:
                self.wfile.write(refusal(status, error, reason, self.environ.get("PATH_INFO", "/")))
                self.wfile.flush()
            except OSError:
                pass

        def finish(self):
            try:
                super().finish()
            finally:
                limits.gate.release(self.client_address.ticket)

    return Protocol
