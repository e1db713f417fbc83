"""One move, one pass through the engine and one look at presence inside the match core (issue 24): the move is
validated and applied by a single `push` (no push, pop and push again), the STATE asks the engine for the legal
moves, the view and the outcome once each, and presence is looked at once (the STATE's `away`, which also tells
it of the player who moved). bench/move_passes.py prints the same counts and profiles the move."""
from __future__ import annotations

from bench.move_passes import count


def test_one_move_enters_the_engine_once_and_looks_at_presence_once():
    calls, played = count(moves=24)
    assert played == 24
    per_move = {label: n / played for label, n in calls.items()}
    assert per_move == {"engine.push": 1, "engine.legal_moves": 1, "engine.view": 1, "engine.outcome": 1,
                        "presence.absences": 1}, per_move
