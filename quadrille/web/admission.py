"""Who gets a file descriptor, and who may wait: raw TCP connections counted per address at accept, before any
HTTP is read, and again while they wait for a request.

Every connection the one process holds is a file descriptor, and the process has a fixed number of them; every
connection that waits for a request is one the event loop must close when it goes, and a flood's connections all
go at once. Three rules keep both for everyone (`ConnectionGate`, called by the listener for each accepted
socket, and by its handlers as a connection's requests come and go):

- **A cap per address**: an address (an IPv6 client: its /64) may hold `per_address` connections at once; the
  next one is closed at once (a reset), before a byte of it is read.
- **A reserve**: past `ceiling()` (the descriptor limit less `reserve`, which the process's own files, pools and
  workers need), a connection from an address that holds the most is refused, and a connection from any other
  address (or from the proxy) is admitted in place of the newest connection of the address that holds the
  most, which is cut (shut down: its handler sees the end of the stream and closes it). So however many
  addresses hold however many idle connections, a new address is served, and the one that holds the most pays
  for it. With no address to cut (every connection is the proxy's), a new one is refused.
- **A cap on waiting connections** (`waiting_cap`, for all addresses together): a connection waits from its
  accept until its first request has arrived whole, and again from each answer until the next request has
  (`waiting()`, `serving()`); a WebSocket or a request being served never waits. Past the cap, a connection
  that starts to wait takes the place of the oldest waiting connection of the address that waits with the most
  (cut: it has sent nothing whole, so nothing is lost; a browser reopens a kept-alive connection it finds
  closed). So the loop never holds more connections that may all end at once than it can close between two
  of another client's frames, a newcomer is served however many addresses flood it, and the flood's own
  connections pay.
- **A trusted proxy is no address** (`admit(..., proxy=True)`: a peer in TRUSTED_PROXIES, or on the Unix
  socket; web/security.py's ProxyTrust decides): its connections carry many clients, which it caps itself, so
  they are not capped, never held against it as "the address that holds the most", never cut to make room,
  and never count as waiting (nginx reads a client's request whole before it opens or reuses a connection).
  Everyone else, a client that reaches the process directly past the proxy included, is capped as above.

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
    """One admitted connection: its address's key, how many descriptors it holds, and how to cut it (whoever
    holds the connection at the moment may change that: the listener's waiting room closes a connection it
    holds itself)."""

    __slots__ = ("id", "key", "weight", "cut")

    def __init__(self, id: int, key: str, cut: Callable[[], None]):
        self.id, self.key, self.weight, self.cut = id, key, 1, cut


class Holdings:
    """Tickets held per key, each key's oldest first, and the key that holds the most, found in constant time
    (keys are kept in buckets by how many tickets they hold)."""

    def __init__(self):
        self._held: dict[str, dict[int, Ticket]] = {}   # key -> its tickets, oldest first
        self._buckets: dict[int, set[str]] = {}         # how many tickets -> the keys that hold that many
        self.most = 0                                   # the most any key holds
        self.count = 0                                  # tickets held, all told

    def holds(self, key: str) -> int:
        return len(self._held.get(key, ()))

    def __contains__(self, ticket: Ticket) -> bool:
        return ticket.id in self._held.get(ticket.key, ())

    def add(self, ticket: Ticket) -> None:
        held = self._held.setdefault(ticket.key, {})
        self._move(ticket.key, len(held), len(held) + 1)
        held[ticket.id] = ticket
        self.count += 1

    def remove(self, ticket: Ticket) -> bool:
        """Whether the ticket was held (and is no longer)."""
        held = self._held.get(ticket.key)
        if held is None or held.pop(ticket.id, None) is None:
            return False
        self.count -= 1
        self._move(ticket.key, len(held) + 1, len(held))
        if not held:
            del self._held[ticket.key]
        return True

    def newest_of_the_most(self) -> Ticket:
        held = self._held[next(iter(self._buckets[self.most]))]
        return held[next(reversed(held))]

    def oldest_of_the_most(self) -> Ticket:
        held = self._held[next(iter(self._buckets[self.most]))]
        return held[next(iter(held))]

    def _move(self, key: str, before: int, after: int) -> None:
        if before:
            bucket = self._buckets[before]
            bucket.discard(key)
            if not bucket:
                del self._buckets[before]
        if after:
            self._buckets.setdefault(after, set()).add(key)
        if after > self.most:
            self.most = after
        while self.most and self.most not in self._buckets:
            self.most -= 1


class ConnectionGate:
    def __init__(self, per_address: int | None, reserve: int, waiting_cap: int | None = None,
                 limit: Callable[[], int] = descriptor_limit, clock: Callable[[], float] = time.monotonic):
        self.per_address = per_address
        self.reserve = reserve
        self.waiting_cap = waiting_cap
        self._limit, self._clock = limit, clock
        self._ceiling, self._ceiling_read = 0, float("-inf")
        self._open = Holdings()                         # every address's admitted connections
        self._waiting = Holdings()                      # those of them waiting for a request
        self._proxied: dict[int, Ticket] = {}           # the trusted proxy's tickets, apart from every address's
        self.descriptors = 0                            # held by the admitted connections, all told
        self.refused = 0                                # connections refused since start
        self.cut_short = 0                              # connections cut to make room for another address
        self.evicted = 0                                # waiting connections cut to make room for another
        self._ids = itertools.count()
        self._lock = threading.Lock()

    # -- the interface ---------------------------------------------------------------------------
    def admit(self, address: str, cut: Callable[[], None], proxy: bool = False) -> Ticket | None:
        """Count a new connection from `address` (from a trusted proxy: `proxy`), or refuse it (None: close it
        unread). It waits for its first request from now. `cut()` ends the connection early, should room be
        needed for another."""
        key = PROXY if proxy else address_key(address)
        cut_short = None
        with self._lock:
            holds = 0 if proxy else self._open.holds(key)
            if not proxy and self.per_address is not None and holds >= self.per_address:
                self.refused += 1
                return None
            if self.descriptors >= self.ceiling():
                if holds >= self._open.most:  # this address holds the most (or as much as any): it waits
                    self.refused += 1
                    return None
                cut_short = self._open.newest_of_the_most()
                self._forget(cut_short)
                self.cut_short += 1
            ticket = Ticket(next(self._ids), key, cut)
            self._remember(ticket)
            evicted = self._wait(ticket)
        for other in (cut_short, evicted):
            if other is not None:
                other.cut()
        return ticket

    def waiting(self, ticket: Ticket) -> None:
        """The connection waits for its next request (its last answer is sent)."""
        with self._lock:
            evicted = self._wait(ticket)
        if evicted is not None:
            evicted.cut()

    def serving(self, ticket: Ticket) -> None:
        """A request of the connection has arrived whole (or it became a WebSocket): it no longer waits."""
        with self._lock:
            self._waiting.remove(ticket)

    def weigh(self, ticket: Ticket, descriptors: int) -> None:
        """The connection now holds `descriptors` (a WebSocket under gevent holds two: simple-websocket works on a
        duplicate of the connection's descriptor)."""
        with self._lock:
            if self._holds(ticket):
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
            return self._open.holds(address_key(address))

    def waiting_count(self) -> int:
        with self._lock:
            return self._waiting.count

    # -- the books ---------------------------------------------------------------------------------
    def _holds(self, ticket: Ticket) -> bool:
        return ticket.id in self._proxied if ticket.key == PROXY else ticket in self._open

    def _wait(self, ticket: Ticket) -> Ticket | None:
        """Count the ticket as waiting; the ticket it takes the place of, if the cap is reached (forgotten here,
        to be cut by the caller)."""
        if ticket.key == PROXY or ticket in self._waiting or ticket not in self._open:
            return None
        evicted = None
        if self.waiting_cap is not None and self._waiting.count >= self.waiting_cap:
            evicted = self._waiting.oldest_of_the_most()
            self._forget(evicted)
            self.evicted += 1
        self._waiting.add(ticket)
        return evicted

    def _remember(self, ticket: Ticket) -> None:
        if ticket.key == PROXY:
            self._proxied[ticket.id] = ticket
        else:
            self._open.add(ticket)
        self.descriptors += ticket.weight

    def _forget(self, ticket: Ticket) -> None:
        if ticket.key == PROXY:
            held = self._proxied.pop(ticket.id, None) is not None
        else:
            held = self._open.remove(ticket)
            self._waiting.remove(ticket)
        if held:
            self.descriptors -= ticket.weight
