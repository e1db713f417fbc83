"""What lists of games show of a match, kept on its row: whose turn it is, how it ended, how many seats it has
(and its options, where its start may change them), which seats the computer plays, and when the clock of the
seat to move runs out. The seats' names come from the engine (`Game.seat_names`), the players' from the seats.

    summarise(match, version) -> str  # from the match as the service holds it after an event (JSON text)
    read(text) -> dict                # {"version", "turn", "started", "players", "computer", "moves", "outcome", ...}
    Summaries(service).of(rows)       # {match id: summary} for rows a list read (storage.ListedRow)

The match service writes it with every event, in the append's own statement, and with a claimed seat (the
claim that takes the last seat begins the game): so it is always the one of the match's current version, costs
no round trip, and says what the engine said after the event; the server never works it out from the rules.
Lists of games (accounts/my_games.py, the public live list, by-name play) read rows and summaries, never
events, so their cost does not grow with the length of a match.

A match of a release before the summary (migration 0008) has none: `Summaries` replays it once, stores its
summary and never again (`backfill` does it for every such match at start-up, a few at a time, in the
background).
"""
from __future__ import annotations

import json
import logging
import time

import games

from .match import begins_on_start

log = logging.getLogger("quadrille")

BACKFILL_KEY = "summaries:backfill"
BACKFILL_BATCH = 20  # matches of an earlier release summarised per turn of the start-up's backfill


def summarise(match, version: int) -> str:
    """The summary of `match` (a matches.match.Match) as it is now, at `version` (the event being written's),
    as JSON text: {"version", "turn", "started", "players", "computer", "moves", "outcome", "clock"} ("moves":
    how many moves its line has, the STATE's `moves`, where `version` counts every event), and "options" where a
    start may change them (online Gamma). A summary whose version is not its row's was not written with the
    row's last event (by a release before it, during a rolling upgrade): it is made again.
    Written out by hand for the parts every move has (a few microseconds on the move's path); json.dumps only
    for an outcome, a clock and options."""
    outcome, begun = match.outcome(), match.begun()
    turn = match.board.turn if begun and outcome is None else None
    computer = ",".join(str(int(seat)) for seat in sorted(match.computer))
    text = (f'{{"version":{int(version)},"turn":{"null" if turn is None else int(turn)},'
            f'"started":{"true" if begun else "false"},"players":{int(match.board.players)},"computer":[{computer}]'
            f',"moves":{len(match.board.moves)}')
    if outcome is not None:
        text += ',"outcome":' + json.dumps({"winners": list(outcome.get("winners") or []),
                                            "reason": outcome.get("reason")})
    clock = match.clock
    if clock is not None:  # the seat to move's deadline on the clocks' clock (wall-clock time); null: none runs
        text += ',"clock":' + json.dumps({"kind": clock.control.kind, "deadline": clock.deadline(turn)})
    if _options_may_change(match):
        text += ',"options":' + json.dumps(match.row.options)
    return text + "}"


def _options_may_change(match) -> bool:
    """Whether the match's start may change its options (an online game that waits for its creator's start)."""
    key = (match.row.game, match.row.mode)
    if key not in _MAY_CHANGE:
        _MAY_CHANGE[key] = begins_on_start(games.get(match.row.game), match.row.mode)
    return _MAY_CHANGE[key]


_MAY_CHANGE: dict[tuple[str, str], bool] = {}  # (game, mode) -> _options_may_change's answer


def read(text: str) -> dict:
    """A stored summary: "outcome" and "clock" None when absent."""
    found = json.loads(text)
    found.setdefault("outcome", None)
    found.setdefault("clock", None)
    return found


def options_of(row, now: dict) -> dict:
    """The match's options now: its row's, or those its start changed (online Gamma)."""
    return now.get("options", row.options)


def seat_names(row, now: dict, seats: int) -> list[str]:
    """What players call each of the first `seats` seats (as the STATE's seat_names), from the engine."""
    names = games.get(row.game).seat_names(options_of(row, now))
    return names[:seats] + [f"Player {seat}" for seat in range(len(names) + 1, seats + 1)]


class Summaries:
    """Summaries for the rows a list read, a match of an earlier release summarised (once) on the way."""

    def __init__(self, service):
        self.service = service

    def of(self, rows, needs: tuple = ()) -> dict[str, dict]:
        """`needs`: fields a summary of an earlier release may lack ("moves"): such a summary is made again."""
        found = {}
        for row in rows:
            now = read(row.summary) if row.summary is not None else None
            if now is None or now.get("version") != row.version or any(key not in now for key in needs):
                text = self._fill(row.id)
                now = read(text) if text is not None else None
            if now is not None:
                found[row.id] = now
        return found

    def _fill(self, match_id: str) -> str | None:
        """Replay a match that has no summary (an earlier release's), or an outdated one, once: its summary is
        stored."""
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
    summary, version = None, None

    def __init__(self, match_id: str):
        self.id = match_id


class Row:
    """A row read as a dict (the recent list's), seen as Summaries reads rows."""

    def __init__(self, entry: dict):
        self.id, self.summary, self.version = entry["id"], entry["summary"], entry["version"]


LIVE_WINDOW = 5  # the live list reads this many times the entries it shows: ended ones are left out


def live(service, limit: int, needs_start) -> list[dict]:
    """The public list (storage.recent_matches): the `limit` most recently active listed matches that are under
    way or wait for a player, never one that ended (finished, aborted, a cancelled invite, a rematch aborted or
    declined), as the API answers them: `moves` counts the moves of its line (not its events); an open match's
    free seats count only while a seat may still be claimed (not started by its creator when it waits for
    that: `needs_start(game, mode)`). The newest LIVE_WINDOW x `limit` listed rows are read (one indexed read):
    a listed match that ended long ago is rarely among them, and a live one further back waits for its next move."""
    entries = service.storage.recent_matches(limit * LIVE_WINDOW)
    summaries = Summaries(service).of((Row(entry) for entry in entries), needs=("moves",))
    shown = []
    for entry in entries:
        del entry["summary"], entry["revision"]
        now = summaries.get(entry["id"])
        if now is None or now["outcome"] is not None:
            continue
        entry["moves"] = now["moves"]
        if entry["visibility"] != "open" or now["started"] and needs_start(games.get(entry["game"]), entry["mode"]):
            entry["free_seats"] = 0
        shown.append(entry)
    return shown[:limit]


def name_in_use(service, row, idle: float | None, now: float | None = None) -> bool:
    """Whether a by-name match (`row`, storage.ListedRow) still holds its name: it has not ended, and it was
    made or had an event within `idle` seconds (None: it never idles out)."""
    now = time.time() if now is None else now
    if idle is not None and now - row.updated > idle:
        return False
    found = Summaries(service).of([row]).get(row.id)
    return found is not None and found["outcome"] is None
