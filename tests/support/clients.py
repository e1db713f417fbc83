"""Clients for attacking a real server: raw Socket.IO over a WebSocket and plain HTTP, each from a chosen
loopback address (Linux routes all of 127/8 to loopback), so that an attacker, a victim and the test's own
setup each have an address, and so budgets of one never touch another's. The server tests use the raw client
too where the order of events matters: it reads them in the order they came off the wire.

The raw client speaks Engine.IO 4 / Socket.IO 5 by hand, so it can send what no well-behaved library would:
frames that do not decode, events of odd shapes, bursts without waiting for answers.
"""
from __future__ import annotations

import http.client
import json
import socket
import time
from urllib.parse import quote, urlsplit

import websocket

SETUP, VICTIM, ATTACKER = "127.0.0.1", "127.0.0.2", "127.0.0.3"


def _bound_socket(url: str, address: str) -> socket.socket:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10, source_address=(address, 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class Refused(Exception):
    """The server refused the Socket.IO connection (CONNECT_ERROR)."""


class RawSocket:
    """One Socket.IO connection on the default namespace, from `address`."""

    def __init__(self, url: str, address: str = SETUP, connect: bool = True):
        parts = urlsplit(url)
        self.ws = websocket.WebSocket(enable_multithread=False)
        self.ws.connect(f"ws://{parts.netloc}/socket.io/?EIO=4&transport=websocket",
                        socket=_bound_socket(url, address), timeout=10)
        opened = self.ws.recv()
        assert opened.startswith("0"), opened
        self.next_id = 0
        self.events: list[tuple[str, object]] = []   # server events received while waiting for answers
        self.answers: dict[int, object] = {}
        if connect:
            self.ws.send("40")
            reply = ""
            while not reply:
                reply = self._recv_packet()
            if reply.startswith("44"):
                raise Refused(reply[2:])
            assert reply.startswith("40"), reply

    def _recv_packet(self) -> str:
        frame = self.ws.recv()
        if frame == "2":  # Engine.IO ping: answered, and nothing for the caller
            self.ws.send("3")
            return ""
        return frame

    def send_raw(self, frame) -> None:
        """A frame as given: bytes as a binary frame, text as a text frame (text that is not valid
        Unicode, such as a lone surrogate, goes out as the invalid UTF-8 it encodes to)."""
        if isinstance(frame, bytes):
            self.ws.send_binary(frame)
            return
        try:
            self.ws.send(frame)
        except UnicodeEncodeError:
            self.ws.send(frame.encode("utf-8", "surrogatepass"), opcode=websocket.ABNF.OPCODE_TEXT)

    def emit(self, event: str, *args) -> int:
        """Send an event asking for an answer; returns its id."""
        self.next_id += 1
        self.ws.send(f"42{self.next_id}" + json.dumps([event, *args]))
        return self.next_id

    def _read_until(self, done, timeout: float) -> bool:
        """Read packets until `done()`; False once a read finds the socket quiet past `timeout` seconds."""
        deadline = time.monotonic() + timeout
        try:
            while not done():
                self.ws.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    self._take(self._recv_packet())
                except websocket.WebSocketTimeoutException:
                    return False
            return True
        finally:
            self.ws.settimeout(10)

    def wait_answer(self, id: int, timeout: float = 10.0):
        if not self._read_until(lambda: id in self.answers, timeout):
            raise TimeoutError(f"no answer to event {id} within {timeout} s")
        return self.answers.pop(id)

    def call(self, event: str, payload=None, timeout: float = 10.0):
        return self.wait_answer(self.emit(event, payload) if payload is not None else self.emit(event), timeout)

    def wait_event(self, name: str, accept=lambda payload: True, timeout: float = 10.0):
        """Read until an event `name` whose payload `accept`s comes (it is kept in `events` too); its payload."""
        def awaited() -> list:
            return [payload for event, payload in self.events if event == name and accept(payload)]
        if not self._read_until(awaited, timeout):
            raise TimeoutError(f"no {name} event as awaited within {timeout} s")
        return awaited()[-1]

    def drain(self, seconds: float) -> None:
        """Read whatever the server sends for `seconds`."""
        deadline = time.monotonic() + seconds
        self._read_until(lambda: time.monotonic() >= deadline, seconds)

    def _take(self, packet: str) -> None:
        if packet.startswith("43"):
            digits = len(packet) - len(packet[2:].lstrip("0123456789"))
            id = int(packet[2:digits])
            body = json.loads(packet[digits:])
            self.answers[id] = body[0] if body else None
        elif packet.startswith("42"):
            name, *args = json.loads(packet[2:])
            self.events.append((name, args[0] if args else None))
        elif packet.startswith("41"):
            raise ConnectionError("the server closed the namespace")

    def close(self) -> None:
        try:
            self.ws.close()
        except OSError:
            pass


def request(url: str, method: str, path: str, body=None, address: str = SETUP, headers: dict | None = None,
         raw: bytes | str | None = None) -> tuple[int, dict, object]:
    """One HTTP request from `address`: (status, headers, parsed JSON or text)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(address, 0))
    try:
        headers = dict(headers or {})
        data = raw
        if body is not None:
            data = json.dumps(body)
            headers.setdefault("Content-Type", "application/json")
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        conn.request(method, quote(path, safe="/?=&%:;,+"), body=data, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
        return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed
    finally:
        conn.close()


class Victim:
    """A player of their own local match who measures Socket.IO round trips while someone else attacks."""

    def __init__(self, url: str, address: str = VICTIM):
        status, _, created = request(url, "POST", "/api/matches", {"game": "trails", "mode": "local"}, address=address)
        assert status == 201, created
        self.match, self.token = created["match"], created["token"]
        self.sock = RawSocket(url, address)
        assert self.sock.call("watch", {"match": self.match, "token": self.token})["ok"]
        self.round_trips: list[float] = []

    def probe(self) -> float:
        """One round trip: a read of the match's position (cheap on the server: what is measured is waiting)."""
        started = time.perf_counter()
        answer = self.sock.call("position", {"match": self.match, "ply": 0})
        elapsed = time.perf_counter() - started
        assert answer["ok"], answer
        self.round_trips.append(elapsed)
        return elapsed

    def probe_while(self, busy, interval: float = 0.1, at_least: int = 5) -> None:
        """Probe every `interval` seconds while `busy()` is true (and at least `at_least` times)."""
        while busy() or len(self.round_trips) < at_least:
            self.probe()
            time.sleep(interval)

    @property
    def worst_ms(self) -> float:
        return 1000 * max(self.round_trips)

    def close(self) -> None:
        self.sock.close()
