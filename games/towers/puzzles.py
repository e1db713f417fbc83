"""Towers' part in the puzzles (quadrille/puzzles, docs/puzzles.md): the source games' options, what counts as
material, and the game's own themes, all read from the engine's state and moves.

Material is a side's pawns: every pawn of its towers on the board and every pawn of its reserve (the reserve is
also its move points each turn). A capture takes the enemy's pawns off; a capture by the master puts them in
the capturer's reserve.
"""
from __future__ import annotations

#: the options of the computer's games that puzzles are cut from: the smallest board the new-game form offers
#: (5x5). On the standard 6x6 the computer's games gave a puzzle in about one game of ten: a turn is several
#: actions, and most wins can be played in more than one order, so that no first action is the only one
OPTIONS: dict = {"size": 5}
#: the levels of the source games: a random mover leaves its master where it can be taken, and the puzzle is
#: to find the one action that takes it (or the one that starts the only walk onto it). Games between the
#: search levels gave a puzzle in one game of five (they rarely leave one clearly best action); these give
#: about one a game
LEVELS = (("random", 1), (1, "random"), ("random", 2), (2, "random"), ("random", "random"), (3, "random"))

#: the cutter's node budgets (quadrille/puzzles/generate.py, Budget), for 200 puzzles in about 10 minutes: a
#: Towers position is costly to search, so the searches are kept small
BUDGET = {"play": 100, "scan": 60, "rank": 600, "reply": 300}


def material(board, seat: int) -> int:
    """The pawns of `seat`: on the board and in its reserve."""
    state = board.state()
    sign = 1 if seat == 1 else -1
    on_board = sum(v * sign for row in state["board"] for v in row if v * sign > 0)
    return on_board + state["reserve"][seat - 1]


def themes(board, seat: int, solution: list) -> list[str]:
    """The game's own themes of a puzzle: `board` is the position (left as it was), `seat` the solver.

    * "master-capture": the solution ends the game with the solver's capture of the enemy master;
    * "import": the solver imports pawns onto its master (`i{k}`) on the way;
    * "capture": one of the solver's actions takes enemy pawns (the enemy's material drops).
    """
    found = set()
    work = board.copy()
    for move in solution:
        mover = work.turn
        theirs = material(work, 3 - mover)
        work.push(move)
        if mover == seat:
            if move[0] == "i":
                found.add("import")
            if material(work, 3 - seat) < theirs:
                found.add("capture")
    outcome = work.outcome()
    if outcome is not None and outcome.winners == (seat,) and outcome.reason == "master-captured":
        found.add("master-capture")
    return sorted(found)
