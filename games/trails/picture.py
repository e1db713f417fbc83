"""Trails and Towers: the picture of a position (from TrailsBoard.view()) and how a marked cell is found.

Cells are (row, column) from the top-left, as in the view; a mark is [row, column].
"""
from __future__ import annotations

from games.svg import _ln, grid_path, n, rect, svg

CELL = 10
TOWER = "m2.5 8.2h5v-1h-.8l-.5-3.6h.9v-2h-1v.9h-.9v-.9h-1v.9h-.9v-.9h-1v2h.9l-.5 3.6h-.8z"  # a rook, in a 10x10 cell
CLASS = {"1": "pic-p1", "2": "pic-p2", "T": "pic-tower"}


def picture(view: dict, marks=(), legal: bool = False, label: str | None = None) -> str:
    size = view["size"]
    side = size * CELL
    body = [rect(0, 0, side, side, "pic-free")]
    green = {tuple(c) for c in view.get("green", ())} if legal else set()
    for r, row in enumerate(view["cells"]):
        for c, ch in enumerate(row):
            x, y = c * CELL, r * CELL
            if (r, c) in green:
                body.append(rect(x, y, CELL, CELL, "pic-legal"))
            if ch in ("1", "2"):
                body.append(rect(x, y, CELL, CELL, CLASS[ch]))
            elif ch == "T":
                if (r, c) not in green:
                    body.append(rect(x, y, CELL, CELL, "pic-tower"))
                body.append(f'<path class="pic-rook" transform="translate({x} {y})" d="{TOWER}"/>')
    for seat, (r, c) in enumerate(view["heads"], start=1):
        body.append(f'<circle class="pic-head" cx="{n(c * CELL + CELL / 2)}" cy="{n(r * CELL + CELL / 2)}" r="2.6"/>')
    body.append(grid_path(size, size, CELL))
    for r, c in marks:
        body.append(rect(c * CELL + 1, r * CELL + 1, CELL - 2, CELL - 2, "pic-mark"))
    return svg(side, side, "".join(body), label if label is not None else label_words(view), "pic-trails")


def label_words(view: dict):
    """What the picture says to a screen reader (games/svg.py Words: English, translated by the server)."""
    towers = sum(row.count("T") for row in view["cells"])
    return _ln("Trails and Towers board, %(size)d by %(size)d: Blue's trail from the top-left corner, Red's from "
               "the bottom-right, %(num)d tower standing",
               "Trails and Towers board, %(size)d by %(size)d: Blue's trail from the top-left corner, Red's from "
               "the bottom-right, %(num)d towers standing", towers, size=view["size"])


def mark_attrs(mark) -> dict:
    r, c = mark
    return {"r": r, "c": c}


def no_targets(view: dict) -> dict:
    """The view without the cells the side to move may reach (a lesson never lights the opponent's)."""
    return {**view, "green": [], "legal": {}}


def move_cells(board, move: str) -> list:
    """The cells a move touches on `board` (the position before it), as marks [row, column]: where the mover's
    trail head stands, then every cell the move would claim (the view's legal paths: a direction alone does
    not say how far it goes)."""
    view = board.view()
    path = view["legal"].get(move) if board.turn is not None else None
    if not path:
        return []
    return [list(view["heads"][board.turn - 1])] + [list(cell) for cell in path]
