"""A solver's line checked against a puzzle's solution, on the real engine, and the positions to draw.

    check(puzzle, moves)   # moves: the solver's own moves so far (never the opponent's replies)
      -> {"correct": True, "done": False, "reply": [...], "states": [...]}      right so far: the reply follows
      -> {"correct": True, "done": True, "states": [...]}                       solved
      -> {"correct": False, "done": True, "at": k, "played": STATE, "states": [...]}  a wrong move

The solution alternates the solver's moves and the opponent's replies (a solver's turn may be several engine
moves, in Towers and in Lattice's extra turns). A move other than the solution's that wins the game at once is
right too (lichess accepts any mate in one): the criterion makes the first move unique among the moves that
keep a decisive edge, but a win is a win. An illegal move is refused (`IllegalLine`), never counted as a try.
STATEs are a match's STATE with no match behind it (quadrille/position_state.py). Pure: no Flask, no SQL.
"""
from __future__ import annotations

import games

from .. import pictures
from ..i18n import _l
from ..position_state import position_state

MAX_MOVES = 64          # solver's moves an attempt may send (a solution holds at most a few dozen)
MAX_MOVE_LENGTH = 200   # characters of one move (the longest real move is a Lattice capture chain)


class IllegalLine(ValueError):
    """The engine refuses one of the solver's moves, or there are more moves than the solution: `reason`."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def position(puzzle: dict):
    """The board at the puzzle's position (replayed through the engine; cached by pictures.position)."""
    return pictures.position(puzzle["game"], puzzle["options"], puzzle["moves"])


def state(puzzle: dict, board) -> dict:
    """The STATE of `board` for the solver (who holds seat `turn`)."""
    return position_state(puzzle["game"], board, (puzzle["turn"],), mode="puzzle")


def shown(puzzle: dict) -> dict:
    """A puzzle as the API serves it, without its solution: the game up to it and the position to draw."""
    return {"id": puzzle["id"], "game": puzzle["game"], "options": puzzle["options"], "moves": puzzle["moves"],
            "turn": puzzle["turn"], "themes": puzzle.get("themes", []), "state": state(puzzle, position(puzzle))}


def solution_states(puzzle: dict, start: int = 0) -> list[dict]:
    """The STATE after each move of the solution from move `start` on."""
    board = position(puzzle)
    found = []
    for index, move in enumerate(puzzle["solution"]):
        board.push(move)
        if index >= start:
            found.append(state(puzzle, board))
    return found


def check(puzzle: dict, moves: list[str]) -> dict:
    """The solver's moves so far against the solution (the module's docstring)."""
    solution, seat = puzzle["solution"], puzzle["turn"]
    board = position(puzzle)
    at = 0  # the next move of the solution
    for count, move in enumerate(moves, 1):
        if at >= len(solution) or board.turn != seat:
            raise IllegalLine("The puzzle is over: there are more moves than its solution holds.")
        if move != solution[at]:
            if not _legal(board, move):
                raise IllegalLine(_refusal(board, move))
            played = board.copy()
            played.push(move)
            if _wins(played, seat):
                return {"correct": True, "done": True, "states": [state(puzzle, played)]}
            return {"correct": False, "done": True, "at": at, "played": state(puzzle, played),
                    "states": solution_states(puzzle, at)}
        board.push(move)
        at += 1
        states = [state(puzzle, board)] if count == len(moves) else []
        reply = []
        while at < len(solution) and board.turn not in (seat, None):
            board.push(solution[at])
            reply.append(solution[at])
            at += 1
            if count == len(moves):
                states.append(state(puzzle, board))
        if count == len(moves):
            done = at >= len(solution) or board.turn is None
            return {"correct": True, "done": done, "reply": reply, "states": states}
    raise IllegalLine("Send at least one move.")


def _legal(board, move: str) -> bool:
    return move in board.legal_moves()


def _wins(board, seat: int) -> bool:
    outcome = board.outcome()
    return outcome is not None and tuple(outcome.winners) == (seat,)


def _refusal(board, move: str) -> str:
    try:
        board.copy().push(move)
    except games.IllegalMove as exc:
        detail = getattr(exc, "detail", None)
        reason = _l("%(reason)s (%(detail)s)", reason=exc.reason, detail=detail) if detail else exc.reason
        return _l("%(move)s is not a legal move here: %(reason)s", move=repr(move), reason=reason)
    return _l("%(move)s is not a legal move here.", move=repr(move))
