"""The cache of live matches, bounded by weight as well as by count.

A match costs memory in proportion to what it holds: its stored events and the moves on its board (a
125,000-move gamma match took about 54 MiB). So the cache weighs each match (`match_weight`) and keeps the
total under `max_weight`, and the number of matches under `max_count`; the least recently used leave first.
A match heavier than the whole budget is served to its caller but not kept.

The interface is small on purpose (get, peek, put, pop), so that a cache shared or checked across processes can
stand in its place. It is not thread-safe: the match service calls it under its own lock.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

MAX_WEIGHT = 250_000   # events plus moves: about 50 MiB of the heaviest matches, and room for 2,000 ordinary ones
MAX_COUNT = 2000


def match_weight(match) -> int:
    """A proxy for a match's memory: the events it holds plus the moves on its board."""
    return len(match.row.events) + len(match.board.moves)


class MatchCache:
    def __init__(self, max_weight: int = MAX_WEIGHT, max_count: int = MAX_COUNT,
                 weigh: Callable[[Any], int] = match_weight):
        self.max_weight, self.max_count, self.weigh = max_weight, max_count, weigh
        self._entries: OrderedDict[str, list] = OrderedDict()  # id -> [match, its weight when last weighed]
        self.weight = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, match_id: str) -> bool:
        return match_id in self._entries

    def get(self, match_id: str):
        """The cached match, now the most recently used, or None. A match grows while it is played, so it
        is weighed again here: one grown past the whole budget is still returned, but no longer kept."""
        entry = self._entries.get(match_id)
        if entry is None:
            return None
        match, weight = entry
        self._entries.move_to_end(match_id)
        now = self.weigh(match)
        if now != weight:
            if now > self.max_weight:
                self.pop(match_id)
                return match
            entry[1] = now
            self.weight += now - weight
            self._shrink()
        return match

    def peek(self, match_id: str):
        """The cached match or None, leaving the order of use as it is."""
        entry = self._entries.get(match_id)
        return entry[0] if entry is not None else None

    def put(self, match_id: str, match) -> None:
        """Keep a match as the most recently used (replacing any entry of the same id), then drop the least
        recently used until the cache is within both bounds. A match heavier than the budget is not kept."""
        self.pop(match_id)
        weight = self.weigh(match)
        if weight > self.max_weight:
            return
        self._entries[match_id] = [match, weight]
        self.weight += weight
        self._shrink()

    def pop(self, match_id: str, default=None):
        """Forget a match (its cached state is stale); return it, or `default`."""
        entry = self._entries.pop(match_id, None)
        if entry is None:
            return default
        self.weight -= entry[1]
        return entry[0]

    def _shrink(self) -> None:
        while self._entries and (self.weight > self.max_weight or len(self._entries) > self.max_count):
            _, (_, weight) = self._entries.popitem(last=False)
            self.weight -= weight
