"""Gamma's end by passes: the rule that ends a game in which nobody will move any more.

The assignment's game ends when no player can move, or when a player at the
terminal presses Ctrl-D. A player who still holds a usable golden move can always move, so on a board
where no pawn can be placed the original asks that player again and again until somebody presses Ctrl-D.
The web game has no Ctrl-D that one player could press for all, so it ends the game there itself:

* **Decision**: once no player can place a pawn, a pass declines the golden move for as long as the board
  stays as it is; when every player who could still move has passed in a row (the turn comes back to the
  first of them with nothing changed), nobody will move any more and the game ends as the original's
  does when no player can move: whoever holds the most fields wins.

While a pawn can still be placed somewhere, passes never end the game (the terminal game goes on there
too, and its 955 test scripts pass many times over such positions).
"""
from __future__ import annotations


def nobody_can_place(core) -> bool:
    """No player has a free field (the board is full, or every player is shut in at the area limit)."""
    free = core.free_fields
    return all(free(q) == 0 for q in range(1, core.players + 1))


def passes_end(core, next_seat, first_passer: int) -> bool:
    """Does a pass end the game? `next_seat` is who would act next (None: nobody), `first_passer` the seat
    whose pass began the current run of passes. The board does not change during a run of passes, so the
    turn comes back to the first passer exactly when every player able to move has passed once."""
    return next_seat == first_passer and nobody_can_place(core)
