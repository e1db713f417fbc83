"""Waiting for something to happen, rather than sleeping a guessed time: a test then takes as long as the
thing takes, and a loaded machine makes it slower, not red."""
from __future__ import annotations

import time


def wait_until(predicate, timeout: float = 30.0, what: str = "the condition", interval: float = 0.02):
    """Poll `predicate` until it answers something true, and return that; fail the test after `timeout`
    seconds."""
    deadline = time.monotonic() + timeout
    while True:
        answer = predicate()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def within(predicate, seconds: float, interval: float = 0.02):
    """Poll `predicate` for at most `seconds`; return its first true answer, or None when time ran out (for
    a test that reports what happened by then rather than failing at once)."""
    try:
        return wait_until(predicate, seconds, interval=interval)
    except AssertionError:
        return None


def real_time_passes(seconds: float, why: str) -> None:
    """Let real time pass: only for what nothing else shows, a timer in another process that a test cannot move
    (a server's timeout or grace, Redis's key expiry, a server that is down), or a stretch in which something
    must not happen in such a process. Everything else waits on its condition (`wait_until`) or moves a
    `tests/support/clock.Clock`. `why` says which, where it is called (and in the failure's traceback)."""
    assert why
    time.sleep(seconds)
