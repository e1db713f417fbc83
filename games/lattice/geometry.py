"""The lattice of Lattice Checkers: nodes, labels, neighbours and jumps.

Index coordinates (j, i, l): j is x (labels A..F), i is y (a..f), l the level (1..6 in labels,
0-based here). A node exists where j + i + l is even. Nodes are numbered on the full box,
``idx = j + W * (i + H * l)`` with W = 2dX, H = 2dY, so that the node between two nodes that
are two steps apart along a diagonal is simply ``(a + b) // 2``.

Everything here is computed once per size and cached; the rules code only reads tuples.
"""
from __future__ import annotations

from functools import lru_cache

SIZES = ("222", "322", "223", "323", "333")

# The 8 level-changing diagonal steps (dj, di, dl), in the order the original scans them.
STEPS = (
    (+1, 0, +1), (-1, 0, +1), (0, +1, +1), (0, -1, +1),   # up: forward for B
    (+1, 0, -1), (-1, 0, -1), (0, +1, -1), (0, -1, -1),   # down: forward for T
)

B, T = 1, 2            # seats: B = bottom side (seat 1), T = top side (seat 2)
SIDE_NAME = {B: "B", T: "T"}


class Lattice:
    """Geometry of one size. Read-only after construction; get one with ``lattice(size)``."""

    def __init__(self, size: str):
        if size not in SIZES:
            raise ValueError(f"unknown lattice size {size!r}; expected one of: " + ", ".join(SIZES))
        self.size = size
        self.dims = dX, dY, dZ = int(size[0]), int(size[1]), int(size[2])
        self.W, self.H, self.L = W, H, L = 2 * dX, 2 * dY, 2 * dZ
        self.cells = W * H * L
        self.rows = R = (dZ + 1) // 2                      # initial levels per side
        self.first_level = {B: 0, T: L - 1}                # a side's own first level
        self.far_level = {B: L - 1, T: 0}                  # the level where a side's balls promote
        self.forward = {B: +1, T: -1}

        self.exists = [False] * self.cells
        self.coords: list[tuple | None] = [None] * self.cells
        self.label: list[str | None] = [None] * self.cells
        self.level = [-1] * self.cells
        self.index: dict[str, int] = {}
        nodes = []
        for l in range(L):
            for i in range(H):
                for j in range(W):
                    if (i + j + l) % 2:
                        continue
                    n = self.idx(j, i, l)
                    nodes.append(n)
                    self.exists[n] = True
                    self.coords[n] = (j, i, l)
                    self.level[n] = l
                    lab = chr(65 + j) + chr(97 + i) + str(l + 1)
                    self.label[n] = lab
                    self.index[lab] = n
        #: every node, ordered by level, then y, then x
        self.nodes = tuple(nodes)
        #: nodes sorted by label (the order of sorted label strings)
        self.nodes_by_label = tuple(sorted(nodes, key=lambda n: self.label[n]))

        # neighbours in scan order (None when out of bounds), forward steps per side, jumps
        self.neighbours: list[tuple] = [()] * self.cells
        self.jumps: list[tuple] = [()] * self.cells          # ((mid, land), ...) in scan order
        self.steps_fwd = {B: [()] * self.cells, T: [()] * self.cells}
        for n in nodes:
            j, i, l = self.coords[n]
            nb, jumps, up, down = [], [], [], []
            for dj, di, dl in STEPS:
                m = self._at(j + dj, i + di, l + dl)
                nb.append(m)
                if m is None:
                    continue
                (up if dl > 0 else down).append(m)
                t = self._at(j + 2 * dj, i + 2 * di, l + 2 * dl)
                if t is not None:
                    jumps.append((m, t))
            self.neighbours[n] = tuple(nb)
            self.jumps[n] = tuple(jumps)
            self.steps_fwd[B][n] = tuple(up)
            self.steps_fwd[T][n] = tuple(down)
        #: forward simple moves per side and node: ((to, "Aa1-Ab2", (0, (from, to))), ...), the last item
        #: being the action as the rules code stores it (kind 0 = simple move, path)
        self.moves_fwd = {side: [tuple((m, self.label[n] + "-" + self.label[m], (0, (n, m))) for m in steps[n])
                                 if self.exists[n] else () for n in range(self.cells)]
                          for side, steps in self.steps_fwd.items()}
        #: bonds = beams of the original: every node to each in-bounds upper neighbour
        self.bonds = tuple((n, m) for n in nodes for m in self.steps_fwd[B][n])
        #: the nodes of each level
        self.level_nodes = tuple(tuple(n for n in nodes if self.level[n] == l) for l in range(L))
        #: the initial setup: nodes of each side
        self.setup = {
            B: tuple(n for n in nodes if self.level[n] < R),
            T: tuple(n for n in nodes if self.level[n] >= L - R),
        }

    def idx(self, j: int, i: int, l: int) -> int:
        return j + self.W * (i + self.H * l)

    def _at(self, j: int, i: int, l: int) -> int | None:
        if 0 <= j < self.W and 0 <= i < self.H and 0 <= l < self.L:
            return self.idx(j, i, l)
        return None

    def node(self, label: str) -> int:
        """The node index of a label; ValueError for a label that is not a node of this lattice."""
        n = self.index.get(label) if isinstance(label, str) else None
        if n is None:
            raise ValueError(f"{label!r} is not a node of the {self.size} lattice")
        return n

    def world(self, n: int) -> tuple[int, int, int]:
        """The original's world coordinates (odd integers centred on 0)."""
        j, i, l = self.coords[n]
        dX, dY, dZ = self.dims
        return 2 * j - 2 * dX + 1, 2 * i - 2 * dY + 1, 2 * l - 2 * dZ + 1

    def from_world(self, x: int, y: int, z: int) -> int | None:
        """The node at world coordinates, None when off the lattice (a benched piece).

        ValueError when the point is inside the box but is not a node (even coordinates or wrong parity).
        """
        dX, dY, dZ = self.dims
        if not (abs(x) < 2 * dX and abs(y) < 2 * dY and abs(z) < 2 * dZ):
            return None
        if x % 2 == 0 or y % 2 == 0 or z % 2 == 0:
            raise ValueError(f"world point ({x},{y},{z}) is inside the {self.size} lattice but not on a node")
        j, i, l = (x + 2 * dX - 1) // 2, (y + 2 * dY - 1) // 2, (z + 2 * dZ - 1) // 2
        if (i + j + l) % 2:
            raise ValueError(f"world point ({x},{y},{z}) is inside the {self.size} lattice but not on a node")
        return self.idx(j, i, l)

    def opposite(self, n: int) -> int:
        """The net-mode orientation map (j, i, l) -> (j, 2dY-1-i, 2dZ-1-l), an involution."""
        j, i, l = self.coords[n]
        return self.idx(j, self.H - 1 - i, self.L - 1 - l)


@lru_cache(maxsize=None)
def lattice(size: str) -> Lattice:
    return Lattice(size)
