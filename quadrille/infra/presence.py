"""Presence: which seats of a match have a connected client, and how many watch."""
from __future__ import annotations

import threading


class Presence:
    """Who is connected to which match: sid -> (match, seats held), indexed by match."""

    def __init__(self):
        self._by_sid: dict[str, tuple[str, list[int]]] = {}
        self._by_match: dict[str, dict[str, list[int]]] = {}
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
        watchers = self._by_match.get(entry[0], {})
        watchers.pop(sid, None)
        if not watchers:
            self._by_match.pop(entry[0], None)
        return entry[0]

    def watching(self, match_id: str) -> bool:
        """Whether any client (player or spectator) is connected to the match."""
        with self._lock:
            return bool(self._by_match.get(match_id))

    def summary(self, match_id: str) -> dict:
        with self._lock:
            entries = list(self._by_match.get(match_id, {}).values())
        online = sorted({s for seats in entries for s in seats})
        return {"match": match_id, "online": online, "spectators": sum(1 for seats in entries if not seats)}
