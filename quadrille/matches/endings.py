"""Endings decided by a player or by time: resigning, aborting, claiming a win (or a draw) against a player who
left, and the flag that falls when a clock runs out. (A game ended by its rules ends with the move; an agreed
draw is agreements.py's.)

    resign(core, match, seats)              # deciders, run by core.command
    abort(core, match, seats)
    claim_win(core, match, seats, result)   # not claim_seat (seating.py): the game won against an absent player
    check_flag(core, match_id)              # a flag's timer fired
    credit_clock(core, match_id, seconds)   # a server's downtime given back to the clock that ran
"""
from __future__ import annotations

import logging

import games

from ..errors import ServiceError
from ..i18n import _l
from . import resigning
from .core import UNCHANGED, Decision, MatchCore, record
from .match import Match
from .state import is_abortable

log = logging.getLogger("quadrille")


def resign(core: MatchCore, match: Match, seats: list[int]) -> Decision:
    core.refuse_unless_live(match)
    refused = resigning.refusal(match)
    if refused:
        raise ServiceError(403, "not-allowed", refused)
    return record("resign", {"seat": seats[0], "winners": resigning.winners(match, seats[0])}, seats[0])


def abort(core: MatchCore, match: Match, seats: list[int]) -> Decision:
    """A player aborts an online game before every player has moved in it (a waiting match included): it ends
    with no result. Elsewhere a new game is the way out."""
    if match.row.mode != "online":
        raise ServiceError(403, "not-allowed", _l("On one screen or against the computer, start a new game instead "
                                                  "of aborting."))
    if match.outcome() is not None:
        raise ServiceError(409, "game-over", _l("The game is over."))
    if not is_abortable(match):
        raise ServiceError(403, "not-allowed", _l("Every player has moved: the game can no longer be aborted. Resign "
                                                  "instead.")
                           if match.board.players == 2 else
                           _l("Every player has moved: the game can no longer be aborted."))
    return record("abort", {"seat": seats[0]}, seats[0])


def claim_win(core: MatchCore, match: Match, seats: list[int], result: str) -> Decision:
    """After the disconnect timeout, the player still here ends a two-player online game: `win` claims victory,
    `draw` calls it a draw (in a game that has draws). Claiming the same again gives the same result and records
    nothing (the decision is idempotent). (The caller checked `result`.)"""
    if _same_claim(match, seats, result):
        return UNCHANGED
    core.refuse_unless_live(match)
    if match.row.mode != "online":
        raise ServiceError(403, "not-allowed", _l("Claims are for online games."))
    if match.board.players != 2:
        raise ServiceError(403, "not-allowed", _l("With more than two players, hand an absent player's seat to the "
                                                  "computer instead."))
    if result == "draw" and not games.get(match.row.game).draws:
        raise ServiceError(403, "not-allowed", _l("%(title)s has no draws.", title=games.get(match.row.game).title))
    # The other players' seats whose absence allows a claim now (absence.py); a clear refusal otherwise.
    away = core.absence.claimable_against(match, seats, core.away_of(match, fresh=True))
    return record("timeout", {"seat": seats[0], "away": away, "result": result}, seats[0])


def _same_claim(match: Match, seats: list[int], result: str) -> bool:
    done = match.result
    return (done is not None and done.get("reason") == "abandoned"
            and (done["winners"] == [seats[0]] if result == "win" else done["winners"] == [])
            and not set(done.get("abandoned", [])) & set(seats))


def check_flag(core: MatchCore, match_id: str) -> None:
    """A flag's timer fired (in this process only, with RedisTimers): if the seat to move is out of time, the
    flag falls; otherwise (a move came in time) the timer is set again for the clock that runs now."""
    try:
        match = core.load(match_id)
    except ServiceError:
        return
    with match.lock:
        if match.clock is None:
            return
        if core.clocks.out_of_time(match):
            try:
                core.flag(match)
            except ServiceError as exc:  # another process recorded it (or something else) first
                log.info("match %s: the flag was not recorded here (%s)", match_id, exc.error)
        else:
            core.clocks.arm(match)


def credit_clock(core: MatchCore, match_id: str, seconds: float) -> None:
    """The server was down `seconds`: the clock that ran is not charged for them (an event `clock`)."""
    match = core.load(match_id)
    with match.lock:
        if match.clock is not None and core.clocks.snapshot(match, "clock") is not None:
            core.record_event(match, "clock", {"credit": round(seconds, 3)}, None, credit=seconds)
            core.publish(match)
