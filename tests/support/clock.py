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


def past_the_grace(presence) -> Clock:
    """Everyone `presence` (infra/presence.py) has seen so far has been gone for longer than its grace period:
    its clock becomes a Clock, started where its own clock stood and moved on past the grace, instead of a
    sleep. Returns that Clock for the test to move further."""
    clock = Clock(presence.clock())
    presence.clock = clock
    clock.advance(presence.grace + 1)
    return clock
