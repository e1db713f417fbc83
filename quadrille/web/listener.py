"""The HTTP listener of the one process: it holds alone on the open internet, without a proxy in front.

gevent's WSGIServer (and eventlet.wsgi) would wait forever for a request that never comes or never ends, and
serve a request cut off in the middle of its headers as if it were complete. Here, for both async modes (gevent
below, eventlet in web/eventlet_listener.py):

- **At accept**, before a byte is read, `ConnectionGate` (web/admission.py) refuses an address past its cap of
  open connections, and near the descriptor limit cuts the newest connection of the address that holds the most.
  At most ACCEPTS_IN_A_ROW connections are accepted (or refused) in one turn of the event loop.
- **Waiting**: a connection that waits for a request (new, or kept alive after an answer) waits in the hub,
  without a greenlet (web/waiting_room.py), and counts against the gate's cap on waiting connections
  (WAITING_CONNECTIONS: past it, the oldest waiting connection of the address with the most waiting is closed).
  A handler is started when a request begins to arrive; the connection waits no more once it has arrived whole.
  A trusted proxy's connections (web/security.py's ProxyTrust: TRUSTED_PROXIES, or a peer on a Unix socket)
  are not capped: its clients are many.
- **Unix sockets** (`app.py --unix-socket`, for a proxy on the same machine) are served the same way: the same
  timeouts, whole requests only. Their peer has no address; its REMOTE_ADDR is empty (UNIX_SOCKET_PEER).
- **Idle**: a connection waits at most IDLE_TIMEOUT (and up to a quarter more: the waiting room's sweep closes
  them a few at a time) for the first byte of its next request (after it opened, or after its last answer).
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

from .admission import ConnectionGate
from .security import UNIX_SOCKET_PEER, ProxyTrust
from .waiting_room import GeventLoop, Peer, WaitingRoom, next_request_begun, shut
from .whole_requests import HEAD_TOO_LARGE, TOO_LARGE, TooLarge, receive_body, receive_head, refusal

ACCEPTS_IN_A_ROW = 16  # connections accepted (or refused) in a row before the event loop serves everyone else


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
                   ConnectionGate(config["TCP_CONNECTIONS_PER_ADDRESS"], config["DESCRIPTOR_RESERVE"],
                                  config["WAITING_CONNECTIONS"]),
                   ProxyTrust.from_config(config))


def abort(sock) -> None:
    """Close a refused connection with a reset: nothing is read, and no state lingers for it."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass


def admit(limits: ConnectionLimits, sock, address) -> Peer | None:
    """The peer of an accepted socket with its ticket, or None (the socket is then closed, unread). A Unix
    socket's peer (its address is not a (host, port)) is ("", 0)."""
    host = address[0] if isinstance(address, tuple) else UNIX_SOCKET_PEER
    ticket = limits.gate.admit(host, partial(shut, sock), proxy=limits.proxies.trusts(host))
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
        requests = 0  # read by this handler (started when the connection's next request began to arrive)

        def read_requestline(self):
            if self.requests:  # a kept-alive connection, after an answer
                limits.gate.waiting(self.client_address.ticket)
                if not next_request_begun(self.socket, self.rfile):
                    self.client_address.parking = True  # do_close parks it in the waiting room
                    self.socket = None                  # which gevent's handle() then leaves open
                    return ""
            self.requests += 1
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
                limits.gate.serving(self.client_address.ticket)  # it has arrived whole: it waits no more
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
        """Accepts in the hub, parks what it admits in the waiting room, which starts a handler (do_handle) when
        a request begins to arrive."""

        def do_read(self):
            for _ in range(ACCEPTS_IN_A_ROW):
                accepted = super().do_read()
                if accepted is None:
                    return None
                peer = admit(limits, *accepted)
                if peer is not None:
                    room.park(accepted[0], peer)
            return None  # the rest of a flood waits for the next turn of the loop: everyone else goes first

        def do_close(self, sock, peer):
            if peer.parking:  # its handler is done, and the connection waits for its next request
                room.park(sock, peer)
                return
            limits.gate.release(peer.ticket)
            sock.close()

        def close(self):
            super().close()
            room.close()

    room = WaitingRoom(limits.gate, limits.idle_timeout, GeventLoop(), lambda *peer: server.do_handle(*peer))
    server = Server(sock, app, log=None, error_log=ServerErrorLog(), handler_class=Handler)
    return server
