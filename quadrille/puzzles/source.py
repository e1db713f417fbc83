"""The games puzzles are cut from when no player's game is at hand: the computer against itself, seeded.

Each source game pairs two levels (LEVEL_PAIRS, or the game's own `LEVELS` in its puzzles.py, one pair per
game in turn), so that the weaker side makes the mistakes a puzzle punishes; the levels search at most
`Budget.play` nodes a move. Everything is drawn from the seed, and the levels' time caps are read on a clock
that never moves (`choose_move`'s `clock`), so that the same seed plays the same games on any machine, however
loaded.
"""
from __future__ import annotations

import multiprocessing
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


def _cut_one(task: tuple) -> tuple:
    """One source game played and cut: (its levels, its length, its puzzles)."""
    game, options, levels, seed, budget, per_game = task
    moves = play(game, options, levels, seed, budget.play)
    return levels, len(moves), cut(game, options, moves, budget=budget, limit=per_game)


def generate(game: str, count: int, seed: int = 0, *, budget: Budget | None = None, per_game: int = 3,
             progress: Callable[[str], None] | None = None,
             found_so_far: Callable[[list, int], None] | None = None, jobs: int = 1,
             resume: tuple[list, int] = ((), 0)) -> list[dict]:
    """`count` puzzles of `game` (fewer if GAMES_PER_PUZZLE x count source games do not give them), cut from
    seeded computer games (`per_game` at most from one): the same arguments give the same puzzles, whatever
    `jobs` (worker processes playing and cutting the games; their results are taken in the games' order).
    `progress` hears a line per game, `found_so_far` the puzzles found so far and the source games played
    whenever a game added some. `resume` = (the puzzles found, the games played) of a run stopped half way:
    each game is cut on its own, so going on from there gives what the whole run would have given."""
    options = dict(getattr(rules(game), "OPTIONS", {}))
    pairs = getattr(rules(game), "LEVELS", LEVEL_PAIRS)
    budget = budget or budget_of(game)
    earlier, played = resume
    if len(earlier) >= count:
        return list(earlier)[:count]
    tasks = ((game, options, pairs[i % len(pairs)], seed * 1_000_003 + i, budget, per_game)
             for i in range(played, max(1, count) * GAMES_PER_PUZZLE))
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    results = pool.imap(_cut_one, tasks) if pool is not None else map(_cut_one, tasks)
    found: dict = {p["id"]: p for p in earlier}
    began = time.monotonic()
    try:
        for index, (levels, length, cut_here) in enumerate(results, played):
            new = [p for p in cut_here if p["id"] not in found]
            for puzzle in new[:count - len(found)]:
                found[puzzle["id"]] = puzzle
            if new and found_so_far is not None:
                found_so_far(list(found.values()), index + 1)
            if progress is not None:
                progress(f"{game}: game {index + 1} (levels {levels[0]}-{levels[1]}, {length} moves): "
                         f"{len(new)} puzzle(s), {len(found)}/{count} in {time.monotonic() - began:.0f} s")
            if len(found) >= count:
                break
    finally:
        if pool is not None:
            pool.terminate()
    return list(found.values())
