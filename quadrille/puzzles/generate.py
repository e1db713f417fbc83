"""The puzzle cutter: find, in a game's moves, the positions where the side to move has one clearly best
continuation, and the solution from there (docs/puzzles.md).

    from quadrille.puzzles.generate import cut
    cut(game, options, moves)              # -> [puzzle, ...]; analyses the game itself when not given one

How (after lichess's generator, adapted to games whose turns may be several moves):

1. Candidates: the analysis given (ai/analysis.py `analyse`), or else `scan`, marks the positions where a
   seat starts its turn clearly winning (`criterion.DECISIVE`). Lichess also asks for a swing (the opponent's
   mistake just before); the computer's games give too few of them to cut hundreds of puzzles in minutes, and
   the criterion already asks for one clearly best move.
2. The first move: `rank_moves` at the budget's `rank` nodes; the position is a puzzle when its best move is
   the one clearly best (`criterion.clearly_best`). When a turn is several moves (Towers' actions, Lattice's
   extra turn), the positions inside the candidate turn, as the game played it, are tried in order too.
3. The solution goes on, the opponent answering with the engine's best reply (`evaluate`, `reply` nodes),
   as long as each of the solver's moves is again the clearly best one (or its only legal move), at most
   MAX_SOLVER_MOVES of them, until the game ends. A solution that stops short ends on the solver's last
   chosen move (trailing replies and forced moves are dropped).
4. It is kept when the solver wins, or a forced win is seen at its end, or the solver's material gain reaches
   the game's MATERIAL_GAIN: a win or a clear gain, never a mere positional edge.

Every game's own part (source options, budgets, material, themes) is its package's `puzzles.py`. Pure: no
Flask, no I/O; deterministic (node budgets, never the clock).
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, replace

import games
from ai import analysis as engine

from . import criterion, themes as shared_themes

#: the solver's moves (engine moves) a solution holds at most
MAX_SOLVER_MOVES = 6
#: the positions of one candidate turn tried at most (its start and after each of its first moves)
TURN_POSITIONS = 6


@dataclass(frozen=True)
class Budget:
    """Node budgets of the cutter's searches (`max_nodes` of ai/analysis.py)."""
    scan: int = 150        # evaluate at each turn's start, when the game comes without an analysis (scan)
    rank: int = 1000       # rank_moves at each of the solver's moves (the criterion)
    reply: int = 500       # evaluate for each of the opponent's replies
    play: int = 300        # the levels' max_nodes in the computer's source games (source.py)

    def to_dict(self) -> dict:
        return asdict(self)


def rules(game: str):
    """The game's part in the puzzles (games/<name>/puzzles.py); KeyError for a game without one."""
    part = games.part(game, "puzzles")
    if part is None:
        raise KeyError(game)
    return part


def budget_of(game: str, **changes) -> Budget:
    """The game's budget (its puzzles.py `BUDGET`, else the defaults), with `changes`."""
    return replace(Budget(**getattr(rules(game), "BUDGET", {})), **changes)


def _board(game: str, options: dict, moves: list):
    board = games.get(game).new(**(options or {}))
    for move in moves:
        board.push(move)
    return board


def _seat_score(evals: dict, seat: int) -> int:
    """A seat's score from an analysis' `evals` (keys as ints, or as strings in a stored JSON analysis)."""
    return evals[seat] if seat in evals else evals[str(seat)]


def scan(game: str, options: dict, moves: list, max_nodes: int) -> dict:
    """The part of an analysis the candidates need, when the game comes without one: the scores (`evaluate`
    at `max_nodes`) at the start of every turn, in ai.analysis.analyse's shape (`evals` None elsewhere: a
    Towers turn of several actions is scored once, not after each)."""
    board = _board(game, options, [])
    plies = []
    for ply, move in enumerate(moves, 1):
        mover = board.turn
        board.push(move)
        starts = board.turn is not None and board.turn != mover
        evals = engine.evaluate(board, max_nodes=max_nodes).scores if starts else None
        plies.append({"ply": ply, "move": move, "seat": mover, "evals": evals})
    return {"start": 0, "plies": plies}


def candidates(game: str, options: dict, moves: list, analysis: dict) -> list[int]:
    """The plies (how many moves were played) of the positions worth ranking (step 1 of the module's
    docstring): a seat starting its turn with a decisive score."""
    board = _board(game, options, [])
    found = []
    for entry, move in zip(analysis["plies"], moves):
        mover = board.turn
        board.push(move)
        seat = board.turn
        if seat is None:
            break
        evals = entry.get("evals")
        if not evals:
            continue
        if seat != mover and _seat_score(evals, seat) >= criterion.DECISIVE:
            found.append(entry["ply"])      # the start of a turn (not the same side going on), decisive
    return found


def cut(game: str, options: dict, moves: list, analysis: dict | None = None, *, budget: Budget | None = None,
        limit: int = 1) -> list[dict]:
    """The puzzles found in a game (at most `limit`, none overlapping another's solution), in the game's
    order. `analysis` is ai.analysis.analyse's result for these moves (when None, `scan` scores the starts
    of the turns at the budget's `scan` nodes). A game of more than two seats gives none. ValueError for
    moves the game refuses."""
    rules(game)
    budget = budget or budget_of(game)
    moves = list(moves)
    try:
        board = _board(game, options, moves)
    except games.base.IllegalMove as exc:
        raise ValueError(f"the moves are not a legal game: {exc}") from None
    if board.players != 2:
        return []
    if analysis is None:
        analysis = scan(game, options, moves, budget.scan)
    found = []
    free_from = 0
    for ply in candidates(game, options, moves, analysis):
        for at in _turn_positions(game, options, moves, ply):
            if at < free_from:
                continue
            found_here = puzzle_at(game, options, moves[:at], budget)
            if found_here is not None:
                found.append(found_here)
                free_from = at + len(found_here["solution"])
                break
        if len(found) >= limit:
            break
    return found


def _turn_positions(game: str, options: dict, moves: list, ply: int) -> list[int]:
    """The positions of one turn, as plies: its start `ply`, then after each of the same seat's moves while
    the game's moves stay in its turn, at most TURN_POSITIONS. A Towers turn is several actions: at its start
    many first actions keep the same win (they can be played in any order), while a few actions later, with
    the move points left, one action may be the only one that wins."""
    board = _board(game, options, moves[:ply])
    seat = board.turn
    found = [ply]
    for move in moves[ply:ply + TURN_POSITIONS - 1]:
        board.push(move)
        if board.turn != seat:
            break
        found.append(found[-1] + 1)
    return found


def puzzle_at(game: str, options: dict, moves: list, budget: Budget) -> dict | None:
    """The puzzle whose position is the game after `moves`, or None when it is not one (steps 2-4)."""
    board = _board(game, options, moves)
    seat = board.turn
    if seat is None:
        return None
    ranked = engine.rank_moves(board, max_nodes=budget.rank)
    if not criterion.clearly_best(ranked):
        return None
    solution, movers, end = solve(board, seat, ranked[0][0], budget)
    part = rules(game)
    gain = _lead(part, end, seat) - _lead(part, board, seat)
    outcome = end.outcome()
    won = outcome is not None and outcome.winners == (seat,)
    forced = (not won and outcome is None
              and criterion.forced_win(_seat_score(engine.evaluate(end, max_nodes=budget.rank).scores, seat)))
    enough = getattr(part, "MATERIAL_GAIN", 1)
    if not (won or forced or gain >= enough):
        return None
    themes = shared_themes.shared(movers, seat, won=won, forced=forced, gain=gain, enough=enough)
    themes += part.themes(board, seat, solution)
    return {
        "id": puzzle_id(game, board.options, moves),
        "game": game,
        "options": dict(board.options),
        "moves": list(moves),
        "turn": seat,
        "solution": solution,
        "rating": starting_rating(movers, seat, len(ranked), won),
        "themes": sorted(set(themes)),
    }


def solve(board, seat: int, first: str, budget: Budget) -> tuple[list, list, object]:
    """(solution, the seat of each of its moves, the board after it) from `first` on (step 3)."""
    work = board.copy()
    solution, movers = [], []
    keep = 0                                   # the solution's length up to the solver's last chosen move
    move, chosen = first, True
    while True:
        movers.append(work.turn)
        work.push(move)
        solution.append(move)
        if chosen:
            keep = len(solution)
        if work.outcome() is not None or work.turn is None:
            break
        if work.turn == seat:
            if movers.count(seat) >= MAX_SOLVER_MOVES:
                break
            ranked = engine.rank_moves(work, max_nodes=budget.rank)
            if len(ranked) > 1 and not criterion.clearly_best(ranked):
                break
            move, chosen = ranked[0][0], len(ranked) > 1
        else:
            move, chosen = engine.evaluate(work, max_nodes=budget.reply).best, False
            if move is None:
                break
    outcome = work.outcome()
    if outcome is not None and outcome.winners == (seat,):
        keep = len(solution)                   # the game is won: the whole line, the loser's last move too
    for _ in range(len(solution) - keep):
        work.pop()
    return solution[:keep], movers[:keep], work


def _lead(part, board, seat: int) -> int:
    """The solver's material lead over the opponent."""
    return part.material(board, seat) - part.material(board, 3 - seat)


def puzzle_id(game: str, options: dict, moves: list) -> str:
    """A stable id from the game, its options and the moves to the position: "<game>-<10 hex digits>"."""
    text = json.dumps([game, options, list(moves)], sort_keys=True, separators=(",", ":"))
    return f"{game}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


#: the starting ratings (docs/puzzles.md, "Ratings"): a one-move puzzle with two choices starts at BASE_RATING
BASE_RATING = 1000
PER_TURN = 250         # each further turn of the solver's to find
PER_MOVE = 100         # each further move of the solver's inside its turns (a Towers walk, a Lattice extra turn)
PER_CHOICE = 80        # per doubling of the legal moves at the start (more to choose from)
NO_END = 150           # the solution does not end the game: a gain or a win to see beyond it
RATING_RANGE = (600, 2400)


def starting_rating(movers: list, seat: int, choices: int, won: bool) -> int:
    """A puzzle's starting rating from its solution's length, the choices at its start and whether it ends
    the game; rounded to tens. The puzzle's Glicko-2 rating moves on from there with the players' attempts."""
    turns = shared_themes.solver_turns(movers, seat)
    moves = movers.count(seat)
    value = (BASE_RATING + PER_TURN * (turns - 1) + PER_MOVE * (moves - turns)
             + PER_CHOICE * math.log2(max(choices, 2) / 2) + (0 if won else NO_END))
    low, high = RATING_RANGE
    return int(round(min(high, max(low, value)), -1))
