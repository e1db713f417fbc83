"""Tutorials: each game's tutorial (games/<name>/tutorial.json), its steps' positions and a learner's tries.

A tutorial is `title`, `intro`, `controls`, `keyboard`, `options`, `you` (the learner's seat), `end` and
`steps`, each a sentence, a position reached by real moves, the marked cells, the moves the learner may make,
a hint for a wrong try, and the opponent's `reply` that the closing sentence announces (shown on the board
after the learner's move). Pure: no Flask here; nothing is stored.
"""
from __future__ import annotations

import games

from .i18n import _l
from . import catalog
from .pictures import mark_attrs, position
from .position_state import position_state


def tutorial(name: str) -> dict:
    """The game's tutorial (tutorial.json): {"title", "intro", "steps": [...]}; {} for a game without one."""
    return catalog.tutorial(name)


def names() -> list[str]:
    """The games that have a tutorial."""
    return [name for name in games.names() if tutorial(name).get("steps")]


class TutorialError(LookupError):
    """No such tutorial or step (the door answers 404)."""


def _step(name: str, index: int) -> tuple[dict, dict]:
    try:
        data = tutorial(name)
    except KeyError:
        raise TutorialError(name) from None
    steps = data.get("steps") or []
    if not isinstance(index, int) or not 0 <= index < len(steps):
        raise TutorialError(f"{name} step {index}")
    return data, steps[index]


def _board(name: str, data: dict, step: dict):
    return position(name, {**data.get("options", {}), **step.get("options", {})}, step.get("moves", ()))


def tutorial_state(name: str, board, you: int) -> dict:
    """A STATE of a tutorial's board (position_state.py): the learner holds seat `you`; while the opponent is
    to move (its reply being shown) the state carries none of its moves."""
    return position_state(name, board, (you,), mode="lesson")


def step(name: str, index: int) -> dict:
    """Step `index` of a game's tutorial, for the page: its words, the marked cells (as data attributes of the
    renderer's cells), and the position as a STATE."""
    data, s = _step(name, index)
    board = _board(name, data, s)
    return {
        "game": name, "index": index, "count": len(data["steps"]), "id": s["id"], "title": s["title"],
        "text": s["text"], "marks": [mark_attrs(name, m) for m in s.get("marks", ())],
        "you": data.get("you", 1), "state": tutorial_state(name, board, data.get("you", 1)),
    }


def attempt(name: str, index: int, move: str) -> dict:
    """Check a learner's try at step `index`: {"verdict": "right" | "other" | "illegal", ...}.

    right: the move is one the step asks for; the answer carries the step's closing sentence, `states`: the
    position after the move, then after each move of the opponent's reply (the step's `reply`, which the
    sentence announces), and `state`: the last of them, the learner's turn again (or the end). other: legal,
    but not what the step teaches; illegal: the engine refuses it (its reason). Both carry the step's hint.
    Nothing is stored."""
    data, s = _step(name, index)
    board = _board(name, data, s)
    you = data.get("you", 1)
    if move in s["expect"]:
        states = []
        for played in (move, *s.get("reply", ())):
            board.push(played)
            states.append(tutorial_state(name, board, you))
        return {"verdict": "right", "done": s.get("done", ""), "last": index == len(data["steps"]) - 1,
                "states": states, "state": states[-1]}
    hint = s.get("hint", "")
    if move in board.legal_moves():
        return {"verdict": "other", "reason": _l("That move is allowed, but it is not the one this step asks for."),
                "hint": hint}
    try:
        board.push(move)
    except games.IllegalMove as exc:
        detail = getattr(exc, "detail", None)
        reason = _l("%(reason)s: %(detail)s", reason=exc.reason, detail=detail) if detail else exc.reason
        return {"verdict": "illegal", "reason": reason, "hint": hint}
    return {"verdict": "other", "reason": _l("That move is not the one this step asks for."), "hint": hint}
