"""Computer analysis of positions and whole games, on one scale for every game (docs/analysis.md).

    import ai.analysis as analysis, games
    board = games.get("trails").new(size=7)
    e = analysis.evaluate(board, max_nodes=2000)      # e.score, e.scores, e.best, e.line, e.nodes
    analysis.rank_moves(board, max_nodes=2000)         # [(move, score from the mover's side)], best first
    analysis.analyse("trails", {"size": 7}, ["down", "up"], max_nodes=2000)

The scale: an evaluation is an int in [-SCALE, SCALE] from one seat's side. +SCALE means that seat wins by
force (the search has seen the win), -SCALE that it loses by force, 0 a level game (or a forced draw); a forced
shared win (Gamma's ties) is SCALE // 2. Everything else is the game model's heuristic value squashed into
(-HEURISTIC, HEURISTIC) by `round(HEURISTIC * tanh(value / k))`, with `k` per game (its computer.py's
`ANALYSIS["k"]`), so that only a seen forced result reaches the ends. The squashed value plays the part of
lichess's "winning chances": a move is classed by how much it lowered its mover's score, with thresholds per
game (`ANALYSIS["inaccuracy"]`, `["mistake"]`, `["blunder"]`).

analyse()'s plies give every seat's score after the move as `evals`, keyed by the seat as text (as its
`summary` is), so that the report reads the same after a trip through JSON.

Deterministic: the searches are bounded by nodes (`max_nodes`, default DEFAULT_NODES), never by the clock.
Pure: no I/O; the caller's board is never changed (every search runs on a copy).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import games
from ai.model import WIN, Model
from ai.search import INF, AlphaBeta, Limits

__all__ = ["SCALE", "HEURISTIC", "CLASSES", "DEFAULT_NODES", "Evaluation", "Stopped", "evaluate", "rank_moves",
           "analyse", "thresholds", "classify"]

SCALE = 1000
#: the largest score a heuristic value maps to: the ends of the scale are kept for results the search has seen
HEURISTIC = 990
#: a forced shared win (Gamma's tie among winners): half a win
SHARED_WIN = SCALE // 2
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: positions searched per evaluation when the caller gives no budget: with it a 60-move game of the slowest
#: games (Towers 6x6, Gamma 10x10) takes about 20 s of one core, so a worker shared with people's games is never
#: held long, and the searches still see the short forced wins that make blunders (bench/analysis.py;
#: docs/analysis.md, "The budget")
DEFAULT_NODES = 6000
#: the longest line an evaluation gives (the best move and the expected replies)
LINE_LENGTH = 8
#: used where a game's computer.py gives no ANALYSIS of its own
FALLBACK = {"k": 10.0, "inaccuracy": 100, "mistake": 200, "blunder": 300}


class Stopped(Exception):
    """analyse() was asked to stop (its `stop()` returned True)."""


@dataclass
class Evaluation:
    score: int                       # seat 1's side
    scores: dict = field(default_factory=dict)   # {seat: score from that seat's side}
    best: str | None = None          # None when the game is over
    line: list = field(default_factory=list)     # starts with best
    nodes: int = 0


# -- per game ----------------------------------------------------------------------------------------------

def _computer(game_name: str):
    module = games.part(game_name, "computer")
    if module is None:
        raise ValueError(f"no computer analysis for game {game_name!r}")
    return module


def thresholds(game_name: str) -> dict:
    """The game's analysis numbers: k (the squashing) and the drops that make an inaccuracy, a mistake and a
    blunder, on the scale."""
    return {**FALLBACK, **getattr(_computer(game_name), "ANALYSIS", {})}


def to_scale(value: float, k: float) -> int:
    """A model value (from one seat's side) on the scale."""
    if value >= WIN // 2:
        return SCALE
    if value <= -WIN // 2:
        return -SCALE
    if value >= WIN // 8:                 # Model.terminal's shared win (WIN // 4 - ply, plus a margin)
        return SHARED_WIN
    return int(round(HEURISTIC * math.tanh(value / k)))


class _PathKeys:
    """The game's model, with a transposition key for every position (the model's own, else the moves played
    so far) so that the search keeps each position's best move: the line is read back from it."""

    def __init__(self, model):
        self._model = model
        self.key = self._path if type(model).key is Model.key else model.key
        self.push, self.pop = model.push, model.pop

    def __getattr__(self, name):
        return getattr(self._model, name)

    @staticmethod
    def _path(board):
        return tuple(board.moves)


def _model(board, seat: int):
    return _PathKeys(_computer(board.game_name).MODEL(board, seat))


# -- the search --------------------------------------------------------------------------------------------

def _deepen(board, model, limits: Limits, moves: list, exact: bool = False):
    """Iterative deepening over `moves` at the root, from the model's seat's side (it maximises where it is
    to move, else the mover minimises). Returns ({move: value} of the deepest useful iteration, the searcher).
    With `exact` every root move gets its exact value (a full window), else only the best does. An iteration
    cut short by the budget counts when it has searched the previous best move (as ai.search does)."""
    searcher = AlphaBeta(board, model, limits)
    sign = 1 if board.turn == model.me else -1
    final: dict = {}
    for depth in range(1, 65):
        scores, complete = searcher.root(moves, depth, INF if exact else 0.0)
        if not complete:
            if moves[0] in scores:
                final = {**final, **scores} if exact else scores
            break
        final = scores
        moves.sort(key=lambda m: -sign * scores[m])
        top = sign * scores[moves[0]]
        if top >= WIN // 2 or all(abs(v) >= WIN // 2 for v in scores.values()):
            break             # a forced win (a deeper search finds only longer ones), or every move decided
        if limits.expired():
            break
    return final, searcher


def _line(board, searcher, best: str) -> list:
    """The best move and the replies the search expects, read from its table."""
    line = [best]
    work = board.copy()
    work.push(best)
    while len(line) < LINE_LENGTH and work.outcome() is None:
        entry = searcher.tt.get(searcher.model.key(work))
        move = entry[3] if entry else None
        if move is None or move not in work.legal_moves():
            break
        work.push(move)
        line.append(move)
    return line


def _outcome_scores(board, outcome, k: float) -> dict:
    model = _computer(board.game_name).MODEL
    return {seat: to_scale(model(board, seat).terminal(board, outcome, 0), k)
            for seat in range(1, board.players + 1)}


def search_value(board, seat: int, max_nodes: int, stop=None):
    """The model's value of `board` for `seat` after a search of `max_nodes` positions (unscaled), the best move
    of the side to move, its line and the nodes searched. The board is searched on a copy."""
    work = board.copy()
    model = _model(work, seat)
    moves = list(model.order(work, model.moves(work, 0)))
    limits = Limits(None, max_nodes, stop)
    final, searcher = _deepen(work, model, limits, moves)
    if not final:                  # not even one move searched (a tiny budget): the model's first move
        return _static_after(work, model, moves[0]), moves[0], [moves[0]], limits.nodes
    sign = 1 if work.turn == seat else -1
    best = max(final, key=lambda m: (sign * final[m], -moves.index(m)))
    return final[best], best, _line(work, searcher, best), limits.nodes


def _search_seat(board, seat: int, budget: int, k: float, stop):
    """(score from `seat`'s side, the best move of the side to move, its line, nodes searched)."""
    value, best, line, nodes = search_value(board, seat, budget, stop)
    return to_scale(value, k), best, line, nodes


def evaluate(board, max_nodes: int | None = None, seed: int = 0, stop=None) -> Evaluation:
    """The computer's evaluation of `board`: the scores, the best move and the line expected after it.

    The side to move is searched with `max_nodes` positions (DEFAULT_NODES when None). With more than two
    players (Gamma) every other seat's score comes from a search of its own (paranoid: everybody else plays
    against it), each with an equal share of the budget. `seed` is kept for the interface: the search is
    deterministic and picks the first of equal moves. The caller's board is not changed."""
    del seed
    budget = DEFAULT_NODES if max_nodes is None else max(1, int(max_nodes))
    k = thresholds(board.game_name)["k"]
    outcome = board.outcome()
    if outcome is not None or board.turn is None:
        scores = _outcome_scores(board, outcome, k) if outcome is not None else \
            {s: 0 for s in range(1, board.players + 1)}
        return Evaluation(scores.get(1, 0), scores, None, [], 0)
    mover = board.turn
    share = budget if board.players <= 2 else max(1, budget // board.players)
    score, best, line, nodes = _search_seat(board, mover, share, k, stop)
    scores = {mover: score}
    if board.players == 2:
        scores[3 - mover] = -score
    else:
        for seat in range(1, board.players + 1):
            if seat != mover:
                s, _, _, n = _search_seat(board, seat, share, k, stop)
                scores[seat] = s
                nodes += n
    return Evaluation(scores.get(1, score), dict(sorted(scores.items())), best, line, nodes)


def rank_moves(board, max_nodes: int | None = None) -> list:
    """Every legal move with its score from the mover's side after a search of them all (an exact value for
    each), best first; ties keep the engine's move order."""
    if board.outcome() is not None or board.turn is None:
        return []
    budget = DEFAULT_NODES if max_nodes is None else max(1, int(max_nodes))
    k = thresholds(board.game_name)["k"]
    work = board.copy()
    model = _model(work, work.turn)
    legal = list(work.legal_moves())
    moves = list(legal)
    final, _ = _deepen(work, model, Limits(None, budget), moves, exact=True)
    ranked = []
    for move in legal:
        value = final.get(move)
        if value is None:               # not reached within the budget: the model's static view of it
            value = _static_after(work, model, move)
        ranked.append((move, to_scale(value, k)))
    order = {m: i for i, m in enumerate(legal)}
    ranked.sort(key=lambda e: (-e[1], order[e[0]]))
    return ranked


def _static_after(board, model, move: str) -> float:
    model.push(board, move)
    try:
        outcome = board.outcome()
        return model.terminal(board, outcome, 1) if outcome is not None else model.evaluate(board)
    finally:
        model.pop(board)


# -- whole games -------------------------------------------------------------------------------------------

def classify(game_name: str, drop: int, is_best: bool) -> str:
    """A move's class from how much it lowered its mover's score (on the scale). Only the analysis's own best
    move is "best"; another move that lost nothing measurable is "good"."""
    if is_best:
        return "best"
    t = thresholds(game_name)
    if drop >= t["blunder"]:
        return "blunder"
    if drop >= t["mistake"]:
        return "mistake"
    if drop >= t["inaccuracy"]:
        return "inaccuracy"
    return "good"


def analyse(game: str, options: dict, moves: list, max_nodes: int | None = None, progress=None,
            stop=None, from_ply: int = 0) -> dict:
    """Analyse a game (`moves` played from `games.get(game).new(**options)`): the evaluation before the first
    move and after each move, the best move in the position before each, and each move's class.

    `progress(done, total)` is called after each ply; `stop()` returning True ends the analysis (Stopped).
    `from_ply` analyses only the moves after the first `from_ply` ones ("start" is then the evaluation of
    the position they reach). ValueError for an unknown game or bad options, games.IllegalMove for an
    illegal move."""
    if game not in games.names():
        raise ValueError(f"unknown game {game!r}")
    board = games.get(game).new(**(options or {}))
    summary = {str(s): {"inaccuracy": 0, "mistake": 0, "blunder": 0} for s in range(1, board.players + 1)}
    for move in moves[:from_ply]:
        board.push(move)
    _check(stop)
    before = evaluate(board, max_nodes, stop=stop)
    result = {"start": before.score, "plies": [], "summary": summary}
    total = len(moves) - from_ply
    for done, move in enumerate(moves[from_ply:], 1):
        _check(stop)
        mover = board.turn
        board.push(move)
        after = evaluate(board, max_nodes, stop=stop)
        _check(stop)
        drop = before.scores.get(mover, 0) - after.scores.get(mover, 0)
        cls = classify(game, drop, move == before.best)
        if cls in ("inaccuracy", "mistake", "blunder"):
            summary[str(mover)][cls] += 1
        result["plies"].append({
            "ply": from_ply + done, "move": move, "seat": mover, "eval": after.score,
            "evals": {str(s): v for s, v in after.scores.items()},
            "best": before.best, "line": before.line, "class": cls})
        before = after
        if progress is not None:
            progress(done, total)
    return result


def _check(stop) -> None:
    if stop is not None and stop():
        raise Stopped
