"""Presence: which seats of a match have a connected client, how many watch, and who was here lately.

A seat is *online* while one of its player's sockets is connected to the match. It stays *present* for a
grace period after its last socket left, or after its player's last authenticated HTTP request: a reload,
a network blip or a bot that plays over HTTP must not look like a player who walked away.
"""
from __future__ import annotations

import threading
import time
from typing import Callable


class Presence:
    """sid -> (match, seats held), indexed by match; (match, seat) -> when its player was last here."""

    def __init__(self, grace: float = 20.0, clock: Callable[[], float] = time.monotonic):
        self.grace = grace
        self.clock = clock
        self._by_sid: dict[str, tuple[str, list[int]]] = {}
        self._by_match: dict[str, dict[str, list[int]]] = {}
        self._last_seen: dict[tuple[str, int], float] = {}
        self._lock = threading.Lock()

    def enter(self, sid: str, match_id: str, seats: list[int]) -> str | None:
        """Record that `sid` watches `match_id`; return the match it left, if another."""
        with self._lock:
            previous = self._forget(sid)
            self._by_sid[sid] = (match_id, seats)
            self._by_match.setdefault(match_id, {})[sid] = seats
        return previous if previous != match_id else None

    def leave(self, sid: str) -> str | None:
        with self._lock:
            return self._forget(sid)

    def _forget(self, sid: str) -> str | None:
        entry = self._by_sid.pop(sid, None)
        if entry is None:
            return None
        match_id, seats = entry
        now = self.clock()
        for seat in seats:
            self._last_seen[(match_id, seat)] = now
        watchers = self._by_match.get(match_id, {})
        watchers.pop(sid, None)
        if not watchers:
            self._by_match.pop(match_id, None)
        return match_id

    def seen(self, match_id: str, seats: list[int]) -> None:
        """A player acted through another door (HTTP): they count as present for the grace period."""
        now = self.clock()
        with self._lock:
            for seat in seats:
                self._last_seen[(match_id, seat)] = now
            self._trim(now)

    def _trim(self, now: float) -> None:
        # Forget sightings older than the grace period, so the table stays as small as the live matches.
        if len(self._last_seen) > 4096:
            for key in [k for k, at in self._last_seen.items() if now - at > self.grace]:
                del self._last_seen[key]

    def online(self, match_id: str) -> list[int]:
        with self._lock:
            return sorted({s for seats in self._by_match.get(match_id, {}).values() for s in seats})

    def present(self, match_id: str, seat: int) -> bool:
        """Connected now, or here within the grace period."""
        with self._lock:
            if any(seat in seats for seats in self._by_match.get(match_id, {}).values()):
                return True
            at = self._last_seen.get((match_id, seat))
        return at is not None and self.clock() - at <= self.grace

    def watching(self, match_id: str) -> bool:
        """Whether any client (player or spectator) is connected to the match."""
        with self._lock:
            return bool(self._by_match.get(match_id))

    def seats_of(self, sid: str) -> list[int]:
        """The seats the socket holds in the match it watches ([] for a spectator or a stranger)."""
        with self._lock:
            entry = self._by_sid.get(sid)
        return entry[1] if entry else []

    def summary(self, match_id: str) -> dict:
        with self._lock:
            entries = list(self._by_match.get(match_id, {}).values())
        online = sorted({s for seats in entries for s in seats})
        return {"match": match_id, "online": online, "spectators": sum(1 for seats in entries if not seats)}
