"""How each game is shown and taught: its lobby words, its picture, its lesson.

One folder per game, `quadrille/guide/<name>/`, beside the engine's `games/<name>`:

    __init__.py     picture(view, marks=(), legal=False) -> SVG text of a position, from the engine's view;
                    mark_attrs(mark) -> the data attributes that find a marked cell in the game's renderer;
                    no_targets(view) -> the view without the side to move's moves (the opponent's, in a lesson)
    words.json      what the lobby says: a one-line pitch, each option in player words, named presets
    lesson.json     the tutorial: steps, each a sentence, a position reached by real moves, the marked cells,
                    the moves the learner may make, a hint for a wrong try, the opponent's `reply` that the
                    closing sentence announces (shown on the board after the learner's move)

and its rules page, `templates/games/<name>/rules.html`. Pure: no Flask here, only the engines and Jinja's
markupsafe (so that a picture is escaped text a template may print as it is).
"""
from __future__ import annotations

import importlib
import json
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

import games

HERE = Path(__file__).resolve().parent


def names() -> list[str]:
    """The games that have a guide folder (all four)."""
    return [name for name in games.names() if (HERE / name / "__init__.py").is_file()]


def module(name: str):
    if name not in names():
        raise KeyError(name)
    return importlib.import_module(f"quadrille.guide.{name}")


@lru_cache(maxsize=None)
def _json(name: str, what: str) -> dict:
    if name not in names():
        raise KeyError(name)
    path = HERE / name / f"{what}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def words(name: str) -> dict:
    """The game's lobby words (words.json); KeyError for a game without a guide."""
    return _json(name, "words")


def lesson(name: str) -> dict:
    """The game's lesson (lesson.json): {"title", "intro", "steps": [...]}."""
    return _json(name, "lesson")


# -- positions reached by real moves ---------------------------------------------------------------------
def _key(options: dict | None) -> str:
    return json.dumps(options or {}, sort_keys=True)


@lru_cache(maxsize=256)
def _replayed(name: str, options_key: str, moves: tuple) -> object:
    board = games.get(name).new(**json.loads(options_key))
    for i, move in enumerate(moves):
        try:
            board.push(move)
        except games.IllegalMove as exc:
            raise games.IllegalMove(f"{name}: setup move {i + 1} ({move!r}) is illegal: {exc.reason}") from None
    return board


def position(name: str, options: dict | None = None, moves=()) -> object:
    """A board of `name` after `moves` from the start with `options`, replayed through the engine (cached:
    the caller gets its own copy). IllegalMove names the first move that is not legal."""
    return _replayed(name, _key(options), tuple(moves)).copy()


# -- pictures --------------------------------------------------------------------------------------------
def picture(name: str, view: dict, marks=(), legal: bool = False, label: str | None = None, **extra) -> Markup:
    """An SVG picture of `view` (the engine's view of a position), with `marks` ringed; Markup, escaped."""
    return Markup(module(name).picture(view, marks=tuple(marks or ()), legal=legal, label=label, **extra))


@lru_cache(maxsize=512)
def _preview(name: str, options_key: str, moves: tuple) -> str:
    board = _replayed(name, options_key, moves)
    return str(picture(name, board.view()))


def preview(name: str, options: dict | None = None, moves=()) -> Markup:
    """The picture of a game's position after `moves` (default: its starting position) with these options,
    cached per options. ValueError for options the engine refuses."""
    game = games.get(name)
    normal = game.normalise(options or {})
    return Markup(_preview(name, _key(normal), tuple(moves)))


def tile_picture(name: str) -> Markup:
    """The lobby tile's picture: the starting position with the default options, or, for a game whose start is an
    empty board (Gamma), the position after the few real opening moves its words.json names."""
    w = words(name)
    return preview(name, w.get("tile_options") or {}, tuple(w.get("tile_moves") or ()))


def mark_attrs(name: str, mark) -> dict:
    """The data attributes (name -> value) that find a marked cell on the game's board in the browser."""
    return module(name).mark_attrs(mark)


# -- SVG helpers shared by the games' pictures -------------------------------------------------------------
def svg(width: float, height: float, body: str, label: str, cls: str, style: str = "") -> str:
    """An inline SVG element: its colours come from classes (quadrille.css), so a theme changes them."""
    extra = f' style="{escape(style)}"' if style else ""
    return (f'<svg class="pic {cls}" viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{escape(label)}"'
            f'{extra} xmlns="http://www.w3.org/2000/svg">{body}</svg>')


def _n(value: float) -> str:
    """A short number for SVG attributes: 3, 3.5, 3.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


n = _n


def rect(x, y, w, h, cls: str, extra: str = "") -> str:
    return f'<rect class="{cls}" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{extra}/>'


def grid_path(cols: int, rows: int, cell: float, x0: float = 0, y0: float = 0) -> str:
    """One path with every grid line of a cols x rows board."""
    d = [f"M{_n(x0)} {_n(y0 + r * cell)}h{_n(cols * cell)}" for r in range(rows + 1)]
    d += [f"M{_n(x0 + c * cell)} {_n(y0)}v{_n(rows * cell)}" for c in range(cols + 1)]
    return f'<path class="pic-grid" d="{"".join(d)}"/>'


# -- lessons: each step's position, and a learner's try checked against the lesson and the engine -----------
class LessonError(LookupError):
    """No such lesson or step (the door answers 404)."""


def _step(name: str, index: int) -> tuple[dict, dict]:
    try:
        data = lesson(name)
    except KeyError:
        raise LessonError(name) from None
    steps = data.get("steps") or []
    if not isinstance(index, int) or not 0 <= index < len(steps):
        raise LessonError(f"{name} step {index}")
    return data, steps[index]


def _board(name: str, data: dict, step: dict):
    return position(name, {**data.get("options", {}), **step.get("options", {})}, step.get("moves", ()))


def lesson_state(name: str, board, you: int) -> dict:
    """A match's STATE for a lesson's board, as the game's renderer expects it (docs/api.md), with no match
    behind it: the learner holds seat `you`. While the opponent is to move (its reply being shown) the state
    carries none of its moves, so that no renderer lights them as if they were the learner's."""
    game = games.get(name)
    outcome = board.outcome()
    learners = board.turn == you
    view = board.view() if learners or board.turn is None else module(name).no_targets(board.view())
    return {
        "match": None, "game": name, "title": game.title, "options": dict(board.options), "mode": "lesson",
        "name": None, "version": len(board.moves), "turn": board.turn,
        "legal": board.legal_moves() if learners else [], "view": view,
        "moves": board.moves, "outcome": outcome.to_dict() if outcome else None, "started": True,
        "players": board.players, "paused": False, "offers": {}, "rematch": None,
        "seats": [{"seat": s, "taken": True, "name": "", "kind": "human"}
                  for s in range(1, board.players + 1)],
    }


def step(name: str, index: int) -> dict:
    """Step `index` of a game's lesson, for the page: its words, the marked cells (as data attributes of the
    renderer's cells), and the position as a STATE."""
    data, s = _step(name, index)
    board = _board(name, data, s)
    return {
        "game": name, "index": index, "count": len(data["steps"]), "id": s["id"], "title": s["title"],
        "text": s["text"], "marks": [mark_attrs(name, m) for m in s.get("marks", ())],
        "you": data.get("you", 1), "state": lesson_state(name, board, data.get("you", 1)),
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
            states.append(lesson_state(name, board, you))
        return {"verdict": "right", "done": s.get("done", ""), "last": index == len(data["steps"]) - 1,
                "states": states, "state": states[-1]}
    hint = s.get("hint", "")
    if move in board.legal_moves():
        return {"verdict": "other", "reason": "That move is allowed, but it is not the one this step asks for.",
                "hint": hint}
    try:
        board.push(move)
    except games.IllegalMove as exc:
        detail = getattr(exc, "detail", None)
        return {"verdict": "illegal", "reason": exc.reason + (f": {detail}" if detail else ""), "hint": hint}
    return {"verdict": "other", "reason": "That move is not the one this step asks for.", "hint": hint}
