"""Moves: a player's move and the computer's, each one pass through the engine.

The move is applied as it is recorded (core.record): the engine's `push` validates and plays it at once, and a
move it refuses changes nothing. The STATE then asks the engine once more (legal moves, view).
"""
from __future__ import annotations

from games import IllegalMove

from ..errors import ServiceError
from ..i18n import _l
from .core import MatchCore
from .inputs import integer, move_text
from .match import CopyBehind, Match


def play(core: MatchCore, match_id, token, move, version=None) -> dict:
    """Play a move for the token's seat. With several processes (`checked`), a move that names the version this
    process holds is tried on the cached match without the revision check, a round trip saved on the hot path:
    if another process wrote meanwhile, storage's key refuses the write (stale-version, as it should); any other
    refusal is tried once more on a match caught up, lest a change made elsewhere (a seat claimed) refuse it
    wrongly."""
    move, version = move_text(move), integer(version, "version")
    if core.checked and version is not None:
        match = core.load(match_id, check=False)
        if match.version == version and match.revision >= 0:
            try:
                return _play(core, match, token, move, version)
            except CopyBehind:
                pass  # the match changed elsewhere without a move: try on a copy caught up, below
            except ServiceError as exc:
                if exc.error == "stale-version":
                    raise
    return _play(core, core.load(match_id), token, move, version)


def _play(core: MatchCore, match: Match, token, move: str, version) -> dict:
    with match.lock:
        seats = core.authorise(match, token)
        try:
            core.refuse_unless_live(match)
            if version is not None and version != match.version:
                raise ServiceError(409, "stale-version", _l("The match is at version %(current)d, not %(sent)d.",
                                                            current=match.version, sent=version),
                                   version=match.version)
            turn = match.board.turn
            if turn in match.computer:
                raise ServiceError(403, "not-your-turn", _l("It is %(name)s's turn: the computer plays it.",
                                                            name=match.name(turn)))
            if turn not in seats:
                raise ServiceError(403, "not-your-turn", _l("It is %(name)s's turn, not yours.", name=match.name(turn)))
            _record_move(core, match, move, turn, illegal=_refused)
            return core.publish(match)
        finally:
            core.sighted(match)


def _refused(exc: IllegalMove) -> ServiceError:
    # Some engines (Towers) keep the original's terse reason and add a longer explanation.
    detail = getattr(exc, "detail", None)
    return ServiceError(400, "illegal-move", exc.reason, **({"detail": detail} if detail else {}))


def _computer_erred(exc: IllegalMove) -> ServiceError:
    return ServiceError(500, "server-error", _l("The computer chose an illegal move: %(reason)s", reason=exc.reason))


def _record_move(core: MatchCore, match: Match, move: str, seat: int, illegal) -> None:
    try:
        core.record_event(match, "move", {"move": move}, seat)
    except IllegalMove as exc:
        raise illegal(exc)


def play_computer(core: MatchCore, match_id, version, seat, move) -> dict:
    """The computer's move, chosen by a worker for `version` (computer/pool.py)."""
    match = core.load(match_id)
    with match.lock:
        if match.version != version or match.board.turn != seat or seat not in match.computer or match.paused:
            raise ServiceError(409, "stale-version", _l("The position changed while the computer thought."))
        core.refuse_unless_live(match)
        _record_move(core, match, move, seat, illegal=_computer_erred)
        return core.publish(match)
