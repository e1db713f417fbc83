"""Checks of a puzzle record against the engine and the cutter's own rules (tests and `python -m
quadrille.puzzles check`): it replays legally, its id is its position's, its themes are what the engine says,
and its first move is still the clearly best one by the criterion at the budget it was cut with.

Each check returns the problems it finds as sentences ([] when there is none). Pure: no I/O.
"""
from __future__ import annotations

import json
from contextlib import contextmanager

import games
from ai import analysis as engine

from . import criterion, library, themes as shared_themes
from .generate import Budget, _lead, _seat_score, puzzle_id, rules, starting_rating

FIELDS = {"id": str, "game": str, "options": dict, "moves": list, "turn": int, "solution": list, "rating": int,
          "themes": list}


def replay(puzzle: dict) -> tuple[object, list, list]:
    """(the board at the puzzle's position, the boards after each move of the solution, the seat of each of
    those moves); IllegalMove (games.base) for a move the engine refuses."""
    board = games.get(puzzle["game"]).new(**puzzle["options"])
    for move in puzzle["moves"]:
        board.push(move)
    work, after, movers = board.copy(), [], []
    for move in puzzle["solution"]:
        movers.append(work.turn)
        work.push(move)
        after.append(work.copy())
    return board, after, movers


def record_problems(puzzle: dict) -> list[str]:
    """The record's shape, its id, a legal replay with the solver to move, a solution that starts with the
    solver's move and ends on its move or its win, and the themes and rating the replay gives."""
    wrong = [f"{name} is not a {kind.__name__}" for name, kind in FIELDS.items()
             if not isinstance(puzzle.get(name), kind)]
    if wrong:
        return wrong
    game, seat = puzzle["game"], puzzle["turn"]
    if games.get(game).normalise(puzzle["options"]) != puzzle["options"]:
        wrong.append("the options are not the game's normalised options")
    if puzzle["id"] != puzzle_id(game, puzzle["options"], puzzle["moves"]):
        wrong.append("the id is not the position's")
    try:
        board, after, movers = replay(puzzle)
    except games.base.IllegalMove as exc:
        return wrong + [f"an illegal move: {exc}"]
    if board.turn != seat or not movers or movers[0] != seat:
        return wrong + ["the solution does not start with the solver's move"]
    end = after[-1]
    outcome = end.outcome()
    won = outcome is not None and outcome.winners == (seat,)
    if not won and movers[-1] != seat:
        wrong.append("the solution ends on a reply without a win")
    part = rules(game)
    gain = _lead(part, end, seat) - _lead(part, board, seat)
    enough = getattr(part, "MATERIAL_GAIN", 1)
    forced = "forced-win" in puzzle["themes"]
    expected = set(shared_themes.shared(movers, seat, won=won, forced=forced and not won, gain=gain, enough=enough))
    expected |= set(part.themes(board, seat, puzzle["solution"]))
    if set(puzzle["themes"]) != expected or puzzle["themes"] != sorted(puzzle["themes"]):
        wrong.append(f"the themes {puzzle['themes']} are not the engine's {sorted(expected)}")
    if not (won or forced or gain >= enough):
        wrong.append("the solution neither wins, nor sees a forced win, nor gains material")
    if puzzle["rating"] != starting_rating(movers, seat, len(board.legal_moves()), won):
        wrong.append("the rating is not the starting rating of its solution")
    return wrong


def search_problems(puzzle: dict, budget: Budget) -> list[str]:
    """The searches: the first move is still the clearly best one by `criterion.clearly_best` with
    rank_moves at the budget's `rank` nodes, and a "forced-win" puzzle's end is still a forced win."""
    board, after, _ = replay(puzzle)
    ranked = engine.rank_moves(board, max_nodes=budget.rank)
    wrong = []
    if not criterion.clearly_best(ranked) or ranked[0][0] != puzzle["solution"][0]:
        wrong.append(f"the first move {puzzle['solution'][0]} is not the clearly best one: {ranked[:3]}")
    if "forced-win" in puzzle["themes"]:
        scores = engine.evaluate(after[-1], max_nodes=budget.rank).scores
        if not criterion.forced_win(_seat_score(scores, puzzle["turn"])):
            wrong.append("the solution's end is not a forced win")
    return wrong


def shipped_header(game: str) -> dict:
    """The header of a game's puzzles.json: the seed, the count, the budget and the scale it was cut with."""
    header = json.loads(library.path_of(game).read_text(encoding="utf-8"))
    header.pop("puzzles")
    return header


@contextmanager
def recorded_scale(game: str):
    """The analysis' scale for `game` set, for the block, to the `k` its shipped file was cut with (the header's
    `scale`): k squashes the search's values after the search, so this reproduces the scores the cutter saw."""
    computer = games.part(game, "computer")
    saved = getattr(computer, "ANALYSIS", None)
    computer.ANALYSIS = {**(saved or {}), **shipped_header(game).get("scale", {})}
    try:
        yield
    finally:
        if saved is None:
            del computer.ANALYSIS
        else:
            computer.ANALYSIS = saved


def shipped_budget(game: str) -> Budget:
    """The budget a game's shipped puzzles were cut with."""
    return Budget(**shipped_header(game)["budget"])
