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


def describe(game) -> dict:
    """A game as GET /api/games shows it: the engine's description plus its computer levels."""
    return {**game.to_dict(), "levels": computer_levels(game.name)}
