"""Quadrille's games, one package per game, and the one registry that lists them (docs/engine.md).

    >>> import games
    >>> game = games.get("trails")
    >>> board = game.new(size=11)
    >>> board.push(board.legal_moves()[0])
    >>> board.moves
    ['down']

A game is one folder, `games/<name>/` (docs/new-game.md):

    __init__.py        GAME, the rules engine on the contract of games/base.py (pure: no Flask, no I/O)
    computer.py        optional: the computer's model (MODEL, a subclass of ai.model.Model; CLASSIC_LEVELS and
                       classic(board, level, rng) for a game that also offers its original's opponents)
    picture.py         optional: picture(view, marks, legal, label) -> SVG of a position; mark_attrs; no_targets;
                       move_cells (the cells a move touches)
    words.json         optional: what the lobby and the new-game dialog say of it
    tutorial.json      optional: its tutorial's steps
    static/            its renderer, <name>.js (and <name>.css), served as /static/games/<file>
    templates/         board.html, help.html, rules.html, included as games/<name>/<file>

Nothing else names the games: the catalog, the lobby's order, the computer's levels, the tutorials, the
templates and the static files are all found from here. A game from a package outside games/ joins with
`games.register("package")` (the server's GAME_PACKAGES setting does it at start-up).

Engines are imported lazily, so that `python -m games.gamma` does not import
its own module twice (which would print a RuntimeWarning on standard error).
"""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from games.base import Board, Game, IllegalMove, Option, Outcome

__all__ = ["Board", "Game", "IllegalMove", "Option", "Outcome", "names", "listed", "get", "from_dict", "package",
           "folder", "part", "register", "registered", "unregister"]

# name -> the package that defines GAME, in the lobby's order (the quickest to pick up first). Adding a game of
# Quadrille's own is one line here; a game from elsewhere is added by register().
_MODULES = {
    "trails": "games.trails",
    "towers": "games.towers",
    "gamma": "games.gamma",
    "lattice": "games.lattice",
}
_BUILT_IN = frozenset(_MODULES)


def names() -> list[str]:
    """Every game's name, sorted (the engine contract).

        >>> names()
        ['gamma', 'lattice', 'towers', 'trails']
    """
    return sorted(_MODULES)


def listed() -> list[str]:
    """Every game's name in the registry's order: the order the lobby shows them in.

        >>> listed()
        ['trails', 'towers', 'gamma', 'lattice']
    """
    return list(_MODULES)


def package(name: str) -> str:
    """The dotted name of the package that holds game `name`; KeyError for an unknown name."""
    if not isinstance(name, str) or name not in _MODULES:
        raise KeyError(name)
    return _MODULES[name]


def folder(name: str) -> Path:
    """The folder of game `name`'s package, where its data files, static/ and templates/ are."""
    return Path(importlib.import_module(package(name)).__file__).resolve().parent


def part(name: str, module: str) -> ModuleType | None:
    """An optional module of a game's package (`computer`, `picture`), or None when the game has none."""
    full = f"{package(name)}.{module}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise


def register(dotted: str) -> str:
    """Add the game defined by package `dotted` (its GAME) to the registry, after the others; its name.

    ValueError when another package already holds that name. Registering the same package again changes
    nothing, so that every process of a server (and each computer worker) may do it at start-up."""
    game = importlib.import_module(dotted).GAME
    if _MODULES.get(game.name, dotted) != dotted:
        raise ValueError(f"game {game.name!r} is already {_MODULES[game.name]}, not {dotted}")
    _MODULES[game.name] = dotted
    return game.name


def registered() -> list[str]:
    """The packages register() added beyond Quadrille's own games (a computer worker registers them too)."""
    return [dotted for name, dotted in _MODULES.items() if name not in _BUILT_IN]


def unregister(name: str) -> None:
    """Forget a game added by register() (tests); Quadrille's own games stay."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is one of Quadrille's own games")
    _MODULES.pop(name, None)


def get(name: str) -> Game:
    """The Game called `name`; KeyError for an unknown name.

        >>> get("towers").title, get("towers").seats
        ('Towers', (2, 2))
        >>> get("chess")
        Traceback (most recent call last):
        KeyError: 'chess'
    """
    return importlib.import_module(package(name)).GAME


def from_dict(d: dict) -> Board:
    """Rebuild a board from `board.to_dict()`; a corrupt record raises (ValueError, KeyError, IllegalMove).

        >>> board = from_dict({"game": "gamma", "options": {"width": 3, "height": 3}, "moves": ["0,0", "2,2"]})
        >>> board.turn, board.moves
        (1, ['0,0', '2,2'])
        >>> from_dict({"game": "gamma", "options": {"width": 3, "height": 3}, "moves": ["0,0", "0,0"]})
        Traceback (most recent call last):
        games.base.IllegalMove: move 2 ('0,0') is illegal: a1 is taken
    """
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
            raise IllegalMove("move %(number)d (%(move)s) is illegal: %(reason)s", number=i + 1, move=repr(move),
                              reason=exc.reason) from None
    return board
