"""The event table: each kind of event in a match's log, and what applying it does to a Match.

A match is its options plus an append-only list of events; replaying them in order rebuilds it, and a new event
is applied the same way once it is decided (core.py). Each kind is one small function here; `apply` looks it up:

    apply(match, event, env)   # env: what an event needs besides the match (the clocks, the core's clock)

Every event that ends the game by a decision takes the engine's scores at that point (`_scores`), and its
pending in-game offers end with it.
"""
from __future__ import annotations

from typing import Callable, Protocol

import games

from .store import EventRow
from . import resigning
from .match import Match


class Env(Protocol):
    """What applying an event needs besides the match: the clocks (a flag's result, the clocks' state) and the
    core's clock (when a start happened, on that clock)."""

    clocks: object

    def clock(self) -> float: ...


def _scores(match: Match) -> list:
    """The engine's scores of a game ended by a decision, when its rules have scores at that point."""
    match.offers.ended()
    outcome = match.board.outcome()
    return list(outcome.scores) if outcome else []


def _move(match: Match, event: EventRow, env: Env) -> None:
    match.board.push(event.data["move"])
    match.move_seats.append(event.seat)
    match.offers.moved(event.seat)


def _rewind(match: Match, event: EventRow, env: Env) -> None:
    to = event.data["to"]
    while len(match.board.moves) > to:
        match.board.pop()
    del match.move_seats[to:]
    match.result, match.line = None, event.seq
    match.offers.rewound()


def _resign(match: Match, event: EventRow, env: Env) -> None:
    winners = resigning.recorded_winners(event.data, match.board.players)
    match.result = {"winners": winners, "scores": _scores(match), "reason": "resigned",
                    "resigned": event.data["seat"]}


def _abort(match: Match, event: EventRow, env: Env) -> None:
    match.result = {"winners": [], "scores": _scores(match), "reason": "aborted", "aborted": event.data["seat"]}
    if event.data.get("by"):  # closed by the site's moderators (quadrille/moderation/): seat None
        match.result["by"] = event.data["by"]


def _draw(match: Match, event: EventRow, env: Env) -> None:
    match.result = {"winners": [], "scores": _scores(match), "reason": "agreed"}


def _timeout(match: Match, event: EventRow, env: Env) -> None:
    data = event.data
    winners = [data["seat"]] if data["result"] == "win" else []
    match.result = {"winners": winners, "scores": _scores(match), "reason": "abandoned", "abandoned": data["away"]}


def _start(match: Match, event: EventRow, env: Env) -> None:
    options = dict(match.row.options, **event.data.get("options", {}))
    if options != match.row.options:
        match.row.options = options
        match.__dict__.pop("move_limit", None)  # the limit follows the options
        match.board, match.line = games.get(match.row.game).new(**options), event.seq
    match.row.seats = [s for s in match.row.seats if s.seat <= match.board.players]
    match.__dict__.pop("seat_names", None)
    match.began_at = min(env.clock(), event.at)  # (a monotonic clock cannot read a stored time)
    match.computer.update({int(seat): level for seat, level in event.data.get("computer", {}).items()})
    match.creator_started = True
    if match.clock is not None:  # the clocks of the seats the start kept
        match.clock = env.clocks.new_state(match.clock.control.to_dict(), match.board.players)


def _computer(match: Match, event: EventRow, env: Env) -> None:
    match.computer[event.data["seat"]] = event.data["level"]


def _human(match: Match, event: EventRow, env: Env) -> None:
    match.computer.pop(event.data["seat"], None)


def _offers(match: Match, event: EventRow, env: Env) -> None:
    match.offers.apply(event.kind, event.data)


def _flag(match: Match, event: EventRow, env: Env) -> None:
    """A player's time ran out (quadrille/clocks/results.py says who wins)."""
    match.offers.ended()
    match.result = env.clocks.flag_result(match, event.data["seat"])


def _clock(match: Match, event: EventRow, env: Env) -> None:
    """The clocks credited with a server's downtime: only the event's snapshot counts (applied below)."""


EVENTS: dict[str, Callable[[Match, EventRow, Env], None]] = {
    "move": _move, "rewind": _rewind, "resign": _resign, "abort": _abort, "draw": _draw, "timeout": _timeout,
    "start": _start, "computer": _computer, "human": _human, "offer": _offers, "decline": _offers,
    "rematch": _offers, "flag": _flag, "clock": _clock,
}


def apply(match: Match, event: EventRow, env: Env) -> None:
    """Apply one stored event to the in-memory match (a replay's, a catch-up's, or a new one's). A move the
    engine refuses raises IllegalMove and changes nothing."""
    handler = EVENTS.get(event.kind)
    if handler is None:  # pragma: no cover - storage only ever holds the kinds above
        raise ValueError(f"unknown event kind {event.kind!r}")
    turn_before = match.turn() if match.clock is not None else None
    try:
        handler(match, event, env)
    finally:
        match.changed()
    if match.clock is not None:
        env.clocks.applied(match, event, turn_before)
