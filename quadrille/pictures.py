"""Pictures of positions: the lobby tile's, the new-game dialog's preview, the rules pages' diagrams and the
tutorials' boards, drawn by each game's games/<name>/picture.py from positions reached by real moves.

Pure: no Flask here, only the engines and Jinja's markupsafe (a picture is escaped text a template may print as
it is); the pictures' words come from picture_labels.py, in the request's language when there is one.
"""
from __future__ import annotations

import json
from functools import lru_cache

from markupsafe import Markup

import games

from . import catalog, picture_labels


def names() -> list[str]:
    """The games that draw pictures (a picture.py in their package)."""
    return [name for name in games.names() if games.part(name, "picture") is not None]


def module(name: str):
    """The game's picture.py; KeyError for a game without one."""
    found = games.part(name, "picture") if name in games.names() else None
    if found is None:
        raise KeyError(name)
    return found


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
    """An SVG picture of `view` (the engine's view of a position), with `marks` ringed; Markup, escaped. Without a
    label it says the position in the request's language (picture_labels.py)."""
    if label is None:
        label = picture_labels.label(module(name), view)
    return Markup(module(name).picture(view, marks=tuple(marks or ()), legal=legal, label=label, **extra))


@lru_cache(maxsize=512)
def _preview(name: str, options_key: str, moves: tuple, language: str) -> str:
    board = _replayed(name, options_key, moves)
    return str(picture(name, board.view()))  # `language` keys the cache: the label is in the page's language


def preview(name: str, options: dict | None = None, moves=()) -> Markup:
    """The picture of a game's position after `moves` (default: its starting position) with these options,
    cached per options. ValueError for options the engine refuses."""
    game = games.get(name)
    normal = game.normalise(options or {})
    return Markup(_preview(name, _key(normal), tuple(moves), picture_labels.language()))


def tile_picture(name: str) -> Markup:
    """The lobby tile's picture: the starting position with the default options, or, for a game whose start is an
    empty board (Gamma), the position after the few real opening moves its words.json names."""
    w = catalog.words(name)
    return preview(name, w.get("tile_options") or {}, tuple(w.get("tile_moves") or ()))


def mark_attrs(name: str, mark) -> dict:
    """The data attributes (name -> value) that find a marked cell on the game's board in the browser."""
    return module(name).mark_attrs(mark)


# -- the cells of a move, as the match page finds them -------------------------------------------------------------
def move_marks(name: str, board, move: str | None) -> list[dict]:
    """The data attributes of the cells `move` touches on `board` (the position before it), as mark_attrs gives
    them: what the match page highlights (an analysis's best move) without knowing any game's rules. Empty for no
    move, a move that touches no cell ("end", "skip"), or a game whose picture.py names no cells."""
    found = module(name) if name in names() else None
    cells = getattr(found, "move_cells", None)
    if not move or cells is None:
        return []
    return [found.mark_attrs(mark) for mark in cells(board, move)]


def best_moves_shown(name: str, options: dict, moves, bests) -> list[dict]:
    """For each position of a game (after 0, 1, ... of `moves`), the computer's best move there as the match page
    shows it: {"cells": [data attributes, ...], "name": the move in the move list's words, or None}. `bests[k]` is
    the best move in the position before move k + 1 (an analysis's plies[k]["best"]); a best move the engine
    refuses there is shown as nothing (the analysis belongs to another line)."""
    game = games.get(name)
    board = game.new(**(options or {}))
    shown = []
    for k, best in enumerate(bests):
        shown.append(_best_shown(name, game, board, best))
        if k < len(moves):
            board.push(moves[k])
    return shown


def _best_shown(name: str, game, board, best: str | None) -> dict:
    if not best or board.turn is None:
        return {"cells": [], "name": None}
    after = board.copy()
    try:
        after.push(best)
    except games.IllegalMove:
        return {"cells": [], "name": None}
    return {"cells": move_marks(name, board, best), "name": game.move_names(after)[-1]}



def best_moves_answer(name: str, options: dict, moves, plies: list[dict]) -> dict:
    """What the match page shows of an analysis's best moves (ai/analysis.py's plies), one entry per ply:
    `best_cells`, the data attributes of the cells each ply's best move touches in the position before the ply, and
    `best_names`, those moves in the move list's words (null at the end)."""
    cells, names_ = _best_moves_answer(name, _key(options), tuple(moves), tuple(p.get("best") for p in plies))
    return {"best_cells": json.loads(cells), "best_names": list(names_)}


@lru_cache(maxsize=64)
def _best_moves_answer(name: str, options_key: str, moves: tuple, bests: tuple) -> tuple[str, tuple]:
    """Cached per analysis: every viewer of an analysed game asks the same (a long Towers game takes ~0.2 s)."""
    shown = best_moves_shown(name, json.loads(options_key), moves, bests)
    return json.dumps([s["cells"] for s in shown]), tuple(s["name"] for s in shown)
