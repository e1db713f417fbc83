"""The NDJSON streams' bodies and their budget: one JSON object a line, an empty line as a keep-alive.

A stream is a generator that the WSGI server iterates: between messages it waits on its hub subscription
(hub.py), holding no request context and no database connection, only its socket, a greenlet and a small
queue. The keep-alive line every `keepalive` seconds also tells when the client has gone: the write fails,
the server closes the generator, and its `finally` gives the subscription and the budget back.
"""
from __future__ import annotations

import json
import threading
import time
from collections import Counter
from typing import Callable, Iterable, Iterator

from .hub import MemoryHub

KEEPALIVE = b"\n"


def line(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class StreamBudget:
    """Streams open at once in this process: per account and per address (an address's key, infra/addresses).
    `open` counts a new stream against every key given, or nothing and answers False when one is full."""

    def __init__(self, per_account: int, per_address: int):
        self.caps = {"account": per_account, "address": per_address}
        self._open: Counter = Counter()
        self._lock = threading.Lock()

    def open(self, keys: dict[str, str]) -> bool:
        counted = [f"{kind}:{value}" for kind, value in keys.items()]
        with self._lock:
            if any(self._open[key] >= self.caps[key.split(":", 1)[0]] for key in counted):
                return False
            for key in counted:
                self._open[key] += 1
        return True

    def close(self, keys: dict[str, str]) -> None:
        with self._lock:
            for key in (f"{kind}:{value}" for kind, value in keys.items()):
                self._open[key] -= 1
                if self._open[key] <= 0:
                    del self._open[key]

    def open_count(self, kind: str, value: str) -> int:
        with self._lock:
            return self._open.get(f"{kind}:{value}", 0)


class Stream:
    """What every stream does: its first lines, then its topic's messages as they come, keep-alives between,
    and a check now and then that its token still stands (`still_allowed`, at most every `recheck` seconds
    and only while it waits: a revoked token's stream ends within that)."""

    def __init__(self, hub: MemoryHub, budget: StreamBudget, keys: dict[str, str], keepalive: float,
                 recheck: float, still_allowed: Callable[[], bool], clock: Callable[[], float] = time.monotonic):
        self.hub, self.budget, self.keys = hub, budget, keys
        self.keepalive, self.recheck, self.still_allowed, self.clock = keepalive, recheck, still_allowed, clock

    def body(self, topic: str, first: Callable[[], Iterable[dict]], each: Callable[[dict], tuple[dict | None, bool]],
             idle: Callable[[], None] = lambda: None) -> "Body":
        """`first()`: the opening messages (read after subscribing, so nothing falls between the two);
        `each(message)`: (the line to send or None, whether the stream ends after it); `idle()`: at each
        keep-alive. The budget was taken by the caller and is given back when the stream ends, however."""
        subscription = self.hub.subscribe(topic)
        released = threading.Event()

        def release() -> None:
            if not released.is_set():
                released.set()
                subscription.close()
                self.budget.close(self.keys)
        try:
            opening = list(first())
        except BaseException:
            release()
            raise

        def lines() -> Iterator[bytes]:
            checked = self.clock()
            try:
                for message in opening:
                    sent, last = each(message)
                    if sent is not None:
                        yield line(sent)
                    if last:
                        return
                while not subscription.overflowed:
                    message = subscription.get(self.keepalive)
                    if message is None:
                        if self.clock() - checked >= self.recheck:
                            checked = self.clock()
                            if not self.still_allowed():
                                return
                        idle()
                        yield KEEPALIVE
                        continue
                    sent, last = each(message)
                    if sent is not None:
                        yield line(sent)
                    if last:
                        return
            finally:
                release()
        return Body(lines(), release)


class Body:
    """The response's iterable: the lines, and a `close` (called by the WSGI server when the response ends,
    even one never iterated) that gives the subscription and the budget back."""

    def __init__(self, lines: Iterator[bytes], release: Callable[[], None]):
        self.lines, self.release = lines, release

    def __iter__(self) -> Iterator[bytes]:
        return self.lines

    def close(self) -> None:
        try:
            self.lines.close()
        finally:
            self.release()
