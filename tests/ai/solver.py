"""An exhaustive solver for small positions, for the analysis tests: no heuristics, every move tried.

`wins(board, seat, depth)` is True when `seat` can force a win (it alone among the winners) within `depth`
plies, whatever the other seats play (with more than two seats they all play against it); `loses(board,
seat, depth)` when the other seats can force a result that is not a win for `seat` within `depth` plies. On
a board whose every game ends within `depth` plies both answers are exact: a position is won for `seat` or
it is not. Positions already answered are remembered by their key (the game model's transposition key, else
the board's view), so that a small game is solved in seconds. `Budget` stops a search that grows too big.
"""
from __future__ import annotations

import json

import games
from ai.model import Model


class TooBig(Exception):
    """The solver visited more positions than its budget allows."""


class Solver:
    def __init__(self, board, budget: int = 400_000):
        self.budget = budget
        self.visited = 0
        computer = games.part(board.game_name, "computer")
        self._model = computer.MODEL(board, 1)
        self._own_key = type(self._model).key is not Model.key
        self.memo: dict = {}

    def key(self, board):
        if self._own_key:
            return self._model.key(board)
        return json.dumps(board.view(), sort_keys=True, default=str), board.turn

    def wins(self, board, seat: int, depth: int) -> bool:
        """Can `seat` force a win within `depth` plies?"""
        outcome = board.outcome()
        if outcome is not None:
            return outcome.winners == (seat,)
        if depth <= 0:
            return False
        key = (self.key(board), seat)
        known = self.memo.get(key)
        if known is not None and (known[0] or known[1] >= depth):
            return known[0]
        self.visited += 1
        if self.visited > self.budget:
            raise TooBig
        mine = board.turn == seat
        result = not mine
        for move in board.legal_moves():
            board.push(move)
            try:
                won = self.wins(board, seat, depth - 1)
            finally:
                board.pop()
            if won and mine:
                result = True
                break
            if not won and not mine:
                result = False
                break
        self.memo[key] = (result, depth)
        return result

    def winning_moves(self, board, depth: int) -> list:
        """The moves of the side to move after which it still wins by force within `depth` plies."""
        seat = board.turn
        out = []
        for move in board.legal_moves():
            board.push(move)
            try:
                if self.wins(board, seat, depth - 1):
                    out.append(move)
            finally:
                board.pop()
        return out

    def loses(self, board, seat: int, depth: int) -> bool:
        """Can the other seats force a result other than a win for `seat` within `depth` plies? (A finished
        game that `seat` did not win alone counts.)"""
        outcome = board.outcome()
        if outcome is not None:
            return outcome.winners != (seat,)
        if depth <= 0:
            return False
        self.visited += 1
        if self.visited > self.budget:
            raise TooBig
        mine = board.turn == seat
        for move in board.legal_moves():
            board.push(move)
            try:
                lost = self.loses(board, seat, depth - 1)
            finally:
                board.pop()
            if mine and not lost:
                return False
            if not mine and lost:
                return True
        return mine
