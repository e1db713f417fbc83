"""What lists of games show of a match, kept on its row: whose turn it is, how it ended, its options, what its
seats are called, which seats the computer plays, and when the clock of the seat to move runs out.

    summarise(match) -> str           # from the match as the service holds it after an event (JSON text)
    read(text) -> dict                # {"turn", "started", "outcome", "options", "names", "computer", "clock"}
    Summaries(service).of(rows)       # {match id: summary} for rows a list read (storage.ListedRow)

The match service writes it with every event, in the append's own statement, and with a claimed seat (the
claim that takes the last seat begins the game): so it is always the one of the match's current version, costs
no round trip, and says what the engine said after the event; the server never works it out from the rules.
Lists of games (accounts/my_games.py, the public recent list, by-name play) read rows and summaries, never
events, so their cost does not grow with the length of a match.

A match of a release before the summary (migration 0008) has none: `Summaries` replays it once, stores its
summary and never again (`backfill` does it for every such match at start-up, a few at a time, in the
background).
"""
from __future__ import annotations

import json
import logging
import time

log = logging.getLogger("quadrille")

BACKFILL_KEY = "summaries:backfill"
BACKFILL_BATCH = 20  # matches of an earlier release summarised per turn of the start-up's backfill


def summarise(match) -> str:
    """The summary of `match` (a matches.service.Match) as it is now, as JSON text."""
    outcome, turn, clock = match.outcome(), match.turn(), match.clock
    return json.dumps({
        "turn": turn,
        "started": match.begun(),
        "outcome": None if outcome is None else {"winners": list(outcome.get("winners") or []),
                                                 "reason": outcome.get("reason")},
        "options": match.row.options,
        "names": match.seat_names,
        "computer": sorted(match.computer),
        # the seat to move's deadline on the clocks' clock (wall-clock time); None: no clock runs
        "clock": None if clock is None else {"kind": clock.control.kind, "deadline": clock.deadline(turn)},
    }, separators=(",", ":"))


def read(text: str) -> dict:
    return json.loads(text)


class Summaries:
    """Summaries for the rows a list read, a match of an earlier release summarised (once) on the way."""

    def __init__(self, service):
        self.service = service

    def of(self, rows) -> dict[str, dict]:
        found = {}
        for row in rows:
            text = row.summary if row.summary is not None else self._fill(row.id)
            if text is not None:
                found[row.id] = read(text)
        return found

    def _fill(self, match_id: str) -> str | None:
        """Replay a match that has no summary (an earlier release's), once: its summary is stored."""
        from ..errors import ServiceError
        try:
            text, revision = self.service.summary_now(match_id)
        except ServiceError:
            return None
        self.service.storage.set_summary(match_id, revision, text)
        return text


def backfill(service, timers) -> None:
    """At start-up: summarise every match of an earlier release, BACKFILL_BATCH at a time on the timers (one
    process of several does each batch), each batch a timer of its own so that the server serves between them."""
    state = {"after": ""}

    def turn(_keys) -> None:
        ids = service.storage.unsummarised(state["after"], BACKFILL_BATCH)
        for match_id in ids:
            Summaries(service).of([_Unsummarised(match_id)])
        if ids:
            state["after"] = ids[-1]
            timers.schedule(BACKFILL_KEY, timers.clock())
        else:
            log.info("every match has its summary")

    timers.handle(BACKFILL_KEY, turn)
    if service.storage.unsummarised("", 1):
        log.info("summarising the matches of an earlier release in the background")
        timers.schedule(BACKFILL_KEY, timers.clock())


class _Unsummarised:
    """A row known only by its id, known to have no summary."""
    summary = None

    def __init__(self, match_id: str):
        self.id = match_id


class Row:
    """A row read as a dict (the recent list's), seen as Summaries reads rows."""

    def __init__(self, entry: dict):
        self.id, self.summary = entry["id"], entry["summary"]


def name_in_use(service, row, idle: float | None, now: float | None = None) -> bool:
    """Whether a by-name match (`row`, storage.ListedRow) still holds its name: it has not ended, and it was
    made or had an event within `idle` seconds (None: it never idles out)."""
    now = time.time() if now is None else now
    if idle is not None and now - row.updated > idle:
        return False
    found = Summaries(service).of([row]).get(row.id)
    return found is not None and found["outcome"] is None
