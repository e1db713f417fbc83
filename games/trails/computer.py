"""Trails and Towers: the evaluation (territory by a Voronoi split of the free cells, plus towers).

The model keeps its own picture of the board, in step with the engine through the public `claimed(move)`
(the cells a move claims) and `view()` at the root: a padded grid, the two heads and the towers taken.
"""
from __future__ import annotations

from ai.model import Model

FREE, P1, P2, TOWER, WALL = 0, 1, 2, 3, 4
_CHAR = {".": FREE, "1": P1, "2": P2, "T": TOWER}
_DIRS = ("down", "left", "right", "up")           # the engine's notation order

TOWER_TAKEN = 14.0     # a tower taken, in cells of territory
TOWER_NEAR = 3.0       # a tower standing in my part of the board


class TrailsModel(Model):
    temperature = 1.0
    level2_depth = 6
    level2_nodes = 3000

    def __init__(self, board, me: int):
        super().__init__(board, me)
        view = board.view()
        n = view["size"]
        w = self.w = n + 2
        grid = [WALL] * (w * w)
        for r, row in enumerate(view["cells"]):
            base = (r + 1) * w + 1
            for c, ch in enumerate(row):
                grid[base + c] = _CHAR[ch]
        self.grid = grid
        self.heads = [0] + [(r + 1) * w + c + 1 for r, c in view["heads"]]
        self.taken = [0] + list(view["taken"])
        self.dirs = [0] + [_DIRS.index(d) for d in view["dirs"]]
        self.boost = [0] + list(view["boost"])
        self.need = view["towers_needed"]       # towers for a tower win, None when impossible
        self.steps = (w, -1, 1, -w)           # in _DIRS order
        self.stack: list = []

    # -- keeping the picture in step -------------------------------------------------------------------

    def push(self, board, move: str) -> None:
        p = board.turn
        w = self.w
        cells = [(r + 1) * w + c + 1 for r, c in board.claimed(move)]
        h = self.heads[p]
        target = max(cells, key=lambda x: abs(x - h))   # the cells lie on one line from the head
        grid = self.grid
        tower = grid[target] == TOWER
        old = [grid[x] for x in cells]
        for x in cells:
            grid[x] = p
        self.stack.append((p, cells, old, h, tower, self.dirs[p], self.boost[p]))
        d = _DIRS.index(move)
        self.boost[p] = self.boost[p] + 1 if d == self.dirs[p] else 0
        self.dirs[p] = d
        self.heads[p] = target
        if tower:
            self.taken[p] += 1
        board.push(move)

    def pop(self, board) -> None:
        board.pop()
        p, cells, old, h, tower, self.dirs[p], self.boost[p] = self.stack.pop()
        grid = self.grid
        for x, v in zip(cells, old):
            grid[x] = v
        self.heads[p] = h
        if tower:
            self.taken[p] -= 1

    # -- evaluation ------------------------------------------------------------------------------------

    def territory(self, mover: int) -> tuple[int, int, int, int]:
        """Simultaneous breadth-first search from both heads over free cells and towers; a cell belongs to
        the head that reaches it first, the side to move winning ties. Returns (cells of 1, cells of 2,
        towers of 1, towers of 2)."""
        grid = self.grid
        steps = self.steps
        seen = bytearray(len(grid))
        heads = self.heads
        seen[heads[1]] = seen[heads[2]] = 1
        fronts = {1: [heads[1]], 2: [heads[2]]}
        count = [0, 0, 0]
        towers = [0, 0, 0]
        order = (mover, 3 - mover)
        while fronts[1] or fronts[2]:
            for p in order:
                new = []
                for x in fronts[p]:
                    for s in steps:
                        y = x + s
                        if not seen[y]:
                            v = grid[y]
                            if v == FREE or v == TOWER:
                                seen[y] = 1
                                new.append(y)
                                if v == TOWER:
                                    towers[p] += 1
                fronts[p] = new
                count[p] += len(new)
        return count[1], count[2], towers[1], towers[2]

    def area(self, head: int) -> int:
        """How many free cells and towers a head can reach by single steps (a flood fill)."""
        grid = self.grid
        steps = self.steps
        seen = {head}
        todo = [head]
        while todo:
            x = todo.pop()
            for s in steps:
                y = x + s
                if y not in seen and (grid[y] == FREE or grid[y] == TOWER):
                    seen.add(y)
                    todo.append(y)
        return len(seen) - 1

    def solo_paths(self, p: int, depth: int) -> int:
        """How many sequences of `depth` moves seat p could play if the opponent stood still (the engine's rules
        of a move, on the model's own grid). 0 means p is trapped within `depth` moves."""
        if depth == 0:
            return 1
        grid, steps = self.grid, self.steps
        h, pd, b = self.heads[p], self.dirs[p], self.boost[p]
        total = 0
        for d in range(4):
            s = steps[d]
            if d != pd:
                t = h + s
                if grid[t] != FREE:
                    continue
                path = [t]
                nb = 0
            else:
                k = b + 2
                t, n = h, 0
                while n < k and grid[t + s] != WALL:
                    t += s
                    n += 1
                if n == 0:
                    continue
                v = grid[t]
                if not (v == FREE or (v == TOWER and n == k)):
                    continue
                path = [x for x in range(h + s, t, s) if grid[x] == FREE]
                path.append(t)
                nb = b + 1
            old = [grid[x] for x in path]
            for x in path:
                grid[x] = p
            self.heads[p], self.dirs[p], self.boost[p] = t, d, nb
            total += self.solo_paths(p, depth - 1)
            for x, v in zip(path, old):
                grid[x] = v
        self.heads[p], self.dirs[p], self.boost[p] = h, pd, b
        return total

    def quick(self, board) -> float:
        """Level 1: room to move (my reachable area against the opponent's, my own next few moves) and
        towers; no fight for territory while the two areas are still one."""
        me = self.me
        paths = self.solo_paths(me, 3)
        return float(self.area(self.heads[me]) - self.area(self.heads[3 - me])
                     + (min(paths, 8) - 8) * 3
                     + TOWER_TAKEN * (self.taken[me] - self.taken[3 - me]))

    def evaluate(self, board) -> float:
        mover = board.turn
        c1, c2, t1, t2 = self.territory(mover)
        me = self.me
        if me == 1:
            mine, theirs, tmine, ttheirs = c1, c2, t1, t2
        else:
            mine, theirs, tmine, ttheirs = c2, c1, t2, t1
        taken = self.taken
        v = (mine - theirs) + TOWER_TAKEN * (taken[me] - taken[3 - me])
        if self.need is not None:
            v += TOWER_NEAR * (tmine - ttheirs)
            # one tower from a tower win is a threat the other side must answer
            if taken[me] == self.need - 1 and tmine:
                v += TOWER_TAKEN / 2
            if taken[3 - me] == self.need - 1 and ttheirs:
                v -= TOWER_TAKEN / 2
        return float(v)


#: the model ai.choose_move searches with (ai/__init__.py)
MODEL = TrailsModel

#: computer analysis (ai/analysis.py, docs/analysis.md): k squashes the model's values onto the scale
#: (HEURISTIC * tanh(value / k)); the rest are the drops in the mover's score that class a move.
#: k fitted to the results of 20 games between levels 1 and 2 (201 positions); a move of the analysis's own
#: best drops the mover's score by 23 or less in 9 cases of 10, so lichess's 100/200/300 stand
ANALYSIS = {"k": 127.5, "inaccuracy": 100, "mistake": 200, "blunder": 300}
