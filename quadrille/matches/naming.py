"""The names of a match's moves (the STATE's `move_names`), kept between its STATEs: each STATE names only the
moves made since the last one.

Naming every move of the game again for each STATE cost a move time in proportion to the game's length (a
Trails game walks its whole history for the cells its trails reached). A move's name depends on the moves before
it and never on those after (games/notation.py), so the names of a line stay right for as long as the moves they
name begin the board's moves: a take-back, a rewind or a reset that changes them is seen by comparing the moves
themselves, and those names are made afresh. Held on the match (Match.named), so keyed by match and ply.
"""
from __future__ import annotations


class MoveNames:
    """The moves named so far on one match, and their names."""

    __slots__ = ("moves", "names")

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.names: list[str] = []

    def of(self, game, board, moves: list[str]) -> list[str]:
        """The names of `moves` (the board's moves, `board.moves`), as `game.move_names(board)` gives them: a
        copy, which the caller may hand out."""
        known = len(self.moves)
        if known <= len(moves) and moves[:known] == self.moves:
            if known < len(moves):  # the same line, grown: name the new moves only
                self.names = self.names + game.move_names(board, known)
        else:  # another line (a take-back, a rewind, a reset): named afresh
            self.names = game.move_names(board)
        self.moves = moves
        return list(self.names)
