"""Lattice Checkers: the evaluation for the search levels.

The final score counts each side's pieces standing on its far level, and every piece that survives the
fighting walks there in the end (pieces only move forward, so the game always ends), so the evaluation is
mostly material: pieces on the lattice, a little more for those already on the far level (they cannot be
captured there), and a small bonus for progress towards it. Captured pieces come back one per promotion, so
a side's bench is worth something only while it still has a piece to promote, and all of it once the other
side has none left (the other side then sits on its far level while this one walks its returns up).

A ball's promotion is still to come: it brings back a captured ball and an extra turn, so a ball is worth
more than a star (BALL), and a ball one step from the far level with a node free ahead more again while
there is a ball to bring back (READY); with nothing to bring back, promoting wastes the return (READY_EMPTY).

Tournaments (bench/tournament.py) chose the weights: the earlier evaluation, which paid up to three times a
piece's value for progress and counted the bench like pieces, made level 2 give pieces away (it won 61% of
100 games against level 1; 73-84% with this one). BALL, READY and READY_EMPTY (and ON_FAR down from 2) come
from a least-squares fit of the final score difference over 76,000 positions of 1,439 games between levels
1 and 2 (max_nodes 1500) on 222; level 3 with them beat level 3 without them in 39 of 40 games (0.1 s a
move), where the ball-blind evaluation drifted: it valued a star on the far level over a ball that would
still promote, and so walked into positions whose opponent had more promotions (returns, extra turns) to
come.

The evaluation reads the engine's own node values and piece sets (`node_values`, `nodes_of`), which the
engine keeps in step with every push and pop, so an evaluation is one pass over the pieces and no parsing of
the position.
"""
from __future__ import annotations

from ai.model import Model
from games.lattice import lattice

PIECE = 4.0          # a piece on the lattice
ON_FAR = 1.0         # ... plus this on the far level: it scores, and cannot be captured there
ADVANCE = 1.0        # ... plus this share of its progress towards the far level (all of it there)
BENCH = 0.5          # a captured piece of mine while both sides can still promote (else 0 or PIECE)
BALL = 2.5           # a ball (not a star) below the far level: its promotion, return and extra turn are to come
READY = 2.5          # a ball one step from promotion, a node free ahead of it, a captured ball to return
READY_EMPTY = -1.0   # the same ball with nothing to return: promoting now would waste the return


class LatticeModel(Model):
    temperature = 1.5
    level2_depth = 3            # this evaluation: 80/80 against level 1; level 3 beats it 71/80 (depth 4: 66/80)
    level2_nodes = 3000

    piece = PIECE
    on_far = ON_FAR
    advance = ADVANCE
    bench_weight = BENCH
    ball = BALL
    ready = READY
    ready_empty = READY_EMPTY

    def __init__(self, board, me: int):
        super().__init__(board, me)
        size = board.options["size"]
        self.g = lattice(size)
        self.top = self.g.L - 1               # the 0-based highest level
        self.sign = 1.0 if me == 1 else -1.0

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

    def tally(self, board, cells: tuple, side: int) -> tuple:
        """(pieces, on the far level, progress in levels, balls below the far level, ready balls: those one
        step from the far level with a free node ahead), from the board's node values `cells`."""
        g = self.g
        level, far, ahead = g.level, g.far_level[side], g.steps_fwd[side]
        first = g.first_level[side]
        n = on_far = progress = balls = ready = 0
        for p in board.nodes_of(side):
            n += 1
            lv = level[p]
            progress += abs(lv - first)
            if lv == far:
                on_far += 1
            elif cells[p] in (1, -1):
                balls += 1
                if abs(far - lv) == 1 and any(not cells[q] for q in ahead[p]):
                    ready += 1
        return n, on_far, progress, balls, ready

    def _side_value(self, t: tuple, bench: int) -> float:
        """A side's pieces, progress and promotions to come, from its tally (the bench apart)."""
        n, on_far, progress, balls, ready = t
        return (self.piece * n + self.on_far * on_far + self.advance * progress / self.top
                + self.ball * balls + (self.ready if bench else self.ready_empty) * ready)

    def evaluate(self, board) -> float:
        bb, bt = board.bench
        cells = board.node_values()
        tb, tt = self.tally(board, cells, 1), self.tally(board, cells, 2)
        v = self._side_value(tb, bb) - self._side_value(tt, bt)
        # captured pieces come back one per promotion, and each returned ball promotes in turn: a side with a
        # piece still to promote may get its bench back; a side without one never will
        lb, lt = tb[0] > tb[1], tt[0] > tt[1]
        if lb:
            v += (self.bench_weight if lt else self.piece) * bb
        if lt:
            v -= (self.bench_weight if lb else self.piece) * bt
        return v * self.sign


#: the model ai.choose_move searches with (ai/__init__.py)
MODEL = LatticeModel
#: the original program's three filter levels (classic_computer.py), offered beside levels 1 to 3
CLASSIC_LEVELS = [
    {"id": "classic-1", "label": "Classic level 1 (the original's level1)"},
    {"id": "classic-2", "label": "Classic level 2 (the original's level2)"},
    {"id": "classic-3", "label": "Classic level 3 (the original's level3)"},
]


def classic(board, level: str, rng) -> str:
    """The original's move at a classic level ("classic-1".."classic-3")."""
    from games.lattice.classic_computer import choose
    return choose(board, int(level[-1]), rng)

#: computer analysis (ai/analysis.py, docs/analysis.md): k squashes the model's values onto the scale
#: (HEURISTIC * tanh(value / k)); the rest are the drops in the mover's score that class a move.
#: k fitted to the results of 16 games between levels 1 and 2 (252 positions); a move of the analysis's own
#: best drops the mover's score by 2 or less in 9 cases of 10, so lichess's 100/200/300 stand
ANALYSIS = {"k": 11.5, "inaccuracy": 100, "mistake": 200, "blunder": 300}
