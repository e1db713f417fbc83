"""A match as it was before an event was applied, to put back if the event's write fails.

The match core applies an event to its copy of the match before it writes it, so that the write carries
what lists show after the event (matches/summary.py), in the append's own statement. A write may still fail
(a race lost to another process, a revision moved, the database away): then the copy must be exactly as it
was, since other requests wait on its lock.

    saved = Checkpoint(match, kind)   # before core.apply(match, event)
    saved.restore(match)              # the write failed

A move, the hot path, is undone with the engine's own `pop` and a few small copies (offers, clocks). Any other
event is rare and has everything it may change kept: a rewind pops moves from a copy of the board
(`Board.copy`), a start replaces the board, and the original is put back.
"""
from __future__ import annotations

from ..clocks.state import ClockState
from .offers import Offers


def _offers_copy(offers):
    """None for no offer at all (most moves): nothing to copy."""
    if not (offers.pending or offers.declined or offers.makers or offers.rematch):
        return None
    return Offers({k: set(v) for k, v in offers.pending.items()}, {k: set(v) for k, v in offers.declined.items()},
                  dict(offers.makers), offers.rematch)


def _clock_copy(clock):
    return None if clock is None else ClockState(clock.control, list(clock.left), clock.at, clock.flagged)


class Checkpoint:
    """What an event may change in a match, kept before it is applied: for a move, the moves' count, the offers
    and the clocks; for any other event, besides, the board (the event changes a copy), the result, the start,
    the computer's seats, the options and seats, and the line."""

    __slots__ = ("plies", "offers", "clock", "whole")

    def __init__(self, match, kind: str):
        self.plies = len(match.move_seats)
        self.offers = _offers_copy(match.offers)
        self.clock = _clock_copy(match.clock)
        self.whole = None if kind == "move" else _Whole(match, kind)

    def restore(self, match) -> None:
        if self.whole is None:
            if len(match.move_seats) > self.plies:  # the move was pushed (a move the engine refused was not)
                match.board.pop()
                del match.move_seats[self.plies:]
        else:
            self.whole.restore(match)
        match.offers = self.offers if self.offers is not None else Offers()
        match.clock = self.clock
        match.changed()  # its outcome is the one before the event again


class _Whole:
    __slots__ = ("board", "move_seats", "result", "creator_started", "began_at", "computer", "options", "seats",
                 "line", "cached")

    def __init__(self, match, kind: str):
        self.board, self.move_seats = match.board, list(match.move_seats)
        if kind == "rewind":  # the one decision that changes the board in place (a start replaces it)
            match.board = match.board.copy()  # the rewind pops the copy's moves; the original is put back
        self.result, self.creator_started = match.result, match.creator_started
        self.began_at, self.line = match.began_at, match.line
        self.computer = dict(match.computer)
        self.options, self.seats = match.row.options, match.row.seats
        self.cached = {name: match.__dict__[name] for name in CACHED if name in match.__dict__}

    def restore(self, match) -> None:
        match.board = self.board
        match.move_seats[:] = self.move_seats
        match.result, match.creator_started = self.result, self.creator_started
        match.began_at, match.line = self.began_at, self.line
        match.computer.clear()
        match.computer.update(self.computer)
        match.row.options, match.row.seats = self.options, self.seats
        for name in CACHED:
            match.__dict__.pop(name, None)
        match.__dict__.update(self.cached)


CACHED = ("move_limit", "seat_names")  # the Match's cached properties, which follow the options and seats
