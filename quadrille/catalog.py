"""What the arcade offers: the games whose engines import, in the registry's order, the computer levels each
game has, and the files of each game's package the server reads (its words, its tutorial, its renderer's static
files and its templates). Every list of games comes from the one registry, games/__init__.py."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import games

from .i18n import translated
from .i18n.words import N_


def installed_games() -> list:
    """The games whose engine imports, in the registry's order (the lobby's); a half-built engine must not
    break the site."""
    found = []
    for name in games.listed():
        try:
            found.append(games.get(name))
        except (ImportError, AttributeError):
            continue
    return found


# -- a game package's files ----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _json(package: str, folder: str, what: str) -> dict:
    path = Path(folder) / f"{what}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _data(name: str, what: str) -> dict:
    """A game package's data file (words.json, tutorial.json) read once ({} when it has none); KeyError for an
    unknown game."""
    return _json(games.package(name), str(games.folder(name)), what)


@lru_cache(maxsize=None)
def _translated(package: str, folder: str, what: str, language: str) -> dict:
    from .i18n import game_json, translations
    return game_json.translated(_json(package, folder, what), translations.for_language(language).gettext)


def _in_language(name: str, what: str) -> dict:
    """A data file in the request's language (English outside a request): its texts through the `games`
    catalog (quadrille/i18n/game_json.py), translated once per language and process."""
    from .i18n.translations import request_language
    language = request_language()
    if language is None:
        return _data(name, what)
    return _translated(games.package(name), str(games.folder(name)), what, language)


def words(name: str) -> dict:
    """What the lobby and the new-game dialog say of a game (its words.json), in the request's language; {} for
    a game without one."""
    return _in_language(name, "words")


def tutorial(name: str) -> dict:
    """A game's tutorial (its tutorial.json), in the request's language; {} for a game without one."""
    return _in_language(name, "tutorial")


def static_folder(name: str) -> Path:
    """The folder of a game's renderer: <name>.js, an optional <name>.css and <name>.scripts, served as
    /static/games/<file> (web/assets.py)."""
    return games.folder(name) / "static"


def template_folder(name: str) -> Path:
    """The folder of a game's templates (board.html, help.html, rules.html), named games/<name>/<file>."""
    return games.folder(name) / "templates"


def computer_levels(name: str) -> list[dict]:
    """The computer opponents a game offers ([] while its AI is not written)."""
    try:
        import ai
        return ai.levels(name)
    except (ImportError, AttributeError, KeyError):
        return []


# The computer's levels in the words of the lobby's new-game dialog ("Computer strength"), used wherever a page
# names a level: the dialog, the match page's seats and its hand-over choice, the STATE's seats (level_name).
# They are marked for translation (N_): a page says them in the reader's language (level_words, in a request);
# the STATE's level_name stays English (every viewer gets the same STATE) and static/js/match-status.js names the
# level in the page's language by its id.
LEVEL_WORDS = {1: N_("Easy"), 2: N_("Medium"), 3: N_("Hard"), "classic": N_("The original's opponent (AI-1)"),
               "classic-1": N_("The original's level 1"), "classic-2": N_("The original's level 2"),
               "classic-3": N_("The original's level 3"), "random": N_("Random moves")}


def level_name(level) -> str:
    """A computer level in the dialog's words ("Easy", "The original's level 3"), in English."""
    return LEVEL_WORDS.get(level, str(level))


def level_words(name: str) -> list[dict]:
    """The computer opponents a game offers, each {"id", "label"} in the dialog's words, in the request's
    language."""
    return [{"id": lv["id"], "label": translated(LEVEL_WORDS.get(lv["id"], lv["label"]))}
            for lv in computer_levels(name)]


def describe(game) -> dict:
    """A game as GET /api/games shows it: the engine's description plus its computer levels."""
    return {**game.to_dict(), "levels": computer_levels(game.name)}
