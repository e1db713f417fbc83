"""Race to Ten's computer: the count a player wants to leave is a multiple of 3 short of the goal."""
from __future__ import annotations

from ai.model import Model


class RaceModel(Model):
    def evaluate(self, board) -> float:
        # the side to move loses when the count left is a multiple of 3 (whatever it adds, the other makes it so)
        lost = (board.options["goal"] - board.total) % 3 == 0
        return -1.0 if lost == (board.turn == self.me) else 1.0


MODEL = RaceModel
