"""When a position is a puzzle: the side to move has ONE clearly best move (docs/puzzles.md, "The criterion").

The scores are the engine's (ai/analysis.py: `rank_moves`), on its scale of -SCALE..SCALE from the mover's
side, +SCALE a forced win. A move is clearly best when

* it is decisive: its score reaches DECISIVE (a forced win, a decisive capture, a clear gain), and
* every other move is clearly worse: the second best scores at least MARGIN less.

Lichess asks the same of a puzzle's move (its generator: the best move's winning chances at least 0.7 above the
second's, on a scale of -1..1); MARGIN and DECISIVE are that rule on this scale, chosen from how the engine's
scores behave in the computer's games (docs/puzzles.md). A position with one legal move is never a puzzle's
first move: there is nothing to find.
"""
from __future__ import annotations

from ai.analysis import SCALE

#: the best move's score must reach this (the mover's side): a clearly won position after it
DECISIVE = 500
#: the second best move must score at least this much less than the best
MARGIN = 400
#: a score at least this high is a forced win found by the search
FORCED = SCALE


def margin_of(ranked: list) -> int | None:
    """The best move's lead over the second (None with a single legal move)."""
    if len(ranked) < 2:
        return None
    return ranked[0][1] - ranked[1][1]


def clearly_best(ranked: list) -> bool:
    """Whether the first of `ranked` (rank_moves' list: (move, score) best first) is the one clearly best
    move: decisive, and MARGIN ahead of the second."""
    lead = margin_of(ranked)
    return lead is not None and ranked[0][1] >= DECISIVE and lead >= MARGIN


def forced_win(score: int) -> bool:
    return score >= FORCED
