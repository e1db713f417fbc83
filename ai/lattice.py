"""Lattice Checkers: the evaluation for the search levels.

The final score counts each side's pieces standing on its far level, and every piece that survives the
fighting walks there in the end (pieces only move forward, so the game always ends), so the evaluation is
mostly material: pieces on the lattice, a little more for those already on the far level (they cannot be
captured there), and a small bonus for progress towards it. Captured pieces come back one per promotion, so
a side's bench is worth something only while it still has a piece to promote, and all of it once the other
side has none left (the other side then sits on its far level while this one walks its returns up).

Tournaments (bench/tournament.py) chose the weights: the earlier evaluation, which paid up to three times a
piece's value for progress and counted the bench like pieces, made level 2 give pieces away (it won 61% of
100 games against level 1; 73-84% with this one).

The model keeps the progress sums in step with the board in `push`/`pop`, reading the levels from the move
notation (a label ends with its level digit; a captured piece is halfway between two landing points), so an
evaluation costs a few public queries (`on_board`, `scores`, `bench`) and no parsing of the position.
"""
from __future__ import annotations

from ai.model import Model
from games.lattice import lattice, parse_pos

PIECE = 4.0          # a piece on the lattice
ON_FAR = 2.0         # ... plus this on the far level: it scores, and cannot be captured there
ADVANCE = 1.0        # ... plus this share of its progress towards the far level (all of it there)
BENCH = 0.5          # a captured piece of mine while both sides can still promote (else 0 or PIECE)


class LatticeModel(Model):
    temperature = 1.5
    level2_depth = 4            # 85% of 100 games against level 1 (depth 3, 3000 nodes: 78% of 200)
    level2_nodes = 4000

    piece = PIECE
    on_far = ON_FAR
    advance = ADVANCE
    bench_weight = BENCH

    def __init__(self, board, me: int):
        super().__init__(board, me)
        size = board.options["size"]
        self.g = g = lattice(size)
        self.top = g.L - 1                    # the 0-based highest level
        self.sign = 1.0 if me == 1 else -1.0
        cells, _ = parse_pos(g, board.pos())
        # progress[side]: the sum over the side's pieces of the levels they have climbed from their own
        # first level (B: the level; T: top - the level)
        progress = [0, 0, 0]
        for n in g.nodes:
            c = cells[n]
            if c > 0:
                progress[1] += g.level[n]
            elif c < 0:
                progress[2] += self.top - g.level[n]
        self.progress = progress
        self._undo: list = []

    # -- keeping the progress in step -----------------------------------------------------------------

    def push(self, board, move: str) -> None:
        side = board.turn
        top = self.top
        if move[0] == "+":                                   # a return onto the own first level
            mine, theirs = (int(move[-1]) - 1) if side == 1 else top - (int(move[-1]) - 1), 0
        elif ":" not in move:                                # a simple move: one level forward
            mine, theirs = 1, 0
        else:
            pts = [int(p[-1]) - 1 for p in move.split(":")]
            d = pts[-1] - pts[0]
            mine = d if side == 1 else -d
            theirs = 0
            for a, b in zip(pts, pts[1:]):                   # the victims' levels
                mid = (a + b) >> 1
                theirs += (top - mid) if side == 1 else mid
        board.push(move)
        p = self.progress
        p[side] += mine
        p[3 - side] -= theirs
        self._undo.append((side, mine, theirs))

    def pop(self, board) -> None:
        board.pop()
        side, mine, theirs = self._undo.pop()
        p = self.progress
        p[side] -= mine
        p[3 - side] += theirs

    # -- the search's view ------------------------------------------------------------------------------

    def order(self, board, moves: list) -> list:
        """Longer captures first, then promotions, then the rest (as given)."""
        if len(moves) < 2:
            return moves
        m0 = moves[0]
        if ":" in m0:
            return sorted(moves, key=lambda m: -m.count(":"))
        if m0[0] == "+":
            return moves
        far = str(self.top + 1) if board.turn == 1 else "1"
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
        nb, nt = board.on_board()
        sb, st = board.scores()
        bb, bt = board.bench
        p = self.progress
        v = self.piece * (nb - nt) + self.on_far * (sb - st) + self.advance * (p[1] - p[2]) / self.top
        # captured pieces come back one per promotion, and each returned ball promotes in turn: a side with a
        # piece still to promote may get its bench back; a side without one never will
        lb, lt = nb > sb, nt > st
        if lb:
            v += (self.bench_weight if lt else self.piece) * bb
        if lt:
            v -= (self.bench_weight if lb else self.piece) * bt
        return v * self.sign
