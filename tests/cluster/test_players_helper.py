"""The cluster tests' players (players.py) file each acknowledgement under the match its move was sent in.

A move that ends a game is broadcast (through Redis) before its acknowledgement is sent, and a loaded process
can send that acknowledgement hundreds of milliseconds later: by then the other seat has heard the end, the
table has made a new match, and this seat has joined it. The helper once filed the late acknowledgement under
the new match, and the rolling-restart test reported an acknowledged move "lost" from a match that never had
it. The server's side of this is what the cluster tests check; here its answer is held back on purpose, by a
socket that answers `watch` at once and the move only when told, to make that order happen every time. (Each
match has a socket of its own, as a page has: the old one closes only once its move's answer came.)"""
from __future__ import annotations

import asyncio
import concurrent.futures
import random

from tests.cluster.players import Seat


def run_on_a_loop_of_its_own(coroutine):
    """Playwright's sync API keeps an event loop running on the main thread while the browser tests share one
    browser, so `asyncio.run` cannot be called there: the scenario runs on a thread of its own."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=30)


class LateAcknowledgements:
    """Stands in for the Socket.IO client: the move's acknowledgement waits for `release`."""

    def __init__(self):
        self.release = asyncio.Event()
        self.connected = True

    def on(self, *_):
        pass

    async def connect(self, *_, **__):
        self.connected = True

    async def disconnect(self):
        self.connected = False

    async def call(self, event, data, timeout):
        if event == "watch":
            return {"ok": True, "state": {"match": data["match"], "version": 0, "turn": 2, "outcome": None,
                                          "legal": ["up"]}}
        await self.release.wait()
        return {"ok": True, "version": data["version"] + 1}


async def loop_turns_until(condition, turns: int = 1000, required: bool = True) -> None:
    """Give the event loop's other tasks turns (no time passes) until `condition()` holds; fail after `turns`
    turns if it is `required`."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    assert not required, "the condition never held"


def test_a_late_acknowledgement_is_filed_under_the_match_its_move_was_sent_in():
    async def scenario():
        stats = {"accepted": 0, "refused": {}, "reconnects": 0, "lost_acks": 0, "errors": [], "running": True,
                 "reconnected": [], "ended": {}, "lost": {}, "sent": {}, "trace": {}}
        seat = Seat("http://unused", stats, random.Random(1), think=0.0)
        seat.sio = first = LateAcknowledgements()
        seat.new_client = LateAcknowledgements  # the next match's socket
        ended, next_one = [], []
        seat.match, seat.token, seat.seat, seat.acknowledged = "ended", "blue", 1, ended
        moving = asyncio.create_task(seat.play({"version": 16, "legal": ["up"], "turn": 1}))
        await loop_turns_until(lambda: stats["sent"].get("ended"))  # move 17 is sent; the game is over
        joining = asyncio.create_task(seat.join("next", "blue-2", 1, next_one))  # the table joins its next match
        await loop_turns_until(lambda: False, turns=50, required=False)  # every task runs as far as it can
        assert first.connected  # the old socket waits for its move's answer before it closes
        first.release.set()
        await moving
        await joining
        return ended, next_one, stats, seat, first
    ended, next_one, stats, seat, first = run_on_a_loop_of_its_own(scenario())
    assert [(version, move) for version, move, _ in ended] == [(17, "up")]
    assert next_one == []
    assert stats["sent"] == {"ended": [(17, "up")]} and stats["accepted"] == 1
    assert not seat.moving  # the next match's turns are played
    assert not first.connected and seat.sio is not first and seat.match == "next"
