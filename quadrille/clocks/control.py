"""Time controls: what a match's creator chooses, checked once here for every door (HTTP, by name, challenges).

    parse_time_control(None)                                             -> None (no clock)
    parse_time_control({"kind": "realtime", "minutes": 5, "increment": 3}) -> TimeControl
    parse_time_control({"kind": "correspondence", "days": 3})            -> TimeControl

Bad input raises a ServiceError `bad-clock` (400) that says what is wrong and what is allowed; nothing else is
looked at, so a caller that checks first changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import bad_request
from ..i18n import _l

KINDS = ("realtime", "correspondence")
DAY = 86400.0


@dataclass(frozen=True)
class Bounds:
    """What the server offers (the CLOCK_* settings)."""

    minutes_min: float = 0.25     # lichess's shortest: a quarter of a minute
    minutes_max: float = 180.0
    increment_max: int = 180      # seconds added per move (per turn in Towers)
    days_min: int = 1
    days_max: int = 14

    @classmethod
    def from_settings(cls, config) -> "Bounds":
        return cls(minutes_min=float(config.get("CLOCK_MINUTES_MIN", cls.minutes_min)),
                   minutes_max=float(config.get("CLOCK_MINUTES_MAX", cls.minutes_max)),
                   increment_max=int(config.get("CLOCK_INCREMENT_MAX", cls.increment_max)),
                   days_min=int(config.get("CORRESPONDENCE_DAYS_MIN", cls.days_min)),
                   days_max=int(config.get("CORRESPONDENCE_DAYS_MAX", cls.days_max)))


@dataclass(frozen=True)
class TimeControl:
    """A real-time clock (`minutes` per side, `increment` seconds added when a player's turn ends) or a
    correspondence one (`days` for each turn)."""

    kind: str
    minutes: float = 0.0
    increment: int = 0
    days: int = 0

    @property
    def initial(self) -> float:
        """Seconds on each clock at the start."""
        return self.minutes * 60.0 if self.kind == "realtime" else self.days * DAY

    @property
    def per_turn(self) -> float:
        """Seconds a correspondence turn gives (its clock is set to this when the turn comes)."""
        return self.days * DAY

    def to_dict(self) -> dict:
        if self.kind == "realtime":
            return {"kind": "realtime", "minutes": self.minutes, "increment": self.increment}
        return {"kind": "correspondence", "days": self.days}

    @classmethod
    def from_dict(cls, data: dict) -> "TimeControl":
        """A control as stored (already checked when the match was made)."""
        if data["kind"] == "realtime":
            return cls("realtime", minutes=data["minutes"], increment=data.get("increment", 0))
        return cls("correspondence", days=data["days"])


def _number(value, what: str, low: float, high: float, integer: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise bad_request(_l("clock.%(what)s must be a number from %(low)g to %(high)g.",
                             what=what, low=low, high=high), "bad-clock")
    if integer and value != int(value):
        raise bad_request(_l("clock.%(what)s must be a whole number from %(low)g to %(high)g.",
                             what=what, low=low, high=high), "bad-clock")
    if not low <= value <= high:
        raise bad_request(_l("clock.%(what)s must be from %(low)g to %(high)g; got %(value)g.",
                             what=what, low=low, high=high, value=value), "bad-clock")
    return int(value) if integer or value == int(value) else float(value)


def parse_time_control(value, bounds: Bounds | None = None, mode: str = "online") -> TimeControl | None:
    """The `clock` field of a new match (None: no clock), checked against `bounds`. `mode`: the match's mode
    (correspondence is for online games: nobody waits days for the computer or for themselves)."""
    bounds = bounds or Bounds()
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad_request(_l("clock must be null, {\"kind\": \"realtime\", \"minutes\": M, \"increment\": S} or "
                             "{\"kind\": \"correspondence\", \"days\": D}."), "bad-clock")
    kind = value.get("kind")
    if kind not in KINDS:
        raise bad_request(_l("clock.kind must be \"realtime\" or \"correspondence\"."), "bad-clock")
    fields = {"realtime": {"kind", "minutes", "increment"}, "correspondence": {"kind", "days"}}[kind]
    unknown = sorted(set(value) - fields)
    if unknown:
        raise bad_request(_l("A %(kind)s clock takes %(fields)s, not %(unknown)s.", kind=kind,
                             fields=", ".join(sorted(fields - {"kind"})), unknown=", ".join(map(str, unknown))),
                          "bad-clock")
    if kind == "realtime":
        if "minutes" not in value:
            raise bad_request(_l("A realtime clock needs minutes (per side)."), "bad-clock")
        minutes = _number(value["minutes"], "minutes", bounds.minutes_min, bounds.minutes_max)
        increment = _number(value.get("increment", 0), "increment", 0, bounds.increment_max, integer=True)
        return TimeControl("realtime", minutes=minutes, increment=increment)
    if mode != "online":
        raise bad_request(_l("Correspondence clocks are for online games."), "bad-clock")
    if "days" not in value:
        raise bad_request(_l("A correspondence clock needs days (per move)."), "bad-clock")
    days = _number(value["days"], "days", bounds.days_min, bounds.days_max, integer=True)
    return TimeControl("correspondence", days=days)
