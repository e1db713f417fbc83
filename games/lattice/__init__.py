"""Lattice Checkers: spatial checkers on a box of nodes on alternating checkerboard levels.

Rules: docs/games.md (*Lattice Checkers*) and the rules page, templates/rules.html. The engine is in ``board.py``, the
geometry in ``geometry.py`` and the import of the original's ``.ltc`` save files in ``ltc.py``.
"""
from __future__ import annotations

from games.base import Game
from games.notation import lattice_names
from games.lattice import ltc
from games.lattice.board import COLORS, OPTIONS, LatticeBoard, parse_pos
from games.lattice.geometry import SIZES, Lattice, lattice

__all__ = ["GAME", "COLORS", "OPTIONS", "SIZES", "Lattice", "LatticeBoard", "lattice", "parse_pos", "MOVES_PER_NODE"]

MOVES_PER_NODE = 20


def _longest(options: dict) -> int:
    """The most moves of a real game: 20 per node of the lattice (640 on 222, 2,160 on 333).

    Balls and stars step only forward, so without captures a game ends after each piece crossed the lattice
    once; but a promotion brings a captured ball back to its side's first level, and a star on the far level
    may capture backwards and walk up again, so there is no simple bound. The longest recorded games take 2.75
    to 3.6 moves per node (the games recorded from the original: 88 moves on 222's 32 nodes, 173 on 223's 48, 355 on
    333's 108), random games and the classic and search levels against each other at most 3: 20 a node is
    more than five times the longest of them."""
    return MOVES_PER_NODE * len(lattice(options["size"]).nodes)


GAME = Game(
    name="lattice",
    title="Lattice Checkers",
    seats=(2, 2),
    options=OPTIONS,
    board_class=LatticeBoard,
    formats={"ltc": ltc},
    longest=_longest,
    notation=lattice_names,
    # The sides are called by the colours the players chose (the two always differ): "Blue", "Red".
    names=lambda options: [options["color_b"].capitalize(), options["color_t"].capitalize()],
    draws=True,  # equal scores are a draw (docs/games.md, *Lattice Checkers*)
    summary=(
        "Checkers in three dimensions: the pieces stand on the nodes of a lattice of stacked checkerboard levels "
        "and move one step along the diagonals that go up or down a level, B upwards from the bottom and T "
        "downwards from the top. Capturing is mandatory: jump over a neighbouring enemy piece in any of the 8 "
        "directions, and keep jumping while you can. A ball that reaches the far level becomes a star, brings "
        "back one of its captured balls to its own first level and moves again. When neither side can move, "
        "the side with more pieces on the far level wins."
    ),
)
