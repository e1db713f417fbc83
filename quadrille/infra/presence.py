"""Presence: which seats of a match have a connected client, how many watch, and who was here lately.

A seat is *online* while one of its player's sockets is connected to the match. It stays *present* for a
grace period after its last socket left, or after its player's last authenticated HTTP request: a reload,
a network blip or a bot that plays over HTTP must not look like a player who walked away.

A seat is *away* from the moment its last socket left (the room is told at once: "Red left the game"), or
once the grace period after its last HTTP request has passed (a bot between two requests is not away);
`absent_since` says since when, for the disconnect timeout (matches/timeouts.py).

Two implementations of one interface (enter, leave, seen, online, present, absent_since, absences, watching,
seats_of, summary, local_matches, close), chosen by the application factory:

- `MemoryPresence` (also `Presence`): one process knows every socket.
- `RedisPresence` (redis_presence.py): several processes, each knowing its own sockets, share them in Redis
  as entries that live `ttl` seconds unless their process refreshes them (every ttl/3): the sockets of a
  process that died vanish within `ttl`, and its players count as having left when it last refreshed them.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from typing import Callable

log = logging.getLogger("quadrille.presence")


def away_since(left: float | None, http: float | None, grace: float, now: float, started: float) -> float | None:
    """The away rule, for a seat with no socket connected: `left`, when its last socket left; `http`, its last
    authenticated HTTP request; None while the player still counts as here."""
    if left is not None and (http is None or left >= http):
        return left  # the socket left after the player's last action: away at once, a reload included
    if http is not None:  # acting over HTTP (a bot), or since the socket left: here for the grace period
        http += grace
        return None if http > now else http
    return started  # never seen since this process (or the cluster) started


class MemoryPresence:
    """sid -> (match, seats held), indexed by match; (match, seat) -> when its player was last here."""

    # Called with a match id when its presence changed other than through this process's sockets (a dead
    # process's sockets vanished): the Socket.IO door announces it to the room.
    on_change: Callable[[str], None] | None = None
    # Called with a match id when this process's entry there had lapsed although it kept sockets in the match
    # (its refreshes failed for longer than the entry lives): the other processes' broadcasts skipped this one
    # meanwhile (infra/message_queue.py), so its sockets need the STATE again. Only across processes.
    on_restored: Callable[[str], None] | None = None
    # Called with a match id when this process's entry there is new (its first socket there, or an entry written
    # again after it lapsed), before that socket reads the match: processes that read the match's entries before
    # may go on taking this one for absent a while (infra/message_queue.py). Only across processes.
    on_new_entry: Callable[[str], None] | None = None

    def __init__(self, grace: float = 20.0, clock: Callable[[], float] = time.monotonic):
        self.grace = grace
        self.clock = clock
        self._by_sid: dict[str, tuple[str, list[int]]] = {}
        self._by_match: dict[str, dict[str, list[int]]] = {}
        self._last_seen: dict[tuple[str, int], float] = {}
        self._left: dict[tuple[str, int], float] = {}     # when the seat's last socket left
        self._http: dict[tuple[str, int], float] = {}     # the seat's last authenticated HTTP request
        self.started = clock()  # a seat never seen since this process started is away since then
        self._next_trim = self.started
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

    TRIM_SIZE = 4096      # sightings kept before old ones are looked for
    TRIM_INTERVAL = 60.0  # seconds between two looks: each reads every sighting

    def _trim(self, now: float) -> None:
        # Forget sightings older than the grace period, so the tables stay as small as the live matches. A seat
        # forgotten this way counts as away since this process started: long enough for any timeout in use.
        # At most once a minute: a server that saw more than TRIM_SIZE seats within the hour would otherwise
        # read every sighting on every move.
        if len(self._last_seen) > self.TRIM_SIZE and now >= self._next_trim:
            self._next_trim = now + self.TRIM_INTERVAL
            self._forget_old(now)

    def _forget_old(self, now: float) -> None:
        for table in (self._last_seen, self._left, self._http):
            for key in [k for k, at in table.items() if now - at > max(self.grace, 3600.0)]:
                del table[key]

    def _held(self, match_id: str) -> set[int]:
        """The seats this process's sockets hold in the match (the caller holds the lock)."""
        return {s for seats in self._by_match.get(match_id, {}).values() for s in seats}

    def online(self, match_id: str) -> list[int]:
        with self._lock:
            return sorted(self._held(match_id))

    def present(self, match_id: str, seat: int) -> bool:
        """Connected now, or here within the grace period."""
        with self._lock:
            if seat in self._held(match_id):
                return True
            at = self._last_seen.get((match_id, seat))
        return at is not None and self.clock() - at <= self.grace

    def absent_since(self, match_id: str, seat: int) -> float | None:
        """When the seat's player went away (this clock's time), or None while they are here: connected, or
        within the grace period after an HTTP request. A seat never seen is away since the process started."""
        with self._lock:
            if seat in self._held(match_id):
                return None
            left = self._left.get((match_id, seat))
            http = self._http.get((match_id, seat))
        return away_since(left, http, self.grace, self.clock(), self.started)

    def watching(self, match_id: str) -> bool:
        """Whether any client (player or spectator) is connected to the match."""
        return self.has_sockets_in(match_id)

    def seats_of(self, sid: str) -> list[int]:
        """The seats the socket holds in the match it watches ([] for a spectator or a stranger)."""
        with self._lock:
            entry = self._by_sid.get(sid)
        return entry[1] if entry else []

    def absences(self, match_id: str, seats: list[int], fresh: bool = False,
                 seen: list[int] = ()) -> dict[int, float | None]:
        """`absent_since` of each seat, in one call (`fresh`: for a decision, such as a claim, where a
        shared implementation must not answer from a view it read a moment ago). `seen`: seats whose player acts
        now, recorded first as `seen` records them (the match core's one look at presence for a move)."""
        now = self.clock()  # every STATE of a game under way asks: `seen` and `absent_since` in one hold of the lock
        with self._lock:
            for seat in seen:  # as `seen` records them
                self._last_seen[(match_id, seat)] = now
                self._http[(match_id, seat)] = now
            if seen:
                self._trim(now)
            held = self._held(match_id)
            marks = {seat: (self._left.get((match_id, seat)), self._http.get((match_id, seat)))
                     for seat in seats if seat not in held}
        return {seat: away_since(*marks[seat], self.grace, now, self.started) if seat in marks else None
                for seat in seats}

    def summary(self, match_id: str) -> dict:
        with self._lock:
            entries = list(self._by_match.get(match_id, {}).values())
        online = sorted({s for seats in entries for s in seats})
        return {"match": match_id, "online": online, "spectators": sum(1 for seats in entries if not seats)}

    def has_sockets_in(self, match_id: str) -> bool:
        """Whether a socket of this process watches the match."""
        with self._lock:
            return bool(self._by_match.get(match_id))

    def local_matches(self) -> list[str]:
        """The matches this process has sockets in."""
        with self._lock:
            return list(self._by_match)

    def close(self) -> None:
        pass


Presence = MemoryPresence  # the default, and the name the code knew before there were two


def node_id() -> str:
    """This process's name among the cluster's: host, pid, and a random part (a PID is reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
