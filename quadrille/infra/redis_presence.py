"""Presence shared by several processes through Redis: `RedisPresence`, the interface of presence.py's
MemoryPresence, for a cluster (the application factory picks it when a message queue is configured)."""
from __future__ import annotations

import json
import logging
import time
from typing import Callable

from .background import repeat
from .presence import MemoryPresence, away_since, node_id

log = logging.getLogger("quadrille.presence")


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
