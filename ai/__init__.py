"""Quadrille's computer opponents: one entry point for every game.

    import ai, games
    board = games.get("trails").new()
    move = ai.choose_move(board, 3, seed=1, time_budget=0.5)
    board.push(move)

`choose_move(board, level)` returns one legal move (a notation string) for `board.turn`, and never changes
the caller's board (it searches a copy). It plays through the engine contract alone (`legal_moves`, `push`,
`pop`, `outcome`, `copy`, plus a few public queries per game for the evaluations).

Levels (`levels(game)` lists them for the UI):

* 1 (easy): one ply. It takes an immediate win, avoids a move that lets the next player win at once when
  checking is cheap, and otherwise chooses at random, weighted by a quick evaluation.
* 2 (medium): a shallow alpha-beta search (2-3 plies, a small node cap).
* 3 (hard): alpha-beta with iterative deepening under a time budget (default `DEFAULT_BUDGET` seconds);
  a game may bring its own level-3 search (`model.deep_search`: Towers searches whole turns).
* "random": a uniformly random legal move (for benchmarks and tests).
* Lattice Checkers also has the original program's three filter levels, "classic-1", "classic-2" and
  "classic-3" (games/lattice/classic_computer.py); Towers the original's rule-based AI-1, "classic"
  (games/towers/classic_computer.py).

Each game's model is its package's `computer.py` (`MODEL`, and `CLASSIC_LEVELS` with `classic(board, level,
rng)` where the original's opponents are offered); this package holds what every game shares: the search
(search.py), the model's interface (model.py) and the levels.

Determinism: with the same `seed` the same position gives the same move, as long as no time budget cuts the
search short; tests pass `max_nodes` (and `time_budget=None` with it) to make deep searches reproducible.
`stop`, a callable, ends a search early when it returns True (the platform calls it when a match is
abandoned); the best move found so far is returned.

Pure: no I/O, no clock other than the search budget, no global state.
"""
from __future__ import annotations

import random
import time
from collections.abc import Mapping

import games
from ai.model import WIN, Model
from ai.search import Limits, iterative_deepening, one_ply

__all__ = ["choose_move", "levels", "DEFAULT_BUDGET", "LEVELS", "WIN", "Model"]

#: level 3's default time budget, in seconds per move (the issue allows at most 2 s on one core)
DEFAULT_BUDGET = 1.5
#: level 1's and level 2's cap on time, in seconds (they normally finish far sooner)
SHALLOW_CAP = 1.0

_COMMON = [
    {"id": 1, "label": "Level 1 (easy)"},
    {"id": 2, "label": "Level 2 (medium)"},
    {"id": 3, "label": "Level 3 (hard)"},
]


def _computer(game_name: str):
    """The game's computer.py (games/<name>/computer.py); KeyError for a game without one."""
    computer = games.part(game_name, "computer") if game_name in games.names() else None
    if computer is None:
        raise KeyError(game_name)
    return computer


def levels(game_name: str) -> list[dict]:
    """The levels offered for a game, for the UI: a list of {"id", "label"}. KeyError for an unknown game."""
    return [dict(lv) for lv in _COMMON + list(getattr(_computer(game_name), "CLASSIC_LEVELS", ()))]


class _Levels(Mapping):
    """Every level id each game with a computer accepts (the UI list plus "random"), read from the games'
    packages when asked, so that a game registered later has its levels too."""

    def __getitem__(self, game_name):
        if not isinstance(game_name, str):
            raise KeyError(game_name)
        return [lv["id"] for lv in levels(game_name)] + ["random"]

    def __iter__(self):
        return iter([name for name in games.names() if games.part(name, "computer") is not None])

    def __len__(self):
        return len(list(iter(self)))


#: every level id each game accepts (the UI list plus "random")
LEVELS = _Levels()


def model_for(board, me: int | None = None) -> Model:
    """The game's search model for `board`, playing seat `me` (default: the seat to move)."""
    return _computer(board.game_name).MODEL(board, board.turn if me is None else me)


def _level(game_name: str, level):
    if isinstance(level, str) and level.isdigit():
        level = int(level)
    if game_name not in games.names() or games.part(game_name, "computer") is None:
        raise ValueError(f"no computer opponent for game {game_name!r}")
    if isinstance(level, bool) or level not in LEVELS[game_name]:
        raise ValueError(f"unknown level {level!r} for {game_name}; expected one of: "
                         + ", ".join(map(str, LEVELS[game_name])))
    return level


def choose_move(board, level, *, seed=None, time_budget: float | None = None, stop=None,
                max_nodes: int | None = None, max_depth: int | None = None, clock=time.monotonic) -> str:
    """A legal move for `board.turn` at `level` (1, 2, 3, "random", or a classic id the game offers).

    `time_budget` (seconds) caps the thinking time (level 3 uses `DEFAULT_BUDGET` when it is None and no
    `max_nodes`/`max_depth` is given); `max_nodes` caps the searched positions and `max_depth` the search
    depth (for reproducible tests); `stop()` returning True ends the search early. `clock` (seconds, a
    monotonic callable) is what the time budget is read on: tests pass a clock of their own to see the budget
    kept without waiting for it. The caller's board is not changed. ValueError for a finished game or an
    unknown level.
    """
    game_name = board.game_name
    level = _level(game_name, level)
    if board.turn is None:
        raise ValueError("the game is over: there is no move to choose")
    rng = random.Random(seed)
    if level == "random":
        return rng.choice(board.legal_moves())
    work = board.copy()
    start = clock()
    if isinstance(level, str):               # the original programs' opponents
        return _computer(game_name).classic(work, level, rng)
    model = model_for(work)
    if level == 1:
        budget = SHALLOW_CAP if time_budget is None else min(time_budget, SHALLOW_CAP)
        limits = Limits(start + budget, None, stop, clock)
        return one_ply(work, model, rng, limits=limits)
    if level == 2:
        budget = SHALLOW_CAP if time_budget is None else min(time_budget, SHALLOW_CAP)
        nodes = model.level2_nodes if max_nodes is None else min(max_nodes, model.level2_nodes)
        depth = model.level2_depth if max_depth is None else min(max_depth, model.level2_depth)
        limits = Limits(start + budget, nodes, stop, clock)
        move, _, _ = iterative_deepening(work, model, limits, rng, max_depth=depth, margin=model.margin)
        return move
    if time_budget is None and max_nodes is None and max_depth is None:
        time_budget = DEFAULT_BUDGET
    deadline = None if time_budget is None else start + time_budget
    limits = Limits(deadline, max_nodes, stop, clock)
    special = getattr(model, "deep_search", None)       # a game's own level-3 search (Towers: whole turns)
    if special is not None:
        return special(work, limits, rng, max_depth)
    move, _, _ = iterative_deepening(work, model, limits, rng, max_depth=max_depth or 64, margin=model.margin)
    return move
