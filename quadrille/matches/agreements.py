"""Agreements: offers between the players carried out once everyone agrees (offers.py says who may offer what,
and when): a take-back goes back before the offering player's last move, a draw ends the game, a rematch is
rematches.py's. Declining is here too.

    offer(core, match_id, token, kind, owner)    # offering what another player offers accepts it
    accept(core, match_id, token, kind, owner)
    decline(core, match, seats, kind)            # a decider
"""
from __future__ import annotations

from . import rematches, takebacks
from .core import Decision, MatchCore, record
from .match import Match
from .offers import Situation


def offer(core: MatchCore, match_id, token, kind, owner=None) -> dict:
    """Offer a take-back, a draw or a rematch to the other players. Offering what another player offers accepts
    it. The answer is the STATE (a rematch's: as `rematches.rematch`)."""
    if kind == "rematch":
        return rematches.rematch(core, match_id, token, owner=owner)
    return core.command(match_id, token, _offer, kind)


def _offer(core: MatchCore, match: Match, seats: list[int], kind) -> Decision:
    if match.offers.others_offer(kind, seats):
        match.offers.check_answer(kind, seats, Situation.of(match))
    else:
        match.offers.check_offer(kind, seats, Situation.of(match))
    return _agree(match, kind, seats)


def accept(core: MatchCore, match_id, token, kind, owner=None) -> dict:
    """Accept another player's offer: when every player agrees, it is carried out."""
    if kind != "rematch":
        return core.command(match_id, token, _accept, kind)
    match = core.load(match_id)
    with match.lock:
        seats = core.authorise(match, token)
        try:
            match.offers.check_answer(kind, seats, Situation.of(match))
        finally:
            core.sighted(match)
    return rematches.rematch(core, match_id, token, owner=owner)


def _accept(core: MatchCore, match: Match, seats: list[int], kind) -> Decision:
    match.offers.check_answer(kind, seats, Situation.of(match))
    return _agree(match, kind, seats)


def _agree(match: Match, kind: str, seats: list[int]) -> Decision:
    """Join an in-game offer; carry it out once every player is in."""
    if not match.offers.agreed(kind, seats, match.humans()):
        return record("offer", {"offer": kind, "seat": seats[0]}, seats[0])
    if kind == "draw":
        agreed = sorted(match.offers.pending.get("draw", set()) | set(seats))
        return record("draw", {"seats": agreed}, seats[0])
    maker = match.offers.maker("takeback") or seats[0]
    return takebacks.rewind_to(match, takebacks.before_last_move_of(match, maker), offer="takeback")


def decline(core: MatchCore, match: Match, seats: list[int], kind="rematch") -> Decision:
    """Decline another player's offer; that side cannot offer it again (a take-back or a draw: until a move is
    made)."""
    match.offers.check_decline(kind, seats)
    return record("decline", {"offer": kind, "seat": seats[0]}, seats[0])
