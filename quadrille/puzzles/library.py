"""The puzzles that ship with the project: each game's `games/<name>/puzzles.json`, read once.

A puzzle is a dict (docs/puzzles.md): `id` ("<game>-<hash>", stable), `game`, `options`, `moves` (the game up
to the puzzle), `turn` (the seat the solver plays), `solution` (engine move strings: the solver's moves and the
opponent's replies, in the order they are played; a Towers turn or a Lattice extra turn is several of the
solver's moves in a row), `rating` (the starting rating, `generate.starting_rating`) and `themes`.

Small and stable on purpose: the puzzle pages and API (another part of the server) read only `puzzles`,
`puzzle` and `games_with_puzzles`. Pure: no Flask, no database.
"""
from __future__ import annotations

import json
from functools import lru_cache

import games

FILE = "puzzles.json"


def path_of(game: str):
    """Where game `game`'s shipped puzzles are (its package's puzzles.json); KeyError for an unknown game."""
    return games.folder(game) / FILE


@lru_cache(maxsize=None)
def _load(game: str) -> tuple:
    path = path_of(game)
    if not path.is_file():
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(data["puzzles"])


def puzzles(game: str) -> list[dict]:
    """Every shipped puzzle of `game`, in the file's order (copies: a caller may change them freely); [] for
    a game without puzzles. KeyError for an unknown game."""
    return [_copy(p) for p in _load(game)]


@lru_cache(maxsize=None)
def _index() -> dict:
    return {p["id"]: p for game in games.names() for p in _load(game)}


def puzzle(puzzle_id: str) -> dict:
    """The shipped puzzle with this id (a copy); KeyError when there is none."""
    if not isinstance(puzzle_id, str):
        raise KeyError(puzzle_id)
    return _copy(_index()[puzzle_id])


def games_with_puzzles() -> list[str]:
    """The games that ship puzzles, in the registry's order (the lobby's)."""
    return [game for game in games.listed() if _load(game)]


def forget() -> None:
    """Read the files again on the next call (after `python -m quadrille.puzzles generate` rewrote one)."""
    _load.cache_clear()
    _index.cache_clear()


def _copy(p: dict) -> dict:
    return json.loads(json.dumps(p))
