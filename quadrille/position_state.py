"""A STATE for a position with no match behind it: what a game's renderer draws (docs/api.md names the fields),
for the tutorials, the analysis board and the puzzles.

    line = replay(name, options, moves)          # the board after `moves`, and who played each (or BadLine)
    position_state(name, board, seats_to_play)   # its STATE: the moves of `seats_to_play` are offered

Pure: no Flask here, nothing stored. A position's STATE has `match` null and carries the same fields as a
match's (`turn`, `legal`, `view`, `moves`, `move_names`, `movers`, `outcome`, `seats`, `seat_names`...), so the
game's own renderer draws it as it draws a match.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import games

from .i18n import _l
from .pictures import module as picture_module


class BadLine(ValueError):
    """A line the engine refuses: `reason` in plain words, naming the first illegal move; `error` its code."""

    def __init__(self, reason: str, error: str = "bad-moves", ply: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.error = error
        self.ply = ply


@dataclass
class Line:
    board: object                               # the engine's board after the moves
    movers: list = field(default_factory=list)  # the seat that played each move


def replay(name: str, options: dict, moves) -> Line:
    """The board of game `name` with these (already checked) options after `moves`, played one by one through
    the engine, and the seat that played each (the side to move before it). BadLine names the first move the
    engine refuses, with its reason."""
    board = games.get(name).new(**options)
    movers = []
    for i, move in enumerate(moves):
        seat = board.turn
        try:
            board.push(move)
        except games.IllegalMove as exc:
            detail = getattr(exc, "detail", None)
            reason = _l("%(reason)s: %(detail)s", reason=exc.reason, detail=detail) if detail else exc.reason
            raise BadLine(_l("Move %(ply)d (%(move)s) is not allowed: %(reason)s", ply=i + 1, move=move, reason=reason),
                          "illegal-move", ply=i + 1) from None
        movers.append(seat)
    return Line(board, movers)


def position_state(name: str, board, seats_to_play, *, movers=None, mode: str = "position") -> dict:
    """A match's STATE for `board`, with no match behind it. The side to move's legal moves are in it only when
    it is one of `seats_to_play` (an iterable of seats: a tutorial's learner, every seat on the analysis board):
    otherwise the view carries none of them either, so that no renderer lights the opponent's moves as if they
    were the player's. `movers`: the seat that played each move (for the move list), when the caller knows it.
    `mode`: the STATE's mode ("lesson", "analysis", "puzzle")."""
    game = games.get(name)
    outcome = board.outcome()
    playable = board.turn is not None and board.turn in set(seats_to_play)
    view = board.view() if playable or board.turn is None else picture_module(name).no_targets(board.view())
    return {
        "match": None, "game": name, "title": game.title, "options": dict(board.options), "mode": mode,
        "name": None, "version": len(board.moves), "turn": board.turn,
        "legal": board.legal_moves() if playable else [], "view": view,
        "moves": list(board.moves), "move_names": game.move_names(board),
        "movers": list(movers) if movers is not None else [None] * len(board.moves),
        "outcome": outcome.to_dict() if outcome else None, "started": True,
        "players": board.players, "paused": False, "offers": {}, "rematch": None, "draws": game.draws,
        "seats": [{"seat": s, "taken": True, "name": "", "kind": "human"} for s in range(1, board.players + 1)],
        "seat_names": game.seat_names(board.options),
    }
