"""Budgets: how much one socket or one address may ask of the server.

HTTP routes are limited by Flask-Limiter (configured in the factory on the same storage); this module
keeps the budgets Flask-Limiter cannot see, those of Socket.IO: events per socket and per address, and
connections per address. Counting is the `limits` library's (a sliding window counter: constant memory
per key, no burst at window edges), on its memory storage or on Redis when one is configured, so that the
counts hold across processes. A socket lives in one process, so its own budget is always counted in memory;
an address's events and connections per minute are counted in the configured storage.

In a shared storage an address's events are counted in batches of a hundredth of its budget: a round trip to
Redis (a Lua script) for every event of every socket was the largest part of what a move cost over the
processes' own work. A process lets an address's events through until a batch is full, then adds the batch to
the shared count; once the shared count refuses, that process refuses the address's events without asking
again for a hundredth of the window. So over N processes an address may overshoot its budget by N hundredths
of it, never more, and a flood from an address already over budget costs no round trip per event.

Open connections are counted in this process only: they are this process's file descriptors and
greenlets, and a count in a shared store would outlive a process that died holding it. So are the sockets each
address has watching each match (`Audiences`). Callers key addresses with `infra.addresses.address_key` (an
IPv6 client is its /64).

The budgets spent on every event that this process counts in its own memory (each socket's, and each address's
when nothing is shared) are counted by `SlidingWindows`: the same sliding window counter as the `limits`
library's memory storage, counted the same way, without the key strings, the lock per key and the timer
sweeping every key that the library pays for (an event's budgets: 12 us -> 3 us).
"""
from __future__ import annotations

import math
import threading
import time
from collections import Counter
from typing import Callable

from limits import RateLimitItem, parse, storage, strategies
from limits.storage import MemoryStorage


class SweepingMemoryStorage(MemoryStorage):
    """`limits`' memory storage, but its sweep of expired keys runs once a second instead of every 10 ms.
    With a key per socket, the sweep walked every key a hundred times a second: a tenth of the server's time
    under the load benchmark. Expired counts are dropped when read regardless, so only memory waits longer."""

    STORAGE_SCHEME = ["quadrille-memory"]
    SWEEP_INTERVAL = 1.0

    def __init__(self, *args, **kwargs):
        self._next_sweep = 0.0
        super().__init__(*args, **kwargs)

    def _MemoryStorage__schedule_expiry(self) -> None:  # replaces the base class's private scheduler
        now = time.monotonic()
        if now >= self._next_sweep and not self.timer.is_alive():
            self._next_sweep = now + self.SWEEP_INTERVAL
            self.timer = threading.Timer(0.0, self._MemoryStorage__expire_events)
            self.timer.daemon = True
            self.timer.start()


class SlidingWindows:
    """Budgets counted in this process's memory (a socket's, or an address's when there is one process),
    exactly as `limits`' sliding window counter counts them in its memory storage: a count per window of the
    limit's length (`int(now / length)`), the previous window's count weighted by the part of it still
    inside the sliding window, a hit refused when the floor of that weighted sum plus its cost would pass
    the limit, and a window's count kept for twice the length after its first hit. A socket's counts go
    when it disconnects (`forget`), and counts left behind are swept now and then."""

    SWEEP_EVERY = 10_000  # hits between sweeps of expired counts (an address's, a socket never forgotten)

    def __init__(self, clock: Callable[[], float] = time.time):
        self.clock = clock
        # key (a socket, an address) -> (limit, window length) -> window index -> [count, when it expires]
        self._counts: dict[str, dict[tuple[int, int], dict[int, list]]] = {}
        self._hits = 0

    def hit(self, item: RateLimitItem, key: str, cost: int = 1) -> bool:
        limit, length = item.amount, item.get_expiry()
        if cost > limit:
            return False
        now = self.clock()
        windows = self._counts.setdefault(key, {}).setdefault((limit, length), {})
        previous_index, current_index = int((now - length) / length), int(now / length)
        previous = self._count(windows, previous_index, now)
        current = self._count(windows, current_index, now)
        previous_ttl = 0.0 if previous == 0 else (1 - (((now - length) / length) % 1)) * length
        if math.floor(previous * previous_ttl / length + current) + cost > limit:
            return False
        if current == 0:
            windows[current_index] = [cost, now + 2 * length]
        else:
            windows[current_index][0] += cost
        for index in [i for i in windows if i < previous_index]:  # never read again
            del windows[index]
        self._hits += 1
        if self._hits % self.SWEEP_EVERY == 0:
            self._sweep(now)
        return True

    @staticmethod
    def _count(windows: dict[int, list], index: int, now: float) -> int:
        entry = windows.get(index)
        if entry is None:
            return 0
        if entry[1] <= now:
            del windows[index]
            return 0
        return entry[0]

    def forget(self, key: str) -> None:
        self._counts.pop(key, None)

    def _sweep(self, now: float) -> None:
        for key in list(self._counts):
            budgets = self._counts[key]
            for limit in list(budgets):
                budgets[limit] = {i: entry for i, entry in budgets[limit].items() if entry[1] > now}
                if not budgets[limit]:
                    del budgets[limit]
            if not budgets:
                del self._counts[key]


def counter_storage_uri(uri: str) -> str:
    """The storage behind a budget: memory (swept as above) unless the URI names another, such as Redis (a
    Redis Unix socket, which redis-py writes `unix://`, is `redis+unix://` to the `limits` library)."""
    if uri.startswith("memory://"):
        return "quadrille-memory://"
    return "redis+" + uri if uri.startswith("unix://") else uri


class Budgets:
    def __init__(self, storage_uri: str = "memory://", *, player_events: str, spectator_events: str,
                 address_events: str, connections_per_address: int, connection_rate: str,
                 refusals_before_close: int, enabled: bool = True, storage_options: dict | None = None):
        """`storage_options`: for a storage other than memory (a Redis connection pool to share)."""
        self.enabled = enabled
        uri = counter_storage_uri(storage_uri)
        remote = not uri.startswith("quadrille-memory")
        self.limiter = strategies.SlidingWindowCounterRateLimiter(
            storage.storage_from_string(uri, **((storage_options or {}) if remote else {})))
        self.sockets = SlidingWindows()  # per socket: this process's memory, whatever stores the addresses' counts
        self.addresses = None if remote else SlidingWindows()  # per address, when this process is the only one
        self.player_events = parse(player_events)
        self.spectator_events = parse(spectator_events)
        self.address_events = parse(address_events)
        self.connection_rate = parse(connection_rate)
        self.connections_per_address = connections_per_address
        self.refusals_before_close = refusals_before_close
        self.address_batch = max(1, self.address_events.amount // 100) if remote else 1
        self.address_recheck = self.address_events.get_expiry() / 100  # seconds an address over budget waits
        self._unsent: Counter[str] = Counter()  # address -> events let through, not yet in the shared count
        self._refused_until: dict[str, float] = {}  # address -> when to ask the shared count again
        self._open: Counter[str] = Counter()
        self._refusals: Counter[str] = Counter()
        self._lock = threading.Lock()

    # -- connections -------------------------------------------------------------------------------
    def connect(self, address: str) -> bool:
        """Count a new connection from `address`; False (and nothing counted) if it is over budget."""
        if not self.enabled:
            return True
        with self._lock:
            if self._open[address] >= self.connections_per_address:
                return False
            self._open[address] += 1
        if not self.limiter.hit(self.connection_rate, "connect", address):
            self.disconnect(address)
            return False
        return True

    def disconnect(self, address: str) -> None:
        if not self.enabled:
            return
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]

    def open_connections(self, address: str) -> int:
        with self._lock:
            return self._open.get(address, 0)

    # -- events ------------------------------------------------------------------------------------
    def event(self, sid: str, address: str, player: bool, cost: int = 1) -> bool:
        """Spend `cost` of the socket's budget and of its address's; False when either is spent."""
        if not self.enabled:
            return True
        per_socket = self.player_events if player else self.spectator_events
        allowed = self.sockets.hit(per_socket, sid, cost) and self._address_allows(address, cost)
        with self._lock:
            if allowed:
                self._refusals.pop(sid, None)
            else:
                self._refusals[sid] += 1
        return allowed

    def _address_allows(self, address: str, cost: int) -> bool:
        """Spend `cost` of the address's budget: in this process's memory when it is the only one, else in the
        shared storage, a batch at a time (see above)."""
        if self.addresses is not None:
            return self.addresses.hit(self.address_events, address, cost)
        if self.address_batch == 1:
            return self.limiter.hit(self.address_events, "address", address, cost=cost)
        now = time.monotonic()
        with self._lock:
            asked_again = address in self._refused_until
            if asked_again and now < self._refused_until[address]:
                return False
            unsent = self._unsent.pop(address, 0) + cost
            if unsent < self.address_batch and not asked_again:
                self._unsent[address] = unsent
                if len(self._unsent) > 10_000:  # many addresses: forget their partial batches (each < a batch)
                    self._unsent.clear()
                return True
        allowed = self.limiter.hit(self.address_events, "address", address, cost=unsent)
        with self._lock:
            if allowed:
                self._refused_until.pop(address, None)
            else:
                self._refused_until[address] = now + self.address_recheck
                if len(self._refused_until) > 10_000:
                    self._refused_until = {a: t for a, t in self._refused_until.items() if t > now}
        return allowed

    def should_close(self, sid: str) -> bool:
        """A socket that keeps sending after many refusals in a row is not a person: close it."""
        with self._lock:
            return self._refusals.get(sid, 0) >= self.refusals_before_close

    def forget(self, sid: str) -> None:
        """The socket disconnected: its counts go with it."""
        with self._lock:
            self._refusals.pop(sid, None)
        self.sockets.forget(sid)


class Audiences:
    """How many sockets of each address (its `address_key`) watch each match, in this process, and the cap on
    it: every watcher multiplies the match's broadcasts, and one address could otherwise attach hundreds. A
    socket counts for the match it watches now (watching another one moves it). In a cluster nginx sends every
    socket of a match to its home process, so this process's count is the match's."""

    def __init__(self, per_address: int):
        self.per_address = per_address
        self._watching: dict[str, tuple[str, str]] = {}  # sid -> (match, address key)
        self._counts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def enter(self, sid: str, match_id: str, key: str) -> bool:
        """Count `sid` as watching `match_id`; False (and nothing changed) if its address is at the cap there."""
        with self._lock:
            if self._watching.get(sid) == (match_id, key):
                return True
            if self._counts[(match_id, key)] >= self.per_address:
                return False
            self._leave(sid)
            self._watching[sid] = (match_id, key)
            self._counts[(match_id, key)] += 1
            return True

    def leave(self, sid: str) -> None:
        with self._lock:
            self._leave(sid)

    def _leave(self, sid: str) -> None:
        watched = self._watching.pop(sid, None)
        if watched is not None:
            self._counts[watched] -= 1
            if self._counts[watched] <= 0:
                del self._counts[watched]
