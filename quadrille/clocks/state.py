"""A match's clocks as arithmetic: no storage, no time source, so that a replay of the match's events gives the
same clocks in every process.

The clocks live in the match's log. Every event recorded while the clocks run carries a snapshot,
`{"at": T, "left": [seconds per seat]}`: the time on the clocks' clock when it happened, and each seat's time
left then, the seat to move charged up to T. Replaying the events sets the clocks to the last snapshot, and a
move that ends a player's turn adds the increment (real time) or sets the next player's time to a whole turn
(correspondence). Between two events only the clock of the seat to move runs: its time left is
`left[seat] - (now - at)`.

The clocks start with the first move of the game (before it nothing runs, and the game may still be aborted);
they stop when the game ends.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .control import TimeControl


@dataclass
class ClockState:
    control: TimeControl
    left: list[float] = field(default_factory=list)   # seconds per seat (index seat - 1), at `at`
    at: float | None = None                           # the last snapshot's time; None: not started yet
    flagged: int | None = None                        # the seat whose time ran out

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> "ClockState":
        return cls(control, [control.initial] * seats)

    @property
    def started(self) -> bool:
        return self.at is not None

    def charged(self, running: int | None, now: float) -> list[float]:
        """Each seat's time left at `now`: the seat to move (`running`) charged since the last snapshot."""
        left = list(self.left)
        if running is not None and self.at is not None and 1 <= running <= len(left):
            left[running - 1] = max(left[running - 1] - max(now - self.at, 0.0), 0.0)
        return left

    def snapshot(self, running: int | None, now: float, credit: float = 0.0) -> dict:
        """What an event recorded at `now` carries; `credit`: seconds not charged (the server was down)."""
        return {"at": round(now, 3), "left": [round(s, 3) for s in self.charged(running, now - credit)]}

    def deadline(self, running: int | None) -> float | None:
        """When the running seat's time runs out (on the clocks' clock), or None while no clock runs."""
        if running is None or self.at is None or self.flagged is not None:
            return None
        return self.at + self.left[running - 1]

    def out_of_time(self, running: int | None, now: float) -> bool:
        deadline = self.deadline(running)
        return deadline is not None and now >= deadline

    # -- replaying the log -------------------------------------------------------------------------
    def apply(self, snapshot: dict | None) -> None:
        if snapshot:
            self.left, self.at = [float(s) for s in snapshot["left"]], float(snapshot["at"])

    def turn_passed(self, mover: int, to: int | None) -> None:
        """A move ended `mover`'s turn and `to` moves next (None: the game ended): Fischer's increment to the
        mover in real time; a whole turn for the next player in correspondence."""
        if self.at is None:
            return
        if self.control.kind == "realtime":
            self.left[mover - 1] += self.control.increment
        elif to is not None:
            self.left[to - 1] = self.control.per_turn

    def to_dict(self, running: int | None, now: float) -> dict:
        """The STATE's `clock`: the control, each seat's time left now, which one runs, and its deadline in
        seconds from now (the page counts down from these)."""
        left = self.charged(running, now)
        runs = running if self.started and self.flagged is None else None
        return {**self.control.to_dict(), "left": [round(s, 2) for s in left], "running": runs,
                "started": self.started, "flagged": self.flagged}
