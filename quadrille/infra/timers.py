"""Timers: something to do at a given time, done once, whichever process is alive then.

    timers.handle(prefix, handler)   # handler(keys) runs for the due keys that start with prefix
    timers.schedule(key, when)       # when: seconds on the timers' clock; the earliest of two schedules stands
    timers.cancel(*keys)
    timers.fire_due() -> keys        # run the due ones now (the background task calls it; tests call it)

A key names what is due (`away:<match>:<seat>:<deadline>` for the disconnect timeout; a chess clock's flag
would be `flag:<match>:<version>`), so scheduling the same thing twice schedules it once.

Two implementations, chosen by the application factory:
- `MemoryTimers`: a heap, and a background task that sleeps until the next deadline (it runs only while
  deadlines are pending). Cancelled keys leave the heap when they are most of it.
- `RedisTimers`: one sorted set in Redis for the whole cluster (member: the key, score: when). Every process
  polls it; a due key is fired by the one process whose ZREM removed it, so it fires once, and a timer
  scheduled by a process that died meanwhile still fires in another.
"""
from __future__ import annotations

import heapq
import logging
import threading
import time
from typing import Callable

from .background import repeat

log = logging.getLogger("quadrille")
COMPACT_AT = 64  # dead heap entries tolerated before MemoryTimers compacts its heap


class _Handlers:
    def __init__(self):
        self._handlers: list[tuple[str, Callable[[list[str]], None]]] = []

    def handle(self, prefix: str, handler: Callable[[list[str]], None]) -> None:
        self._handlers.append((prefix, handler))

    def _dispatch(self, keys: list[str]) -> None:
        for prefix, handler in self._handlers:
            mine = [key for key in keys if key.startswith(prefix)]
            if mine:
                try:
                    handler(mine)
                except Exception:
                    log.exception("a timer's handler failed (%s)", prefix)


class MemoryTimers(_Handlers):
    def __init__(self, clock: Callable[[], float] = time.monotonic, spawn: Callable | None = None,
                 sleep: Callable[[float], None] | None = None):
        super().__init__()
        self.clock, self._spawn, self._sleep = clock, spawn, sleep
        self._heap: list[tuple[float, str]] = []
        self._when: dict[str, float] = {}
        self._dead = 0  # heap entries of keys cancelled or scheduled again earlier: skipped when they come up
        self._running = False
        self._lock = threading.Lock()

    def schedule(self, key: str, when: float) -> None:
        with self._lock:
            if key in self._when and self._when[key] <= when:
                return
            if key in self._when:
                self._dead += 1  # the later entry of this key is skipped when it comes up
            self._when[key] = when
            heapq.heappush(self._heap, (when, key))
            start = not self._running and self._spawn is not None
            self._running = self._running or start
        if start:
            self._spawn(self._run)

    def cancel(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                if self._when.pop(key, None) is not None:
                    self._dead += 1
            self._compact()

    def _compact(self) -> None:
        """Drop the entries of cancelled and superseded keys once they are most of the heap (a clock's flag is
        cancelled and set again at every move: a correspondence game left hundreds of dead entries, each kept
        until its time, days away). Linear in the heap, once per as many cancellations: amortised O(1)."""
        if self._dead > COMPACT_AT and self._dead * 2 > len(self._heap):
            self._heap = [(when, key) for key, when in self._when.items()]
            heapq.heapify(self._heap)
            self._dead = 0

    def __len__(self) -> int:
        """Entries in the heap, live or dead (what it holds in memory)."""
        return len(self._heap)

    def fire_due(self) -> list[str]:
        now, due = self.clock(), []
        with self._lock:
            while self._heap and self._heap[0][0] <= now:
                when, key = heapq.heappop(self._heap)
                if self._when.get(key) == when:
                    del self._when[key]
                    due.append(key)
                else:
                    self._dead = max(self._dead - 1, 0)
        if due:
            self._dispatch(due)
        return due

    def next_wait(self) -> float | None:
        with self._lock:
            return max(self._heap[0][0] - self.clock(), 0.0) if self._heap else None

    def _run(self) -> None:
        """While deadlines are pending: wake at the next one (at least once a second, since the clock may be
        another than the sleep's), fire, and end when none is left."""
        while True:
            wait = self.next_wait()
            if wait is None:
                with self._lock:
                    if not self._heap:
                        self._running = False
                        return
                continue
            self._sleep(min(wait, 1.0) + 0.01)
            self.fire_due()

    def close(self) -> None:
        pass


class RedisTimers(_Handlers):
    POLL = 0.25  # seconds between two looks at the sorted set: how late a timer may fire

    def __init__(self, client, prefix: str = "quadrille:", clock: Callable[[], float] = time.time,
                 spawn: Callable | None = None, sleep: Callable[[float], None] | None = None):
        super().__init__()
        self.redis, self.clock = client, clock
        self.key = f"{prefix}timers"
        self._running = True
        if spawn is not None and sleep is not None:
            self._sleep = sleep
            spawn(self._poll_forever)

    def schedule(self, key: str, when: float) -> None:
        self.redis.zadd(self.key, {key: when}, lt=True)  # a new key, or an earlier time for a known one

    def cancel(self, *keys: str) -> None:
        if keys:
            self.redis.zrem(self.key, *keys)  # one round trip for them all

    def fire_due(self) -> list[str]:
        candidates = self.redis.zrangebyscore(self.key, "-inf", self.clock(), start=0, num=200)
        if not candidates:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for key in candidates:
            pipe.zrem(self.key, key)
        mine = [key.decode() for key, removed in zip(candidates, pipe.execute()) if removed]
        if mine:
            self._dispatch(mine)
        return mine

    def next_wait(self) -> float | None:
        first = self.redis.zrange(self.key, 0, 0, withscores=True)
        return max(first[0][1] - self.clock(), 0.0) if first else None

    def _poll_forever(self) -> None:
        repeat(self.fire_due, self.POLL, sleep=self._sleep, running=lambda: self._running,
               failure="timers could not be read from Redis")

    def close(self) -> None:
        self._running = False
