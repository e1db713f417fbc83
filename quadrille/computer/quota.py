"""How many matches against the computer each address has going, and the cap on them.

A match with computer seats counts against its owner (the client address that created it, started it with
computer players, or handed a seat to the computer) from its admission until it ends, or until it has
rested: nobody watches it, the computer is not thinking for it, and nothing has happened in it for
`idle` seconds (a page closed on an unfinished game must not lock its player out). A rested match that
comes back is admitted again before the computer thinks for it, so an address never has more than `cap`
matches whose computer plays.

Kept in memory behind this one small set of methods (admit, owner, touch, release, going), so that a
shared store can stand behind it when the server runs as several processes.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from ..errors import ServiceError

IDLE = 300.0  # seconds of rest (not watched, not thinking, nothing happening) after which a match stops counting


class MatchQuota:
    def __init__(self, cap: int | None, live: Callable[[str], bool], idle: float = IDLE,
                 clock: Callable[[], float] = time.monotonic):
        self.cap = cap            # None: no cap (the owners are still known, for fair scheduling)
        self.live = live          # live(match): someone watches it or the computer thinks for it
        self.idle = idle
        self.clock = clock
        self._owners: dict[str, str] = {}               # match -> owner, for every match admitted
        self._going: dict[str, dict[str, float]] = {}   # owner -> {match: last activity}
        self._lock = threading.Lock()

    def admit(self, match_id: str, owner: str | None) -> None:
        """Count `match_id` against `owner` (its first owner, once it has one); ServiceError 429 over the cap.

        Nothing is counted for an unknown owner (None: a match made by the service's own callers, or
        before a restart)."""
        with self._lock:
            owner = self._owners.get(match_id, owner)
            if owner is None:
                return
            going = self._going_of(owner)
            if match_id in going:
                going[match_id] = self.clock()
                return
            if self.cap is not None and len(going) >= self.cap:
                games = "a game" if self.cap == 1 else f"{self.cap} games"
                raise ServiceError(429, "rate-limited",
                                   f"You already have {games} against the computer going; finish one, "
                                   "or close one and try again in a few minutes.")
            self._owners[match_id] = owner
            going[match_id] = self.clock()
            self._going[owner] = going

    def owner(self, match_id: str) -> str | None:
        with self._lock:
            return self._owners.get(match_id)

    def touch(self, match_id: str) -> None:
        """Something happened in the match (a move, a decision, a watcher): it is not resting."""
        with self._lock:
            going = self._going.get(self._owners.get(match_id))
            if going is not None and match_id in going:
                going[match_id] = self.clock()

    def release(self, match_id: str) -> None:
        """The match is over: it no longer counts (a rewind that reopens it admits it again)."""
        with self._lock:
            owner = self._owners.get(match_id)
            going = self._going.get(owner)
            if going is not None:
                going.pop(match_id, None)
                if not going:
                    del self._going[owner]

    def going(self, owner: str) -> list[str]:
        """The matches counting against `owner` now."""
        with self._lock:
            return list(self._going_of(owner))

    def _going_of(self, owner: str) -> dict[str, float]:
        """The owner's counted matches, after letting the rested ones go (the caller holds the lock)."""
        going = self._going.get(owner, {})
        now = self.clock()
        for match_id, last in list(going.items()):
            if now - last > self.idle and not self.live(match_id):
                del going[match_id]
        if not going:
            self._going.pop(owner, None)
        return going
