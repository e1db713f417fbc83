"""Positions of a match's current line, for stepping through a game (`GET .../positions/<ply>`, the `position`
event), without replaying the line from its start at every request.

    positions = Positions()
    board = positions.board_at((match_id, line), game, options, moves, ply)   # a board the caller may keep

For each match it keeps a few boards along its current line (a ladder: at most `rungs` of them, `len(moves) /
rungs` plies apart, at least `min_gap`), made the first time a request passes their ply. A position is then a
copy of the nearest board below it (`Board.copy`, the engines' own fast copy) plus at most one gap of moves
pushed: for a Towers game of 3,000 actions 187 actions, for the longest Gamma (25,972 moves) about 1,600,
where the replay from the start cost 15-40 ms. `line` names the line (the last rewind's event number): a
rewind makes a new ladder, since the boards of the old line are not positions of the new one.

The ladders are bounded by weight, as the match cache is: a board weighs its plies (its move list and undo
records), and the least recently used match's ladder goes first past `max_weight`.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import games


class Positions:
    def __init__(self, max_weight: int = 1_000_000, rungs: int = 16, min_gap: int = 32, pacer=None):
        """`pacer()`: a new matches.pacing.Pacer, called after each move pushed, so that a long walk (the first
        along a line) lets the others be served."""
        self.max_weight, self.rungs, self.min_gap = max_weight, rungs, min_gap
        self.pacer = pacer or (lambda: (lambda: None))
        self._ladders: OrderedDict[str, tuple[int, dict]] = OrderedDict()  # match id -> (line, {ply: board})
        self._weight = 0
        self._lock = threading.Lock()

    def board_at(self, key: tuple[str, int], game: str, options: dict, moves: list[str], ply: int):
        """The board after `moves[:ply]` of the match and line `key`, a board of the caller's own."""
        gap = max(self.min_gap, len(moves) // self.rungs)
        start, board = self._nearest(key, ply)
        board = games.get(game).new(**options) if board is None else board.copy()
        last, pace = start, self.pacer()
        for i in range(start, ply):
            board.push(moves[i])
            pace()
            if i + 1 - last >= gap:
                last = i + 1
                self._keep(key, last, board.copy())
        return board

    def _nearest(self, key, ply: int):
        match_id, line = key
        with self._lock:
            found = self._ladders.get(match_id)
            if found is None or found[0] != line:
                return 0, None
            self._ladders.move_to_end(match_id)
            rungs = [p for p in found[1] if p <= ply]
            if not rungs:
                return 0, None
            start = max(rungs)
            return start, found[1][start]

    def _keep(self, key, ply: int, board) -> None:
        match_id, line = key
        with self._lock:
            found = self._ladders.get(match_id)
            if found is None or found[0] != line:
                if found is not None:
                    self._weight -= sum(found[1])
                found = (line, {})
                self._ladders[match_id] = found
            if ply in found[1]:
                return
            found[1][ply] = board
            self._weight += ply
            self._ladders.move_to_end(match_id)
            while self._weight > self.max_weight and len(self._ladders) > 1:
                _, (_, dropped) = self._ladders.popitem(last=False)
                self._weight -= sum(dropped)

    def forget(self, match_id: str) -> None:
        with self._lock:
            found = self._ladders.pop(match_id, None)
            if found is not None:
                self._weight -= sum(found[1])
