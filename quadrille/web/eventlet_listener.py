"""The HTTP listener under eventlet: eventlet.wsgi.server given a listening socket of ours (the gate at accept, the
waiting room) and a request handler with the same rules as gevent's (web/listener.py says which)."""
from __future__ import annotations

import errno
import io
from collections import deque

from .listener import ACCEPTS_IN_A_ROW, ConnectionLimits, ServerErrorLog, admit
from .waiting_room import EventletLoop, WaitingRoom, next_request_begun
from .whole_requests import HEAD_TOO_LARGE, TOO_LARGE, TooLarge, receive_body, receive_head, refusal

OUT_OF_MEMORY = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)

class GatedListener:
    """eventlet.wsgi's listening socket: its `accept()` returns the connections whose request has begun to arrive.
    A greenthread of its own accepts, with the gate at accept (refused connections never reach the server), and
    parks what it admits in the waiting room, which hands a connection over here when a request begins."""

    def __init__(self, sock, limits: ConnectionLimits):
        self._sock, self._limits = sock, limits
        self.room = WaitingRoom(limits.gate, limits.idle_timeout, EventletLoop(), self._hand_over)
        self._ready: deque = deque()
        self._wakeup = None   # an Event the server's accept() waits on, when nothing is ready
        self._acceptor = None

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def accept(self):
        from eventlet.event import Event
        if self._acceptor is None:
            import eventlet
            self._acceptor = eventlet.spawn(self._accept_forever)
        while not self._ready:
            self._wakeup = Event()
            self._wakeup.wait()
        return self._ready.popleft()

    def close(self) -> None:
        if self._acceptor is not None:
            self._acceptor.kill()
        self.room.close()
        while self._ready:
            sock, peer = self._ready.popleft()
            self._limits.gate.release(peer.ticket)
            sock.close()
        self._sock.close()

    def _hand_over(self, sock, peer) -> None:  # called by the waiting room, in the hub
        self._ready.append((sock, peer))
        if self._wakeup is not None and not self._wakeup.ready():
            self._wakeup.send()

    def _accept_forever(self) -> None:
        import eventlet
        while True:
            for _ in range(ACCEPTS_IN_A_ROW):
                try:
                    client, address = self._sock.accept()
                except OSError as exc:
                    if exc.errno in (errno.EBADF, errno.EINVAL):  # the listening socket is closed
                        return
                    if exc.errno in OUT_OF_MEMORY:  # out of descriptors or buffers: wait for some to close
                        eventlet.sleep(0.1)
                    continue  # else one connection's error (aborted, reset...): the next one is served
                peer = admit(self._limits, client, address)
                if peer is not None:
                    self.room.park(client, peer)
            eventlet.sleep(0)  # a flood of connections waits its turn: everyone else goes first


class Detached:
    """What eventlet.wsgi.server's books hold in place of a connection its handler handed back to the waiting
    room: the server shuts and closes that when the handler ends, and the connection lives on."""

    def shutdown(self, how=None) -> None:
        pass

    def close(self) -> None:
        pass


def eventlet_protocol(limits: ConnectionLimits):
    """eventlet.wsgi's request handler with the same rules as gevent's (web/listener.py)."""
    from http.server import BaseHTTPRequestHandler

    import eventlet
    from eventlet import wsgi

    error_log = ServerErrorLog()

    class Protocol(wsgi.HttpProtocol):
        head: bytes | None = b""
        requests = 0      # read by this handler (started when the connection's next request began to arrive)
        parking = False   # the connection goes back to the waiting room when this handler ends

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
            if self.requests:  # a kept-alive connection, after an answer
                limits.gate.waiting(self.client_address.ticket)
                if not next_request_begun(self.connection, self.rfile):
                    self.parking = True
                    self.close_connection = 1
                    return b""
            self.requests += 1
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
                limits.gate.serving(self.client_address.ticket)  # it has arrived whole: it waits no more
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
            if self.parking:
                self._park()
                return
            try:
                super().finish()
            finally:
                limits.gate.release(self.client_address.ticket)

        def _park(self) -> None:
            """Hand the connection back to the waiting room (eventlet.wsgi.Server keeps the listening socket it
            was given: the GatedListener, whose room it is) instead of closing it."""
            try:
                BaseHTTPRequestHandler.finish(self)  # flushes what is left to send; closes the file objects only
            except OSError:
                pass
            self.conn_state[1] = Detached()
            self.server.socket.room.park(self.connection, self.client_address)

    return Protocol
