"""A request read whole, within its deadlines, before anything serves it (for web/listener.py, both async modes).

gevent.pywsgi and eventlet.wsgi parse headers with the standard library's `http.client.parse_headers`, which
takes the end of the stream for the end of the headers: a request cut off inside its headers (a client that
closed, or one that never finishes) was served as if it were complete once its connection closed. Here the
request line and the header block are read first, up to their empty line, and a body up to its length (or its
last chunk), each within its deadline; only then do the servers' own parsers see them, from memory.
"""
from __future__ import annotations

import json

from .security import security_headers

MAX_REQUEST_LINE = 8192
MAX_HEADER_LINE = 8192
MAX_HEADERS = 100          # as http.client and the standard library's servers
MAX_HEAD_BYTES = 64 << 10  # the request line and every header together
BODY_CHUNK = 64 << 10


class Stalled(Exception):
    """A client took longer than its time to send or take something."""


class TooLarge(Exception):
    """A request's head or body is larger than the listener reads."""


# -- reading a request whole ------------------------------------------------------------------------
def receive_head(rfile, timeout, limits) -> tuple[bytes, bytes | None] | None:
    """The request line and the header block (ending with its empty line), each as sent, or None when the
    connection is to close unanswered: it stalled in its head, or ended before the head did. It is called once
    the request has begun to arrive (the listener's waiting room waited for that, within IDLE_TIMEOUT).
    The header block is None when the head is too large (the server answers that). `timeout`: the async mode's
    Timeout class (gevent's or eventlet's), used as `with timeout(seconds, exception)`."""
    try:
        with timeout(limits.header_timeout, Stalled):
            line = rfile.readline(MAX_REQUEST_LINE)
            if len(line) >= MAX_REQUEST_LINE:
                return line, b""  # the server answers 414 before reading any header
            if not line.endswith(b"\n"):
                return None
            try:
                return line, read_header_block(rfile)
            except TooLarge:
                return line, None
    except (Stalled, OSError, ValueError):
        return None


def read_header_block(rfile) -> bytes:
    """Header lines up to and including the empty line that ends them; an end of stream before it raises
    ConnectionAbortedError (the request was never complete)."""
    lines, size = [], 0
    while True:
        line = rfile.readline(MAX_HEADER_LINE + 1)
        if not line.endswith(b"\n"):
            if len(line) > MAX_HEADER_LINE:
                raise TooLarge("a header line is too long")
            raise ConnectionAbortedError("the request ended inside its headers")
        lines.append(line)
        size += len(line)
        if line in (b"\r\n", b"\n"):
            return b"".join(lines)
        if len(lines) > MAX_HEADERS or size > MAX_HEAD_BYTES:
            raise TooLarge("too many or too large headers")


def receive_body(stream, length: int | None, chunked: bool, limits, timeout) -> bytes | None:
    """The whole body from the server's request stream (which decodes chunks), or None if it stopped short or
    took longer than TRANSFER_TIMEOUT. Raises TooLarge past MAX_CONTENT_LENGTH."""
    try:
        with timeout(limits.transfer_timeout, Stalled):
            if not chunked:
                data = stream.read(length)
                return data if len(data) == length else None
            parts, size = [], 0
            while part := stream.read(BODY_CHUNK):
                size += len(part)
                if size > limits.max_body:
                    raise TooLarge("the body is too large")
                parts.append(part)
            return b"".join(parts)
    except (Stalled, OSError, ValueError):
        return None


def refusal(status: str, error: str, reason: str, path: str = "/") -> bytes:
    """A whole HTTP answer that closes the connection, with the site's security headers."""
    body = json.dumps({"error": error, "reason": reason}).encode()
    headers = {"Content-Type": "application/json", "Content-Length": str(len(body)), "Connection": "close",
               **security_headers(path)}
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"HTTP/1.1 {status}\r\n{head}\r\n".encode("latin-1") + body


TOO_LARGE = ("413 Content Too Large", "payload-too-large", "The request is too large.")
HEAD_TOO_LARGE = ("431 Request Header Fields Too Large", "bad-request", "The request's headers are too large.")
