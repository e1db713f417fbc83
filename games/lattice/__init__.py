"""Lattice Checkers: spatial checkers on a box of nodes on alternating checkerboard levels.

Rules: shared/rules/lattice.md (Decisions and Notation first). The engine is in ``board.py``, the
geometry in ``geometry.py`` and the import of the original's ``.ltc`` save files in ``ltc.py``.
"""
from __future__ import annotations

from games.base import Game
from games.lattice import ltc
from games.lattice.board import COLORS, OPTIONS, LatticeBoard, parse_pos
from games.lattice.geometry import SIZES, Lattice, lattice

__all__ = ["GAME", "COLORS", "OPTIONS", "SIZES", "Lattice", "LatticeBoard", "lattice", "parse_pos"]

GAME = Game(
    name="lattice",
    title="Lattice Checkers",
    seats=(2, 2),
    options=OPTIONS,
    board_class=LatticeBoard,
    formats={"ltc": ltc},
    summary=(
        "Checkers in three dimensions: the pieces stand on the nodes of a lattice of stacked checkerboard levels "
        "and move one step along the diagonals that go up or down a level, B upwards from the bottom and T "
        "downwards from the top. Capturing is mandatory: jump over a neighbouring enemy piece in any of the 8 "
        "directions, and keep jumping while you can. A ball that reaches the far level becomes a star, brings "
        "back one of its captured balls to its own first level and moves again. When neither side can move, "
        "the side with more pieces on the far level wins."
    ),
)
