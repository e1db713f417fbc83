"""Game-independent search: alpha-beta with iterative deepening, and the one-ply chooser of level 1.

Everything here speaks to a board through the engine contract (`turn`, `legal_moves`, `push`, `pop`,
`outcome`) and to a game through a `Model` (ai/model.py): the evaluation, the moves worth searching, their
static order, and any state the evaluation keeps in step with the board.

Values are always from the point of view of one seat, `me` (the seat the AI plays): the search maximises
where `board.turn == me` and minimises elsewhere. That is plain minimax for two players, whose turns need not
alternate (Towers plays several actions a turn, Lattice Checkers gets extra turns), and the "paranoid"
assumption for gamma's many players (everybody else plays against me).
"""
from __future__ import annotations

import time

from ai.model import WIN, Model

INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2      # transposition table entries: the value, or a bound of it


class Stop(Exception):
    """The search must end now: out of time, out of nodes, or asked to stop."""


class Limits:
    """When a search must end: a deadline (read on `clock`, time.monotonic unless told), a node budget, and a
    `stop` callable. `nodes` counts the positions searched so far (a measure of the work done, for benches and
    tests that bound the work rather than the seconds)."""

    CHECK_EVERY = 64   # nodes between two looks at the clock and at `stop`

    def __init__(self, deadline: float | None = None, max_nodes: int | None = None, stop=None,
                 clock=time.monotonic):
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.stop = stop
        self.clock = clock
        self.nodes = 0
        self._next_check = self.CHECK_EVERY

    def tick(self) -> None:
        """Count one node; raise Stop when a limit is reached."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Stop
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self.CHECK_EVERY
            self.check()

    def check(self) -> None:
        if self.deadline is not None and self.clock() >= self.deadline:
            raise Stop
        if self.stop is not None and self.stop():
            raise Stop

    def expired(self) -> bool:
        try:
            self.check()
        except Stop:
            return True
        return self.max_nodes is not None and self.nodes >= self.max_nodes


class AlphaBeta:
    """Depth-limited alpha-beta over `model.moves(board)`, with history and killer move ordering.

    The board is searched in place and left exactly as it was (the model's push/pop keep it in step), also
    when a limit interrupts the search.
    """

    def __init__(self, board, model: Model, limits: Limits, leaf=None):
        self.board = board
        self.leaf = leaf or model.evaluate       # the value of a leaf (level 1 uses model.quick)
        self.model = model
        self.me = model.me
        self.limits = limits
        self.history: dict = {}
        self.killers: dict = {}
        self.depth_done = 0
        self.ply_cap = 0                # no ply beyond it is searched, forced sequences included
        self.tt: dict = {}              # model.key(board) -> (depth, value, flag, best move)
        self.tt_size = 400_000
        self.use_tt = model.key(board) is not None

    # -- the tree --------------------------------------------------------------------------------------

    def _value(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        board, model = self.board, self.model
        self.limits.tick()
        outcome = board.outcome()
        if outcome is not None:
            return model.terminal(board, outcome, ply)
        if depth <= 0:
            # a position in the middle of a forced sequence (a capture due, say) is searched on, a
            # few plies at most
            if ply >= self.ply_cap or not model.unstable(board):
                return self.leaf(board)
            depth = 1
        key = model.key(board) if self.use_tt else None
        hint = None
        if key is not None:
            entry = self.tt.get(key)
            if entry is not None:
                e_depth, e_value, e_flag, hint = entry
                if e_depth >= depth:
                    # mate scores are stored relative to the node
                    if e_value > WIN // 2:
                        e_value -= ply
                    elif e_value < -WIN // 2:
                        e_value += ply
                    if e_flag == EXACT or (e_flag == LOWER and e_value >= beta) or \
                            (e_flag == UPPER and e_value <= alpha):
                        return e_value
        moves = model.moves(board, ply)
        if not moves:          # cannot happen under the contract; be safe
            return self.leaf(board)
        moves = self._ordered(board, moves, ply, hint)
        maximise = board.turn == self.me
        best = -INF if maximise else INF
        push, pop = model.push, model.pop
        best_move = None
        alpha0, beta0 = alpha, beta
        for move in moves:
            push(board, move)
            try:
                v = self._value(depth - 1, alpha, beta, ply + 1)
            finally:
                pop(board)
            if maximise:
                if v > best:
                    best, best_move = v, move
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best, best_move = v, move
                    if v < beta:
                        beta = v
            if alpha >= beta:
                hk = (board.turn, move)
                self.history[hk] = self.history.get(hk, 0) + depth * depth
                self.killers[ply] = move
                break
        if key is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
            stored = best + ply if best > WIN // 2 else best - ply if best < -WIN // 2 else best
            tt = self.tt
            if len(tt) >= self.tt_size:
                tt.clear()
            tt[key] = (depth, stored, flag, best_move)
        return best

    def _ordered(self, board, moves: list, ply: int, hint=None) -> list:
        """The transposition table's best move, the killer, then by history, then the model's order."""
        turn = board.turn
        hist = self.history
        killer = self.killers.get(ply)
        static = self.model.order(board, moves)   # moves, best first, by the model's cheap guess

        def rank(i):
            m = static[i]
            bonus = (1 << 40) if m == hint else (1 << 30) if m == killer else 0
            return (-(hist.get((turn, m), 0) + bonus), i)

        return [static[i] for i in sorted(range(len(static)), key=rank)]

    # -- the root --------------------------------------------------------------------------------------

    def root(self, moves: list, depth: int, margin: float = 0.0):
        """Search every root move to `depth`, in the given order. Returns (scores: {move: value}, complete).

        The window keeps exact values for every move within `margin` of the best so far (a worse move may
        get only a bound, which is below the margin), so that the random choice among near-equal moves is
        fair. On Stop the scores hold the moves finished so far."""
        board, model = self.board, self.model
        scores: dict = {}
        maximise = board.turn == self.me
        best = -INF if maximise else INF
        slack = margin + 1e-9
        self.ply_cap = depth + model.extension
        try:
            for move in moves:
                model.push(board, move)
                try:
                    if maximise:
                        v = self._value(depth - 1, best - slack, INF, 1)
                    else:
                        v = self._value(depth - 1, -INF, best + slack, 1)
                finally:
                    model.pop(board)
                scores[move] = v
                if (v > best) if maximise else (v < best):
                    best = v
        except Stop:
            return scores, False
        return scores, True


def iterative_deepening(board, model: Model, limits: Limits, rng, *, max_depth: int = 64,
                        margin: float = 0.0):
    """Deepen until a limit ends the search (or `max_depth`); return (move, value, depth completed).

    Root moves are searched best-first by the previous iteration. When an unfinished iteration has at least
    searched the previous best move, its partial scores are used (every other move there was compared with
    a fully searched one); otherwise the last complete iteration decides. Among root moves whose values are
    within `margin` of the best, the choice is random (seeded).
    """
    moves = list(model.order(board, model.moves(board, 0)))
    if len(moves) == 1:
        return moves[0], 0.0, 0
    searcher = AlphaBeta(board, model, limits)
    maximise = board.turn == model.me
    final: dict | None = None
    depth_done = 0
    for depth in range(1, max_depth + 1):
        scores, complete = searcher.root(moves, depth, margin)
        if not complete:
            if scores and moves[0] in scores:
                final = scores
            break
        final = scores
        depth_done = depth
        moves.sort(key=lambda m: -scores[m] if maximise else scores[m])
        top = scores[moves[0]]
        if abs(top) >= WIN // 2 and (top > 0) == maximise:
            break          # a forced win: a deeper search only finds longer ones
        if all(abs(v) >= WIN // 2 for v in scores.values()):
            break          # every move is decided
        if limits.expired():
            break
    if not final:
        # not even depth 1 finished (a tiny budget): the model's static order decides
        return moves[0], 0.0, 0
    best = max(final.values()) if maximise else min(final.values())
    return pick(final, maximise, rng, margin), best, depth_done


def pick(scores: dict, maximise: bool, rng, margin: float = 0.0):
    """A seeded random choice among the moves whose score is within `margin` of the best."""
    best = max(scores.values()) if maximise else min(scores.values())
    if maximise:
        good = [m for m, v in scores.items() if v >= best - margin]
    else:
        good = [m for m, v in scores.items() if v <= best + margin]
    good.sort()
    return rng.choice(good)


def fixed_depth(board, model: Model, limits: Limits, rng, depth: int, margin: float = 0.0):
    """Iterative deepening up to `depth` plies (the shallow level 2)."""
    return iterative_deepening(board, model, limits, rng, max_depth=depth, margin=margin)


def immediate_wins(board, model: Model, moves: list) -> list:
    """The moves after which the seat to move has won the game outright."""
    me = board.turn
    wins = []
    for move in moves:
        model.push(board, move)
        try:
            outcome = board.outcome()
            if outcome is not None and outcome.winners == (me,):
                wins.append(move)
        finally:
            model.pop(board)
    return wins


def one_ply(board, model: Model, rng, *, limits: Limits | None = None, safety_budget: int = 2000):
    """Level 1: take an immediate win; else weigh every move by the model's evaluation one ply ahead and
    choose at random (softmax with the model's temperature), leaving out moves that let the next seat win
    at once when checking that is cheap (about `safety_budget` replies in all)."""
    import math

    me = board.turn
    moves = model.moves(board, 0)
    if len(moves) == 1:
        return moves[0]
    wins = immediate_wins(board, model, moves)
    if wins:
        return rng.choice(sorted(wins))
    values: dict = {}
    spent = 0
    settle = AlphaBeta(board, model, limits or Limits(), leaf=model.quick)
    settle.ply_cap = 1 + model.level1_extension
    try:
        for move in moves:
            model.push(board, move)
            try:
                # the quick value, after any forced sequence (a due capture...) has been played out
                v = settle._value(0, -INF, INF, 1)
                nxt = board.turn
                if nxt is not None and nxt != me and spent < safety_budget:
                    replies = model.moves(board, 1)
                    spent += len(replies)
                    if immediate_wins(board, model, replies):
                        v = -WIN + 2
                values[move] = v
            finally:
                model.pop(board)
    except Stop:
        pass
    if not values:
        return rng.choice(moves)
    best = max(values.values())
    if best <= -WIN // 2:                  # every move loses: any will do
        return rng.choice(sorted(values))
    t = max(model.temperature, 1e-9)
    weighted = sorted((m, math.exp(max(-50.0, (v - best) / t))) for m, v in values.items() if v > -WIN // 2)
    total = sum(wt for _, wt in weighted)
    r = rng.random() * total
    for m, wt in weighted:
        r -= wt
        if r <= 0:
            return m
    return weighted[-1][0]
