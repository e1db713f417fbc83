"""How many matches against the computer each address has going, and the cap on them.

A match with computer seats counts against its owner (the client address that created it, started it with
computer players, or handed a seat to the computer) from its admission until it ends, or until it has
rested: nobody watches it, the computer is not thinking for it, and nothing has happened in it for
`idle` seconds (a page closed on an unfinished game must not lock its player out). A rested match that
comes back is admitted again before the computer thinks for it, so an address never has more than `cap`
matches whose computer plays.

One small set of methods (admit, owner, touch, release, going), two implementations chosen by the
application factory: `MatchQuota` keeps the counts in memory (one process); `RedisMatchQuota` keeps them in
Redis, shared by every process, so that an address's cap holds whichever process its requests reach.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from ..errors import ServiceError
from ..i18n import _ln

IDLE = 300.0  # seconds of rest (not watched, not thinking, nothing happening) after which a match stops counting


def refusal(cap: int) -> ServiceError:
    return ServiceError(429, "rate-limited", _ln(
        "You already have a game against the computer going; finish one, or close one and try again in a few minutes.",
        "You already have %(num)d games against the computer going; finish one, or close one and try again in a few "
        "minutes.",
        cap))


class MatchQuota:
    def __init__(self, cap: int | None, live: Callable[[str], bool], idle: float = IDLE,
                 clock: Callable[[], float] = time.monotonic):
        self.cap = cap            # None: no cap (the owners are still known, for fair scheduling)
        self.live = live          # live(match): someone watches it or the computer thinks for it
        self.idle = idle
        self.clock = clock
        self._owners: dict[str, str] = {}               # match -> owner, for every match admitted
        self._going: dict[str, dict[str, float]] = {}   # owner -> {match: last activity}
        self._lock = threading.Lock()

    def admit(self, match_id: str, owner: str | None) -> None:
        """Count `match_id` against `owner` (its first owner, once it has one); ServiceError 429 over the cap.

        Nothing is counted for an unknown owner (None: a match made by the service's own callers, or
        before a restart)."""
        with self._lock:
            owner = self._owners.get(match_id, owner)
            if owner is None:
                return
            going = self._going_of(owner)
            if match_id in going:
                going[match_id] = self.clock()
                return
            if self.cap is not None and len(going) >= self.cap:
                raise refusal(self.cap)
            self._owners[match_id] = owner
            going[match_id] = self.clock()
            self._going[owner] = going

    def owner(self, match_id: str) -> str | None:
        with self._lock:
            return self._owners.get(match_id)

    def touch(self, match_id: str) -> None:
        """Something happened in the match (a move, a decision, a watcher): it is not resting."""
        with self._lock:
            going = self._going.get(self._owners.get(match_id))
            if going is not None and match_id in going:
                going[match_id] = self.clock()

    def release(self, match_id: str) -> None:
        """The match is over: it no longer counts (a rewind that reopens it admits it again)."""
        with self._lock:
            owner = self._owners.get(match_id)
            going = self._going.get(owner)
            if going is not None:
                going.pop(match_id, None)
                if not going:
                    del self._going[owner]

    def going(self, owner: str) -> list[str]:
        """The matches counting against `owner` now."""
        with self._lock:
            return list(self._going_of(owner))

    def _going_of(self, owner: str) -> dict[str, float]:
        """The owner's counted matches, after letting the rested ones go (the caller holds the lock)."""
        going = self._going.get(owner, {})
        now = self.clock()
        for match_id, last in list(going.items()):
            if now - last > self.idle and not self.live(match_id):
                del going[match_id]
        if not going:
            self._going.pop(owner, None)
        return going


# Count and add in one step, so that two processes admitting at once cannot both take the last place.
_ADMIT = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  return 1
end
if tonumber(ARGV[3]) >= 0 and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[4])
return 1
"""


# A match's activity or end, in one round trip: its owner is read and its place in the owner's set updated by the
# same script (the set's key is built from the owner inside it; Quadrille's Redis is one server, not a cluster).
_TOUCH = """
local owner = redis.call('GET', KEYS[1])
if owner then redis.call('ZADD', ARGV[1] .. owner, 'XX', ARGV[3], ARGV[2]) end
return owner
"""
_RELEASE = """
local owner = redis.call('GET', KEYS[1])
if owner then redis.call('ZREM', ARGV[1] .. owner, ARGV[2]) end
return owner
"""


class RedisMatchQuota:
    """MatchQuota's counts in Redis, shared by every process: per owner a sorted set of its matches going
    (score: the last activity, wall-clock seconds), and per match its owner."""

    KEEP = 86400  # seconds an owner's set and a match's owner outlive their last activity

    def __init__(self, cap: int | None, live: Callable[[str], bool], client, idle: float = IDLE,
                 clock: Callable[[], float] = time.time, prefix: str = "quadrille:"):
        self.cap, self.live, self.idle, self.clock = cap, live, idle, clock
        self.redis, self.prefix = client, prefix
        self._admit = client.register_script(_ADMIT)
        self._touch = client.register_script(_TOUCH)
        self._release = client.register_script(_RELEASE)

    def _going_key(self, owner: str) -> str:
        return self._going_prefix() + owner

    def _going_prefix(self) -> str:
        return f"{self.prefix}quota:"

    def _owner_key(self, match_id: str) -> str:
        return f"{self.prefix}quota-owner:{match_id}"

    def admit(self, match_id: str, owner: str | None) -> None:
        owner = self.owner(match_id) or owner
        if owner is None:
            return
        self._let_rested_go(owner)
        cap = -1 if self.cap is None else self.cap
        if not self._admit(keys=[self._going_key(owner), self._owner_key(match_id)],
                           args=[match_id, self.clock(), cap, self.KEEP, owner]):
            raise refusal(self.cap)

    def owner(self, match_id: str) -> str | None:
        owner = self.redis.get(self._owner_key(match_id))
        return owner.decode() if owner is not None else None

    def touch(self, match_id: str) -> None:
        self._touch(keys=[self._owner_key(match_id)], args=[self._going_prefix(), match_id, self.clock()])

    def release(self, match_id: str) -> None:
        self._release(keys=[self._owner_key(match_id)], args=[self._going_prefix(), match_id])

    def going(self, owner: str) -> list[str]:
        self._let_rested_go(owner)
        return [m.decode() for m in self.redis.zrange(self._going_key(owner), 0, -1)]

    def _let_rested_go(self, owner: str) -> None:
        key = self._going_key(owner)
        for raw in self.redis.zrangebyscore(key, "-inf", self.clock() - self.idle):
            match_id = raw.decode()
            if self.live(match_id):
                self.redis.zadd(key, {match_id: self.clock()}, xx=True)
            else:
                self.redis.zrem(key, match_id)
