"""Rematches: once a game is over, the same players again, seats turned by one (sides swapped in a two-player
game), each seat held by the same player's token as before.

    rematch(core, match_id, token, owner)   # offer one, or accept the one offered
"""
from __future__ import annotations

import games

from .store import SeatRow
from .bus import REMATCH
from .core import MatchCore
from .match import Match
from .offers import Situation
from . import seating


def rematch(core: MatchCore, match_id, token, owner=None) -> dict:
    """Offer a rematch once the game is over, or accept the one offered: when every player of the finished match
    agrees (at once on one screen or against the computer), a new match starts with the same options, the seats
    turned by one (in a two-player game, sides swapped), each seat held by the same player's token as before, so
    that nobody else, not even a spectator who follows, can take one. Until then the answer is the STATE with
    the pending offer; then it is the new match."""
    match = core.load(match_id)
    with match.lock:
        seats, turning = core.authorise(match, token), turned(match)
        try:
            if match.offers.rematch is None:
                match.offers.check_offer("rematch", seats, Situation.of(match))
                agreed = match.offers.pending.get("rematch", set()) | set(seats)
                if not set(match.humans()) <= agreed:
                    core.record_event(match, "offer", {"offer": "rematch", "seat": seats[0]}, seats[0])
                    return core.publish(match)
                new = _create(core, match, owner)
                core.record_event(match, "rematch", {"match": new.id}, seats[0])
                core.publish(match)
                told = {"match": new.id, "from": match.id, "seats": turning}
                core.listener(match.id, "rematch", told)  # the room follows to the new match
                core.bus.publish(REMATCH, match.id, told)  # the accounts and ratings follow their players
            new_id = match.offers.rematch
        finally:
            core.sighted(match)
    new = core.load(new_id)
    mine = [turning[seat - 1] for seat in seats if turning[seat - 1] not in new.computer]
    return {"match": new_id, "seat": mine[0] if mine else None, "seats": sorted(mine), "token": token,
            "created": True}


def turned(match: Match) -> list[int]:
    """Each seat's number in the rematch, in seat order: turned by one, except on one screen where nothing
    changes."""
    seats = range(1, match.board.players + 1)
    return list(seats) if match.row.mode == "local" else [seat % match.board.players + 1 for seat in seats]


def _create(core: MatchCore, match: Match, owner=None) -> Match:
    game, mode, turning = games.get(match.row.game), match.row.mode, turned(match)
    computer = {turning[seat - 1]: level for seat, level in match.computer.items()}
    seats = sorted((SeatRow(seat=turning[s.seat - 1], kind="ai" if turning[s.seat - 1] in computer else "human",
                            token_hash=s.token_hash, name=s.name, claimed=s.claimed)
                    for s in match.row.seats), key=lambda s: s.seat)
    board = game.new(**match.row.options)
    new = seating.insert(core, game, board, mode, None, seats, computer, creator_started=True, owner=owner,
                         visibility=match.row.visibility, clock=match.row.meta.get("clock"))
    new.accounts = {turning[seat - 1] for seat in match.accounts}  # the same tokens hold them
    return new
