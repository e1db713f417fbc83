"""Which seat the creator of a two-player game holds when they ask to move first, second, or leave it to chance
(the lobby's *Play a friend* and a challenge's `first`). The seat that moves first is the engine's (Lattice's
`first` option may make it seat 2); a random side is drawn here, on the server, never by the page."""
from __future__ import annotations

import random

import games

from ..errors import bad_request
from ..i18n import _l

SIDES = ("first", "second", "random")


def creator_seat(game: games.Game, options: dict, side: str) -> int:
    """The creator's seat for `side` (first, second or random) in a two-player game with these options."""
    if side == "random":
        return random.choice((1, 2))
    starter = game.new(**options).turn or 1
    return starter if side == "first" else 3 - starter


def seats_for_side(game_name, options, mode, side, seats) -> list[int] | None:
    """POST /api/matches' `side`: the creator's seats it stands for, or `seats` as given when there is none.
    A bad side, or one asked where it means nothing, is refused before anything is made."""
    if side is None:
        return seats
    if side not in SIDES:
        raise bad_request(_l("side must be one of: %(choices)s.", choices=", ".join(SIDES)), "bad-side")
    if seats is not None:
        raise bad_request(_l("Send side or seats, not both."), "bad-side")
    if mode != "online":
        raise bad_request(_l("side is for a game online; on one screen you play every side."), "bad-side")
    try:
        game = games.get(game_name)
    except (KeyError, TypeError):
        return None  # the match service names the unknown game
    if tuple(game.seats) != (2, 2):
        raise bad_request(_l("side is for two-player games; in %(title)s the creator is the first player.",
                             title=game.title),
                          "bad-side")
    try:
        normal = game.normalise(options if isinstance(options, dict) else {})
    except ValueError:
        return None  # the match service refuses the options in its own words
    return [creator_seat(game, normal, side)]
