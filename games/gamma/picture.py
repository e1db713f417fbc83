"""Gamma: the picture of a position (from GammaBoard.view()) and how a marked field is found.

Fields are (x, y) with y = 0 the bottom row, as in the notation; a mark is [x, y]. Each player's fields carry
the player's colour and letter (A, B, C, ...), so that nobody depends on telling colours apart.
"""
from __future__ import annotations

import re

from games.svg import _l, _ln, grid_path, n, rect, svg

CELL = 10
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
COLOURS = 8  # the pictures' palette (--pc1 ... --pc8 in quadrille.css); seats past 8 repeat it, their letters differ


def picture(view: dict, marks=(), legal: bool = False, label: str | None = None, golden: bool = False) -> str:
    w, h = view["width"], view["height"]
    top = h - 1
    body = [rect(0, 0, w * CELL, h * CELL, "pic-free")]
    shown = set()
    if legal:
        shown = {tuple(f) for f in (view["golden"] if golden else view["legal"])}
        for x, y in view["legal"] if not golden else ():
            body.append(rect(x * CELL, (top - y) * CELL, CELL, CELL, "pic-legal"))
    letters = w * h <= 400
    for y, row in enumerate(view["cells"]):
        for x, owner in enumerate(row):
            if not owner:
                continue
            px, py = x * CELL, (top - y) * CELL
            body.append(rect(px, py, CELL, CELL, f"pic-pc{(owner - 1) % COLOURS + 1}"))
            if golden and (x, y) in shown:
                body.append(rect(px + 1.2, py + 1.2, CELL - 2.4, CELL - 2.4, "pic-gold"))
            if letters:
                mark = LETTERS[owner - 1] if owner <= len(LETTERS) else str(owner)
                body.append(f'<text class="pic-letter" x="{n(px + CELL / 2)}" y="{n(py + 6.9)}">{mark}</text>')
    body.append(grid_path(w, h, CELL))
    for x, y in marks:
        body.append(rect(x * CELL + .8, (top - y) * CELL + .8, CELL - 1.6, CELL - 1.6, "pic-mark"))
    return svg(w * CELL, h * CELL, "".join(body), label if label is not None else label_words(view), "pic-gamma")


def label_words(view: dict):
    """What the picture says to a screen reader (games/svg.py Words: English, translated by the server)."""
    w, h = view["width"], view["height"]
    taken = sum(1 for row in view["cells"] for v in row if v)
    if not taken:
        return _l("Gamma board, %(width)d by %(height)d, for %(players)d players, empty", width=w, height=h,
                  players=view["players"])
    return _ln("Gamma board, %(width)d by %(height)d, for %(players)d players: %(num)d field taken",
               "Gamma board, %(width)d by %(height)d, for %(players)d players: %(num)d fields taken", taken,
               width=w, height=h, players=view["players"])


def mark_attrs(mark) -> dict:
    x, y = mark
    return {"x": x, "y": y}


def no_targets(view: dict) -> dict:
    """The view without the fields the side to move may take (a lesson never lights the opponent's)."""
    return {**view, "legal": [], "golden": []}


def move_cells(board, move: str) -> list:
    """The field a move takes on `board`, as a mark [x, y] ("3,4" and the golden "g3,4"); nothing for "skip"."""
    found = re.fullmatch(r"g?(\d+),(\d+)", move)
    return [[int(found.group(1)), int(found.group(2))]] if found else []
