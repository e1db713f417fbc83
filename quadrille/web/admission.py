"""Who gets a file descriptor: raw TCP connections counted per address at accept, before any HTTP is read.

Every connection the one process holds is a file descriptor, and the process has a fixed number of them. Two
rules keep them for everyone (`ConnectionGate.admit`, called by the listener for each accepted socket):

- **A cap per address**: an address (an IPv6 client: its /64) may hold `per_address` connections at once; the
  next one is closed at once (a reset), before a byte of it is read.
- **A trusted proxy is no address** (`admit(..., proxy=True)`: a peer in TRUSTED_PROXIES, or on the Unix
  socket; web/security.py's ProxyTrust decides): its connections carry many clients, which it caps itself, so
  they are not capped, never held against it as "the address that holds the most", and never cut to make room.
  Everyone else, a client that reaches the process directly past the proxy included, is capped as above.
- **A reserve**: past `ceiling()` (the descriptor limit less `reserve`, which the process's own files, pools and
  workers need), a connection from an address that holds the most is refused, and a connection from any other
  address (or from the proxy) is admitted in place of the newest connection of the address that holds the
  most, which is cut (shut down: its handler sees the end of the stream and closes it). So however many
  addresses hold however many idle connections, a new address is served, and the one that holds the most pays
  for it. With no address to cut (every connection is the proxy's), a new one is refused.

Counts live in this process only: they are this process's descriptors. The address holding the most is found
in constant time (addresses are kept in buckets by how many connections they hold).
"""
from __future__ import annotations

import itertools
import resource
import threading
import time
from collections.abc import Callable

from ..infra.addresses import address_key

LIMIT_CHECK_INTERVAL = 1.0  # seconds between two readings of the descriptor limit (an operator may change it)
PROXY = "(proxy)"  # the key of a trusted proxy's tickets: never an address's key


def descriptor_limit() -> int:
    """The process's soft limit on open files (`prlimit` may lower it while the process runs)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    return soft


class Ticket:
    """One admitted connection: its address's key, how many descriptors it holds, and how to cut it."""

    __slots__ = ("id", "key", "weight", "cut")

    def __init__(self, id: int, key: str, cut: Callable[[], None]):
        self.id, self.key, self.weight, self.cut = id, key, 1, cut


class ConnectionGate:
    def __init__(self, per_address: int | None, reserve: int, limit: Callable[[], int] = descriptor_limit,
                 clock: Callable[[], float] = time.monotonic):
        self.per_address = per_address
        self.reserve = reserve
        self._limit, self._clock = limit, clock
        self._ceiling, self._ceiling_read = 0, float("-inf")
        self._held: dict[str, dict[int, Ticket]] = {}   # key -> its tickets, oldest first
        self._proxied: dict[int, Ticket] = {}           # the trusted proxy's tickets, apart from every address's
        self._buckets: dict[int, set[str]] = {}         # how many connections -> the keys that hold that many
        self._most = 0                                  # the most any key holds
        self.descriptors = 0                            # held by the admitted connections, all told
        self.refused = 0                                # connections refused since start
        self.cut_short = 0                              # connections cut to make room for another address
        self._ids = itertools.count()
        self._lock = threading.Lock()

    # -- the interface ---------------------------------------------------------------------------
    def admit(self, address: str, cut: Callable[[], None], proxy: bool = False) -> Ticket | None:
        """Count a new connection from `address` (from a trusted proxy: `proxy`), or refuse it (None: close it
        unread). `cut()` ends the connection early, should room be needed for another address."""
        key = PROXY if proxy else address_key(address)
        victim = None
        with self._lock:
            holds = 0 if proxy else len(self._held.get(key, ()))
            if not proxy and self.per_address is not None and holds >= self.per_address:
                self.refused += 1
                return None
            if self.descriptors >= self.ceiling():
                if holds >= self._most:  # this address holds the most (or as much as any): it waits
                    self.refused += 1
                    return None
                victim = self._newest_of_the_most()
                self._forget(victim)
                self.cut_short += 1
            ticket = Ticket(next(self._ids), key, cut)
            self._remember(ticket)
        if victim is not None:
            victim.cut()
        return ticket

    def weigh(self, ticket: Ticket, descriptors: int) -> None:
        """The connection now holds `descriptors` (a WebSocket under gevent holds two: simple-websocket works on a
        duplicate of the connection's descriptor)."""
        with self._lock:
            held = self._proxied if ticket.key == PROXY else self._held.get(ticket.key, {})
            if ticket.id in held:
                self.descriptors += descriptors - ticket.weight
            ticket.weight = descriptors

    def release(self, ticket: Ticket) -> None:
        """The connection is closed (a connection cut earlier is no longer counted: this does nothing)."""
        with self._lock:
            self._forget(ticket)

    def ceiling(self) -> int:
        """Descriptors that connections may hold: the limit less the reserve (at least half the limit)."""
        now = self._clock()
        if now - self._ceiling_read >= LIMIT_CHECK_INTERVAL:
            limit = self._limit()
            self._ceiling, self._ceiling_read = max(limit - self.reserve, limit // 2), now
        return self._ceiling

    def held_by(self, address: str) -> int:
        with self._lock:
            return len(self._held.get(address_key(address), ()))

    # -- the books ---------------------------------------------------------------------------------
    def _remember(self, ticket: Ticket) -> None:
        if ticket.key == PROXY:
            self._proxied[ticket.id] = ticket
            self.descriptors += ticket.weight
            return
        held = self._held.setdefault(ticket.key, {})
        self._move(ticket.key, len(held), len(held) + 1)
        held[ticket.id] = ticket
        self.descriptors += ticket.weight

    def _forget(self, ticket: Ticket) -> None:
        if ticket.key == PROXY:
            if self._proxied.pop(ticket.id, None) is not None:
                self.descriptors -= ticket.weight
            return
        held = self._held.get(ticket.key)
        if held is None or held.pop(ticket.id, None) is None:
            return
        self.descriptors -= ticket.weight
        self._move(ticket.key, len(held) + 1, len(held))
        if not held:
            del self._held[ticket.key]

    def _move(self, key: str, before: int, after: int) -> None:
        if before:
            bucket = self._buckets[before]
            bucket.discard(key)
            if not bucket:
                del self._buckets[before]
        if after:
            self._buckets.setdefault(after, set()).add(key)
        if after > self._most:
            self._most = after
        while self._most and self._most not in self._buckets:
            self._most -= 1

    def _newest_of_the_most(self) -> Ticket:
        key = next(iter(self._buckets[self._most]))
        held = self._held[key]
        return held[next(reversed(held))]
