"""Lattice Checkers' part in the puzzles (quadrille/puzzles, docs/puzzles.md): the source games' options, what
counts as material, and the game's own themes, all read from the engine's moves and view.

Material is the pieces a side has on the lattice: a capture takes one off for every jump, and a promotion
brings one back (the return it earns counts from the promotion on, so that the return itself, which the rules
ask for, gains nothing).
"""
from __future__ import annotations

#: the options of the computer's games that puzzles are cut from: the standard 222 lattice
OPTIONS: dict = {}

#: the cutter's node budgets (quadrille/puzzles/generate.py, Budget), for 200 puzzles in about 15 minutes
BUDGET = {"play": 100, "scan": 40, "rank": 400, "reply": 200}


def material(board, seat: int) -> int:
    """The pieces `seat` has on the lattice, and the one it is about to return."""
    due = 1 if board.pending_return and board.turn == seat else 0
    return board.on_board()[seat - 1] + due


def themes(board, seat: int, solution: list) -> list[str]:
    """The game's own themes of a puzzle: `board` is the position (left as it was), `seat` the solver.

    * "capture-chain": one of the solver's moves is a capture of two jumps or more (`Cd2:Ad4:Ab2`);
    * "promotion": one of the solver's moves brings a ball to its far level (the engine's `promotes`);
    * "extra-turn": one of the solver's moves is played in the extra turn a promotion earned (the engine's
      `extra_turn`).
    """
    found = set()
    work = board.copy()
    for move in solution:
        mover = work.turn
        if mover == seat and work.extra_turn and not work.pending_return:
            found.add("extra-turn")
        if mover == seat and move.count(":") >= 2:
            found.add("capture-chain")
        if mover == seat and _promotes(work, move):
            found.add("promotion")
        work.push(move)
    return sorted(found)


def _promotes(board, move: str) -> bool:
    for entries in board.view()["legal"].values():
        for entry in entries:
            if entry["move"] == move:
                return bool(entry["promotes"])
    return False
