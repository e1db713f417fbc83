"""What a picture of a position says to a screen reader (its aria-label), in the reader's language (issue 27).

Each game's games/<name>/picture.py says it in English when it is given no label (the engines are pure and know
no language); quadrille/pictures.py asks here first, and draws with these words. Outside a request (tests, the
admin commands) they are English, as the engines' own. `language()` is part of the pictures' cache keys: the same
position drawn for a German page says German words.
"""
from __future__ import annotations

from .i18n import _l, _ln, translated


def language() -> str:
    """The request's language, or English outside one."""
    from flask import has_request_context
    if not has_request_context():
        return "en"
    from flask_babel import get_locale
    return str(get_locale() or "en")


def label(name: str, view: dict) -> str | None:
    """The picture's words for game `name` and its engine's `view`; None for a game this module does not know
    (its picture.py then says its own)."""
    words = _WORDS.get(name)
    return translated(words(view)) if words else None


def _towers(view: dict):
    return _l("Towers board, %(size)d by %(size)d: Red's pawns at the top, Blue's at the bottom, each master "
              "marked with a crown", size=view["size"])


def _trails(view: dict):
    towers = sum(row.count("T") for row in view["cells"])
    return _ln("Trails and Towers board, %(size)d by %(size)d: Blue's trail from the top-left corner, Red's from "
               "the bottom-right, %(num)d tower standing",
               "Trails and Towers board, %(size)d by %(size)d: Blue's trail from the top-left corner, Red's from "
               "the bottom-right, %(num)d towers standing", towers, size=view["size"])


def _lattice(view: dict):
    w, h, levels = view["grid"]
    b, t = view["on_board"]
    return _l("Lattice Checkers, a %(width)d by %(height)d by %(levels)d lattice: B's %(b)d pieces from level 1 "
              "upwards, T's %(t)d from level %(levels)d downwards", width=w, height=h, levels=levels, b=b, t=t)


def _gamma(view: dict):
    w, h = view["width"], view["height"]
    taken = sum(1 for row in view["cells"] for v in row if v)
    if not taken:
        return _l("Gamma board, %(width)d by %(height)d, for %(players)d players, empty", width=w, height=h,
                  players=view["players"])
    return _ln("Gamma board, %(width)d by %(height)d, for %(players)d players: %(num)d field taken",
               "Gamma board, %(width)d by %(height)d, for %(players)d players: %(num)d fields taken", taken,
               width=w, height=h, players=view["players"])


_WORDS = {"towers": _towers, "trails": _trails, "lattice": _lattice, "gamma": _gamma}
