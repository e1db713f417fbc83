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
