"""Gamma: the evaluation (fields owned plus the empty fields each player reaches first), for any number of
players, and the moves worth searching on a board that may be large.

The model keeps its own copy of the board (owners on a grid with a sentinel border, the engine's layout:
cell (x, y) at (y + 1) * (width + 1) + x), built from the public `core.rows()` at the root and kept in step
move by move. The search is "paranoid": every other player is assumed to play against the AI's seat, and
the value is my fields and reach against the best of the others'.
"""
from __future__ import annotations

from ai.model import Model

SENTINEL = -1
GOLDEN = 3.0          # an unused golden move, in fields: worth keeping for the end
SPARE_AREA = 0.4      # each area below the limit: freedom to start anywhere
WIDE = 24             # at most this many moves searched below the root (the most promising)
ROOT = 60             # ... and at the root


class GammaModel(Model):
    temperature = 0.3
    level2_depth = 1          # one ply with the full evaluation: level 3's depth 3-5 must tower over it
    level2_nodes = 2500
    extension = 0

    def __init__(self, board, me: int):
        super().__init__(board, me)
        core = board.core
        self.width, self.height = core.width, core.height
        self.limit = core.max_areas
        s = self.S = core.width + 1
        grid = [SENTINEL] * (s * (core.height + 2))
        for y, row in enumerate(core.rows()):
            base = (y + 1) * s
            grid[base:base + len(row)] = row
        self.grid = grid
        self.stack: list = []

    # -- moves -----------------------------------------------------------------------------------------

    def moves(self, board, ply: int) -> list:
        """Normal moves and golden moves, never `skip` (placing a pawn never hurts its owner) unless it
        is the only move; on a big board only the most promising ones."""
        p = board.turn
        core = board.core
        xy = core.xy
        normal = core.move_targets(p)
        golden = core.golden_targets(p)
        if not normal and not golden:
            return ["skip"]
        cap = ROOT if ply == 0 else WIDE
        if len(normal) + len(golden) > cap:
            normal, golden = self._promising(p, normal, golden, cap)
        out = []
        for c in normal:
            x, y = xy(c)
            out.append(f"{x},{y}")
        for c in golden:
            x, y = xy(c)
            out.append(f"g{x},{y}")
        return out

    def _promising(self, p: int, normal: list, golden: list, cap: int):
        """The cells that touch the fight: next to another player's field or to mine, best first; on an
        empty neighbourhood the cells near the middle."""
        grid, s = self.grid, self.S
        cx, cy = (self.width - 1) / 2, (self.height - 1) / 2

        def score(c):
            mine = other = 0
            for n in (c - 1, c + 1, c - s, c + s):
                v = grid[n]
                if v == p:
                    mine += 1
                elif v > 0:
                    other += 1
            y, x = divmod(c, s)
            centre = abs(x - cx) + abs(y - 1 - cy)
            return (-(2 * other + mine + (other and mine)), centre)

        normal = sorted(normal, key=score)[:cap]
        golden = sorted(golden, key=score)[:max(4, cap // 4)]
        return sorted(normal), sorted(golden)

    def order(self, board, moves: list) -> list:
        return moves

    # -- keeping the copy in step ----------------------------------------------------------------------

    def push(self, board, move: str) -> None:
        p = board.turn
        board.push(move)
        if move == "skip":
            self.stack.append(None)
            return
        if move[0] == "g":
            x, y = move[1:].split(",")
        else:
            x, y = move.split(",")
        c = (int(y) + 1) * self.S + int(x)
        self.stack.append((c, self.grid[c]))
        self.grid[c] = p

    def pop(self, board) -> None:
        board.pop()
        entry = self.stack.pop()
        if entry is not None:
            c, old = entry
            self.grid[c] = old

    # -- evaluation ------------------------------------------------------------------------------------

    def reach(self) -> list:
        """Empty fields per player that its fields reach strictly before everybody else's (a breadth-first
        search from all fields at once over empty ones). Index 0 unused."""
        grid, s = self.grid, self.S
        owner = list(grid)                    # > 0: claimed by that player; 0 free; -1 border; -2 a tie
        frontier = [c for c, v in enumerate(grid) if v > 0]
        count = [0] * (self.players + 1)
        while frontier:
            claimed = []
            for c in frontier:
                v = owner[c]
                for d in (c - 1, c + 1, c - s, c + s):
                    w = owner[d]
                    if w == 0:
                        owner[d] = -3 - v         # claimed in this round by v
                        claimed.append(d)
                    elif w < -2 and w != -3 - v:
                        owner[d] = -2             # two players reach it in the same round: nobody's
            frontier = []
            for d in claimed:
                w = owner[d]
                if w < -2:
                    v = -3 - w
                    owner[d] = v
                    count[v] += 1
                    frontier.append(d)
        return count

    def strength(self, board) -> list:
        core = board.core
        reach = self.reach()
        limit = self.limit
        out = [0.0]
        for q in range(1, self.players + 1):
            v = core.busy_fields(q) + reach[q]
            if not core.golden_used(q):
                v += GOLDEN
            spare = limit - core.areas_of(q)
            if spare > 0:
                v += SPARE_AREA * min(spare, 3)
            out.append(v)
        return out

    def evaluate(self, board) -> float:
        st = self.strength(board)
        me = self.me
        best_other = max(st[q] for q in range(1, self.players + 1) if q != me) if self.players > 1 else 0.0
        return st[me] - best_other

    def quick(self, board) -> float:
        """Level 1: fields owned and the room next to them (free fields at the area limit); no sense of
        the race for the empty board."""
        core = board.core
        me = self.me
        v = [0.0]
        for q in range(1, self.players + 1):
            free = core.free_fields(q) if core.areas_of(q) >= self.limit else 4
            v.append(core.busy_fields(q) + 0.5 * min(free, 8))
        best_other = max(v[q] for q in range(1, self.players + 1) if q != me) if self.players > 1 else 0.0
        return v[me] - best_other

    def terminal(self, board, outcome, ply: int) -> float:
        """Won or lost, and by how much (a bigger margin is better, as a tie-break)."""
        base = super().terminal(board, outcome, ply)
        scores = outcome.scores
        me = self.me
        others = max((s for q, s in enumerate(scores, 1) if q != me), default=0)
        return base + (scores[me - 1] - others)


#: the model ai.choose_move searches with (ai/__init__.py)
MODEL = GammaModel

#: computer analysis (ai/analysis.py, docs/analysis.md): k squashes the model's values onto the scale
#: (HEURISTIC * tanh(value / k)); the rest are the drops in the mover's score that class a move.
#: k fitted to the results of 16 games on 10x10 between levels 1 and 2 (511 positions); a move of the analysis's
#: own best still drops the mover's score by up to 212 in 9 cases of 10 (the race for the empty fields swings
#: with the side to move), so the inaccuracy line sits above that noise and the others 100 apart above it
ANALYSIS = {"k": 41.0, "inaccuracy": 220, "mistake": 320, "blunder": 420}
