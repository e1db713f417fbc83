"""Lattice Checkers: the evaluation for the search levels (pieces, advancement, pieces on the far level).

The final score counts each side's pieces standing on its far level, so a piece is worth more the nearer it
is to that level, and most once it stands there. The position is read from the public `pos()` string
("B:Aa1,Bc4*;T:Db3;benchB:6;benchT:7": node labels end with the level digit, "*" marks a star).
"""
from __future__ import annotations

from ai.model import Model
from games.lattice import lattice, parse_pos

OPPOSITE = (5, 4, 7, 6, 1, 0, 3, 2)   # the reverse of each of the 8 steps (geometry.STEPS order)

PIECE = 4.0          # a piece on the lattice, wherever it is
ADVANCE = 6.0        # ... plus this much by its progress towards the far level (all of it there)
ON_FAR = 6.0         # ... plus this on the far level: it scores
BENCH = 1.0          # a captured piece of mine that a promotion may bring back
POTENTIAL = 6.0      # a piece that can still end on the far level (see evaluate)
THREAT = 0.5         # the side to move can save one threatened piece, hardly two: the second one's share


class LatticeModel(Model):
    temperature = 1.5
    level2_depth = 3
    level2_nodes = 3000

    def __init__(self, board, me: int):
        super().__init__(board, me)
        size = board.options["size"]
        self.top = 2 * int(size[2])          # levels are 1..top in labels
        self.sign = 1.0 if me == 1 else -1.0
        self.g = lattice(size)

    def order(self, board, moves: list) -> list:
        """Longer captures first, then promotions, then the rest (as given)."""
        if len(moves) < 2:
            return moves
        m0 = moves[0]
        if ":" in m0:
            return sorted(moves, key=lambda m: -m.count(":"))
        if m0[0] == "+":
            return moves
        far = str(self.top) if board.turn == 1 else "1"
        return sorted(moves, key=lambda m: m[-1] != far)

    def key(self, board):
        return (board.pos(), board.turn, board.pending_return, board.extra_turn)

    def unstable(self, board) -> bool:
        """A capture or a return is due: the static value is not to be trusted yet."""
        moves = board.legal_moves()
        return bool(moves) and (":" in moves[0] or moves[0][0] == "+")

    def quick(self, board) -> float:
        """Level 1: pieces on the lattice and on the far level; no sense of advancing."""
        nb, nt = board.on_board()
        sb, st = board.scores()
        return ((nb - nt) * PIECE + (sb - st) * 2.0) * self.sign

    def evaluate(self, board) -> float:
        g = self.g
        cells, bench = parse_pos(g, board.pos())
        top = self.top - 1                  # 0-based far level of B
        level = g.level
        nbs = g.neighbours
        fwd = g.steps_fwd
        mover = 1 if board.turn == 1 else -1
        v = 0.0
        threatened = []
        # the final score each side can still hope for: pieces on the far level, balls still able to
        # move on, and the captured balls that promotions will bring back (one per promotion, so only
        # while a ball that can still promote is alive)
        potential = [0, 0, 0]
        promoter = [False, False, False]
        for n in g.nodes:
            c = cells[n]
            if not c:
                continue
            lv = level[n]
            side = 1 if c > 0 else 2
            far = top if side == 1 else 0
            if lv == far:
                potential[side] += 1
                val = PIECE + ADVANCE + ON_FAR
            else:
                val = PIECE + ADVANCE * (lv if side == 1 else top - lv) / top
                # dead: every forward node is taken by a piece of its own side on the far level
                alive = False
                for t in fwd[side][n]:
                    ct = cells[t]
                    if not ct or (ct > 0) != (side == 1) or level[t] != far:
                        alive = True
                        break
                if alive:
                    potential[side] += 1
                    if c == 1 or c == -1:
                        promoter[side] = True
                else:
                    val = PIECE
            v += val if c > 0 else -val
            if c * mover > 0:
                nb = nbs[n]
                for k in range(8):
                    a = nb[k]
                    if a is not None and cells[a] * mover < 0:
                        land = nb[OPPOSITE[k]]
                        if land is not None and not cells[land]:
                            threatened.append(val)
                            break
        for side in (1, 2):
            if promoter[side]:
                potential[side] += bench[side]
        v += BENCH * (bench[1] - bench[2])
        v += POTENTIAL * (potential[1] - potential[2])
        if len(threatened) > 1:
            threatened.sort()
            v -= mover * THREAT * threatened[-2]
        return v * self.sign
