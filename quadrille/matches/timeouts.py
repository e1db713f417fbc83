"""The disconnect timeout: when a player who left an online game may be claimed against, and a timer that
tells the room once when they may.

A player is away from the moment their last socket leaves (presence's `absent_since`). The others see it at
once ("Red left the game") with a countdown; `timeout` seconds later (the DISCONNECT_TIMEOUT setting) they may
claim victory, call it a draw where the game has draws, or hand the seat to the computer; or keep waiting.
The countdown of a match that began after its player left starts when it began.

The timer only announces (the room hears a STATE whose `away` says the seat is claimable): the claim itself
is a player's decision, an event in the match's log (MatchService.claim_timeout), and claiming twice gives
one result. So a timer that fires twice (two server processes, one day) only announces twice; firing keeps no
state that another process would need. Everything runs on an injected clock, and tests fire the timer by hand.
"""
from __future__ import annotations

import heapq
import threading
from typing import Callable

from ..infra.presence import Presence


class DisconnectTimeouts:
    """Who is away and since when; a deadline per away seat, fired once each (`on_due(match_id)`)."""

    def __init__(self, presence: Presence, timeout: float, clock: Callable[[], float],
                 spawn: Callable | None = None, sleep: Callable[[float], None] | None = None,
                 on_due: Callable[[str], None] | None = None):
        self.presence = presence
        self.timeout = float(timeout)
        self.clock = clock
        self.on_due = on_due or (lambda match_id: None)
        self._spawn, self._sleep = spawn, sleep
        self._deadlines: list[tuple[float, str, int]] = []   # a heap of (when, match, seat)
        self._scheduled: set[tuple[str, int, float]] = set()  # what the heap holds, to schedule each once
        self._running = False
        self._lock = threading.Lock()

    # -- the decision -----------------------------------------------------------------------------
    def away(self, match_id: str, seats: list[int], began: float) -> list[dict]:
        """The away seats among `seats` (the people's seats of a game under way): for each, how long they have
        been gone and in how many seconds a claim becomes possible (0: now). `began`: when the match began, on
        this clock. Each away seat's deadline is scheduled, so that the room hears when it passes."""
        now, entries = self.clock(), []
        for seat in seats:
            since = self.presence.absent_since(match_id, seat)
            if since is None:
                continue
            since = max(since, began)
            deadline = since + self.timeout
            entries.append({"seat": seat, "seconds": round(max(now - since, 0.0), 1),
                            "claimable_in": round(max(deadline - now, 0.0), 1)})
            if deadline > now:
                self._schedule(match_id, seat, deadline)
        return entries

    def claimable(self, entry: dict) -> bool:
        return entry["claimable_in"] <= 0

    # -- the timer --------------------------------------------------------------------------------
    def _schedule(self, match_id: str, seat: int, deadline: float) -> None:
        key = (match_id, seat, round(deadline, 3))
        with self._lock:
            if key in self._scheduled:
                return
            self._scheduled.add(key)
            heapq.heappush(self._deadlines, (deadline, match_id, seat))
            start = not self._running and self._spawn is not None
            self._running = self._running or start
        if start:
            self._spawn(self._run)

    def fire_due(self) -> list[str]:
        """Announce every match with a deadline passed (once per match, however many seats); return them."""
        now, due = self.clock(), []
        with self._lock:
            while self._deadlines and self._deadlines[0][0] <= now:
                when, match_id, seat = heapq.heappop(self._deadlines)
                self._scheduled.discard((match_id, seat, round(when, 3)))
                if match_id not in due:
                    due.append(match_id)
        for match_id in due:
            self.on_due(match_id)
        return due

    def next_wait(self) -> float | None:
        with self._lock:
            return max(self._deadlines[0][0] - self.clock(), 0.0) if self._deadlines else None

    def _run(self) -> None:
        """A background task while deadlines are pending: wakes at the next one (at least once a second,
        since the clock may be another than the sleep's), announces, and ends when none is left."""
        while True:
            wait = self.next_wait()
            if wait is None:
                with self._lock:
                    if not self._deadlines:
                        self._running = False
                        return
                continue
            self._sleep(min(wait, 1.0) + 0.01)
            try:
                self.fire_due()
            except Exception:  # pragma: no cover - an announcement that failed must not stop the timer
                import logging
                logging.getLogger("quadrille").exception("announcing a disconnect timeout failed")
