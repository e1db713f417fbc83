"""The disconnect timeout: when a player who left an online game may be claimed against, and a timer that
tells the room once when they may.

A player is away from the moment their last socket leaves (presence's `absent_since`). The others see it at
once ("Red left the game") with a countdown; `timeout` seconds later (the DISCONNECT_TIMEOUT setting) they may
claim victory, call it a draw where the game has draws, or hand the seat to the computer; or keep waiting.
How long depends on the match's time control (absence.py: `wait`); `timeout` is the game without a clock's.
The countdown of a match that began after its player left starts when it began.

The timer only announces (the room hears a STATE whose `away` says the seat is claimable): the claim itself
is a player's decision, an event in the match's log (MatchService.claim_win), and claiming twice gives
one result. The deadlines are timers (infra/timers.py) keyed by match, seat and deadline: every process that
computes a STATE schedules the same key, and with several processes (RedisTimers) the one that takes it from
the shared set announces it, once. Everything runs on an injected clock, and tests fire the timer by hand.
"""
from __future__ import annotations

import threading
from typing import Callable

from ..infra.presence import Presence
from ..infra.timers import MemoryTimers

PREFIX = "away:"


class DisconnectTimeouts:
    """Who is away and since when; a deadline per away seat, announced once (`on_due(match_id)`)."""

    def __init__(self, presence: Presence, timeout: float, clock: Callable[[], float],
                 spawn: Callable | None = None, sleep: Callable[[float], None] | None = None,
                 on_due: Callable[[str], None] | None = None, timers=None):
        self.presence = presence
        self.timeout = float(timeout)
        self.clock = clock
        self.on_due = on_due or (lambda match_id: None)
        self.timers = timers if timers is not None else MemoryTimers(clock, spawn, sleep)
        self.timers.handle(PREFIX, self._due)
        self._scheduled: dict[str, float] = {}  # key -> deadline: what this process already scheduled
        self._lock = threading.Lock()

    # -- the decision -----------------------------------------------------------------------------
    def away(self, match_id: str, seats: list[int], began: float, fresh: bool = False,
             wait: float | None | Callable[[], float | None] = -1.0, seen: list[int] = ()) -> list[dict]:
        """The away seats among `seats` (the people's seats of a game under way): for each, how long they have
        been gone and in how many seconds a claim becomes possible (0: now). `began`: when the match began, on
        this clock. Each away seat's deadline is scheduled, so that the room hears when it passes. `fresh`: for
        a claim (presence's own view, not one it read a moment ago). `wait`: the seconds of absence before a
        claim (the match's absence rule, absence.py; a function is asked only when someone is away), None for
        no claim at all (`claimable_in` None, nothing scheduled); by default `timeout`. `seen`: seats whose
        player acts now (presence.absences marks them first: one look at presence)."""
        now, entries = self.clock(), []
        absences = self.presence.absences(match_id, seats, fresh=fresh, seen=seen)
        gone = {seat: since for seat, since in absences.items() if since is not None}
        if not gone:
            return []
        if callable(wait):
            wait = wait()
        wait = self.timeout if wait is not None and wait < 0 else wait
        for seat, since in gone.items():
            since = max(since, began)
            entry = {"seat": seat, "seconds": round(max(now - since, 0.0), 1), "claimable_in": None}
            entries.append(entry)
            if wait is None:
                continue
            deadline = since + wait
            entry["claimable_in"] = round(max(deadline - now, 0.0), 1)
            if deadline > now:
                self._schedule_once(f"{PREFIX}{match_id}:{seat}:{deadline:.3f}", round(deadline, 3), now)
        return entries

    def _schedule_once(self, key: str, deadline: float, now: float) -> None:
        """Every STATE with an away seat computes its deadline again: schedule each key once per process (with
        RedisTimers, each time was a round trip)."""
        with self._lock:
            if key in self._scheduled:
                return
            if len(self._scheduled) > 4096:  # forget the deadlines passed
                self._scheduled = {k: d for k, d in self._scheduled.items() if d > now}
            self._scheduled[key] = deadline
        self.timers.schedule(key, deadline)

    def claimable(self, entry: dict) -> bool:
        return entry["claimable_in"] is not None and entry["claimable_in"] <= 0

    # -- the timer --------------------------------------------------------------------------------
    def _due(self, keys: list[str]) -> None:
        self._fired = []
        for key in keys:
            match_id = key[len(PREFIX):].split(":", 1)[0]
            if match_id not in self._fired:
                self._fired.append(match_id)
        for match_id in self._fired:
            self.on_due(match_id)

    def fire_due(self) -> list[str]:
        """Announce every match with a deadline passed (once per match, however many seats); return them."""
        self._fired = []
        self.timers.fire_due()
        return self._fired

    def next_wait(self) -> float | None:
        return self.timers.next_wait()
