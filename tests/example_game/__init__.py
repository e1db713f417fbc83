"""Race to Ten: the tiny example game of docs/new-game.md, added from outside games/ (tests/test_example_game.py).

Two players share one count, from 0. On your turn you add 1 or 2 to it; whoever brings it to the goal (10 unless
an option says otherwise) wins. The board is the row of points 1..goal, each coloured by the player whose move
reached it. A move is the step added, "1" or "2".

Pure, like every engine: no Flask, no I/O, deterministic.
"""
from __future__ import annotations

from games.base import Board, Game, IllegalMove, Option, Outcome

STEPS = (1, 2)


class RaceBoard(Board):
    game_name = "race"

    def __init__(self, options: dict):
        self.options = options
        self.players = 2
        self._moves: list[str] = []
        self._path: list[int] = []   # the seat whose move reached each point, 1..total
        self._turn = 1

    @property
    def total(self) -> int:
        return len(self._path)

    def legal_moves(self) -> list[str]:
        if self._turn is None:
            return []
        return [str(step) for step in STEPS if self.total + step <= self.options["goal"]]

    def push(self, move: str) -> None:
        if self._turn is None:
            raise IllegalMove("the game is over")
        if move not in self.legal_moves():
            raise IllegalMove(f"{move!r} is not a step you may add: add 1 or 2, up to {self.options['goal']}")
        self._path += [self._turn] * int(move)
        self._moves.append(move)
        self._turn = None if self.total == self.options["goal"] else 3 - self._turn

    def pop(self) -> str:
        move = self._moves.pop()
        mover = self._path[-1]
        del self._path[-int(move):]
        self._turn = mover
        return move

    def outcome(self) -> Outcome | None:
        if self.total < self.options["goal"]:
            return None
        return Outcome((self._path[-1],), tuple(self._path.count(seat) for seat in (1, 2)), "goal")

    def view(self) -> dict:
        return {"goal": self.options["goal"], "total": self.total, "turn": self._turn, "path": list(self._path),
                "legal": self.legal_moves(), "last": int(self._moves[-1]) if self._moves else 0}


GAME = Game(
    name="race",
    title="Race to Ten",
    seats=(2, 2),
    options={"goal": Option(10, "int", range=(3, 30), help="the count that wins")},
    board_class=RaceBoard,
    summary="Add 1 or 2 to the shared count in turn; whoever reaches the goal wins.",
    longest=lambda options: options["goal"],
    names=lambda options: ["Blue", "Red"],
)
