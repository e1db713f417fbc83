"""Refusals counted, and logged as one summary a minute rather than a line each.

Flask-Limiter logs every request over a budget at INFO ("ratelimit ... exceeded at endpoint: ..."), and
Flask-WTF every CSRF refusal ("The CSRF token is missing."): one review's attacks wrote 7,700 such lines, which
drown everything else and cost a write each. Here a filter on those two libraries' loggers counts each such
record and drops it, and while refusals come, one line every REFUSAL_LOG_INTERVAL seconds sums them up:

    refused in the last 60 s: 480 rate-limited, 20 csrf; from 3 addresses, most from 203.0.113.9 (470)

The last counts are written when the process stops (the app's backends are closed). Other code may count a
refusal of its own with `refused(kind)`. Each app (create_app) keeps its own counts; the filters are the
process's, and pass a record on untouched outside a request of an app that installed this.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from typing import Callable

from flask import Flask, current_app, has_app_context, has_request_context, request

log = logging.getLogger("quadrille.refusals")
EXTENSION = "quadrille.refusals"
ADDRESSES_KEPT = 1_000   # distinct addresses named in one summary's counts; past it, the rest count as "others"
SHOWN = 3                # the addresses a summary names


class RefusalLog:
    """Counts of refusals by kind and by address, logged as one line every `every` seconds while they come.
    `spawn` and `sleep` are the app's (a greenlet under gevent or eventlet): a summary is due even when no
    refusal follows, and no task runs while none comes."""

    def __init__(self, every: float, spawn: Callable, sleep: Callable[[float], None]):
        self.every, self._spawn, self._sleep = every, spawn, sleep
        self._lock = threading.Lock()
        self._kinds: Counter = Counter()
        self._addresses: Counter = Counter()
        self._since = time.monotonic()
        self._summing = False   # a task is waiting to write the next summary

    def count(self, kind: str, address: str | None) -> None:
        address = address or "?"
        with self._lock:
            if not self._kinds:
                self._since = time.monotonic()
            self._kinds[kind] += 1
            if address in self._addresses or len(self._addresses) < ADDRESSES_KEPT:
                self._addresses[address] += 1
            else:
                self._addresses["others"] += 1
            start, self._summing = not self._summing, True
        if start:
            self._spawn(self._sum_up_while_refusing)

    def _sum_up_while_refusing(self) -> None:
        while True:
            self._sleep(self.every)
            with self._lock:
                summary = self._take()
                if summary is None:
                    self._summing = False
                    return
            log.info(summary)

    def _take(self) -> str | None:
        """The summary of the counts so far, which start again from zero; None when there are none."""
        if not self._kinds:
            return None
        kinds = ", ".join(f"{n} {kind}" for kind, n in self._kinds.most_common())
        top = ", ".join(f"{address} ({n})" for address, n in self._addresses.most_common(SHOWN))
        summary = (f"refused in the last {time.monotonic() - self._since:.0f} s: {kinds}; "
                   f"from {len(self._addresses)} addresses, most from {top}")
        self._kinds, self._addresses = Counter(), Counter()
        return summary

    def close(self) -> None:
        """At shutdown: what was counted since the last summary."""
        with self._lock:
            summary = self._take()
        if summary:
            log.info(summary)


def install(app: Flask, spawn: Callable, sleep: Callable[[float], None]) -> RefusalLog:
    """Count this app's refusals; answers the RefusalLog (close it at shutdown)."""
    app.extensions[EXTENSION] = RefusalLog(app.config["REFUSAL_LOG_INTERVAL"], spawn, sleep)
    count_instead_of_logging("flask-limiter", "rate-limited",
                             lambda record: str(record.msg).startswith("ratelimit ") and "exceeded" in str(record.msg))
    count_instead_of_logging("flask_wtf.csrf", "csrf", lambda record: record.levelno == logging.INFO)
    return app.extensions[EXTENSION]


def refused(kind: str) -> None:
    """Count a refusal of the current request (outside a request of an app that installed this: nothing)."""
    refusals = current_app.extensions.get(EXTENSION) if has_app_context() else None
    if refusals is not None:
        refusals.count(kind, request.remote_addr if has_request_context() else None)


class CountInstead(logging.Filter):
    """Drops a library's per-refusal record, counting it, inside a request of an app that installed this."""

    def __init__(self, kind: str, matches: Callable[[logging.LogRecord], bool]):
        super().__init__()
        self.kind, self.matches = kind, matches

    def filter(self, record: logging.LogRecord) -> bool:
        if not has_app_context() or EXTENSION not in current_app.extensions or not self.matches(record):
            return True
        refused(self.kind)
        return False


def count_instead_of_logging(logger_name: str, kind: str, matches: Callable[[logging.LogRecord], bool]) -> None:
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, CountInstead) and f.kind == kind for f in logger.filters):  # once per process
        logger.addFilter(CountInstead(kind, matches))
