"""Trails and Towers' part in the puzzles (quadrille/puzzles, docs/puzzles.md): the source games' options,
what counts as material, and the game's own themes, all read from the engine.

Material is the towers a trail has taken (each brings the tower win closer); the territory a move cuts off is
the evaluation's business, not material.
"""
from __future__ import annotations

#: the options of the computer's games that puzzles are cut from: the standard board
OPTIONS: dict = {}


def material(board, seat: int) -> int:
    """The towers `seat` has taken."""
    return board.view()["taken"][seat - 1]


def themes(board, seat: int, solution: list) -> list[str]:
    """The game's own themes of a puzzle: `board` is the position (left as it was), `seat` the solver.

    * "tower": one of the solver's moves takes a tower;
    * "tower-win": the solution ends the game by the solver's tower win;
    * "trap": the solution ends the game with the opponent left without a move (or trapping itself).
    """
    found = set()
    work = board.copy()
    for move in solution:
        mover = work.turn
        before = material(work, mover)
        work.push(move)
        if mover == seat and material(work, seat) > before:
            found.add("tower")
    outcome = work.outcome()
    if outcome is not None and outcome.winners == (seat,):
        found.add("tower-win" if outcome.reason == "towers" else "trap")
    return sorted(found)
