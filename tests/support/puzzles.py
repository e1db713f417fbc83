"""Shipped puzzles with the shapes the puzzle tests need (platform and browser), found among what ships rather
than named by id: the generator may cut another set."""
from __future__ import annotations

from quadrille.puzzles import library, lines


def shipped(game: str | None = None) -> list[dict]:
    names = [game] if game else library.games_with_puzzles()
    return [p for name in names for p in library.puzzles(name)]


def solver_moves(puzzle: dict) -> list[str]:
    """The solver's own moves of the solution (the opponent's replies left out)."""
    board = lines.position(puzzle)
    found = []
    for move in puzzle["solution"]:
        if board.turn == puzzle["turn"]:
            found.append(move)
        board.push(move)
    return found


def longest_puzzle(game: str | None = None) -> dict:
    """The puzzle whose solution is longest (so it has a reply of the opponent when any puzzle has one)."""
    return max(shipped(game), key=lambda p: (len(p["solution"]), p["id"]))


def wrong_moves(puzzle: dict) -> list[str]:
    """The legal first moves that are neither the solution's nor a win at once (each answered wrong)."""
    board = lines.position(puzzle)
    found = []
    for move in board.legal_moves():
        if move == puzzle["solution"][0]:
            continue
        after = board.copy()
        after.push(move)
        outcome = after.outcome()
        if outcome is None or tuple(outcome.winners) != (puzzle["turn"],):
            found.append(move)
    return found


def wrong_first_move(game: str | None = None, short: bool = False) -> tuple[dict, str]:
    """A puzzle (the shortest solution first with `short`) and a wrong first move of it."""
    for puzzle in sorted(shipped(game), key=lambda p: (len(p["solution"]) if short else 0, p["id"])):
        wrong = wrong_moves(puzzle)
        if wrong:
            return puzzle, wrong[0]
    raise AssertionError("no shipped puzzle has a wrong first move")
