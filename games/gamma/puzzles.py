"""Gamma's part in the puzzles (quadrille/puzzles, docs/puzzles.md): the source games' options, what counts as
material, and the game's own themes, all read from the engine.

Material is the fields a player owns (the final score); a golden move takes one from another player. Puzzles
are cut from two-player games: with more players the best move depends on what each of the others does.
"""
from __future__ import annotations

#: the options of the computer's games that puzzles are cut from: two players on a 6x6 board (the standard
#: 10x10 one takes a hundred moves a game and a hundred legal moves a position: ten times the work a puzzle)
OPTIONS: dict = {"players": 2, "width": 6, "height": 6}
#: the material gain a puzzle must reach when it does not end in a win: a solution ends on the solver's move,
#: which places one more pawn than the opponent's replies did, so one field of lead is no gain at all
MATERIAL_GAIN = 2

#: the cutter's node budgets (quadrille/puzzles/generate.py, Budget), for 200 puzzles in about 15 minutes
BUDGET = {"play": 100, "scan": 40, "rank": 400, "reply": 200}


def material(board, seat: int) -> int:
    """The fields `seat` owns."""
    return board.core.busy_fields(seat)


def themes(board, seat: int, solution: list) -> list[str]:
    """The game's own themes of a puzzle: `board` is the position (left as it was), `seat` the solver.

    * "golden-move": one of the solver's moves is a golden move (`gx,y`), taking a field of the opponent.
    """
    found = set()
    work = board.copy()
    for move in solution:
        if work.turn == seat and move[0] == "g":
            found.add("golden-move")
        work.push(move)
    return sorted(found)
