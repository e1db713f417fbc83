"""The STATE of a match: what every viewer is sent after each change (docs/api.md names its fields).

Built once per published version, from the match as the core holds it: the engine is asked for the legal moves,
the view and the moves' names once; presence is looked at once (the `away` seats), and that look also tells
presence of the player who acted (core.authorise).
"""
from __future__ import annotations

import games

from ..catalog import level_name
from .store import SeatRow
from . import resigning
from .match import Match, begins_on_start


def build(core, match: Match) -> dict:
    """The STATE (`core`: the match core: its clocks, absence and timeouts, and what other services add)."""
    board = match.board
    turn = match.turn()
    game = games.get(match.row.game)
    abortable = is_abortable(match)
    moves = board.moves
    return {
        "match": match.id, "game": match.row.game,
        "title": game.title,
        "options": dict(match.row.options),
        "mode": match.row.mode,
        "name": match.row.name, "version": match.version,
        "turn": turn,
        "legal": board.legal_moves() if turn is not None else [],
        "view": board.view(),
        "moves": list(moves),
        "move_names": match.named.of(game, board, moves),  # the same words for every viewer (games/notation.py)
        "movers": list(match.move_seats),
        "outcome": match.outcome(),
        "started": match.begun(),
        "creator_starts": begins_on_start(game, match.row.mode),
        "players": board.players,
        "seats": [seat_entry(match, s) for s in match.row.seats],
        "seat_names": list(match.seat_names),
        "draws": game.draws,
        "visibility": match.row.visibility,
        "paused": match.paused,
        "offers": match.offers.to_dict(),
        "declined": match.offers.declined_dict(),
        "abortable": abortable,
        "resignable": resigning.resignable(match, abortable),
        "away": away(core, match),
        "disconnect_timeout": core.timeouts.timeout,
        "rematch": match.offers.rematch,
        "clock": core.clocks.view(match),
        **core.state_extras(match),  # fields other services add (the ratings: ratings/match_ratings.py)
    }


def away(core, match: Match, fresh: bool = False) -> list[dict]:
    """The people's seats whose player left a game under way online (never a computer's seat). `fresh`: for a
    decision (a claim), from presence's own view of now. The player acting in the command under way
    (`match.unseen`) is told to presence in the same look."""
    if match.row.mode != "online" or not match.begun() or match.outcome() is not None:
        return []
    seen, match.unseen = match.unseen, []
    return core.absence.away(match, fresh=fresh, seen=seen)


def is_abortable(match: Match) -> bool:
    """An online game may be aborted (no result) until every player has moved in it."""
    if match.row.mode != "online" or match.outcome() is not None:
        return False
    if not match.begun():
        return True
    waiting = set(match.humans())
    for mover in match.move_seats:  # every STATE asks: stop at the first moves, where all have moved
        waiting.discard(mover)
        if not waiting:
            return False
    return True


def seat_entry(match: Match, s: SeatRow) -> dict:
    if s.seat in match.computer:
        level = match.computer[s.seat]
        return {"seat": s.seat, "taken": True, "name": "ai", "kind": "ai", "level": level,
                "level_name": level_name(level)}  # the new-game dialog's words: catalog.py
    return {"seat": s.seat, "taken": s.token_hash is not None, "name": s.name, "kind": "human",
            "account": s.seat in match.accounts}
