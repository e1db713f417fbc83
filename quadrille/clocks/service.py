"""The clocks service: time controls checked, the clocks kept in the match's log, flags that fall on the server,
and the time a server was down given back.

    clocks = Clocks(storage, clock=time.time, timers=MemoryTimers(time.time, spawn, sleep))
    clocks.parse({"kind": "realtime", "minutes": 5, "increment": 3}, mode)  # -> TimeControl, or bad-clock
    clocks.time_to_move(match_ids)   # for lists of games: whose clock runs and how long it has left

The match core calls it at a few points (a match made or loaded, an event recorded and applied, a STATE, a
check before a player acts), with a match it reads through `ClockedMatch` (a few attributes, not the core's
Match), and gives it `on_flag(match_id)`, its own check that records the flag.

- **Time** comes from `clock` only (wall-clock seconds by default, since stored times must mean the same to
  every process and after a restart); tests inject one and drive it.
- **Flags fall on the server**: each time a clock starts to run, its deadline is a timer (infra/timers.py,
  `flag:<match>:<version>`) and a row of the `clocks` table. The timer fires once, in whichever process is alive
  (RedisTimers with several); the match service then checks the clock from the match's log and records a `flag`
  event (storage's key makes two processes' flags one). A server starting up re-arms every pending deadline.
- **Restarts do not steal time**: every process writes a heartbeat (`clock_beat`) every `beat_interval`
  seconds. A server that starts when the last beat is older than three intervals (every process was down)
  credits each running clock with the time since the last beat: an event `clock` with `credit` seconds, whose
  snapshot charges the seat to move only up to the last beat. One process wins the heartbeat's
  compare-and-set and credits; the others only re-arm.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Protocol

from ..infra.background import repeat
from ..infra.database import Database
from ..infra.timers import MemoryTimers
from .control import Bounds, TimeControl, parse_time_control
from .results import flag_result
from .state import ClockState
from .store import ClockStore

PREFIX = "flag:"
log = logging.getLogger("quadrille")


class ClockedMatch(Protocol):
    """What the clocks read of a match (the match core's Match is one): its id and version (a flag's timer is
    keyed by them), its clocks, the seat whose clock runs, and its game and board (who wins on time)."""

    clock: ClockState | None
    version: int
    board: Any

    @property
    def id(self) -> str: ...

    @property
    def game(self) -> str: ...

    def turn(self) -> int | None: ...


class Clocks:
    def __init__(self, storage: Database, clock: Callable[[], float] = time.time, timers=None,
                 bounds: Bounds | None = None, beat_interval: float = 1.0,
                 spawn: Callable | None = None, sleep: Callable[[float], None] | None = None):
        self.clock = clock
        self.bounds = bounds or Bounds()
        self.store = ClockStore(storage)
        self.timers = timers if timers is not None else MemoryTimers(clock, spawn, sleep)
        self.timers.handle(PREFIX, self._due)
        self.beat_interval = beat_interval
        self._spawn, self._sleep = spawn, sleep
        self._running = False
        self.on_flag: Callable[[str], None] = lambda match_id: None

    # -- choosing a time control ------------------------------------------------------------------
    def parse(self, value, mode: str = "online") -> TimeControl | None:
        """A new match's `clock` field, checked against this server's bounds (ServiceError bad-clock)."""
        return parse_time_control(value, self.bounds, mode)

    @staticmethod
    def new_state(control: dict | None, seats: int) -> ClockState | None:
        """A match's clocks from its stored control (meta["clock"]); None: the match has no clock."""
        return ClockState.new(TimeControl.from_dict(control), seats) if control else None

    # -- the log ----------------------------------------------------------------------------------
    def snapshot(self, match: ClockedMatch, kind: str, credit: float = 0.0) -> dict | None:
        """What an event about to be recorded carries: the clocks at this moment (None: no clock runs, or it
        has not started and this is not the first move)."""
        state = match.clock
        if state is None or state.flagged is not None:
            return None
        running = match.turn()
        if running is None or (not state.started and kind != "move"):
            return None
        return state.snapshot(running, self.clock(), credit)

    @staticmethod
    def applied(match: ClockedMatch, event, turn_before: int | None) -> None:
        """After an event was applied to `match`: set its clocks from the event's snapshot; a move that ended
        its mover's turn adds the increment (or a correspondence turn's days)."""
        state = match.clock
        if state is None:
            return
        state.apply(event.data.get("clock"))
        if event.kind == "flag":
            state.flagged = event.data["seat"]
        elif event.kind == "rewind":
            state.flagged = None
        if event.kind == "move" and event.data.get("clock") and turn_before is not None:
            after = match.turn()
            if after != turn_before:
                state.turn_passed(turn_before, after)

    def flag_result(self, match: ClockedMatch, seat: int) -> dict:
        return flag_result(match.game, match.board, seat)

    # -- reading ----------------------------------------------------------------------------------
    def view(self, match: ClockedMatch) -> dict | None:
        """The STATE's `clock` (None: the match has no clock)."""
        state = match.clock
        if state is None:
            return None
        return state.to_dict(match.turn(), self.clock())

    def out_of_time(self, match: ClockedMatch) -> bool:
        state = match.clock
        return state is not None and state.out_of_time(match.turn(), self.clock())

    def time_to_move(self, match_ids) -> dict[str, dict]:
        """For lists of games ("my games"): per clocked match among `match_ids`, its control, the seat whose
        clock runs (None: none runs: not started or over) and the seconds it has left now. One query by
        primary keys, no replay; a match without a clock is absent."""
        now, answer = self.clock(), {}
        for match_id, (control, seat, deadline) in self.store.deadlines(list(match_ids)).items():
            answer[match_id] = {"clock": control, "seat": seat,
                                "seconds_left": None if deadline is None else round(max(deadline - now, 0.0), 1),
                                "deadline": deadline}
        return answer

    # -- flags ------------------------------------------------------------------------------------
    def arm(self, match: ClockedMatch) -> None:
        """After an event: keep the `clocks` row and the flag's timer in step with who runs now."""
        state = match.clock
        if state is None:
            return
        running = match.turn()
        deadline = state.deadline(running)
        self.store.set_deadline(match.id, state.control.to_dict(), running if deadline is not None else None,
                                deadline)
        # The last event's timer, if it set one, and the one a start-up set (`resume`): the deadline scheduled
        # here supersedes both (one removal: a round trip with RedisTimers).
        self.timers.cancel(f"{PREFIX}{match.id}:{match.version - 1}", f"{PREFIX}{match.id}:resume")
        if deadline is not None:
            self.timers.schedule(f"{PREFIX}{match.id}:{match.version}", deadline)

    def _due(self, keys: list[str]) -> None:
        seen = []
        for key in keys:
            match_id = key[len(PREFIX):].rsplit(":", 1)[0]
            if match_id not in seen:
                seen.append(match_id)
                self.on_flag(match_id)

    def fire_due(self) -> list[str]:
        """Fire the flags due now (the timers' background task does; tests call it)."""
        return self.timers.fire_due()

    # -- restarts ---------------------------------------------------------------------------------
    def resume(self, credit: Callable[[str, float], None]) -> float:
        """At start-up: if every server was down (no heartbeat for three intervals), credit each running clock
        with the time since the last beat (`credit(match_id, seconds)`, the match service's); then re-arm every
        pending flag. Returns the seconds credited (0: none). The heartbeat itself starts with `start()`."""
        now, last = self.clock(), self.store.last_beat()
        down = 0.0
        if last is None:
            self.store.beat(now)
        elif now - last > 3 * self.beat_interval and self.store.beat(now, expected=last):
            down = now - last
            for match_id, _seat, _deadline in self.store.running():
                try:
                    credit(match_id, down)
                except Exception:
                    log.exception("the clock of match %s could not be credited", match_id)
        for match_id, _seat, deadline in self.store.running():
            self.timers.schedule(f"{PREFIX}{match_id}:resume", deadline)
        return down

    def start(self) -> None:
        """Beat every `beat_interval` seconds while this process serves (app.py calls it once it listens; an
        application made in a test's process does not beat, and leaves no task behind)."""
        if self._spawn is not None and self._sleep is not None and not self._running:
            self._running = True
            self._spawn(self._beat_forever)

    def beat(self) -> None:
        self.store.beat(self.clock())

    def _beat_forever(self) -> None:
        repeat(self.beat, self.beat_interval, sleep=self._sleep, running=lambda: self._running,
               failure="the clocks' heartbeat could not be written")

    def close(self) -> None:
        """At shutdown: a last beat, so that the downtime counts from now (only from a process that beat)."""
        if not self._running:
            return
        self._running = False
        try:
            self.beat()
        except Exception:
            pass
