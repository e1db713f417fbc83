"""Moves named for people, the same for every viewer (`Game.move_names`): cell names as on a chessboard, whose
coordinates the renderers draw along the board's edges, so that a name can be read off any side of the board.

Files are letters from the first seat's left (a, b, ... z, then aa, ab, ...), ranks numbers from the first
seat's bottom row (1, 2, ...). The API and the records keep their move strings; these names are only shown.
Pure functions of a board or of a move string: no I/O. Each `*_names(board, start)` names the moves from the
`start`-th on only: a move's name depends on the moves before it and never on those after, so a caller that keeps
the names of a line names only its new moves (quadrille/matches/naming.py).
"""
from __future__ import annotations

import re
from functools import lru_cache

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def file_name(column: int) -> str:
    """The letters of a 0-based column: a ... z, aa, ab, ... (lower case: never read as a player's letter)."""
    name = ""
    k = column + 1
    while k > 0:
        k, rest = divmod(k - 1, 26)
        name = _LETTERS[rest] + name
    return name


@lru_cache(maxsize=65536)
def cell_name(column: int, rank: int) -> str:
    """A cell's name from its 0-based column and its 1-based rank (counted from the first seat's bottom)."""
    return f"{file_name(column)}{rank}"


# -- Trails and Towers: the cell a trail's move reached (rows run down from Blue's corner: rank = N - row) ---------

def trails_names(board, start: int = 0) -> list[str]:
    """Each move of a Trails board from the `start`-th on as the cell its trail reached ("c11"), "… tower" when it
    took one."""
    n = board.size
    return [_trails_name(column, n - row, took) for row, column, took in board.targets(start)]


@lru_cache(maxsize=65536)
def _trails_name(column: int, rank: int, took: bool) -> str:
    return cell_name(column, rank) + (" tower" if took else "")


# -- Towers: m{x},{y}>{x},{y}:{k}, i{k}, end; y = 0 is the top row of Blue's view -----------------------------------

_TOWERS_MOVE = re.compile(r"m(\d+),(\d+)>(\d+),(\d+):(\d+)")


@lru_cache(maxsize=4096)
def towers_name(move: str, size: int) -> str:
    """"c2→c3", "c2→c4 (2)" for two pawns moved, "import 1", "end"."""
    found = _TOWERS_MOVE.fullmatch(move)
    if found:
        x1, y1, x2, y2, k = map(int, found.groups())
        return f"{cell_name(x1, size - y1)}→{cell_name(x2, size - y2)}" + (f" ({k})" if k > 1 else "")
    if re.fullmatch(r"i\d+", move):
        return f"import {move[1:]}"
    return move


def towers_names(board, start: int = 0) -> list[str]:
    return [towers_name(move, board.size) for move in board.moves[start:]]


# -- Lattice Checkers: the rules' node names (x letter, y letter, level) ------------------------------------------

@lru_cache(maxsize=4096)
def lattice_name(move: str) -> str:
    """"Aa1→Ab2" (a step), "Ad4×Ab2" (a capture chain, × before each landing), "return Ab1" (a ball brought back)."""
    if move.startswith("+"):
        return f"return {move[1:]}"
    if ":" in move:
        return "×".join(move.split(":"))
    return "→".join(move.split("-"))


def lattice_names(board, start: int = 0) -> list[str]:
    return [lattice_name(move) for move in board.moves[start:]]


# -- Gamma: x,y (y = 0 the bottom row), gx,y a golden move, skip ---------------------------------------------------

_GAMMA_MOVE = re.compile(r"(g?)(\d+),(\d+)")


@lru_cache(maxsize=65536)
def gamma_name(move: str) -> str:
    """"c5" (the field x = 2, y = 4), "c5 golden", "skip"."""
    found = _GAMMA_MOVE.fullmatch(move)
    if not found:
        return move
    golden, x, y = found.groups()
    return cell_name(int(x), int(y) + 1) + (" golden" if golden else "")


def gamma_names(board, start: int = 0) -> list[str]:
    return [gamma_name(move) for move in board.moves[start:]]
