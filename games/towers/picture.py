"""Towers: the picture of a position (from TowersBoard.view()) and how a marked cell is found.

Cells are (x, y): x the column from the left, y the row from the top (Red, Player 2, sits at the top); a mark is
[x, y]. A tower is a disc with its height written on it; a master wears a crown; a locked cell has a dashed ring.
"""
from __future__ import annotations

import re

from games.svg import _l, n, rect, svg

CELL = 10
CROWN = "m-3 1.6-.6-3.4 1.9 1.3 1.7-2.6 1.7 2.6 1.9-1.3-.6 3.4z"  # centred on (0, 0)
NAMES = {1: "Blue", 2: "Red"}


def picture(view: dict, marks=(), legal: bool = False, label: str | None = None) -> str:
    size = view["size"]
    side = size * CELL
    dark = "".join(f"M{x * CELL} {y * CELL}h{CELL}v{CELL}h-{CELL}z"
                   for y in range(size) for x in range(size) if (x + y) % 2)
    body = [rect(0, 0, side, side, "pic-square"), f'<path class="pic-square-dark" d="{dark}"/>']
    if legal:
        for src in view["legal"]["sources"]:
            for t in src["targets"]:
                x, y = t["to"]
                body.append(rect(x * CELL, y * CELL, CELL, CELL, "pic-legal"))
    for t in view["towers"]:
        cx, cy = t["x"] * CELL + CELL / 2, t["y"] * CELL + CELL / 2
        cls = f"pic-p{t['owner']}"
        if t["locked"]:
            body.append(f'<circle class="pic-lock" cx="{n(cx)}" cy="{n(cy)}" r="4.6"/>')
        body.append(f'<circle class="{cls} pic-disc" cx="{n(cx)}" cy="{n(cy)}" r="3.6"/>')
        if t["master"]:
            body.append(f'<path class="pic-crown" transform="translate({n(cx)} {n(cy - .3)})" d="{CROWN}"/>')
        if t["height"] > 1:
            body.append(f'<text class="pic-height" x="{n(cx + 2.6)}" y="{n(cy + 4.4)}">{t["height"]}</text>')
    for x, y in marks:
        body.append(rect(x * CELL + .8, y * CELL + .8, CELL - 1.6, CELL - 1.6, "pic-mark"))
    return svg(side, side, "".join(body), label if label is not None else label_words(view), "pic-towers")


def label_words(view: dict):
    """What the picture says to a screen reader (games/svg.py Words: English, translated by the server)."""
    return _l("Towers board, %(size)d by %(size)d: Red's pawns at the top, Blue's at the bottom, each master "
              "marked with a crown", size=view["size"])


def mark_attrs(mark) -> dict:
    x, y = mark
    return {"x": x, "y": y}


def no_targets(view: dict) -> dict:
    """The view without the moves of the side to move (a lesson never lights the opponent's)."""
    legal = {**view["legal"], "sources": [], "can_import": False, "can_end": False}
    return {**view, "legal": legal}


def move_cells(board, move: str) -> list:
    """The cells a move touches on `board` (the position before it), as marks [x, y]: a move's source and target,
    an import's master (the mover's), nothing for ending a turn."""
    found = re.fullmatch(r"m(\d+),(\d+)>(\d+),(\d+):\d+", move)
    if found:
        x1, y1, x2, y2 = map(int, found.groups())
        return [[x1, y1], [x2, y2]]
    if re.fullmatch(r"i\d+", move):
        return [[t["x"], t["y"]] for t in board.view()["towers"] if t["master"] and t["owner"] == board.turn]
    return []
