"""A match as it was before an event was applied, to put back if the event's write fails.

The match service applies an event to its copy of the match before it writes it, so that the write carries
what lists show after the event (matches/summary.py), in the append's own statement. A write may still fail
(a race lost to another process, a revision moved, the database away): then the copy must be exactly as it
was, since other requests wait on its lock.

    saved = Checkpoint(match, kind)   # before MatchService._apply(match, event)
    saved.restore(match)              # the write failed

A move, the hot path, is undone with the engine's own `pop` and a few small copies (offers, clocks, the
computer's seats). Any other event (a rewind pops moves, a start replaces the board) is applied to a copy of
the board (`Board.copy`), and the original is put back.
"""
from __future__ import annotations

import dataclasses


def _offers_copy(offers):
    return dataclasses.replace(offers, pending={k: set(v) for k, v in offers.pending.items()},
                               declined={k: set(v) for k, v in offers.declined.items()}, makers=dict(offers.makers))


def _clock_copy(clock):
    return None if clock is None else dataclasses.replace(clock, left=list(clock.left))


class Checkpoint:
    __slots__ = ("board", "move", "plies", "move_seats", "result", "started", "began_at", "computer", "offers",
                 "clock", "options", "seats", "cached", "line")

    def __init__(self, match, kind: str):
        self.board = match.board
        self.move = kind == "move"
        self.plies = len(match.move_seats)
        self.move_seats = None if self.move else list(match.move_seats)
        if not self.move:
            match.board = match.board.copy()  # the event changes the copy; the original is put back on failure
        self.result, self.started, self.began_at, self.line = match.result, match.started, match.began_at, match.line
        self.computer = dict(match.computer)
        self.offers = _offers_copy(match.offers)
        self.clock = _clock_copy(match.clock)
        self.options, self.seats = match.row.options, match.row.seats
        self.cached = {name: match.__dict__[name] for name in ("move_limit", "seat_names") if name in match.__dict__}

    def restore(self, match) -> None:
        if self.move:
            if len(match.move_seats) > self.plies:  # the move was pushed (a move the engine refused was not)
                match.board.pop()
                del match.move_seats[self.plies:]
        else:
            match.board = self.board
            match.move_seats[:] = self.move_seats
        match.result, match.started, match.began_at, match.line = self.result, self.started, self.began_at, self.line
        match.computer.clear()
        match.computer.update(self.computer)
        match.offers = self.offers
        match.clock = self.clock
        match.row.options, match.row.seats = self.options, self.seats
        for name in ("move_limit", "seat_names"):
            match.__dict__.pop(name, None)
        match.__dict__.update(self.cached)
