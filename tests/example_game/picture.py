"""Race to Ten's picture: the row of points, each coloured by the player who reached it (pure SVG text)."""
from __future__ import annotations

from games.svg import rect, svg

CELL = 10
ROW = 5  # points a row
CLASS = {0: "pic-free", 1: "pic-p1", 2: "pic-p2"}


def picture(view: dict, marks=(), legal: bool = False, label: str | None = None) -> str:
    goal, path = view["goal"], view["path"]
    reachable = {view["total"] + int(step) for step in view["legal"]} if legal else set()
    body = []
    for point in range(1, goal + 1):
        cls = "pic-legal" if point in reachable else CLASS[path[point - 1] if point <= len(path) else 0]
        body.append(rect(*_corner(point), CELL, CELL, cls, ' stroke="currentColor" stroke-width=".4"'))
    for point in marks:
        x, y = _corner(point)
        body.append(rect(x + 1, y + 1, CELL - 2, CELL - 2, "pic-mark"))
    label = label or f"Race to {goal}: the count is {view['total']}"
    return svg(min(goal, ROW) * CELL, -(-goal // ROW) * CELL, "".join(body), label, "pic-race")


def _corner(point: int) -> tuple[int, int]:
    """Where a point's square is drawn: rows of ROW points, left to right, top to bottom."""
    return (point - 1) % ROW * CELL, (point - 1) // ROW * CELL


def mark_attrs(mark) -> dict:
    return {"point": mark}


def no_targets(view: dict) -> dict:
    return {**view, "legal": []}
