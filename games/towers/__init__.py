"""Towers (Laurent Orseau): rules engine (`core`) and the original's `.twr` save format (`twr`).

Notation (docs/games.md, *Towers*): `m{x},{y}>{x},{y}:{k}` moves the top k pawns in a straight line,
`i{k}` imports k pawns onto the own master, `end` ends the turn. Options: `size` and `rules` (the alternative
rules of the original's New-game dialog, `RULES`).
"""
from __future__ import annotations

from games.base import Game
from games.notation import towers_names
from games.towers import twr
from games.towers.core import (
    FORM_SIZES, MAX_SIZE, MIN_SIZE, OPTIONS, RULE_ORDER, RULES, TowersBoard, TowersIllegalMove,
    initial_masters,
)

__all__ = ["GAME", "TowersBoard", "TowersIllegalMove", "RULES", "RULE_ORDER", "MIN_SIZE", "MAX_SIZE", "initial_masters",
           "twr"]


def _notes(options: dict) -> list[str]:
    notes = []
    if options["size"] > FORM_SIZES[1]:
        notes.append(f"The original Towers client offers boards of {FORM_SIZES[0]}x{FORM_SIZES[0]} to "
                     f"{FORM_SIZES[1]}x{FORM_SIZES[1]}.")
    if "no-master-win" in options["rules"]:
        notes.append("no-master-win: Quadrille enforces it (the master tower may not take the opposing master); "
                     "the original client offered the rule without enforcing it.")
    return notes


ACTIONS_PER_SIZE = 300


def _longest(options: dict) -> int:
    """The most actions (`board.moves`) of a real game: 300 x size (1,500 on 5x5, 3,000 on 10x10).

    Towers has no bound of its own: towers may walk back and forth and only four passes in a row draw. The
    longest recorded games take 169 actions on 5x5 (stopped at the recording's cap of 150 turns) and 261 on 9x9
    (the games recorded from the original), at most 34 x size; bench/tournament.py ends a game at 600 actions on 6x6
    (100 x size), a cap that level 3 games sitting on a lead used to reach; of 4,000 uniformly random games the
    longest took 1,203 actions on 5x5 and 2,380 on 10x10 (at most 241 x size). A bigger board gives longer
    distances and more move points, hence more actions a turn: the bound grows with the size."""
    return ACTIONS_PER_SIZE * options["size"]


GAME = Game(
    name="towers",
    title="Towers",
    seats=(2, 2),
    options=OPTIONS,
    board_class=TowersBoard,
    formats={"twr": twr},  # the original client's save files (docs/games.md, *Towers*)
    names=lambda options: ["Blue", "Red"],  # the colours the renderer draws Player 1 and Player 2 in
    draws=True,  # four pure passes in a row draw (docs/games.md, *Towers*)
    summary=(
        "Each turn you get as many move points as pawns in your reserve, and spend them on several actions: "
        "moving a pawn or tower in a straight line costs its distance times the pawns moved, and importing a "
        "reserve pawn onto your master costs 1. "
        "A single pawn may climb onto one of your own towers, and a tower may attack an enemy tower no taller "
        "than itself; captures by your master tower feed your reserve, and cells that were raised or attacked "
        "are locked until the end of the turn. "
        "Capture the enemy master to win; four passes in a row draw."
    ),
    notes=_notes,
    longest=_longest,
    notation=towers_names,
    extra={
        "rules": dict(RULES),
        "rule_order": list(RULE_ORDER),
    },
)
