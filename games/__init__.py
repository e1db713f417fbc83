"""Quadrille's rules engines, one module (or package) per game.

    import games
    game = games.get("trails")
    board = game.new(size=11)
    board.push(board.legal_moves()[0])

Engines are imported lazily, so that `python -m games.gamma` does not import
its own module twice (which would print a RuntimeWarning on standard error).
"""
from __future__ import annotations

import importlib

from games.base import Board, Game, IllegalMove, Option, Outcome

__all__ = ["Board", "Game", "IllegalMove", "Option", "Outcome", "names", "get", "from_dict"]

# name -> module that defines GAME. Adding a game is one line here.
_MODULES = {
    "gamma": "games.gamma",
    "lattice": "games.lattice",
    "towers": "games.towers",
    "trails": "games.trails",
}


def names() -> list[str]:
    return sorted(_MODULES)


def get(name: str) -> Game:
    """The Game called `name`; KeyError for an unknown name."""
    if not isinstance(name, str) or name not in _MODULES:
        raise KeyError(name)
    return importlib.import_module(_MODULES[name]).GAME


def from_dict(d: dict) -> Board:
    """Rebuild a board from `board.to_dict()`; a corrupt record raises (ValueError, KeyError, IllegalMove)."""
    if not isinstance(d, dict):
        raise ValueError("a record must be an object with game, options and moves")
    game = get(d.get("game"))
    moves = d.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError("moves must be a list of strings")
    board = game.new(**(d.get("options") or {}))
    for i, move in enumerate(moves):
        try:
            board.push(move)
        except IllegalMove as exc:
            raise IllegalMove(f"move {i + 1} ({move!r}) is illegal: {exc.reason}") from None
    return board
