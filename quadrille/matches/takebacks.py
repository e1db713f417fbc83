"""Take-backs: moves taken back, on one screen (a rewind to any point, the last move undone) and online (one's
own last action while it is still one's turn, or by the opponent's consent: agreements.py). Not a seat taken
back from the computer: that is computer_seats.reclaim_seat.

    rewind(core, match, seats, to)      # deciders, run by core.command
    takeback(core, match, seats)
"""
from __future__ import annotations

from ..errors import ServiceError, bad_request
from ..i18n import _l
from .core import Decision, MatchCore, record
from .match import Match


def rewind(core: MatchCore, match: Match, seats: list[int], to: int) -> Decision:
    """Go back to the position after `to` moves and continue from there (local games)."""
    if match.row.mode == "online":
        raise ServiceError(403, "not-allowed", _l("Rewinds are for local games."))
    return rewind_to(match, to)


def takeback(core: MatchCore, match: Match, seats: list[int]) -> Decision:
    """Take back the last move. Online, only one's own, and only while it is still one's turn (in a game of
    several actions per turn, such as Towers: undo within the turn)."""
    plies = len(match.board.moves)
    if match.row.mode == "online" and plies:
        mover = match.move_seats[-1]
        if match.outcome() is not None or mover not in seats or match.board.turn != mover:
            raise ServiceError(403, "not-allowed",
                               _l("Online, you can take back only your own actions, while it is still your turn."))
    earlier = [p for p in rewind_points(match.board) if p < plies]
    if match.computer:
        # Against the computer, take back its reply too: back to before the last human move.
        human = [i for i in earlier if match.move_seats[i] not in match.computer]
        if not human:
            raise bad_request(_l("There is no move of yours to take back."), "bad-rewind")
        earlier = human
    return rewind_to(match, earlier[-1] if earlier else plies - 1)


def rewind_points(board) -> list[int]:
    """The move counts a rewind may stop at. An engine whose turns span several moves that must not be split
    (Lattice's move and its return) offers turn_boundaries(); elsewhere every count is fine."""
    boundaries = getattr(board, "turn_boundaries", None)
    return list(boundaries()) if boundaries else list(range(len(board.moves) + 1))


def before_last_move_of(match: Match, seat: int) -> int:
    """Where a take-back of `seat`'s last move goes: before it, at a point where a rewind may stop."""
    last = max(i for i, mover in enumerate(match.move_seats) if mover == seat)
    return max(p for p in rewind_points(match.board) if p <= last)


def rewind_to(match: Match, to: int, offer: str | None = None) -> Decision:
    plies = len(match.board.moves)
    if not 0 <= to < plies:
        raise bad_request(_l("to must be from 0 to %(last)d.", last=plies - 1) if plies
                          else _l("There is no move to take back."),
                          "bad-rewind")
    if to not in rewind_points(match.board):
        raise bad_request(_l("A rewind stops only between complete turns."), "bad-rewind")
    return record("rewind", {"to": to, **({"offer": offer} if offer else {})}, None)
