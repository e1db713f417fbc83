"""A puzzle's themes: the ones every game shares, and the game's own (games/<name>/puzzles.py, `themes`).

Every theme is read from the engine (the position, the solution played on it, the outcome, the engine's
scores), never guessed. The shared ones:

* "win-in-N": the solution ends the game with the solver's win, after N of its turns (a run of its moves in a
  row, as a Towers turn or a Lattice extra turn, is one turn);
* "forced-win": the solution stops before the end (the solver's next move is no longer the only good one),
  and the search sees a forced win for the solver there;
* "material": the solver gains material (the game's `material`) by at least the game's `MATERIAL_GAIN`;
* "one-move": the solver has a single move to find.
"""
from __future__ import annotations


def solver_turns(movers: list, seat: int) -> int:
    """How many turns of the solver's a solution holds, from the seat that played each of its moves: runs of
    the solver's moves in a row."""
    return sum(1 for i, mover in enumerate(movers) if mover == seat and (i == 0 or movers[i - 1] != seat))


def shared(movers: list, seat: int, *, won: bool, forced: bool, gain: int, enough: int) -> list[str]:
    """The shared themes (the module's docstring). `movers`: the seat of each move of the solution; `won`: it
    ends in the solver's win; `forced`: a forced win is seen at its end; `gain`: the solver's material gain;
    `enough`: the game's MATERIAL_GAIN."""
    found = []
    if won:
        found.append(f"win-in-{solver_turns(movers, seat)}")
    elif forced:
        found.append("forced-win")
    if gain >= enough:
        found.append("material")
    if movers.count(seat) == 1:
        found.append("one-move")
    return found
