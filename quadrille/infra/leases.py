"""Leases: one process at a time does a thing (drives a computer seat, fires a timer), and another takes over
within seconds if that process dies.

    leases.acquire(key, ttl) -> bool   # True: this process holds `key` now (again, if it held it already)
    leases.release(key)                # let it go (only if this process holds it)
    leases.held(key) -> bool           # whether this process holds it

A lease held is renewed while its process lives (every ttl/3, by one background task); a process that dies
stops renewing, and its leases lapse `ttl` seconds later at most. Two implementations, chosen by the
application factory: `MemoryLeases` (one process: a lease is a note in a dict) and `RedisLeases` (a key per
lease, `SET NX PX`, renewed and released only by its holder, checked by a script in Redis).
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from .background import repeat
from .presence import node_id


class MemoryLeases:
    def __init__(self, clock: Callable[[], float] = time.monotonic, node: str = "local"):
        self.clock, self.node = clock, node
        self._held: dict[str, float] = {}   # key -> when it lapses
        self._lock = threading.Lock()

    def acquire(self, key: str, ttl: float) -> bool:
        with self._lock:
            self._held[key] = self.clock() + ttl
            if len(self._held) > 4096:
                now = self.clock()
                self._held = {k: until for k, until in self._held.items() if until > now}
            return True

    def release(self, key: str) -> None:
        with self._lock:
            self._held.pop(key, None)

    def held(self, key: str) -> bool:
        with self._lock:
            return self._held.get(key, 0.0) > self.clock()

    def close(self) -> None:
        pass


_RENEW = """
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[i + 1]) end
end
return 0
"""
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


class RedisLeases:
    def __init__(self, client, prefix: str = "quadrille:", spawn: Callable | None = None,
                 sleep: Callable[[float], None] | None = None, node: str | None = None, every: float = 1.0):
        self.redis, self.prefix = client, prefix
        self.node = node or node_id()
        self._held: dict[str, float] = {}   # key -> ttl, renewed while held
        self._lock = threading.Lock()
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._running = True
        self.every = every
        if spawn is not None and sleep is not None:
            self._sleep = sleep
            spawn(self._renew_forever)

    def _key(self, key: str) -> str:
        return f"{self.prefix}lease:{key}"

    def acquire(self, key: str, ttl: float) -> bool:
        name = self._key(key)
        ms = int(ttl * 1000)
        if not self.redis.set(name, self.node, nx=True, px=ms):  # taken with its expiry, or held already:
            if self.redis.get(name) != self.node.encode():
                return False
            self.redis.pexpire(name, ms)  # held by this process: its time starts again
        with self._lock:
            self._held[key] = ttl
        return True

    def release(self, key: str) -> None:
        with self._lock:
            self._held.pop(key, None)
        self._release(keys=[self._key(key)], args=[self.node])

    def held(self, key: str) -> bool:
        return self.redis.get(self._key(key)) == self.node.encode()

    def renew(self) -> None:
        with self._lock:
            held = list(self._held.items())
        if held:
            self._renew(keys=[self._key(k) for k, _ in held], args=[self.node, *(int(t * 1000) for _, t in held)])

    def _renew_forever(self) -> None:
        repeat(self.renew, self.every, sleep=self._sleep, running=lambda: self._running,
               failure="leases could not be renewed in Redis")

    def close(self) -> None:
        self._running = False
        with self._lock:
            held, self._held = list(self._held), {}
        for key in held:
            try:
                self._release(keys=[self._key(key)], args=[self.node])
            except Exception:
                pass
