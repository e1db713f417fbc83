"""The match service: seats, tokens, versions and history, one lock per match.

Both doors (HTTP and Socket.IO) call this service and nothing else, so they can
never disagree. A match is its options plus an append-only list of events
(moves and match decisions such as rewinds and resignations); the current
board is rebuilt by replaying them and cached. An event is written to storage
before anyone is told it happened.
"""
from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

import games
from games import IllegalMove

from ..clocks import Clocks, ClockState
from ..catalog import level_name
from ..errors import ServiceError, bad_request, not_found
from ..infra.presence import Presence
from .store import Conflict, EventRow, MatchRow, RevisionMoved, SeatRow, Storage
from ..infra.tokens import hash_token, new_token, seats_held
from .. import names
from . import holders, invites, resigning, summary
from .checkpoint import Checkpoint
from .offers import Offers, Situation
from .pacing import Pacer
from .cache import MatchCache
from .positions import Positions
from .absence import Absence
from .timeouts import DisconnectTimeouts

MODES = ("online", "local", "ai")
RECORD_FORMAT = "quadrille-record"
log = logging.getLogger("quadrille")

MAX_MOVE_LENGTH = 200
MAX_NAME_LENGTH = 40
EXTRA_EVENTS = 400  # beyond 4 events a move: the decisions of a long life (offers, hand-overs, a rematch)


class CopyBehind(ServiceError):
    """A write refused because this process's copy of the match is behind a change made elsewhere without an
    event (a seat handed over, a pause): to a client, a `stale-version` like any other."""


@dataclass
class Match:
    """A match as the service holds it in memory: its row, its board, its version."""

    row: MatchRow
    board: games.Board
    version: int = 0
    result: dict | None = None       # a match decision that ended it (resignation, abort, agreed draw, timeout)
    started: bool = True             # false while a game of several seats waits for its creator's start
    waits_for_seats: bool = False    # an online game of a fixed number of seats begins when every one is taken
    began_at: float = 0.0            # when it began (the service's clock; a match loaded later: its loading)
    move_seats: list = field(default_factory=list)  # the seat that played each move of the current line
    computer: dict = field(default_factory=dict)    # seat -> level, for the seats the computer plays
    paused: bool = False                            # the computer waits (a demo's P key)
    votes: dict = field(default_factory=dict)       # seat -> {voter seat: when}, to hand it to the computer
    offers: Offers = field(default_factory=Offers)  # offers between the players (a rematch)
    revision: int = 0                               # storage's count of writes to the match, as this copy knows it
    clock: ClockState | None = None                 # its clocks, if it has a time control (quadrille/clocks/)
    announced: int = -1                             # the last version this process broadcast (or created)
    accounts: set = field(default_factory=set)      # the seats accounts hold (holders.py), marked in the STATE
    line: int = 0                                   # the current line: the event that last rewound or reset it
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def id(self) -> str:
        return self.row.id

    def seats_of(self, token) -> list[int]:
        """The seats a token holds (every seat for a local match's token)."""
        return seats_held(token, ((s.seat, s.token_hash) for s in self.row.seats))

    @cached_property
    def move_limit(self) -> int:
        """The most moves a real game of these options takes (the engine's `move_limit`): a match that
        reaches it ends in a draw, so that no match can grow without end (gamma's skip is always legal)."""
        return games.get(self.row.game).move_limit(self.row.options)

    @property
    def event_limit(self) -> int:
        """The most events a match may hold: its moves, plus room for take-backs, rewinds and decisions."""
        return 4 * self.move_limit + EXTRA_EVENTS

    def outcome(self) -> dict | None:
        if self.result is not None:
            return self.result
        outcome = self.board.outcome()
        if outcome:
            return outcome.to_dict()
        if len(self.move_seats) >= self.move_limit:
            return {"winners": [], "scores": [], "reason": "move-limit"}
        return None

    def begun(self) -> bool:
        """Whether the game is under way (or over): its creator started it, and, for a game of a fixed number
        of seats played online, every seat is taken. A match of a release before this rule that was already
        played counts as begun."""
        if not self.started:
            return False
        if not self.waits_for_seats or self.move_seats:
            return True
        return all(s.token_hash is not None or s.seat in self.computer for s in self.row.seats)

    @cached_property
    def seat_names(self) -> list[str]:
        """What players call each seat ("Blue", "Red"): every message names seats so."""
        names = games.get(self.row.game).seat_names(self.row.options)
        return names[:len(self.row.seats)] + [f"Player {s.seat}" for s in self.row.seats[len(names):]]

    def name(self, seat: int) -> str:
        names = self.seat_names
        return names[seat - 1] if 1 <= seat <= len(names) else f"Player {seat}"

    def turn(self) -> int | None:
        return None if not self.begun() or self.outcome() is not None else self.board.turn

    def computer_to_move(self) -> bool:
        return not self.paused and self.turn() in self.computer

    def humans(self) -> list[int]:
        """The seats people hold (claimed, and not played by the computer)."""
        return [s.seat for s in self.row.seats if s.token_hash is not None and s.seat not in self.computer]


def _needs_start(game: games.Game, mode: str) -> bool:
    """Online matches of games with a variable number of seats wait for their creator's start."""
    return mode == "online" and game.seats[0] != game.seats[1]


def _waits_for_seats(game: games.Game, mode: str) -> bool:
    """Online matches of games with a fixed number of seats begin when the last seat is taken: nobody moves
    against an empty chair."""
    return mode == "online" and game.seats[0] == game.seats[1]


def _clean_name(name, what: str = "name") -> str | None:
    if name is None or name == "":
        return None
    if not isinstance(name, str):
        raise bad_request(f"The {what} must be text.")
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME_LENGTH or not name.isprintable():
        raise bad_request(f"The {what} must be 1 to {MAX_NAME_LENGTH} printable characters.")
    return name


def _int(value, what: str, optional: bool = True) -> int | None:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_request(f"{what} must be an integer.")
    return value


class MatchService:
    def __init__(self, storage: Storage, listener: Callable[[str, str, dict], None] | None = None,
                 cache: MatchCache | None = None, presence: Presence | None = None, vote_ttl: float = 120.0,
                 clock: Callable[[], float] = time.monotonic, disconnect_timeout: float = 60.0,
                 spawn: Callable | None = None, sleep: Callable[[float], None] | None = None,
                 timers=None, checked: bool = False, clocks: Clocks | None = None, realtime_absence: float = 40.0):
        """`clock`: the same clock as presence's (monotonic seconds in one process, wall-clock seconds when
        several share presence); `spawn`, `sleep`: Flask-SocketIO's start_background_task and sleep, for the
        disconnect timer (without them the timer fires only when told: `timeouts.fire_due()`, as tests do);
        `timers`: infra/timers.py's (default: in memory). `checked`: other processes write to the same
        storage, so a cached match is checked against storage's revision before each use (and catches up).
        `clocks`: the clocks service (quadrille/clocks/; default: wall-clock time, its timers in memory).
        `realtime_absence`: the grace before a claim against an absent player in a bullet or blitz game (absence.py)."""
        self.computer = None  # set by the app: a ComputerPlayers that plays the computer's seats
        self.import_retention = None  # seconds an unopened anonymous import is kept (retention.py); None: for ever
        self.name_idle = None  # seconds after which an idle match's name is free again (join_by_name); None: never
        self.presence = presence or Presence(clock=clock)
        self.vote_ttl = vote_ttl
        self.clock = clock
        self._pacer = lambda: Pacer(sleep)  # a long replay (an import, a match loaded) lets the others be served
        self.checked = checked
        self.timeouts = DisconnectTimeouts(self.presence, disconnect_timeout, clock, spawn, sleep,
                                           on_due=self._announce_away, timers=timers)
        self.absence = Absence(self.timeouts, realtime_absence)  # what being away allows, by time control
        self.storage = storage
        self.clocks = clocks if clocks is not None else Clocks(storage, spawn=spawn, sleep=sleep)
        self.clocks.on_flag = self._check_flag
        self.listener = listener or (lambda match_id, event, payload: None)
        self._cache = cache if cache is not None else MatchCache()
        self.positions = Positions(pacer=self._pacer)  # boards along each line: stepping through replays little
        self._cache_lock = threading.Lock()
        self._name_lock = threading.Lock()
        # Whether a guest's seat name looks like an account's (names.py): the factory's, on the accounts' table
        self.looks_like_account: Callable[[str], bool] | None = None
        self.state_extras: Callable[[Match], dict] = lambda match: {}  # the factory's: what a STATE adds

    # -- loading --------------------------------------------------------------
    def _get(self, match_id, check: bool = True) -> Match:
        """The match, from the cache or storage. `check=False`: a cached match is used as it is, unchecked
        (play's first attempt, whose write storage guards; see play)."""
        if not isinstance(match_id, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", match_id):
            raise not_found()
        with self._cache_lock:
            match = self._cache.get(match_id)
        if match is None:
            # Read and replayed outside the cache's lock: holding it over a round trip to the database made every
            # other match wait, and a process just (re)started, whose every match is a miss while its clients
            # reconnect at once, took seconds to answer them.
            row = self.storage.load_match(match_id)
            if row is None:
                raise not_found()
            loaded = self._replay(row)
            with self._cache_lock:
                match = self._cache.get(match_id)  # another request may have loaded it meanwhile: theirs stands
                if match is None:
                    self._cache.put(match_id, loaded)
                    return loaded
        return self._fresh(match) if self.checked and check else match

    def _fresh(self, match: Match) -> Match:
        """A cached match, caught up with what other processes wrote: one statement reads its revision, pause
        and any events after the ones held (storage.since); the seats are read again only when the revision
        moved by more than those events (a seat claimed or handed over elsewhere)."""
        with match.lock:
            found = self.storage.since(match.id, match.version)
            if found is None:
                raise not_found()
            revision, paused, events = found
            if revision == match.revision:
                return match
            if not events or events[0].seq == match.version + 1:
                try:
                    begun = match.begun()
                    for event in events:
                        self._apply(match, event)
                        match.version = event.seq
                        match.row.events.append(event)
                    if match.revision < 0 or revision - match.revision != len(events):
                        match.row.seats = [s for s in self.storage.seats(match.id) if s.seat <= match.board.players]
                        match.accounts = holders.load(self.storage, match.id)
                    match.paused, match.revision = paused, revision
                    if not begun and match.begun():
                        match.began_at = self._began(match.row)
                    return match
                except Exception:  # pragma: no cover - a log this copy cannot follow: read it whole below
                    log.exception("match %s could not catch up; reading it whole", match.id)
        row = self.storage.load_match(match.id)
        if row is None:
            raise not_found()
        fresh = self._replay(row)
        with self._cache_lock:
            self._cache.put(match.id, fresh)
        return fresh

    def forget(self, match_ids) -> None:
        """Matches deleted from storage (retention.py): out of this process's memory too."""
        with self._cache_lock:
            for match_id in match_ids:
                self._cache.pop(match_id, None)
        for match_id in match_ids:
            self.positions.forget(match_id)

    def _began(self, row: MatchRow) -> float:
        """When a match loaded from storage began, on the service's clock: the stored time (the last seat's
        claim, its start, or its creation) where the clock is wall-clock time, shared by processes; a
        monotonic clock (one process) cannot read stored times, and counts from now, the loading."""
        stored = max([row.created] + [s.claimed for s in row.seats if s.claimed]
                     + [e.at for e in row.events if e.kind == "start"])
        return min(self.clock(), stored)

    def _replay(self, row: MatchRow) -> Match:
        game = games.get(row.game)
        match = Match(row=row, board=game.new(**row.options), started=not _needs_start(game, row.mode),
                      waits_for_seats=_waits_for_seats(game, row.mode), began_at=self._began(row),
                      computer={int(seat): level for seat, level in row.meta.get("computer", {}).items()},
                      paused=row.paused, revision=row.revision,
                      clock=self.clocks.new_state(row.meta.get("clock"), len(row.seats)),
                      accounts=holders.load(self.storage, row.id))
        pace = self._pacer()
        for event in row.events:
            self._apply(match, event)
            match.version = event.seq
            pace()
        match.began_at = self._began(row)  # the events' own times were the service's clock's while replaying
        return match

    def _apply(self, match: Match, event: EventRow) -> None:
        """Apply one stored event to the in-memory match (used for replay and for new events)."""
        kind, data = event.kind, event.data
        turn_before = match.turn() if match.clock is not None else None
        if kind == "move":
            match.board.push(data["move"])
            match.move_seats.append(event.seat)
            match.offers.moved(event.seat)
        elif kind == "rewind":
            while len(match.board.moves) > data["to"]:
                match.board.pop()
            del match.move_seats[data["to"]:]
            match.result, match.line = None, event.seq
            match.offers.rewound()
        elif kind == "resign":
            winners = resigning.recorded_winners(data, match.board.players)
            match.result = {"winners": winners, "scores": self._scores(match),
                            "reason": "resigned", "resigned": data["seat"]}
        elif kind == "abort":
            match.result = {"winners": [], "scores": self._scores(match), "reason": "aborted", "aborted": data["seat"]}
        elif kind == "draw":
            match.result = {"winners": [], "scores": self._scores(match), "reason": "agreed"}
        elif kind == "timeout":
            winners = [data["seat"]] if data["result"] == "win" else []
            match.result = {"winners": winners, "scores": self._scores(match), "reason": "abandoned",
                            "abandoned": data["away"]}
        elif kind == "start":
            options = dict(match.row.options, **data.get("options", {}))
            if options != match.row.options:
                match.row.options = options
                match.__dict__.pop("move_limit", None)  # the limit follows the options
                match.board, match.line = games.get(match.row.game).new(**options), event.seq
            match.row.seats = [s for s in match.row.seats if s.seat <= match.board.players]
            match.__dict__.pop("seat_names", None)
            match.began_at = min(self.clock(), event.at)  # (a monotonic clock cannot read a stored time)
            match.computer.update({int(seat): level for seat, level in data.get("computer", {}).items()})
            match.started = True
        elif kind == "computer":
            match.computer[data["seat"]] = data["level"]
        elif kind == "human":
            match.computer.pop(data["seat"], None)
        elif kind in ("offer", "decline", "rematch"):
            match.offers.apply(kind, data)
        elif kind == "flag":  # a player's time ran out (quadrille/clocks/results.py says who wins)
            match.offers.ended()
            match.result = self.clocks.flag_result(match, data["seat"])
        elif kind == "clock":  # the clocks credited with a server's downtime: only the snapshot counts
            pass
        else:  # pragma: no cover - storage only ever holds the kinds above
            raise ValueError(f"unknown event kind {kind!r}")
        if match.clock is not None:
            if kind == "start":
                match.clock = self.clocks.new_state(match.clock.control.to_dict(), match.board.players)
            self.clocks.applied(match, event, turn_before)

    @staticmethod
    def _scores(match: Match) -> list:
        """The engine's scores of a game ended by a decision, when its rules have scores at that point. (Every
        decision that ends a game calls this: its pending in-game offers end with it.)"""
        match.offers.ended()
        outcome = match.board.outcome()
        return list(outcome.scores) if outcome else []

    def _record_event(self, match: Match, kind: str, data: dict, seat: int | None, credit: float = 0.0) -> EventRow:
        """Write an event (the caller holds match.lock and has validated it), then apply it. While the match's
        clocks run, the event carries their snapshot (`credit`: seconds of a server's downtime not charged)."""
        if match.version >= match.event_limit:
            raise ServiceError(409, "match-full", "This match holds as many moves and decisions as a match may; "
                                                  "export it and import the record to go on.")
        snapshot = self.clocks.snapshot(match, kind, credit) if match.clock is not None else None
        if snapshot is not None:
            data = {**data, "clock": snapshot}
        event = EventRow(seq=match.version + 1, kind=kind, data=data, seat=seat, at=time.time())
        # With several processes the write is guarded by the revision this copy holds: a seat handed over through
        # another process moves the revision without an event, and a copy from before it must not let the
        # retired token play (play then tries again on a copy caught up).
        guard = match.revision if self.checked and match.revision >= 0 else None
        # Applied first, so that the write carries what lists show after it (summary.py); put back if it fails.
        saved = Checkpoint(match, kind)
        try:
            self._apply(match, event)
            self.storage.append_event(match.id, event, revision=guard, summary=summary.summarise(match, event.seq))
        except RevisionMoved:
            saved.restore(match)
            match.revision = -1
            raise CopyBehind(409, "stale-version", "The match changed meanwhile; reload and try again.")
        except Conflict:
            saved.restore(match)
            # Another process or a stale cache entry wrote first: catch up (checked) or reload, and let the
            # client retry.
            if self.checked:
                match.revision = -1
            else:
                with self._cache_lock:
                    self._cache.pop(match.id, None)
            raise ServiceError(409, "stale-version", "The match changed meanwhile; reload and try again.")
        except BaseException:
            saved.restore(match)
            raise
        match.revision += 1
        match.version = event.seq
        match.row.events.append(event)
        if match.clock is not None:
            self.clocks.arm(match)
        return event

    # -- reading --------------------------------------------------------------
    def state(self, match_id) -> dict:
        match = self._get(match_id)
        with match.lock:
            return self._state(match)

    def _state(self, match: Match) -> dict:
        board = match.board
        turn = match.turn()
        game = games.get(match.row.game)
        return {
            "match": match.id, "game": match.row.game,
            "title": games.get(match.row.game).title,
            "options": dict(match.row.options),
            "mode": match.row.mode,
            "name": match.row.name, "version": match.version,
            "turn": turn,
            "legal": board.legal_moves() if turn is not None else [],
            "view": board.view(),
            "moves": list(board.moves),
            "move_names": game.move_names(board),  # the same words for every viewer (games/notation.py)
            "movers": list(match.move_seats),
            "outcome": match.outcome(),
            "started": match.begun(),
            "creator_starts": _needs_start(game, match.row.mode),
            "players": board.players,
            "seats": [self._seat_entry(match, s) for s in match.row.seats],
            "seat_names": list(match.seat_names),
            "draws": game.draws,
            "visibility": match.row.visibility,
            "paused": match.paused,
            "offers": match.offers.to_dict(),
            "declined": match.offers.declined_dict(),
            "abortable": self._abortable(match),
            "resignable": resigning.resignable(match, self._abortable(match)),
            "away": self._away(match),
            "disconnect_timeout": self.timeouts.timeout,
            "rematch": match.offers.rematch,
            "clock": self.clocks.view(match),
            **self.state_extras(match),  # fields other services add (the ratings: ratings/match_ratings.py)
        }

    # -- who is away, and the disconnect timeout -------------------------------------------------------
    def _away(self, match: Match, fresh: bool = False) -> list[dict]:
        """The people's seats whose player left a game under way online (never a computer's seat). `fresh`:
        for a decision (a claim), from presence's own view of now."""
        if match.row.mode != "online" or not match.begun() or match.outcome() is not None:
            return []
        return self.absence.away(match, fresh=fresh)

    def unannounced_state(self, match_id, check: bool = False) -> dict | None:
        """The match's STATE if this process never broadcast its current version (it was written by another
        process, which may have died before broadcasting it, or before this process started); else None. Each
        version is answered once. Asked just after a player's `watch`, whose STATE caught the cached match up
        with storage, the cached match serves as it is (a second check was a round trip for nothing); asked at
        any other time, `check` catches it up first."""
        match = self._get(match_id, check=check)
        with match.lock:
            if match.announced >= match.version:
                return None
            match.announced = match.version
            return self._state(match)

    def away(self, match_id) -> list[dict]:
        """For the presence announcements: who is away, as in the STATE. The cached match serves as it is (its
        seats are caught up at its next use): the announcement says who is connected, not a position, and a
        check per announcement was a round trip to the database for every arrival and departure."""
        match = self._get(match_id, check=False)
        with match.lock:
            return self._away(match)

    def _announce_away(self, match_id: str) -> None:
        """The timer: an away player's timeout passed, so the room hears that a claim is possible."""
        try:
            match = self._get(match_id)
        except ServiceError:
            return
        with match.lock:
            self.listener(match.id, "state", self._state(match))

    @staticmethod
    def _abortable(match: Match) -> bool:
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

    @staticmethod
    def _seat_entry(match: Match, s: SeatRow) -> dict:
        if s.seat in match.computer:
            level = match.computer[s.seat]
            return {"seat": s.seat, "taken": True, "name": "ai", "kind": "ai", "level": level,
                    "level_name": level_name(level)}  # the new-game dialog's words: catalog.py
        return {"seat": s.seat, "taken": s.token_hash is not None, "name": s.name, "kind": "human",
                "account": s.seat in match.accounts}

    def summary_now(self, match_id) -> tuple[str, int]:
        """The match's summary (summary.py) and revision, for a match stored without one: from its cached copy,
        or replayed once without taking a place in the cache (the start-up's backfill meets every old match)."""
        with self._cache_lock:
            cached = self._cache.peek(match_id) is not None
        if cached:
            match = self._get(match_id)  # (caught up with storage first, with several processes)
        else:
            row = self.storage.load_match(match_id) if isinstance(match_id, str) else None
            if row is None:
                raise not_found()
            match = self._replay(row)
        with match.lock:
            return summary.summarise(match, match.version), match.revision

    def seats_of(self, match_id, token, seen: bool = False) -> list[int]:
        """The seats a token holds; `seen`: the player acted over HTTP, so they count as present a while."""
        match = self._get(match_id)
        seats = match.seats_of(token)
        if seats and match.row.expires is not None:  # its player opened an import: it is kept (retention.py)
            match.row.expires = None
            self.storage.keep(match.id)
        if seen and seats:
            self.presence.seen(match_id, seats)
        return seats

    def position(self, match_id, ply) -> dict:
        """The position after `ply` moves of the current line: for stepping through a game (positions.py: from
        the nearest board kept along the line, never a replay from the start)."""
        match = self._get(match_id)
        ply = _int(ply, "ply", optional=False)
        with match.lock:
            moves = list(match.board.moves)
            options, line = dict(match.row.options), (match.id, match.line)
        if not 0 <= ply <= len(moves):
            raise bad_request(f"ply must be from 0 to {len(moves)}.")
        board = self.positions.board_at(line, match.row.game, options, moves, ply)
        return {"match": match.id, "ply": ply, "plies": len(moves), "view": board.view(),
                "turn": board.turn, "moves": moves[:ply]}

    def record(self, match_id) -> dict:
        match = self._get(match_id)
        with match.lock:
            row = match.row
            return {
                "format": RECORD_FORMAT, "format_version": 1,
                "match": row.id, "game": row.game, "options": dict(row.options), "mode": row.mode,
                "name": row.name, "created": row.created,
                "moves": list(match.board.moves), "outcome": match.outcome(), "version": match.version,
                "seats": [{k: v for k, v in self._seat_entry(match, s).items() if k != "taken"}
                          for s in row.seats],
                "events": [{"seq": e.seq, "kind": e.kind, "seat": e.seat, "at": e.at, **e.data}
                           for e in row.events],
            }

    def recent(self, limit: int = 20) -> list[dict]:
        """The listed matches under way or waiting for a player (none that ended), newest first, with `moves`.
        `free_seats`: an open match's free seats while it may be joined (not a match its creator has started,
        such as Gamma's); 0 for every other match (a public match's seat needs its invite). From the matches'
        rows and summaries (summary.live), never a replay."""
        return summary.live(self, limit, _needs_start)

    # -- creating and joining -------------------------------------------------
    def create(self, game_name, options=None, mode="online", seats=None, ai=None, name=None,
               player=None, moves=(), owner=None, visibility=None, token=None, clock=None, imported=False) -> dict:
        """A new match; the creator holds `seats` (default [1]; every seat when local). `owner`: the
        creator's address, counted against its cap of matches against the computer. `visibility`: private
        (default), public or open (invites.py); an online match's answer carries `invite_secret`, the secret
        that lets a friend take a free seat. `token`: the token to hold the seats with (an account's seat key,
        see accounts/), else a new one. `clock`: its time control (clocks/control.py: None,
        {"kind": "realtime", "minutes", "increment"} or {"kind": "correspondence", "days"}). `imported`: an
        anonymous import, deleted after `import_retention` seconds unless someone opens it (retention.py)."""
        game = self._game(game_name)
        if options is not None and not isinstance(options, dict):
            raise bad_request("options must be an object.", "bad-options")
        if mode not in MODES:
            raise bad_request("mode must be one of: " + ", ".join(MODES) + ".", "bad-mode")
        control = self.clocks.parse(clock, mode)
        visibility = invites.visibility_for(visibility, mode)
        try:
            board = game.new(**self._within_form(game, options or {}))
        except ValueError as exc:
            raise bad_request(str(exc), "bad-options")
        by_account = token is not None  # only an account's seat key is given here (holders.py)
        player = names.seat_name(player, None if by_account else self.looks_like_account)
        name = _clean_name(name, "match name")
        computer = self._computer_seats(game.name, ai, board.players) if mode == "ai" else {}
        held = self._creator_seats(seats, board.players, mode, computer)
        limit = game.move_limit(board.options)
        if len(moves) > limit:
            raise bad_request(f"This record has {len(moves)} moves; a game of {game.title} with these options "
                              f"lasts at most {limit}.", "bad-record")
        pace = self._pacer()
        for i, move in enumerate(moves):
            try:
                board.push(move)
            except IllegalMove as exc:
                raise bad_request(f"Move {i + 1} ({move!r}) is illegal: {exc.reason}", "bad-record")
            pace()
        if moves and _needs_start(game, mode):
            raise bad_request("An imported record continues as a local match for this game.", "bad-mode")

        token, now = token or new_token(), time.time()
        seat_rows = [SeatRow(seat=seat, kind="ai" if seat in computer else "human",
                             token_hash=hash_token(token) if seat in held else None,
                             name=(player or f"Player {seat}") if seat in held else None,
                             claimed=now if seat in held else None)
                     for seat in range(1, board.players + 1)]
        secret, invite_hash = invites.new_invite()
        expires = now + self.import_retention if imported and self.import_retention else None
        match = self._insert(game, board, mode, name.lower() if name else None, seat_rows, computer, owner=owner,
                             visibility=visibility, invite_hash=invite_hash,
                             clock=control.to_dict() if control else None, expires=expires)
        mine = [s for s in held if s not in computer]
        if by_account:
            match.accounts.update(mine)
        self.presence.seen(match.id, mine)  # creating a match is its creator's first act there
        created = {"match": match.id, "seat": mine[0] if mine else None, "seats": mine, "token": token,
                   "created": True, "visibility": visibility}
        if mode == "online":
            created["invite_secret"] = secret
        return created

    def _insert(self, game: games.Game, board, mode: str, name: str | None, seats: list[SeatRow],
                computer: dict, started: bool | None = None, owner=None, visibility: str = "private",
                invite_hash: str | None = None, clock: dict | None = None, expires: float | None = None) -> Match:
        """Store a new match whose seats are already decided, cache it, and let the computer start.
        `started`: a match that would wait for its creator's start may begin at once (a rematch).
        `owner`: the creator's address, counted against its cap of matches against the computer.
        `invite_hash`: the hash of the secret that takes a free seat (every new match has one, even without
        free seats, so that only a match of an earlier release goes without: see invites.py). `clock`: its
        time control, checked (kept in `meta`, with the match, in one write)."""
        now = time.time()
        meta = {"invite": invite_hash or invites.new_invite()[1]}
        if clock:
            meta["clock"] = clock
        if computer:
            meta["computer"] = {str(seat): level for seat, level in computer.items()}
        row = MatchRow(id=secrets.token_urlsafe(6), game=game.name, options=dict(board.options), mode=mode,
                       name=name, created=now, seats=seats, meta=meta, visibility=visibility)
        if computer:
            self._admit_computer(row.id, owner)
        row.events, pace = [], self._pacer()
        for i, move in enumerate(board.moves):  # an import's moves: the others are served meanwhile
            row.events.append(EventRow(seq=i + 1, kind="move", data={"move": move}, seat=None, at=now))
            pace()
        waits = _needs_start(game, mode)
        if waits and started:
            row.events.append(EventRow(seq=len(row.events) + 1, kind="start", data={"options": {}}, seat=1, at=now))
        match = Match(row=row, board=board, version=len(row.events), started=not waits or bool(started),
                      waits_for_seats=_waits_for_seats(game, mode), began_at=self.clock(),
                      move_seats=[None] * len(board.moves), computer=computer,
                      clock=self.clocks.new_state(clock, len(seats)))
        row.summary, row.expires = summary.summarise(match, match.version), expires
        self.storage.create_match(row, pause=pace)
        if clock:
            self.clocks.arm(match)  # its row in the clocks table, before anything runs
        match.announced = match.version
        with self._cache_lock:
            self._cache.put(row.id, match)
        self._wake_computer(match)
        return match

    @classmethod
    def offered_options(cls, game: games.Game, options: dict) -> dict:
        """Options as a new match here would take them: normalised, and within what the server offers
        (ValueError naming the option otherwise)."""
        return game.normalise(cls._within_form(game, options))

    @staticmethod
    def _within_form(game: games.Game, options: dict) -> dict:
        """The server offers what the new-game form offers: an engine may take bigger boards (gamma's batch
        mode takes millions of fields), but a match on this server must not tie up its memory and CPU."""
        for name, option in game.options.items():
            value = options.get(name)
            if option.form and isinstance(value, int) and not option.form[0] <= value <= option.form[1]:
                raise ValueError(f"option {name!r}: got {value!r}, this server offers "
                                 f"{option.form[0]} to {option.form[1]}")
        return options

    @staticmethod
    def _game(game_name) -> games.Game:
        try:
            return games.get(game_name)
        except KeyError:
            raise bad_request("game must be one of: " + ", ".join(games.names()) + ".", "unknown-game")

    @staticmethod
    def _computer_seats(game_name: str, spec, players: int) -> dict:
        """`ai`: {"seats": [2], "level": 1..3 or a classic level id}; "seats" may map seat -> level."""
        import ai
        if not isinstance(spec, dict):
            raise bad_request('ai must be an object such as {"seats": [2], "level": 2}.', "bad-ai")
        known = [entry["id"] for entry in ai.levels(game_name)]
        seats, level = spec.get("seats", [players]), spec.get("level", 1)
        if isinstance(seats, list):
            seats = {seat: level for seat in seats}
        if not isinstance(seats, dict) or not seats:
            raise bad_request("ai.seats must list the seats the computer plays.", "bad-ai")
        computer = {}
        for seat, lvl in seats.items():
            seat = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
            if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= players:
                raise bad_request(f"ai.seats: seats are numbered 1 to {players}.", "bad-ai")
            if lvl not in known:
                raise bad_request("ai.level must be one of: " + ", ".join(map(str, known)) + ".", "bad-ai")
            computer[seat] = lvl
        return computer

    @staticmethod
    def _creator_seats(seats, players: int, mode: str, computer: dict | None = None) -> list[int]:
        if mode == "local":
            return list(range(1, players + 1))
        if mode == "ai":
            humans = [s for s in range(1, players + 1) if s not in computer]
            return humans or list(range(1, players + 1))  # a demo: the creator holds the computer's seats
        if seats is None:
            return [1]
        if isinstance(seats, int) and not isinstance(seats, bool):
            seats = [seats]
        if (not isinstance(seats, list) or not seats
                or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= players for s in seats)):
            raise bad_request(f"seats must be a list of seat numbers from 1 to {players}.")
        return sorted(set(seats))

    def claim(self, match_id, seat=None, player=None, invite=None, token=None) -> dict:
        """Claim a free seat (the first free one unless `seat` is named) with the match's invite secret (an
        open match's seats need none). The claim that takes the last seat of a two-player match begins it.
        `token`: the token to hold the seat with (an account's seat key), else a new one."""
        return self._claim(match_id, seat, player, invite, token=token)

    def _claim(self, match_id, seat=None, player=None, invite=None, trusted: bool = False, token=None) -> dict:
        """`trusted`: the caller proved its right to a seat another way (by-name play: the shared name)."""
        match = self._get(match_id)
        seat = _int(seat, "seat")
        player = names.seat_name(player, None if token else self.looks_like_account)
        with match.lock:
            if match.started and _needs_start(games.get(match.row.game), match.row.mode):
                raise ServiceError(409, "no-free-seat", "This match has started; you can watch it.")
            if match.outcome() is not None:
                raise ServiceError(409, "no-free-seat", "This match is over; you can watch it.")
            free = [s for s in match.row.seats if s.kind == "human" and s.token_hash is None
                    and (seat is None or s.seat == seat)]
            if seat is not None and not 1 <= seat <= len(match.row.seats):
                raise bad_request(f"seat must be from 1 to {len(match.row.seats)}.")
            if not free:
                raise ServiceError(409, "no-free-seat", "Every seat of this match is taken; you can watch it.")
            if not trusted:
                invites.check_claim(match.row.visibility, match.row.meta, invite)
            waiting = not match.begun()
            trusted_token, token, now = token is not None, token or new_token(), time.time()
            target = free[0]
            name = player or f"Player {target.seat}"
            before, claimed = (target.token_hash, target.name, target.claimed), False
            target.token_hash, target.name, target.claimed = hash_token(token), name, now  # the summary after it
            try:
                claimed = self.storage.claim_seat(match.id, target.seat, target.token_hash, name, now,
                                                  summary=summary.summarise(match, match.version))
            finally:
                if not claimed:
                    target.token_hash, target.name, target.claimed = before
            if not claimed:
                match.revision = -1  # taken through another process: catch up on the next request
                raise ServiceError(409, "no-free-seat", "That seat was taken a moment ago.")
            match.revision += 1
            if trusted_token:
                match.accounts.add(target.seat)
            self.presence.seen(match.id, [target.seat])
            if waiting and match.begun():
                match.began_at = self.clock()  # the away countdown of a player who left the waiting room
            state = self._state(match)
            self.listener(match.id, "state", state)
        return {"match": match.id, "seat": target.seat, "seats": [target.seat], "token": token}

    def join_by_name(self, name, game_name, options=None, player=None, clock=None) -> dict:
        """Both players type the same match name: the first creates it (and moves first), the second joins.

        Anyone arriving later watches. A name is free again for a new match once its match has ended or has
        idled (nothing happened in it) for `name_idle` seconds, so names cannot be held by matches nobody
        plays. `clock`: the time control of a match this creates (checked either way; one that is joined keeps
        its own).
        """
        self.clocks.parse(clock, "online")
        name = _clean_name(name, "match name")
        if name is None:
            raise bad_request("Type a match name.")
        key = name.lower()
        with self._name_lock:
            existing = self.storage.find_by_name(key)
            if existing is not None and summary.name_in_use(self, existing, self.name_idle):
                if existing.game != game_name:
                    raise ServiceError(409, "name-taken", f"The match name {name!r} is in use for another game.")
                try:
                    return {**self._claim(existing.id, player=player, trusted=True), "created": False}
                except ServiceError as exc:
                    if exc.error != "no-free-seat":
                        raise
                    return {"match": existing.id, "seat": None, "seats": [], "token": None, "created": False}
            return self.create(game_name, options, "online", name=name, player=player, clock=clock)

    def hand_over(self, match_id, token, new_token_, name=None) -> list[int]:
        """Move the seats `token` holds to `new_token_` (and, given `name`, rename them): an anonymous player's
        seats going to their new account's seat key, a deleted account's seats to a key nobody holds. The
        old token holds nothing afterwards. Answers the seats moved (401 when the token holds none)."""
        match = self._get(match_id)
        with match.lock:
            seats = match.seats_of(token)
            if not seats:
                raise ServiceError(401, "unauthorized", "This token holds no seat in this match.")
            for row in match.row.seats:
                if row.seat in seats:
                    moved = SeatRow(row.seat, row.kind, hash_token(new_token_), name or row.name, row.claimed)
                    self.storage.update_seat(match.id, moved)
                    match.revision += 1
                    row.token_hash, row.name = moved.token_hash, moved.name
            holders.handed(match.accounts, seats, new_token_)
            self.listener(match.id, "state", self._state(match))
        return seats

    # -- acting ---------------------------------------------------------------
    def _authorise(self, match: Match, token) -> list[int]:
        seats = match.seats_of(token)
        if not seats:
            raise ServiceError(401, "unauthorized", "This action needs the token of a seat in this match.")
        self.presence.seen(match.id, seats)  # a player who acts over HTTP is present too
        return seats

    def play(self, match_id, token, move, version=None) -> dict:
        """Play a move for the token's seat. With several processes (`checked`), a move that names the version
        this process holds is tried on the cached match without the revision check, a round trip saved on the
        hot path: if another process wrote meanwhile, storage's key refuses the write (stale-version, as it
        should); any other refusal is tried once more on a match caught up, lest a change made elsewhere (a
        seat claimed) refuse it wrongly."""
        if not isinstance(move, str) or not move or len(move) > MAX_MOVE_LENGTH:
            raise bad_request("move must be a non-empty string in the game's notation.", "illegal-move")
        version = _int(version, "version")
        if self.checked and version is not None:
            match = self._get(match_id, check=False)
            if match.version == version and match.revision >= 0:
                try:
                    return self._play(match, token, move, version)
                except CopyBehind:
                    pass  # the match changed elsewhere without a move: try on a copy caught up, below
                except ServiceError as exc:
                    if exc.error == "stale-version":
                        raise
        return self._play(self._get(match_id), token, move, version)

    def _play(self, match: Match, token, move, version) -> dict:
        with match.lock:
            seats = self._authorise(match, token)
            self._check_playing(match)
            if version is not None and version != match.version:
                raise ServiceError(409, "stale-version",
                                   f"The match is at version {match.version}, not {version}.",
                                   version=match.version)
            turn = match.board.turn
            if turn in match.computer:
                raise ServiceError(403, "not-your-turn", f"It is {match.name(turn)}'s turn: the computer plays it.")
            if turn not in seats:
                raise ServiceError(403, "not-your-turn", f"It is {match.name(turn)}'s turn, not yours.")
            try:
                match.board.push(move)
            except IllegalMove as exc:
                # Some engines (Towers) keep the original's terse reason and add a longer explanation.
                detail = getattr(exc, "detail", None)
                raise ServiceError(400, "illegal-move", exc.reason, **({"detail": detail} if detail else {}))
            match.board.pop()  # validated; _record_event writes first, then applies
            self._record_event(match, "move", {"move": move}, turn)
            return self._publish(match)

    def _check_playing(self, match: Match) -> None:
        if match.clock is not None and self.clocks.out_of_time(match):
            self._flag(match)
            raise ServiceError(409, "game-over", f"The game is over: {match.name(match.clock.flagged)}'s time ran out.")
        if match.outcome() is not None:
            raise ServiceError(409, "game-over", "The game is over.")
        if not match.begun():
            raise ServiceError(409, "not-started", "The game begins when every player has taken a seat."
                               if match.started else "The match has not started yet: its creator starts it.")

    # -- clocks (quadrille/clocks/) ------------------------------------------------------------------------
    def _flag(self, match: Match) -> dict:
        """The seat to move ran out of time: record it (the caller holds the lock and checked) and tell the room."""
        self._record_event(match, "flag", {"seat": match.turn()}, None)
        return self._publish(match)

    def _check_flag(self, match_id: str) -> None:
        """A flag's timer fired (in this process only, with RedisTimers): if the seat to move is out of time,
        the flag falls; otherwise (a move came in time) the timer is set again for the clock that runs now."""
        try:
            match = self._get(match_id)
        except ServiceError:
            return
        with match.lock:
            if match.clock is None:
                return
            if self.clocks.out_of_time(match):
                try:
                    self._flag(match)
                except ServiceError as exc:  # another process recorded it (or something else) first
                    log.info("match %s: the flag was not recorded here (%s)", match_id, exc.error)
            else:
                self.clocks.arm(match)

    def credit_clock(self, match_id: str, seconds: float) -> None:
        """The server was down `seconds`: the clock that ran is not charged for them (an event `clock`)."""
        match = self._get(match_id)
        with match.lock:
            if match.clock is not None and self.clocks.snapshot(match, "clock") is not None:
                self._record_event(match, "clock", {"credit": round(seconds, 3)}, None, credit=seconds)
                self._publish(match)

    def _publish(self, match: Match) -> dict:
        state = self._state(match)
        match.announced = match.version
        self.listener(match.id, "state", state)
        self._wake_computer(match)
        return state

    def _wake_computer(self, match: Match) -> None:
        if self.computer is not None and match.computer:
            self.computer.notify(match.id, match.version, match.computer_to_move(), over=match.outcome() is not None)

    def _admit_computer(self, match_id: str, owner) -> None:
        """Before the computer takes seats: ServiceError 429 when `owner` has too many such matches going."""
        if self.computer is not None:
            self.computer.admit(match_id, owner)

    def wake_computer(self, match_id) -> None:
        """Someone started watching the match: a demo that rested for want of watchers resumes. A match without
        computer seats costs no check (with several processes, a seat handed to the computer through another
        process is driven, and taken over, from there)."""
        if not self._get(match_id, check=False).computer:
            return
        match = self._get(match_id)
        with match.lock:
            self._wake_computer(match)

    # -- the computer's side ----------------------------------------------------------
    def resume_computers(self, match_ids) -> None:
        """Wake the computer in those of these matches whose cached copy has computer seats (the takeover
        sweep of several processes: a computer to move that nobody drives any more is taken over)."""
        with self._cache_lock:
            mine = [m for m in match_ids if (match := self._cache.peek(m)) is not None and match.computer]
        for match_id in mine:
            try:
                self.wake_computer(match_id)
            except ServiceError:
                pass

    def computer_request(self, match_id, version) -> dict | None:
        """What a worker needs to choose the computer's move, or None if the position moved on."""
        match = self._get(match_id)
        with match.lock:
            if match.version != version or not match.computer_to_move():
                return None
            seat = match.board.turn
            return {"game": match.row.game, "options": dict(match.row.options), "moves": list(match.board.moves),
                    "seat": seat, "level": match.computer[seat], "seed": version,
                    "demo": not match.humans()}

    def play_computer(self, match_id, version, seat, move) -> dict:
        match = self._get(match_id)
        with match.lock:
            if (match.version != version or match.board.turn != seat or seat not in match.computer
                    or match.paused):
                raise ServiceError(409, "stale-version", "The position changed while the computer thought.")
            self._check_playing(match)
            try:
                match.board.push(move)
            except IllegalMove as exc:
                raise ServiceError(500, "server-error", f"The computer chose an illegal move: {exc.reason}")
            match.board.pop()
            self._record_event(match, "move", {"move": move}, seat)
            return self._publish(match)

    def pause(self, match_id, token, paused) -> dict:
        """Pause or resume the computer (for demos: the original's P key)."""
        match = self._get(match_id)
        if not isinstance(paused, bool):
            raise bad_request("paused must be true or false.")
        with match.lock:
            self._authorise(match, token)
            if match.paused == paused:
                return self._state(match)  # nothing changes, so nobody needs to hear of it
            if paused and match.clock is not None and match.humans():
                # the clocks do not stop: a paused computer would only lose on time
                raise ServiceError(403, "not-allowed", "The computer cannot be paused in a game with a clock.")
            self.storage.set_paused(match.id, paused)
            match.paused, match.revision = paused, match.revision + 1
            return self._publish(match)

    def hand_to_computer(self, match_id, token, seat, level=1, owner=None) -> dict:
        """The computer takes over a seat whose player is gone, when the players still here agree.

        A player asks; in a two-player game that is everyone left, so it happens at once. With more
        players, each other player present asks too (agrees), and the last agreement hands the seat over.
        A player counts as gone only after presence's grace period (a reload is not leaving), and an
        agreement lapses after `vote_ttl` seconds.
        """
        import ai
        match = self._get(match_id)
        seat = _int(seat, "seat", optional=False)
        with match.lock:
            seats = self._authorise(match, token)
            self._check_playing(match)
            if seat not in match.humans() or seat in seats:
                raise bad_request("Only another player's seat can be handed to the computer.", "bad-ai")
            if self.presence.present(match.id, seat):
                raise ServiceError(409, "player-present",
                                   f"{match.name(seat)} is still here (or left only a moment ago).")
            self.absence.check_hand_over(match, seat, self._away(match, fresh=True))
            if level not in [entry["id"] for entry in ai.levels(match.row.game)]:
                raise bad_request("Unknown computer level.", "bad-ai")
            now = self.clock()
            votes = {voter: at for voter, at in match.votes.get(seat, {}).items() if now - at <= self.vote_ttl}
            votes.update({voter: now for voter in seats})
            match.votes[seat] = votes
            needed = [s for s in match.humans() if s != seat]
            if not set(needed) <= set(votes):
                return {**self._publish(match), "waiting_for": [s for s in needed if s not in votes]}
            self._admit_computer(match.id, owner)
            del match.votes[seat]
            self._record_event(match, "computer", {"seat": seat, "level": level}, seats[0])
            return self._publish(match)

    def take_back_seat(self, match_id, token) -> dict:
        """A returning player takes their seat back from the computer."""
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            mine = [s.seat for s in match.row.seats
                    if s.seat in seats and s.kind == "human" and s.seat in match.computer]
            if not mine:
                raise bad_request("The computer plays none of your seats.", "bad-ai")
            self._record_event(match, "human", {"seat": mine[0]}, mine[0])
            return self._publish(match)

    def rewind(self, match_id, token, to) -> dict:
        """Go back to the position after `to` moves and continue from there (local games)."""
        match = self._get(match_id)
        to = _int(to, "to", optional=False)
        with match.lock:
            self._authorise(match, token)
            if match.row.mode == "online":
                raise ServiceError(403, "not-allowed", "Rewinds are for local games.")
            return self._rewind(match, to)

    @staticmethod
    def _rewind_points(board) -> list[int]:
        """The move counts a rewind may stop at. An engine whose turns span several moves that must not be
        split (Lattice's move and its return) offers turn_boundaries(); elsewhere every count is fine."""
        boundaries = getattr(board, "turn_boundaries", None)
        return list(boundaries()) if boundaries else list(range(len(board.moves) + 1))

    def _rewind(self, match: Match, to: int, offer: str | None = None) -> dict:
        plies = len(match.board.moves)
        if not 0 <= to < plies:
            raise bad_request(f"to must be from 0 to {plies - 1}." if plies else "There is no move to take back.",
                              "bad-rewind")
        if to not in self._rewind_points(match.board):
            raise bad_request("A rewind stops only between complete turns.", "bad-rewind")
        self._record_event(match, "rewind", {"to": to, **({"offer": offer} if offer else {})}, None)
        return self._publish(match)

    def takeback(self, match_id, token) -> dict:
        """Take back the last move. Online, only one's own, and only while it is still one's turn
        (in a game of several actions per turn, such as Towers: undo within the turn)."""
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            plies = len(match.board.moves)
            if match.row.mode == "online" and plies:
                mover = match.move_seats[-1]
                if match.outcome() is not None or mover not in seats or match.board.turn != mover:
                    raise ServiceError(403, "not-allowed",
                                       "Online, you can take back only your own actions, while it is still your turn.")
            earlier = [p for p in self._rewind_points(match.board) if p < plies]
            if match.computer:
                # Against the computer, take back its reply too: back to before the last human move.
                human = [i for i in earlier if match.move_seats[i] not in match.computer]
                if not human:
                    raise bad_request("There is no move of yours to take back.", "bad-rewind")
                earlier = human
            return self._rewind(match, earlier[-1] if earlier else plies - 1)

    def resign(self, match_id, token) -> dict:
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            self._check_playing(match)
            refused = resigning.refusal(match)
            if refused:
                raise ServiceError(403, "not-allowed", refused)
            data = {"seat": seats[0], "winners": resigning.winners(match, seats[0])}
            self._record_event(match, "resign", data, seats[0])
            return self._publish(match)

    def start(self, match_id, token, computer_level=None, owner=None) -> dict:
        """The creator starts a match that waits for its players. Unclaimed seats are left out, or, with
        `computer_level`, played by the computer."""
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            if match.started:
                raise ServiceError(409, "already-started", "The match has already started.")
            if 1 not in seats:
                raise ServiceError(403, "not-allowed", "Only the match's creator can start it.")
            game = games.get(match.row.game)
            claimed = [s.seat for s in match.row.seats if s.token_hash is not None]
            if computer_level is not None:
                free = [s.seat for s in match.row.seats if s.token_hash is None]
                computer = self._computer_seats(game.name, {"seats": free, "level": computer_level},
                                                len(match.row.seats)) if free else {}
                if computer:
                    self._admit_computer(match.id, owner)
                self._record_event(match, "start", {"options": {}, "computer": computer}, 1)
                return self._publish(match)
            # An online match is for several people: alone, play a local game.
            if len(claimed) < max(game.seats[0], 2) or claimed != list(range(1, len(claimed) + 1)):
                raise ServiceError(409, "not-enough-players",
                                   "Wait until another player has joined, or let the computer play the free seats.")
            options = {"players": len(claimed)} if "players" in game.options else {}
            self._record_event(match, "start", {"options": options}, 1)
            return self._publish(match)

    def rematch(self, match_id, token, owner=None) -> dict:
        """Offer a rematch once the game is over, or accept the one offered: when every player of the
        finished match agrees (at once on one screen or against the computer), a new match starts with the
        same options, the seats turned by one (in a two-player game, sides swapped), each seat held by
        the same player's token as before, so that nobody else, not even a spectator who follows, can take
        one. Until then the answer is the STATE with the pending offer; then it is the new match."""
        match = self._get(match_id)
        with match.lock:
            seats, turning = self._authorise(match, token), self._turning(match)
            if match.offers.rematch is None:
                match.offers.check_offer("rematch", seats, self._situation(match))
                agreed = match.offers.pending.get("rematch", set()) | set(seats)
                if not set(match.humans()) <= agreed:
                    self._record_event(match, "offer", {"offer": "rematch", "seat": seats[0]}, seats[0])
                    return self._publish(match)
                new = self._create_rematch(match, owner)
                self._record_event(match, "rematch", {"match": new.id}, seats[0])
                self._publish(match)
                self.listener(match.id, "rematch", {"match": new.id, "from": match.id, "seats": turning})
            new_id = match.offers.rematch
        new = self._get(new_id)
        mine = [turning[seat - 1] for seat in seats if turning[seat - 1] not in new.computer]
        return {"match": new_id, "seat": mine[0] if mine else None, "seats": sorted(mine), "token": token,
                "created": True}

    @staticmethod
    def _turning(match: Match) -> list[int]:
        """Each seat's number in the rematch, in seat order: turned by one, except on one screen where nothing
        changes."""
        seats = range(1, match.board.players + 1)
        return list(seats) if match.row.mode == "local" else [seat % match.board.players + 1 for seat in seats]

    def _create_rematch(self, match: Match, owner=None) -> Match:
        game, mode, turning = games.get(match.row.game), match.row.mode, self._turning(match)
        computer = {turning[seat - 1]: level for seat, level in match.computer.items()}
        seats = sorted((SeatRow(seat=turning[s.seat - 1], kind="ai" if turning[s.seat - 1] in computer else "human",
                                token_hash=s.token_hash, name=s.name, claimed=s.claimed)
                        for s in match.row.seats), key=lambda s: s.seat)
        board = game.new(**match.row.options)
        new = self._insert(game, board, mode, None, seats, computer, started=True, owner=owner,
                           visibility=match.row.visibility, clock=match.row.meta.get("clock"))
        new.accounts = {turning[seat - 1] for seat in match.accounts}  # the same tokens hold them
        return new

    # -- offers during the game, aborting, and the disconnect timeout ----------------------------------
    def _situation(self, match: Match) -> Situation:
        game = games.get(match.row.game)
        return Situation(over=match.outcome() is not None, started=match.begun(), online=match.row.mode == "online",
                         draws=game.draws, title=game.title, turn=match.board.turn,
                         moved=frozenset(s for s in match.move_seats if s is not None))

    def offer(self, match_id, token, kind, owner=None) -> dict:
        """Offer a take-back, a draw or a rematch to the other players (offers.py says when). Offering what
        another player offers accepts it. The answer is the STATE (a rematch's: as `rematch`)."""
        if kind == "rematch":
            return self.rematch(match_id, token, owner=owner)
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            if match.offers.others_offer(kind, seats):
                match.offers.check_answer(kind, seats, self._situation(match))
            else:
                match.offers.check_offer(kind, seats, self._situation(match))
            return self._agree(match, kind, seats)

    def accept(self, match_id, token, kind, owner=None) -> dict:
        """Accept another player's offer: when every player agrees, it is carried out."""
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            match.offers.check_answer(kind, seats, self._situation(match))
            if kind != "rematch":
                return self._agree(match, kind, seats)
        return self.rematch(match_id, token, owner=owner)

    def _agree(self, match: Match, kind: str, seats: list[int]) -> dict:
        """Join an in-game offer; carry it out once every player is in (the caller holds the lock)."""
        if not match.offers.agreed(kind, seats, match.humans()):
            self._record_event(match, "offer", {"offer": kind, "seat": seats[0]}, seats[0])
            return self._publish(match)
        if kind == "draw":
            agreed = sorted(match.offers.pending.get("draw", set()) | set(seats))
            self._record_event(match, "draw", {"seats": agreed}, seats[0])
            return self._publish(match)
        maker = match.offers.maker("takeback") or seats[0]
        return self._rewind(match, self._before_last_move_of(match, maker), offer="takeback")

    def _before_last_move_of(self, match: Match, seat: int) -> int:
        """Where a take-back of `seat`'s last move goes: before it, at a point where a rewind may stop."""
        last = max(i for i, mover in enumerate(match.move_seats) if mover == seat)
        return max(p for p in self._rewind_points(match.board) if p <= last)

    def abort(self, match_id, token) -> dict:
        """A player aborts an online game before every player has moved in it (a waiting match included):
        it ends with no result. Elsewhere a new game is the way out."""
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            if match.row.mode != "online":
                raise ServiceError(403, "not-allowed", "On one screen or against the computer, start a new game "
                                                       "instead of aborting.")
            if match.outcome() is not None:
                raise ServiceError(409, "game-over", "The game is over.")
            if not self._abortable(match):
                raise ServiceError(403, "not-allowed", "Every player has moved: the game can no longer be aborted."
                                   + (" Resign instead." if match.board.players == 2 else ""))
            self._record_event(match, "abort", {"seat": seats[0]}, seats[0])
            return self._publish(match)

    def claim_timeout(self, match_id, token, result="win") -> dict:
        """After the disconnect timeout, the player still here ends a two-player online game: `win` claims
        victory, `draw` calls it a draw (in a game that has draws). Claiming the same again gives the same
        result and records nothing (the decision is idempotent)."""
        if result not in ("win", "draw"):
            raise bad_request('result must be "win" or "draw".')
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            if self._same_claim(match, seats, result):
                return self._state(match)
            self._check_playing(match)
            if match.row.mode != "online":
                raise ServiceError(403, "not-allowed", "Claims are for online games.")
            if match.board.players != 2:
                raise ServiceError(403, "not-allowed", "With more than two players, hand an absent player's seat "
                                                       "to the computer instead.")
            if result == "draw" and not games.get(match.row.game).draws:
                raise ServiceError(403, "not-allowed", f"{games.get(match.row.game).title} has no draws.")
            away = self._claimable_against(match, seats)
            self._record_event(match, "timeout", {"seat": seats[0], "away": away, "result": result}, seats[0])
            return self._publish(match)

    @staticmethod
    def _same_claim(match: Match, seats: list[int], result: str) -> bool:
        done = match.result
        return (done is not None and done.get("reason") == "abandoned"
                and (done["winners"] == [seats[0]] if result == "win" else done["winners"] == [])
                and not set(done.get("abandoned", [])) & set(seats))

    def _claimable_against(self, match: Match, seats: list[int]) -> list[int]:
        """The other players' seats whose absence allows a claim now (absence.py); a clear refusal otherwise."""
        return self.absence.claimable_against(match, seats, self._away(match, fresh=True))

    def decline(self, match_id, token, kind="rematch") -> dict:
        """Decline another player's offer; that side cannot offer it again (a take-back or a draw: until a
        move is made)."""
        match = self._get(match_id)
        with match.lock:
            seats = self._authorise(match, token)
            match.offers.check_decline(kind, seats)
            self._record_event(match, "decline", {"offer": kind, "seat": seats[0]}, seats[0])
            return self._publish(match)

    @staticmethod
    def _format(extension) -> tuple[games.Game, object]:
        for name in games.names():
            game = games.get(name)
            if extension in game.formats:
                return game, game.formats[extension]
        known = sorted(ext for name in games.names() for ext in games.get(name).formats)
        raise bad_request("Files of this kind cannot be imported; known kinds: .json, ." + ", .".join(known) + ".",
                          "bad-record")

    def import_file(self, extension, text, mode="local", player=None) -> dict:
        """A new match from a game's own save file (e.g. Lattice's .ltc, Towers' .twr)."""
        game, fmt = self._format(extension)
        if not isinstance(text, str) or not text.strip():
            raise bad_request("The file is empty.", "bad-record")
        try:
            board = fmt.load(text)
        except (ValueError, IllegalMove, KeyError, IndexError, RecursionError) as exc:
            raise bad_request(f"This .{extension} file cannot be read: {exc}", "bad-record")
        return self.create(game.name, dict(board.options), mode, player=player, moves=list(board.moves),
                           imported=True)

    def export_file(self, match_id, extension) -> str:
        match = self._get(match_id)
        fmt = games.get(match.row.game).formats.get(extension)
        if fmt is None:
            raise ServiceError(404, "not-found", f"{match.row.game} matches are not saved as .{extension} files.")
        with match.lock:
            return fmt.dump(match.board)

    def import_record(self, record, mode="local", player=None) -> dict:
        """A new match that continues from an exported record (its game, options and moves)."""
        if not isinstance(record, dict):
            raise bad_request("A record must be a JSON object with game, options and moves.", "bad-record")
        moves = record.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise bad_request("moves must be a list of strings.", "bad-record")
        if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise bad_request(f"This is not a {RECORD_FORMAT} file.", "bad-record")
        try:
            return self.create(record.get("game"), record.get("options") or {}, mode, player=player,
                               moves=moves, imported=True)
        except ServiceError as exc:
            if exc.error in ("bad-options", "unknown-game"):
                raise bad_request(exc.reason, "bad-record")
            raise
