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
- `RedisPresence`: several processes, each knowing its own sockets, share them in Redis as entries that live
  `ttl` seconds unless their process refreshes them (every ttl/3): the sockets of a process that died vanish
  within `ttl`, and its players count as having left when it last refreshed them.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from typing import Callable

from .background import repeat

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
        if seen:
            self.seen(match_id, seen)
        return {seat: self.absent_since(match_id, seat) for seat in seats}

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


class RedisPresence(MemoryPresence):
    """Presence shared by several processes through Redis.

    Each process keeps its own sockets as MemoryPresence does (`seats_of` and `enter`/`leave` stay local), and
    publishes, per match, one entry in the hash `<prefix>presence:<match>`: its field is the process's node id,
    its value `{"seats": [...], "spectators": n, "until": t}`. A process refreshes its entries every `ttl`/3
    seconds; an entry past `until` belongs to a process that died, and is dropped by whoever reads it, its seats
    recorded as having left when it was last refreshed. Sightings (`last`, `left`, `http` of each seat) live in
    `<prefix>seen:<match>`. Times are wall-clock seconds (time.time), shared by every machine.
    """

    def __init__(self, client, grace: float = 20.0, ttl: float = 10.0, prefix: str = "quadrille:",
                 clock: Callable[[], float] = time.time, spawn: Callable | None = None,
                 sleep: Callable[[float], None] | None = None, node: str | None = None):
        super().__init__(grace=grace, clock=clock)
        self.redis, self.ttl, self.prefix = client, ttl, prefix
        self._pending_left: list[tuple[str, list[int], float]] = []  # seats whose last socket here left
        self._written: dict[tuple[str, int], float] = {}  # (match, seat) -> when `seen` last wrote it
        self._views: dict[str, tuple[float, list, dict]] = {}  # match -> (when read, live entries, sightings)
        self._entered: set[str] = set()  # matches where this process's entry is written and not withdrawn
        self.node = node or node_id()
        self.seen_ttl = int(max(grace, 3600.0))
        started_key = f"{prefix}presence-started"
        self.redis.set(started_key, repr(clock()), nx=True)
        self.started = float(self.redis.get(started_key))
        self._running = True
        if spawn is not None and sleep is not None:
            self._sleep = sleep
            spawn(self._refresh_forever)

    def entries_key(self, match_id: str) -> str:
        """The hash whose fields name the processes with a socket in the match (`self.node` is this one's):
        a field is written before the socket joins the match's room, and removed after its last socket left."""
        return f"{self.prefix}presence:{match_id}"

    def _seen_key(self, match_id: str) -> str:
        return f"{self.prefix}seen:{match_id}"

    # -- this process's sockets -----------------------------------------------------------------------
    def enter(self, sid: str, match_id: str, seats: list[int]) -> str | None:
        with self._lock:
            previous = self._by_sid.get(sid, (None,))[0]
        left = super().enter(sid, match_id, seats)
        self._publish([match_id] + ([previous] if previous and previous != match_id else []))
        return left

    def leave(self, sid: str) -> str | None:
        left = super().leave(sid)
        if left:
            self._publish([left])
        return left

    def _forget(self, sid: str) -> str | None:
        entry = self._by_sid.get(sid)
        match_id = super()._forget(sid)
        if entry is not None:  # the seats this socket held, that no other socket of this process holds now
            held = self._held(match_id)
            gone = [seat for seat in entry[1] if seat not in held]
            if gone:
                self._pending_left.append((match_id, gone, self.clock()))
        return match_id

    def _entry(self, match_id: str, until: float) -> str | None:
        watchers = self._by_match.get(match_id)
        if not watchers:
            return None
        seats = sorted(s for held in watchers.values() for s in held)
        return json.dumps({"seats": seats, "spectators": sum(1 for held in watchers.values() if not held),
                           "until": until})

    def _publish(self, match_ids: list[str]) -> None:
        until = self.clock() + self.ttl
        with self._lock:
            for match_id in match_ids:
                self._views.pop(match_id, None)
            entries = [(m, self._entry(m, until)) for m in match_ids]
            left, self._pending_left = self._pending_left, []
        pipe = self.redis.pipeline(transaction=False)
        for match_id, gone, at in left:
            fields = {f"{name}:{seat}": repr(at) for seat in gone for name in ("last", "left")}
            pipe.hset(self._seen_key(match_id), mapping=fields)
            pipe.expire(self._seen_key(match_id), self.seen_ttl)
        written = []  # (match, the index of its HSET's answer: 1 when the field was new)
        for match_id, entry in entries:
            if entry is None:
                pipe.hdel(self.entries_key(match_id), self.node)
            else:
                written.append((match_id, len(pipe)))
                pipe.hset(self.entries_key(match_id), self.node, entry)
                pipe.expire(self.entries_key(match_id), int(self.ttl * 3) + 1)
        answers = pipe.execute()
        with self._lock:
            new = [m for m, at in written if answers[at] == 1]
            restored = [m for m in new if m in self._entered]
            self._entered.difference_update(m for m, entry in entries if entry is None)
            self._entered.update(m for m, _ in written)
        if self.on_new_entry is not None:
            for match_id in new:
                self.on_new_entry(match_id)
        for match_id in restored:
            log.warning("presence in %s had lapsed while this process kept sockets there", match_id)
            if self.on_restored is not None:
                self.on_restored(match_id)

    def _refresh_forever(self) -> None:
        repeat(self.refresh, self.ttl / 3, sleep=self._sleep, running=lambda: self._running,
               failure="presence could not be refreshed in Redis")

    def refresh(self) -> None:
        """Rewrite this process's entries (they lapse after `ttl` unless refreshed) and reap the dead's."""
        matches = self.local_matches()
        self._publish(matches)
        self.reap(matches)

    def close(self) -> None:
        """Withdraw this process's entries (a clean stop: its players left now)."""
        self._running = False
        with self._lock:
            sids = list(self._by_sid)
        touched = {m for m in (super(RedisPresence, self).leave(sid) for sid in sids) if m}
        try:
            self._publish(sorted(touched))
        except Exception:
            pass

    def reap(self, match_ids: list[str]) -> list[str]:
        """Look for other processes' lapsed entries in these matches (one round trip for all), drop them, and
        tell `on_change` of each match where a dead process's sockets vanished, so that its room hears it."""
        if not match_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hvals(self.entries_key(match_id))
        now, changed = self.clock(), []
        for match_id, values in zip(match_ids, pipe.execute()):
            if any(json.loads(value)["until"] < now for value in values):
                self._view(match_id)  # records when their players left, and drops them
                changed.append(match_id)
        for match_id in changed:
            self._views.pop(match_id, None)
            if self.on_change is not None:
                self.on_change(match_id)
        return changed

    # -- the cluster's view -----------------------------------------------------------------------------
    SEEN_EVERY = 5.0  # seconds (at most a quarter of the grace): how often one process writes a seat's sightings

    def seen(self, match_id: str, seats: list[int]) -> None:
        """A player acted (over HTTP, or any authenticated action): written to Redis at most every few seconds
        per seat from this process (every move of a game would be a round trip), and at once after a socket of
        theirs left here, so that a player who acts after leaving is not taken for away."""
        if not seats:
            return
        now = self.clock()
        with self._lock:
            every = min(self.SEEN_EVERY, self.grace / 4)
            # A seat a socket of this process holds is online in this process's entry (refreshed while the socket
            # lives, and its leaving is written when it goes): its sightings need no write. That is every move
            # made through a page's own socket.
            here = self._held(match_id)
            due = [seat for seat in seats if seat not in here and (
                   now - self._written.get((match_id, seat), -1e9) >= every
                   or self._left.get((match_id, seat), -1e9) >= self._written.get((match_id, seat), -1e9))]
            for seat in due:
                self._written[(match_id, seat)] = now
            if len(self._written) > 8192:
                self._written = {k: at for k, at in self._written.items() if now - at < self.SEEN_EVERY}
        if not due:
            return
        self._views.pop(match_id, None)
        seats, now = due, repr(now)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(self._seen_key(match_id), mapping={f"{name}:{seat}": now for seat in seats
                                                     for name in ("last", "http")})
        pipe.expire(self._seen_key(match_id), self.seen_ttl)
        pipe.execute()

    def _view(self, match_id: str) -> tuple[list[dict], dict[str, float]]:
        """The live entries of every process, and the sightings; entries of dead processes are dropped here,
        their seats recorded as having left when the entry was last refreshed."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.entries_key(match_id))
        pipe.hgetall(self._seen_key(match_id))
        raw, seen_raw = pipe.execute()
        now = self.clock()
        live, dead, seen = [], {}, {k.decode(): float(v) for k, v in seen_raw.items()}
        for node, value in raw.items():
            entry = json.loads(value)
            if entry["until"] >= now:
                live.append(entry)
            else:
                dead[node] = entry
        if dead:
            fields = {}
            for entry in dead.values():
                refreshed = entry["until"] - self.ttl
                for seat in entry["seats"]:
                    for name in ("last", "left"):
                        key = f"{name}:{seat}"
                        if seen.get(key, 0.0) < refreshed:
                            seen[key] = fields[key] = refreshed
            pipe = self.redis.pipeline(transaction=False)
            if fields:
                pipe.hset(self._seen_key(match_id), mapping={k: repr(v) for k, v in fields.items()})
                pipe.expire(self._seen_key(match_id), self.seen_ttl)
            pipe.hdel(self.entries_key(match_id), *dead)
            pipe.execute()
        return live, seen

    def online(self, match_id: str) -> list[int]:
        live, _ = self._view(match_id)
        return sorted({s for entry in live for s in entry["seats"]})

    def present(self, match_id: str, seat: int) -> bool:
        live, seen = self._view(match_id)
        if any(seat in entry["seats"] for entry in live):
            return True
        at = seen.get(f"last:{seat}")
        return at is not None and self.clock() - at <= self.grace

    def absent_since(self, match_id: str, seat: int) -> float | None:
        return self.absences(match_id, [seat], fresh=True)[seat]

    VIEW_TTL = 1.0  # seconds a match's view from Redis serves the STATEs of its moves

    def _kept_view(self, match_id: str) -> tuple[list[dict], dict[str, float]]:
        """The match's view read now, and kept for the `absences` of the next VIEW_TTL (counted from before the
        read)."""
        now = self.clock()
        live, seen = self._view(match_id)
        self._views[match_id] = (now, live, seen)
        if len(self._views) > 4096:
            self._views = {m: v for m, v in self._views.items() if now - v[0] < self.VIEW_TTL}
        return live, seen

    def absences(self, match_id: str, seats: list[int], fresh: bool = False,
                 seen: list[int] = ()) -> dict[int, float | None]:
        """As MemoryPresence's. Every STATE asks (who is away): when its players are connected to other
        processes, one look at Redis serves the STATEs of a second (`fresh`: look now, as a claim does);
        this process's own changes, and the dead processes it reaps, are seen at once."""
        if seen:
            self.seen(match_id, seen)
        with self._lock:  # every seat connected here: nobody is away, and Redis need not be asked
            local = self._held(match_id)
        if set(seats) <= local:
            return {seat: None for seat in seats}
        cached = None if fresh else self._views.get(match_id)
        if cached is not None and self.clock() - cached[0] < self.VIEW_TTL:
            live, seen = cached[1], cached[2]
        else:
            live, seen = self._kept_view(match_id)
        online = {s for entry in live for s in entry["seats"]}
        now, found = self.clock(), {}
        for seat in seats:
            if seat in online:
                found[seat] = None
                continue
            found[seat] = away_since(seen.get(f"left:{seat}"), seen.get(f"http:{seat}"), self.grace, now,
                                     self.started)
        return found

    def watching(self, match_id: str) -> bool:
        if self.has_sockets_in(match_id):
            return True
        live, _ = self._view(match_id)
        return bool(live)

    def summary(self, match_id: str) -> dict:
        """Read now (a room's presence message must not be a second old); the away seats that a presence
        message names next are then read from the same view."""
        live, _ = self._kept_view(match_id)
        online = sorted({s for entry in live for s in entry["seats"]})
        return {"match": match_id, "online": online, "spectators": sum(entry["spectators"] for entry in live)}
