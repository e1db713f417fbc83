"""Long work on the one event loop, in slices: a replay of a long match (an import, a match loaded into the
cache, a position far along a line) lets the other clients be served every few milliseconds.

    pace = Pacer(sleep)   # one for each piece of work; Flask-SocketIO's sleep (None: never pauses)
    for move in moves:
        board.push(move)
        pace()            # after SLICE seconds of work since the last pause, a pause of PAUSE seconds

Answering a client's event takes the event loop a few turns (its socket read, its reader, the handler), so each
slice must be short; and a short piece of work (a few milliseconds) never pauses, since many of them at once are
served fastest one after the other. The pause is a real sleep, however short, not sleep(0): gevent runs the
greenlets that are ready at sleep(0) but does not always poll the sockets, and a client waiting to be read stayed
waiting.
"""
from __future__ import annotations

import time
from typing import Callable

SLICE = 0.004   # seconds of work between two pauses
PAUSE = 0.0005  # the pause: the event loop polls its sockets and serves who is ready


class Pacer:
    def __init__(self, sleep: Callable[[float], None] | None, clock: Callable[[], float] = time.perf_counter):
        self.sleep, self.clock = sleep, clock
        self._since = clock()

    def __call__(self) -> None:
        if self.sleep is None:
            return
        now = self.clock()
        if now - self._since >= SLICE:
            self.sleep(PAUSE)
            self._since = self.clock()
