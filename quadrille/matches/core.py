"""The match core: the one place that loads a match, authorises a command, records its event and publishes it.

Both doors (HTTP and Socket.IO) reach a match through MatchService (service.py), whose every command runs here,
as lila's round actor runs each of a game's commands: load the match (from the cache, caught up with storage
when several processes share it), take its lock, authorise the token, let a decider (one module per family:
seating, moves, endings, takebacks, computer_seats, rematches, agreements) decide, then record the one event
it decided, and publish the STATE once:

    core.command(match_id, token, endings.resign)   # the decider: (core, match, seats) -> Decision

An event is applied to the in-memory match first (events.py, the event table), then written to storage; the
room hears the STATE only after the write, and the services beside the core hear what they subscribed to on
the bus (bus.py: an ending, a rematch). A decider never writes, locks or publishes itself.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import games

from ..clocks import Clocks
from ..errors import ServiceError, not_found
from ..i18n import _l
from ..infra.presence import Presence
from .store import Conflict, EventRow, MatchRow, RevisionMoved, Storage
from . import events, holders, state, summary
from .absence import Absence
from .bus import ENDED, MatchBus
from .cache import MatchCache
from .checkpoint import Checkpoint
from .match import CopyBehind, Match, begins_on_start, begins_when_seated
from .pacing import Pacer
from .positions import Positions
from .timeouts import DisconnectTimeouts

log = logging.getLogger("quadrille")


@dataclass(frozen=True)
class Decision:
    """What a decider decided: the event to record (kind, data, seat), whether the room hears the STATE (a
    change without an event, such as a pause, is told too), and fields the answer adds to the STATE."""

    event: tuple | None = None
    tell: bool = True
    extra: dict = field(default_factory=dict)


def record(kind: str, data: dict, seat: int | None) -> Decision:
    return Decision(event=(kind, data, seat))


UNCHANGED = Decision(tell=False)  # nothing changed: the answer is the STATE, and nobody else hears
CHANGED = Decision()              # changed without an event (written by the decider's own storage call)


class MatchCore:
    def __init__(self, storage: Storage, listener: Callable[[str, str, dict], None] | None = None,
                 cache: MatchCache | None = None, presence: Presence | None = None, vote_ttl: float = 120.0,
                 clock: Callable[[], float] = time.monotonic, disconnect_timeout: float = 60.0,
                 spawn: Callable | None = None, sleep: Callable[[float], None] | None = None,
                 timers=None, checked: bool = False, clocks: Clocks | None = None, realtime_absence: float = 40.0):
        """`listener(match_id, event, payload)`: the room (the Socket.IO door's broadcast): every STATE, and a
        rematch. `clock`: the same clock as presence's (monotonic seconds in one process, wall-clock seconds
        when several share presence); `spawn`, `sleep`: Flask-SocketIO's start_background_task and sleep, for
        the disconnect timer (without them the timer fires only when told: `timeouts.fire_due()`, as tests do);
        `timers`: infra/timers.py's (default: in memory). `checked`: other processes write to the same storage,
        so a cached match is checked against storage's revision before each use (and catches up). `clocks`:
        the clocks service (quadrille/clocks/; default: wall-clock time, its timers in memory).
        `realtime_absence`: the grace before a claim against an absent player in a bullet or blitz game."""
        self.computer = None  # set by the app: a ComputerPlayers that plays the computer's seats
        self.import_retention = None  # seconds an unopened anonymous import is kept (retention.py); None: for ever
        self.name_idle = None  # seconds after which an idle match's name is free again (join_by_name); None: never
        self.presence = presence or Presence(clock=clock)
        self.vote_ttl = vote_ttl
        self.clock = clock
        self.pacer = lambda: Pacer(sleep)  # a long replay (an import, a match loaded) lets the others be served
        self.checked = checked
        self.timeouts = DisconnectTimeouts(self.presence, disconnect_timeout, clock, spawn, sleep,
                                           on_due=self._announce_away, timers=timers)
        self.absence = Absence(self.timeouts, realtime_absence)  # what being away allows, by time control
        self.storage = storage
        self.clocks = clocks if clocks is not None else Clocks(storage, spawn=spawn, sleep=sleep)
        self.listener = listener or (lambda match_id, event, payload: None)
        self.bus = MatchBus()  # the services beside the core subscribe here (an ending, a rematch)
        self._cache = cache if cache is not None else MatchCache()
        self.positions = Positions(pacer=self.pacer)  # boards along each line: stepping through replays little
        self._cache_lock = threading.Lock()
        self.name_lock = threading.Lock()  # by-name play (seating.join_by_name)
        # Whether a guest's seat name looks like an account's (names.py): the factory's, on the accounts' table
        self.looks_like_account: Callable[[str], bool] | None = None
        self.state_extras: Callable[[Match], dict] = lambda match: {}  # the factory's: what a STATE adds

    # -- a command -----------------------------------------------------------------------------------
    def command(self, match_id, token, decide, *args, **kwargs) -> dict:
        """Load the match, lock it, authorise `token`, and carry out what `decide(core, match, seats, ...)`
        decides. The answer is the STATE (with the decision's extra fields)."""
        match = self.load(match_id)
        with match.lock:
            seats = self.authorise(match, token)
            try:
                return self.carry_out(match, decide(self, match, seats, *args, **kwargs))
            finally:
                self.sighted(match)

    def carry_out(self, match: Match, decision: Decision) -> dict:
        """Record the decision's event, if any, and publish (the caller holds the lock)."""
        if decision.event is not None:
            self.record_event(match, *decision.event)
        answer = self.publish(match) if decision.tell else self.state_of(match)
        return {**answer, **decision.extra} if decision.extra else answer

    def authorise(self, match: Match, token) -> list[int]:
        """The seats `token` holds, or 401. Its player counts as present (over HTTP too): presence is told with
        the STATE's own look at it, or at the command's end (`sighted`)."""
        seats = match.seats_of(token)
        if not seats:
            raise ServiceError(401, "unauthorized", _l("This action needs the token of a seat in this match."))
        match.unseen = seats
        return seats

    def sighted(self, match: Match) -> None:
        """The command is over: presence hears of the acting player, if no look at it told it already."""
        if match.unseen:
            seats, match.unseen = match.unseen, []
            self.presence.seen(match.id, seats)

    def refuse_unless_live(self, match: Match) -> None:
        """Moves and in-game decisions need a game that has begun and is not over (a clock run out: its flag is
        recorded here and the room told, then the refusal)."""
        if match.clock is not None and self.clocks.out_of_time(match):
            self.flag(match)
            raise ServiceError(409, "game-over", _l("The game is over: %(name)s's time ran out.",
                                                        name=match.name(match.clock.flagged)))
        if match.outcome() is not None:
            raise ServiceError(409, "game-over", _l("The game is over."))
        if not match.begun():
            raise ServiceError(409, "not-started", _l("The game begins when every player has taken a seat.")
                               if match.creator_started else _l("The match has not started yet: its creator starts "
                                                                "it."))

    def flag(self, match: Match) -> dict:
        """The seat to move ran out of time: record it (the caller holds the lock and checked) and tell the room."""
        self.record_event(match, "flag", {"seat": match.turn()}, None)
        return self.publish(match)

    # -- loading --------------------------------------------------------------------------------------
    def load(self, match_id, check: bool = True) -> Match:
        """The match, from the cache or storage. `check=False`: a cached match is used as it is, unchecked
        (play's first attempt, whose write storage guards; see moves.py)."""
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
            loaded = self.replay(row)
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
            revision, paused, new_events = found
            if revision == match.revision:
                return match
            if not new_events or new_events[0].seq == match.version + 1:
                try:
                    begun = match.begun()
                    for event in new_events:
                        self.apply(match, event)
                        match.version = event.seq
                        match.row.events.append(event)
                    if match.revision < 0 or revision - match.revision != len(new_events):
                        match.row.seats = [s for s in self.storage.seats(match.id) if s.seat <= match.board.players]
                        match.accounts = holders.load(self.storage, match.id)
                    match.paused, match.revision = paused, revision
                    if not begun and match.begun():
                        match.began_at = self.began(match.row)
                    return match
                except Exception:  # pragma: no cover - a log this copy cannot follow: read it whole below
                    log.exception("match %s could not catch up; reading it whole", match.id)
        row = self.storage.load_match(match.id)
        if row is None:
            raise not_found()
        fresh = self.replay(row)
        with self._cache_lock:
            self._cache.put(match.id, fresh)
        return fresh

    def cache(self, match: Match) -> None:
        with self._cache_lock:
            self._cache.put(match.id, match)

    def cached(self, match_id: str) -> Match | None:
        """The match if this process holds it, without touching the cache's order."""
        with self._cache_lock:
            return self._cache.peek(match_id)

    def summary_now(self, match_id) -> tuple[str, int]:
        """The match's summary (summary.py) and revision, for a match stored without one: from its cached copy,
        or replayed once without taking a place in the cache (the start-up's backfill meets every old match)."""
        if self.cached(match_id) is not None:
            match = self.load(match_id)  # (caught up with storage first, with several processes)
        else:
            row = self.storage.load_match(match_id) if isinstance(match_id, str) else None
            if row is None:
                raise not_found()
            match = self.replay(row)
        with match.lock:
            return summary.summarise(match, match.version), match.revision

    def forget(self, match_ids) -> None:
        """Matches deleted from storage (retention.py): out of this process's memory too."""
        with self._cache_lock:
            for match_id in match_ids:
                self._cache.pop(match_id, None)
        for match_id in match_ids:
            self.positions.forget(match_id)

    def began(self, row: MatchRow) -> float:
        """When a match loaded from storage began, on the core's clock: the stored time (the last seat's claim,
        its start, or its creation) where the clock is wall-clock time, shared by processes; a monotonic clock
        (one process) cannot read stored times, and counts from now, the loading."""
        stored = max([row.created] + [s.claimed for s in row.seats if s.claimed]
                     + [e.at for e in row.events if e.kind == "start"])
        return min(self.clock(), stored)

    def replay(self, row: MatchRow) -> Match:
        game = games.get(row.game)
        match = Match(row=row, board=game.new(**row.options), creator_started=not begins_on_start(game, row.mode),
                      begins_when_seated=begins_when_seated(game, row.mode), began_at=self.began(row),
                      computer={int(seat): level for seat, level in row.meta.get("computer", {}).items()},
                      paused=row.paused, revision=row.revision,
                      clock=self.clocks.new_state(row.meta.get("clock"), len(row.seats)),
                      accounts=holders.load(self.storage, row.id))
        pace = self.pacer()
        for event in row.events:
            self.apply(match, event)
            match.version = event.seq
            pace()
        match.began_at = self.began(row)  # the events' own times were the core's clock's while replaying
        return match

    def apply(self, match: Match, event: EventRow) -> None:
        """Apply one stored event to the in-memory match (the event table, events.py)."""
        events.apply(match, event, self)

    # -- recording and publishing ------------------------------------------------------------------------
    def record_event(self, match: Match, kind: str, data: dict, seat: int | None, credit: float = 0.0) -> EventRow:
        """Apply an event (the caller holds match.lock and has decided it), then write it; put the match back
        as it was if the write fails. A move the engine refuses raises IllegalMove, nothing written: applying
        is the move's one pass through the engine. While the match's clocks run, the event carries their
        snapshot (`credit`: seconds of a server's downtime not charged)."""
        if match.version >= match.event_limit:
            raise ServiceError(409, "match-full", _l("This match holds as many moves and decisions as a match may; "
                                                     "export it and import the record to go on."))
        snapshot = self.clocks.snapshot(match, kind, credit) if match.clock is not None else None
        if snapshot is not None:
            data = {**data, "clock": snapshot}
        event = EventRow(seq=match.version + 1, kind=kind, data=data, seat=seat, at=time.time())
        # With several processes the write is guarded by the revision this copy holds: a seat handed over through
        # another process moves the revision without an event, and a copy from before it must not let the
        # retired token play (play then tries again on a copy caught up).
        guard = match.revision if self.checked and match.revision >= 0 else None
        was_over = match.outcome() is not None
        # Applied first, so that the write carries what lists show after it (summary.py); put back if it fails.
        saved = Checkpoint(match, kind)
        try:
            self.apply(match, event)
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
            raise ServiceError(409, "stale-version", _l("The match changed meanwhile; reload and try again."))
        except BaseException:
            saved.restore(match)
            raise
        match.revision += 1
        match.version = event.seq
        match.row.events.append(event)
        if match.clock is not None:
            self.clocks.arm(match)
        if not was_over and match.outcome() is not None:
            match.endings.append(event.seq)  # the bus hears it once the room has (publish)
        return event

    def publish(self, match: Match) -> dict:
        """Tell the room the match's STATE, then the bus what it waits for (an ending); wake the computer."""
        answer = self.state_of(match)
        match.announced = match.version
        self.listener(match.id, "state", answer)
        if match.endings:
            match.endings.clear()
            self.bus.publish(ENDED, match.id, {"outcome": answer["outcome"], "movers": answer["movers"],
                                               "online": match.row.mode == "online",
                                               "accounts": sorted(match.accounts)})
        self.wake_computer_of(match)
        return answer

    def state_of(self, match: Match) -> dict:
        """The STATE (state.py; the caller holds the lock)."""
        return state.build(self, match)

    def away_of(self, match: Match, fresh: bool = False) -> list[dict]:
        """The people's seats whose player left a game under way online (never a computer's seat). `fresh`: for
        a decision (a claim), from presence's own view of now. The acting player is told to presence in the
        same look."""
        return state.away(self, match, fresh)

    def _announce_away(self, match_id: str) -> None:
        """The timer: an away player's timeout passed, so the room hears that a claim is possible."""
        try:
            match = self.load(match_id)
        except ServiceError:
            return
        with match.lock:
            self.listener(match.id, "state", self.state_of(match))

    # -- the computer's seats: told of every change ------------------------------------------------------
    def wake_computer_of(self, match: Match) -> None:
        if self.computer is not None and match.computer:
            self.computer.notify(match.id, match.version, match.computer_to_move(), over=match.outcome() is not None)

    def admit_computer(self, match_id: str, owner) -> None:
        """Before the computer takes seats: ServiceError 429 when `owner` has too many such matches going."""
        if self.computer is not None:
            self.computer.admit(match_id, owner)
