"""What the arcade offers: the games whose engines import, and the computer levels each game has."""
from __future__ import annotations

import games


def installed_games() -> list:
    """The games whose engine imports (all four once built; a half-built engine must not break the site)."""
    found = []
    for name in games.names():
        try:
            found.append(games.get(name))
        except (ImportError, AttributeError):
            continue
    return found


def computer_levels(name: str) -> list[dict]:
    """The computer opponents a game offers ([] while its AI is not written)."""
    try:
        import ai
        return ai.levels(name)
    except (ImportError, AttributeError, KeyError):
        return []


# The computer's levels in the words of the lobby's new-game dialog ("Computer strength"), used wherever a page
# names a level: the dialog, the match page's seats and its hand-over choice, the STATE's seats (level_name).
LEVEL_WORDS = {1: "Easy", 2: "Medium", 3: "Hard", "classic": "The original's opponent (AI-1)",
               "classic-1": "The original's level 1", "classic-2": "The original's level 2",
               "classic-3": "The original's level 3", "random": "Random moves"}


def level_name(level) -> str:
    """A computer level in the dialog's words ("Easy", "The original's level 3")."""
    return LEVEL_WORDS.get(level, str(level))


def level_words(name: str) -> list[dict]:
    """The computer opponents a game offers, each {"id", "label"} in the dialog's words."""
    return [{"id": lv["id"], "label": LEVEL_WORDS.get(lv["id"], lv["label"])} for lv in computer_levels(name)]


def describe(game) -> dict:
    """A game as GET /api/games shows it: the engine's description plus its computer levels."""
    return {**game.to_dict(), "levels": computer_levels(game.name)}
