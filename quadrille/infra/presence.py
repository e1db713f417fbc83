"""Presence: which seats of a match have a connected client, how many watch, and who was here lately.

A seat is *online* while one of its player's sockets is connected to the match. It stays *present* for a
grace period after its last socket left, or after its player's last authenticated HTTP request: a reload,
a network blip or a bot that plays over HTTP must not look like a player who walked away.

A seat is *away* from the moment its last socket left (the room is told at once: "Red left the game"), or
once the grace period after its last HTTP request has passed (a bot between two requests is not away);
`absent_since` says since when, for the disconnect timeout (matches/timeouts.py).
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
        self._left: dict[tuple[str, int], float] = {}     # when the seat's last socket left
        self._http: dict[tuple[str, int], float] = {}     # the seat's last authenticated HTTP request
        self.started = clock()  # a seat never seen since this process started is away since then
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
            self._left[(match_id, seat)] = now
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
                self._http[(match_id, seat)] = now
            self._trim(now)

    def _trim(self, now: float) -> None:
        # Forget sightings older than the grace period, so the tables stay as small as the live matches. A seat
        # forgotten this way counts as away since this process started: long enough for any timeout in use.
        if len(self._last_seen) > 4096:
            for table in (self._last_seen, self._left, self._http):
                for key in [k for k, at in table.items() if now - at > max(self.grace, 3600.0)]:
                    del table[key]

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

    def absent_since(self, match_id: str, seat: int) -> float | None:
        """When the seat's player went away (this clock's time), or None while they are here: connected, or
        within the grace period after an HTTP request. A seat never seen is away since the process started."""
        with self._lock:
            if any(seat in seats for seats in self._by_match.get(match_id, {}).values()):
                return None
            left = self._left.get((match_id, seat))
            http = self._http.get((match_id, seat))
        if left is not None and (http is None or left >= http):
            return left  # the socket left after the player's last action: away at once, a reload included
        if http is not None:  # acting over HTTP (a bot), or since the socket left: here for the grace period
            http += self.grace
            return None if http > self.clock() else http
        return self.started

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
