"""What the search needs to know about a game: the base class of the per-game models.

A model is made for one search, from the root position and the seat it plays (`me`). The search calls:

* `moves(board, ply)`: the moves worth searching (default: every legal move);
* `order(board, moves)`: the same moves, most promising first (a cheap static guess; default: as given);
* `push(board, move)` / `pop(board)`: play and take back, keeping any state the evaluation tracks in step;
* `key(board)`: a hashable key of the position for the transposition table, or None (no table);
* `unstable(board)`: True where a static value would mislead (the search looks further there);
* `quick(board)`: level 1's evaluation (default: `evaluate`);
* `evaluate(board)`: a heuristic value of a position that is not over, from `me`'s point of view (higher is
  better for `me`); `terminal(board, outcome, ply)` the value of a finished game.

Models read engines only through the contract and their public attributes.
"""
from __future__ import annotations

WIN = 1_000_000


class Model:
    #: the softmax temperature of level 1's weighted random choice, in evaluation units
    temperature: float = 1.0
    #: the depth (plies) of level 2's search and its node cap
    level2_depth: int = 2
    level2_nodes: int = 4000
    #: how many plies past its nominal depth the search may follow unstable positions
    extension: int = 6
    #: the same for level 1's look at the position after each of its moves
    level1_extension: int = 3
    #: the root margin of level 3 (moves within it of the best are chosen at random)
    margin: float = 0.0

    def __init__(self, board, me: int):
        self.me = me
        self.players = board.players

    def moves(self, board, ply: int) -> list:
        return board.legal_moves()

    def order(self, board, moves: list) -> list:
        return moves

    def push(self, board, move: str) -> None:
        board.push(move)

    def pop(self, board) -> None:
        board.pop()

    def evaluate(self, board) -> float:
        return 0.0

    def key(self, board):
        """A hashable key of the position (with the side to move), for the transposition table; None
        (the default) when the model offers none."""
        return None

    def unstable(self, board) -> bool:
        """True where the evaluation is not to be trusted (a capture is due...): the search goes on past
        its depth there, up to `extension` plies."""
        return False

    def quick(self, board) -> float:
        """Level 1's evaluation (default: the full one). A model may give level 1 a simpler view."""
        return self.evaluate(board)

    def terminal(self, board, outcome, ply: int) -> float:
        """A win is worth WIN, sooner better; a loss -WIN, later better; a draw 0. A shared win (gamma's
        ties) is worth a little more than a draw."""
        winners = outcome.winners
        if not winners:
            return 0.0
        if self.me in winners:
            if len(winners) == 1:
                return WIN - ply
            return WIN // 4 - ply
        return -WIN + ply
