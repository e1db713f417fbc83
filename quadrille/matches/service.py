"""The match service: what the doors (HTTP, Socket.IO) and the services beside it call, one method a command.

Every method hands its command to the match core (core.py: load, lock, authorise, record, publish once) and the
decider of its family, and holds no rule itself:

    seating.py         create, claim_seat, join_by_name, hand_over, start
    moves.py           play, the computer's move
    endings.py         resign, abort, claim_win, a flag, a clock credited
    takebacks.py       rewind, takeback
    agreements.py      offer, accept, decline (a draw, a take-back by consent)
    rematches.py       rematch
    computer_seats.py  hand_to_computer, reclaim_seat, pause, the workers' requests
    records.py         record, import and export, position

A match is its options plus an append-only list of events (events.py: the event table); the current board is
rebuilt by replaying them and cached. An event is written to storage before anyone is told it happened.
"""
from __future__ import annotations

import games

from ..errors import bad_request
from ..i18n import _l
from . import agreements, computer_seats, endings, moves, records, rematches, seating, summary, takebacks
from .core import MatchCore
from .inputs import integer
from .match import Match, begins_on_start

RECORD_FORMAT = records.RECORD_FORMAT


class MatchService(MatchCore):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.clocks.on_flag = self.check_flag

    # -- reading ---------------------------------------------------------------------------------------
    def state(self, match_id) -> dict:
        match = self.load(match_id)
        with match.lock:
            return self.state_of(match)

    def unannounced_state(self, match_id, check: bool = False) -> dict | None:
        """The match's STATE if this process never broadcast its current version (it was written by another
        process, which may have died before broadcasting it, or before this process started); else None. Each
        version is answered once. Asked just after a player's `watch`, whose STATE caught the cached match up
        with storage, the cached match serves as it is (a second check was a round trip for nothing); asked at
        any other time, `check` catches it up first."""
        match = self.load(match_id, check=check)
        with match.lock:
            if match.announced >= match.version:
                return None
            match.announced = match.version
            return self.state_of(match)

    def away(self, match_id) -> list[dict]:
        """For the presence announcements: who is away, as in the STATE. The cached match serves as it is (its
        seats are caught up at its next use): the announcement says who is connected, not a position, and a
        check per announcement was a round trip to the database for every arrival and departure."""
        match = self.load(match_id, check=False)
        with match.lock:
            return self.away_of(match)

    def seats_of(self, match_id, token, seen: bool = False) -> list[int]:
        """The seats a token holds; `seen`: the player acted over HTTP, so they count as present a while."""
        match = self.load(match_id)
        seats = match.seats_of(token)
        if seats and match.row.expires is not None:  # its player opened an import: it is kept (retention.py)
            match.row.expires = None
            self.storage.keep(match.id)
        if seen and seats:
            self.presence.seen(match_id, seats)
        return seats

    def recent(self, limit: int = 20) -> list[dict]:
        """The listed matches under way or waiting for a player (none that ended), newest first, with `moves`.
        `free_seats`: an open match's free seats while it may be joined (not a match its creator has started,
        such as Gamma's); 0 for every other match (a public match's seat needs its invite). From the matches'
        rows and summaries (summary.live), never a replay."""
        return summary.live(self, limit, begins_on_start)

    def position(self, match_id, ply) -> dict:
        return records.position(self, match_id, ply)

    def record(self, match_id) -> dict:
        return records.record(self, match_id)

    # -- seating -----------------------------------------------------------------------------------------
    def create(self, game_name, options=None, mode="online", seats=None, ai=None, name=None, player=None,
               moves=(), owner=None, visibility=None, token=None, clock=None, imported=False) -> dict:
        return seating.create(self, game_name, options, mode, seats, ai, name, player, moves, owner, visibility,
                              token, clock, imported)

    @staticmethod
    def offered_options(game: games.Game, options: dict) -> dict:
        return seating.offered_options(game, options)

    def claim_seat(self, match_id, seat=None, player=None, invite=None, token=None) -> dict:
        return seating.claim_seat(self, match_id, seat, player, invite, token=token)

    def join_by_name(self, name, game_name, options=None, player=None, clock=None) -> dict:
        return seating.join_by_name(self, name, game_name, options, player, clock)

    def hand_over(self, match_id, token, new_token_, name=None) -> list[int]:
        return seating.hand_over(self, match_id, token, new_token_, name)

    def start(self, match_id, token, computer_level=None, owner=None) -> dict:
        return self.command(match_id, token, seating.start, computer_level, owner)

    # -- moves and endings ---------------------------------------------------------------------------------
    def play(self, match_id, token, move, version=None) -> dict:
        return moves.play(self, match_id, token, move, version)

    def resign(self, match_id, token) -> dict:
        return self.command(match_id, token, endings.resign)

    def abort(self, match_id, token) -> dict:
        return self.command(match_id, token, endings.abort)

    def claim_win(self, match_id, token, result="win") -> dict:
        if result not in ("win", "draw"):
            raise bad_request(_l("result must be \"win\" or \"draw\"."))
        return self.command(match_id, token, endings.claim_win, result)

    def check_flag(self, match_id: str) -> None:
        endings.check_flag(self, match_id)

    def credit_clock(self, match_id: str, seconds: float) -> None:
        endings.credit_clock(self, match_id, seconds)

    # -- take-backs, agreements, rematches --------------------------------------------------------------------
    def rewind(self, match_id, token, to) -> dict:
        return self.command(match_id, token, takebacks.rewind, integer(to, "to", optional=False))

    def takeback(self, match_id, token) -> dict:
        return self.command(match_id, token, takebacks.takeback)

    def offer(self, match_id, token, kind, owner=None) -> dict:
        return agreements.offer(self, match_id, token, kind, owner)

    def accept(self, match_id, token, kind, owner=None) -> dict:
        return agreements.accept(self, match_id, token, kind, owner)

    def decline(self, match_id, token, kind="rematch") -> dict:
        return self.command(match_id, token, agreements.decline, kind)

    def rematch(self, match_id, token, owner=None) -> dict:
        return rematches.rematch(self, match_id, token, owner)

    # -- computer seats -----------------------------------------------------------------------------------
    def hand_to_computer(self, match_id, token, seat, level=1, owner=None) -> dict:
        seat = integer(seat, "seat", optional=False)
        return self.command(match_id, token, computer_seats.hand_to_computer, seat, level, owner)

    def reclaim_seat(self, match_id, token) -> dict:
        return self.command(match_id, token, computer_seats.reclaim_seat)

    def pause(self, match_id, token, paused) -> dict:
        if not isinstance(paused, bool):
            raise bad_request(_l("paused must be true or false."))
        return self.command(match_id, token, computer_seats.pause, paused)

    def computer_request(self, match_id, version) -> dict | None:
        return computer_seats.request(self, match_id, version)

    def play_computer(self, match_id, version, seat, move) -> dict:
        return moves.play_computer(self, match_id, version, seat, move)

    def wake_computer(self, match_id) -> None:
        computer_seats.wake(self, match_id)

    def resume_computers(self, match_ids) -> None:
        computer_seats.resume(self, match_ids)

    # -- records ----------------------------------------------------------------------------------------------
    def import_record(self, record, mode="local", player=None) -> dict:
        return records.import_record(self, record, mode, player)

    def import_file(self, extension, text, mode="local", player=None) -> dict:
        return records.import_file(self, extension, text, mode, player)

    def export_file(self, match_id, extension) -> str:
        return records.export_file(self, match_id, extension)


__all__ = ["Match", "MatchService", "RECORD_FORMAT"]
