"""The games puzzles are cut from when no player's game is at hand: the computer against itself, seeded.

Each source game pairs two levels (LEVEL_PAIRS, or the game's own `LEVELS` in its puzzles.py, in turn), so that the weaker side makes the mistakes a puzzle
punishes and the stronger finds the punishment; level 3 searches `Budget.play` nodes a move. Everything is
drawn from the seed, and the levels' time caps are read on a clock that never moves (`choose_move`'s `clock`),
so that the same seed plays the same games on any machine, however loaded.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable

import ai
import games

from .generate import Budget, budget_of, cut, rules

#: the levels of the two seats, one pair per source game in turn
LEVEL_PAIRS = ((1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2))
#: source games played at most for each puzzle asked (a game whose games rarely give one stops there)
GAMES_PER_PUZZLE = 25


def _still() -> float:
    return 0.0


def play(game: str, options: dict, levels: tuple, seed: int, nodes: int) -> list[str]:
    """The moves of one computer game, seat k playing `levels[k - 1]`."""
    board = games.get(game).new(**options)
    rng = random.Random(seed)
    limit = games.get(game).move_limit(board.options)
    while board.turn is not None and len(board.moves) < limit:
        level = levels[board.turn - 1]
        board.push(ai.choose_move(board, level, seed=rng.randrange(1 << 30), max_nodes=nodes, clock=_still))
    return board.moves


def generate(game: str, count: int, seed: int = 0, *, budget: Budget | None = None, per_game: int = 3,
             progress: Callable[[str], None] | None = None) -> list[dict]:
    """`count` puzzles of `game` (fewer if GAMES_PER_PUZZLE x count source games do not give them), cut from
    seeded computer games (`per_game` at most from one): the same arguments give the same puzzles. `progress` hears a line per game."""
    options = dict(getattr(rules(game), "OPTIONS", {}))
    pairs = getattr(rules(game), "LEVELS", LEVEL_PAIRS)
    budget = budget or budget_of(game)
    found: dict = {}
    began = time.monotonic()
    for index in range(max(1, count) * GAMES_PER_PUZZLE):
        if len(found) >= count:
            break
        levels = pairs[index % len(pairs)]
        moves = play(game, options, levels, seed * 1_000_003 + index, budget.play)
        new = [p for p in cut(game, options, moves, budget=budget, limit=per_game) if p["id"] not in found]
        for puzzle in new[:count - len(found)]:
            found[puzzle["id"]] = puzzle
        if progress is not None:
            progress(f"{game}: game {index + 1} (levels {levels[0]}-{levels[1]}, {len(moves)} moves): "
                     f"{len(new)} puzzle(s), {len(found)}/{count} in {time.monotonic() - began:.0f} s")
    return list(found.values())
