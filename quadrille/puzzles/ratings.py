"""Puzzle ratings: Glicko-2 (quadrille/ratings/glicko2.py) for each puzzle and each solver, as lichess rates
puzzles: an attempt is a game between the solver and the puzzle, the solver winning when right, rated as a
rating period of its own. Only a solver's first result of a puzzle counts (the service decides which).

A guest's rating lives in the browser and comes with the attempt: it is checked here (`guest_rating`: numbers
only, clamped into the ranges a real rating can have) and answered updated. It changes nothing shared but the
puzzle's rating, and even there it counts for less than an account's: the puzzle is rated against the guest as
against a player whose deviation is at least GUEST_RD_FLOOR (Glicko-2's g(phi) shrinks the change), so a
browser that claims a confident rating of 3000 cannot push a puzzle far. Pure: no SQL, no Flask.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import bad_request
from ..i18n import _l
from ..ratings.glicko2 import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, Rating, rate

TAU = 0.75                      # lichess's, as the games' ratings (ratings/service.py)
PUZZLE_START_RD = 250.0         # a shipped rating is the generator's estimate: surer than a newcomer's 350
RATING_RANGE = (400.0, 3500.0)  # what a rating can be: a guest's is clamped into it
RD_RANGE = (45.0, DEFAULT_RD)
VOLATILITY_RANGE = (0.02, 0.12)
GUEST_RD_FLOOR = 200.0


@dataclass(frozen=True)
class Result:
    """A rated result: the solver's and the puzzle's ratings after it."""
    solver: Rating
    puzzle: Rating


def puzzle_start(shipped_rating) -> Rating:
    """A puzzle's rating before its first rated result: its shipped rating."""
    try:
        rating = float(shipped_rating)
    except (TypeError, ValueError):
        rating = DEFAULT_RATING
    return Rating(_clamp(rating, RATING_RANGE, DEFAULT_RATING), PUZZLE_START_RD, DEFAULT_VOLATILITY)


def solver_after(solver: Rating, puzzle: Rating, correct: bool) -> Rating:
    return rate(solver, [(puzzle, 1.0 if correct else 0.0)], tau=TAU)


def puzzle_after(puzzle: Rating, solver: Rating, correct: bool, guest: bool) -> Rating:
    """The puzzle's rating after a result against `solver` (a guest's deviation raised to GUEST_RD_FLOOR)."""
    if guest:
        solver = Rating(solver.rating, max(solver.rd, GUEST_RD_FLOOR), solver.volatility)
    return rate(puzzle, [(solver, 0.0 if correct else 1.0)], tau=TAU)


def guest_rating(sent) -> Rating:
    """A guest's rating as the browser sent it ({"rating", "rd", "volatility"}, each optional), or a newcomer's
    when it sent none. Numbers are clamped into real ratings' ranges; anything else is refused (400)."""
    if sent is None:
        return Rating()
    if not isinstance(sent, dict):
        raise bad_request(_l("rating must be an object: {\"rating\", \"rd\", \"volatility\"}."), "bad-rating")
    values = {}
    for name, bounds, default in (("rating", RATING_RANGE, DEFAULT_RATING), ("rd", RD_RANGE, DEFAULT_RD),
                                  ("volatility", VOLATILITY_RANGE, DEFAULT_VOLATILITY)):
        value = sent.get(name, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise bad_request(_l("rating.%(name)s must be a number.", name=name), "bad-rating")
        values[name] = _clamp(float(value), bounds, default)
    return Rating(values["rating"], values["rd"], values["volatility"])


def shown(rating: Rating, plays: int | None = None) -> dict:
    """A rating as the API answers it (rounded; `provisional` while the deviation is wide, as lichess's `?`)."""
    answer = {"rating": round(rating.rating, 1), "rd": round(rating.rd, 1), "volatility": round(rating.volatility, 6),
              "provisional": rating.rd > 110}
    if plays is not None:
        answer["plays"] = plays
    return answer


def _clamp(value: float, bounds: tuple, default: float) -> float:
    low, high = bounds
    return min(max(value, low), high) if math.isfinite(value) else default
