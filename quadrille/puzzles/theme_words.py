"""A puzzle theme's name as a person reads it (issue 27): the themes are ids (quadrille/puzzles/themes.py, the
games' own in games/<name>/puzzles.py) and stay so in the data and the API; the pages name them in the reader's
language. static/js/puzzle.js names them the same way for the puzzles it fetches.
"""
from __future__ import annotations

import re

from ..i18n import _l, _ln, translated
from ..i18n.words import N_

NAMES = {
    "forced-win": N_("forced win"),
    "material": N_("material"),
    "one-move": N_("one move"),
    # TRANSLATORS: Gamma's golden move, as the rules name it
    "golden-move": N_("golden move"),
    # TRANSLATORS: Lattice Checkers: a move in the extra turn a promotion earned
    "extra-turn": N_("extra turn"),
    "capture-chain": N_("capture chain"),
    "promotion": N_("promotion"),
    # TRANSLATORS: Towers: pawns brought from the reserve onto the master
    "import": N_("from the reserve"),
    "capture": N_("capture"),
    "master-capture": N_("capturing the master"),
    # TRANSLATORS: Trails and Towers: a move that takes a tower
    "tower": N_("taking a tower"),
    "tower-win": N_("won by towers"),
    "trap": N_("trap"),
}
WIN_IN = re.compile(r"win-in-(\d+)$")


def theme_name(theme: str) -> str:
    """A theme's name in the request's language (English outside a request); an unknown id as it is, readable."""
    won = WIN_IN.match(theme)
    if won:
        turns = int(won.group(1))
        return translated(_ln("win in %(num)d turn", "win in %(num)d turns", turns))
    if theme in NAMES:
        return translated(_l(NAMES[theme]))
    return theme.replace("-", " ")


def theme_names(themes) -> list[str]:
    return [theme_name(theme) for theme in themes]
