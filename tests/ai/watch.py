"""Watching a search keep its time budget without a watch: a clock that moves on by `step` seconds at every
reading (the search reads it every `Limits.CHECK_EVERY` nodes), and a count of the moves pushed on the board
between two readings. "Keeps to its budget" becomes two counts: the readings after the deadline (how often
the search looked at a clock already past it before it answered) and the most pushes between two readings
(the work it can do without looking). Neither depends on how fast or how busy the machine is; bench/ai_levels.py
measures the seconds."""
from __future__ import annotations


class SearchWatch:
    def __init__(self, board_type, step: float = 0.001, now: float = 1000.0):
        self.board_type = board_type
        self.step = step
        self.now = now
        self.deadline: float | None = None
        self.readings = 0
        self.late = 0                  # readings at or after the deadline
        self.pushes = 0
        self.most_between = 0          # the most pushes between two readings
        self._since = 0

    def budget(self, seconds: float) -> float:
        """The time budget to pass with this clock; the deadline is the first reading plus it."""
        self.deadline = self.now + seconds
        return seconds

    def __call__(self) -> float:
        self.readings += 1
        if self.deadline is not None and self.now >= self.deadline:
            self.late += 1
        self.most_between = max(self.most_between, self._since)
        self._since = 0
        answer = self.now
        self.now += self.step
        return answer

    def counting(self, monkeypatch) -> "SearchWatch":
        """Count every push on boards of this type (the search pushes on its own copy of the board)."""
        push = self.board_type.push

        def counted(board, move, *args, **kwargs):
            self.pushes += 1
            self._since += 1
            return push(board, move, *args, **kwargs)
        monkeypatch.setattr(self.board_type, "push", counted)
        return self

    @property
    def after_last_reading(self) -> int:
        return self._since
