"""Lattice Checkers: the picture of a position (from LatticeBoard.view()) and how a marked node is found.

Two drawings: `style="3d"` (the default) draws the lattice in an oblique projection, levels stacked from level 1
at the bottom, with its bonds; `style="levels"` draws the levels side by side as small checkerboards, as the flat
view of the game's page does (clearer for marking nodes). A mark is a node name such as "Bc2".
"""
from __future__ import annotations

import re

from markupsafe import escape

from games.svg import _l, n, rect, svg

CELL = 10
GAP = 6


def _star(cx: float, cy: float, r: float) -> str:
    import math
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * .45
        a = -math.pi / 2 + k * math.pi / 5
        points.append(f"{n(cx + radius * math.cos(a))},{n(cy + radius * math.sin(a))}")
    return " ".join(points)


def _piece(node: dict, cx: float, cy: float, r: float) -> str:
    cls = f"pic-s{node['seat']}"
    if node["star"]:
        return f'<polygon class="{cls} pic-star" points="{_star(cx, cy, r * 1.45)}"/>'
    return f'<circle class="{cls} pic-ball" cx="{n(cx)}" cy="{n(cy)}" r="{n(r)}"/>'


def _colours(view: dict) -> str:
    def rgb(seat):
        return "rgb(" + ", ".join(str(round(c * 255)) for c in view["colors"][seat]["rgb"]) + ")"
    return f"--c1: {rgb('1')}; --c2: {rgb('2')}"


def _label(view: dict, label: str | None) -> str:
    if label is not None:
        return label
    return label_words(view)


def label_words(view: dict):
    """What the picture says to a screen reader (games/svg.py Words: English, translated by the server)."""
    w, h, levels = view["grid"]
    b, t = view["on_board"]
    return _l("Lattice Checkers, a %(width)d by %(height)d by %(levels)d lattice: B's %(b)d pieces from level 1 "
              "upwards, T's %(t)d from level %(levels)d downwards", width=w, height=h, levels=levels, b=b, t=t)


def _targets(view: dict) -> set:
    if view.get("pending") == "return":
        return set(view["returns"])
    return {entry["path"][-1] for entries in view["legal"].values() for entry in entries}


def picture(view: dict, marks=(), legal: bool = False, label: str | None = None, style: str = "3d") -> str:
    if style == "levels":
        return levels(view, marks, legal, label)
    w, h, lv = view["grid"]
    dx, sx, sy, dz = 10, 5, 4, 14  # x to the right; y into the picture (sx right, sy up); a level up
    ox, oy = 5, 5

    def at(node):
        return (ox + node["x"] * dx + node["y"] * sx, oy + (lv - 1 - node["z"]) * dz + (h - 1 - node["y"]) * sy)

    where = {node["id"]: at(node) for node in view["nodes"]}
    body = []
    bonds = "".join(f"M{n(where[a][0])} {n(where[a][1])}L{n(where[b][0])} {n(where[b][1])}" for a, b in view["bonds"])
    body.append(f'<path class="pic-bond" d="{bonds}"/>')
    targets = _targets(view) if legal else set()
    marked = set(marks)
    for node in sorted(view["nodes"], key=lambda m: (-m["y"], m["z"])):
        cx, cy = where[node["id"]]
        if node["id"] in targets:
            body.append(f'<circle class="pic-legal" cx="{n(cx)}" cy="{n(cy)}" r="3.6"/>')
        body.append(_piece(node, cx, cy, 2.7) if node["seat"] else
                    f'<circle class="pic-node" cx="{n(cx)}" cy="{n(cy)}" r="1.3"/>')
        if node["id"] in marked:
            body.append(f'<circle class="pic-mark" cx="{n(cx)}" cy="{n(cy)}" r="4.6"/>')
    width = ox * 2 + (w - 1) * dx + (h - 1) * sx
    height = oy * 2 + (lv - 1) * dz + (h - 1) * sy
    return svg(width, height, "".join(body), _label(view, label), "pic-lattice", _colours(view))


def levels(view: dict, marks=(), legal: bool = False, label: str | None = None) -> str:
    w, h, lv = view["grid"]
    top, left = 9, 5  # room for each level's title, and for the row letters
    targets = _targets(view) if legal else set()
    marked = set(marks)
    by_pos = {(node["x"], node["y"], node["z"]): node for node in view["nodes"]}
    body = []
    for z in range(lv):
        x0 = left + z * (w * CELL + GAP + left)
        body.append(f'<text class="pic-caption" x="{n(x0 + w * CELL / 2)}" y="6.5">Level {z + 1}</text>')
        body.append(rect(x0, top, w * CELL, h * CELL, "pic-hole"))
        for y in range(h):
            body.append(f'<text class="pic-axis" x="{n(x0 - 2.6)}" y="{n(top + (h - 1 - y) * CELL + 6.4)}">'
                        f'{escape(view["axes"]["y"][y])}</text>')
            for x in range(w):
                node = by_pos.get((x, y, z))
                if node is None:
                    continue
                px, py = x0 + x * CELL, top + (h - 1 - y) * CELL
                body.append(rect(px, py, CELL, CELL, "pic-legal" if node["id"] in targets else "pic-square"))
                if node["seat"]:
                    body.append(_piece(node, px + CELL / 2, py + CELL / 2, 3.3))
                if node["id"] in marked:
                    body.append(rect(px + .8, py + .8, CELL - 1.6, CELL - 1.6, "pic-mark"))
        for x in range(w):
            body.append(f'<text class="pic-axis" x="{n(x0 + x * CELL + CELL / 2)}" y="{n(top + h * CELL + 5.5)}">'
                        f'{escape(view["axes"]["x"][x])}</text>')
    width = lv * (w * CELL + left) + (lv - 1) * GAP
    return svg(width, top + h * CELL + 7, "".join(body), _label(view, label), "pic-lattice pic-levels", _colours(view))


def mark_attrs(mark) -> dict:
    return {"node": mark}


def no_targets(view: dict) -> dict:
    """The view without the moves of the side to move (a lesson never lights the opponent's)."""
    return {**view, "legal": {}, "returns": []}


def move_cells(board, move: str) -> list:
    """The nodes a move touches, as marks: a step's two nodes, a capture chain's start and every landing, a
    return's node ("+Bb1")."""
    return [node for node in re.split(r"[-:+]", move) if node]
