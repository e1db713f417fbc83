"""A clock the tests move by hand, injected where the code takes `clock=` (a callable answering seconds):
time passes in a test without a sleep, and exactly as much as the test says."""
from __future__ import annotations


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
