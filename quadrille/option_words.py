"""A game's options said in the new-game dialog's words, for the lists that show a game or a challenge
("my games", the challenges): the preset's name when the options are one of the game's presets ("Quick 5×5"),
else each option that differs from the game's standard, as the dialog labels it ("Board size: 5 cells a side;
Alternative rules: Each master starts in its player's right-hand back corner, not in the middle"). Pure."""
from __future__ import annotations

import json
from functools import lru_cache

import games

from .catalog import words as game_words
from .i18n.translations import request_language
from .i18n.words import N_


def _said(words: str) -> str:
    """These few words in the request's language (English outside a request)."""
    from .i18n import translated
    return translated(words)

STANDARD = N_("standard options")
YES, NO, NONE = N_("yes"), N_("no"), N_("none")


def describe(name: str, options: dict | None) -> str:
    """The options of a game of `name` in the dialog's words, in the request's language (STANDARD when nothing
    differs)."""
    return _described(name, json.dumps(options or {}, sort_keys=True), request_language())


@lru_cache(maxsize=1024)  # a list of 200 games says the same few options again and again (per language)
def _described(name: str, options_key: str, language: str | None) -> str:
    options = json.loads(options_key)
    game = games.get(name)
    try:
        said = game_words(name)
    except KeyError:
        said = {}
    normal = _normal(game, options)
    for preset in said.get("presets", ()):
        if _normal(game, preset["options"]) == normal:
            return preset["name"]
    standard = _normal(game, {})
    parts = [_phrase(game, said.get("options", {}).get(key, {}), key, value)
             for key, value in normal.items() if value != standard.get(key)]
    return "; ".join(parts) or _said(STANDARD)


def _normal(game, options: dict) -> dict:
    """The options with the engine's defaults filled in, lists sorted, and no option only an import sets."""
    shown = {k: v for k, v in options.items() if k in game.options and game.options[k].kind != "text"}
    try:
        shown = game.normalise(shown)
    except ValueError:
        pass  # a stored game's options are as they were accepted: say them as they are
    return {k: sorted(v) if isinstance(v, list) else v for k, v in shown.items()
            if k in game.options and game.options[k].kind != "text"}


def _phrase(game, said: dict, key: str, value) -> str:
    label = said.get("label") or game.options[key].help or key
    values = said.get("values", {})
    if isinstance(value, bool):
        return f"{label}: {_said(YES) if value else _said(NO)}"
    if isinstance(value, list):
        chosen = [values.get(str(v), str(v)).rstrip(".") for v in value]
        return f"{label}: {'; '.join(chosen) if chosen else _said(NONE)}"
    unit = said.get("unit")
    return f"{label}: {values.get(str(value), value)}{' ' + unit if unit else ''}"
