"""Absence follows the clock: when the players still here may act against one who left an online game.

A player is away from the moment their last tab closed (presence, infra/presence.py). What that allows the
others depends on the match's time control, one rule per kind (`rule_for`):

- **No clock** (`disconnect`): after DISCONNECT_TIMEOUT (60 s) away, the others may claim victory, call it a
  draw where the game has draws, or hand the seat to the computer. Nothing else would ever end such a game.
- **Real time** (`realtime`): as on lichess, the clocks do not stop (an absent player whose time runs out loses
  on time: the flag falls on the server), and the others may claim after a grace scaled to the game's speed:
  REALTIME_ABSENCE (40 s, lichess's) for a bullet or blitz control, twice it for a rapid one, three times for a
  classical one (the speed from the estimated duration, minutes x 60 + 40 x increment, by lichess's bounds: under
  480 s, under 1,500 s, above). A slow game gives a player more time to come back (a dropped connection, a
  reboot); in a fast one their own clock usually decides first anyway. The grace runs from when they left,
  whoever's turn it is: waiting for their clock alone would let an absent player hold a game hostage for as
  long as their time lasts on the stayer's turn.
- **Days per move** (`correspondence`): being away means nothing, since nobody is expected to stay on the page
  for days; only the clock decides. No claim, no hand-over, no alarm: the page shows a quiet presence dot.
- **A rated game before every player has moved** (`rated-start`), whatever its clock: no claim, which would
  win a rating without a game; the others may abort it (no result), as they may anyway until everyone moved.

`Absence` applies the rule for the match core: the STATE's `away` entries (`away`), the check of a claim
(`claimable_against`) and of a hand-over to the computer (`check_hand_over`). The countdowns themselves (and the
timer that tells the room when one ends) are timeouts.py's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import ServiceError
from ..i18n import _l
from ..i18n.words import N_, Listed
from .timeouts import DisconnectTimeouts

# lichess's speed bounds (estimated seconds: initial + 40 x increment), where its disconnect timeout doubles and triples
RAPID_FROM = 480.0
CLASSICAL_FROM = 1500.0


@dataclass(frozen=True)
class Rule:
    """What being away allows: `kind` names the rule (STATE `away[].rule`); `timeout`, the seconds of absence
    after which the others may claim (None: never, whatever the wait)."""

    kind: str
    timeout: float | None


def realtime_timeout(control: dict, grace: float) -> float:
    """A real-time control's grace: `grace` for bullet and blitz, twice it for rapid, three times for classical."""
    estimated = float(control.get("minutes", 0)) * 60.0 + 40.0 * float(control.get("increment", 0))
    return grace * (1 if estimated < RAPID_FROM else 2 if estimated < CLASSICAL_FROM else 3)


def rule_for(control: dict | None, rated: bool, everyone_moved: bool, disconnect_timeout: float,
             realtime_grace: float) -> Rule:
    """The absence rule of a match: its time control (the STATE's `clock` fields, None: no clock), whether it is
    rated, and whether every player has moved in it."""
    if rated and not everyone_moved:
        return Rule("rated-start", None)
    if control is None:
        return Rule("disconnect", disconnect_timeout)
    if control["kind"] == "correspondence":
        return Rule("correspondence", None)
    return Rule("realtime", realtime_timeout(control, realtime_grace))


class Absence:
    """The rule applied to the match core's matches (`match`: match.py's Match)."""

    def __init__(self, timeouts: DisconnectTimeouts, realtime_grace: float = 40.0):
        self.timeouts = timeouts
        self.realtime_grace = float(realtime_grace)
        # Whether a match is rated (the factory's, on the ratings' table). Asked only while someone is away
        # and not everyone has moved; a match found rated stays rated.
        self.rated: Callable[[str], bool] = lambda match_id: False
        self._rated: set[str] = set()

    def realtime_timeout(self, control: dict) -> float:
        """A real-time control's grace on this server (the match page's help says it)."""
        return realtime_timeout(control, self.realtime_grace)

    def _is_rated(self, match_id: str) -> bool:
        if match_id in self._rated:
            return True
        if self.rated(match_id):
            if len(self._rated) > 4096:
                self._rated.clear()
            self._rated.add(match_id)
            return True
        return False

    def rule(self, match) -> Rule:
        control = match.clock.control.to_dict() if match.clock is not None else None
        everyone_moved = set(match.humans()) <= set(match.move_seats)
        rated = not everyone_moved and self._is_rated(match.id)
        return rule_for(control, rated, everyone_moved, self.timeouts.timeout, self.realtime_grace)

    def away(self, match, fresh: bool = False, seen: list[int] = ()) -> list[dict]:
        """The STATE's `away`: each away seat with `seconds` gone, `claimable_in` (None: no claim), `rule` and
        `timeout` (see the module's text). The caller checked that the game is under way online. `seen`: seats
        whose player is acting now, told to presence in the same look."""
        found: list[Rule] = []

        def wait() -> float | None:  # asked only when someone is away: a rated game's rule reads storage
            found.append(self.rule(match))
            return found[0].timeout
        entries = self.timeouts.away(match.id, match.humans(), match.began_at, fresh=fresh, wait=wait, seen=seen)
        return [{**entry, "rule": found[0].kind, "timeout": found[0].timeout} for entry in entries]

    # -- decisions --------------------------------------------------------------------------------------
    def claimable_against(self, match, seats: list[int], away: list[dict]) -> list[int]:
        """The other players' seats a claim may be made against now (`away`: the STATE's, read fresh); a clear
        refusal otherwise."""
        others = [s for s in match.humans() if s not in seats]
        gone = {entry["seat"]: entry for entry in away if entry["seat"] in others}
        if not others or not gone:
            here = [match.name(s) for s in others]
            raise ServiceError(409, "player-present",
                               _l("%(name)s is here: there is nothing to claim.", name=here[0]) if len(here) == 1
                               else _l("%(names)s are here: there is nothing to claim.", names=Listed(here))
                               if here else _l("Your opponent is here: there is nothing to claim."))
        seat, entry = next(iter(gone.items()))
        self._refuse_never(match, seat, entry)
        ready = [s for s, e in gone.items() if e["claimable_in"] <= 0]
        if not ready:
            raise _too_early(match, seat, entry, "claim")
        return sorted(ready)

    def check_hand_over(self, match, seat: int, away: list[dict]) -> None:
        """A seat may be handed to the computer when its player is gone (presence's grace, checked by the
        caller), never where no claim is (days per move, a rated game before everyone moved), and in a game with
        a real-time clock once a claim against them would be allowed."""
        entry = next((e for e in away if e["seat"] == seat), None)
        if entry is None:
            return  # the caller's presence check refuses a player who is here
        self._refuse_never(match, seat, entry)
        if match.clock is not None and entry["claimable_in"] > 0:
            raise _too_early(match, seat, entry, "computer")

    @staticmethod
    def _refuse_never(match, seat: int, entry: dict) -> None:
        if entry["rule"] == "correspondence":
            raise ServiceError(403, "not-allowed", _l("%(name)s is away, but in a game of days per move being away "
                                                     "costs nothing: only their clock decides.", name=match.name(seat)))
        if entry["rule"] == "rated-start":
            raise ServiceError(403, "not-allowed", _l("%(name)s left before every player moved: a rated game is not "
                                                     "won that way. Abort it instead (no result).",
                                                     name=match.name(seat)))


def _too_early(match, seat: int, entry: dict, what: str) -> ServiceError:
    """`what`: "claim" (a timeout claim) or "computer" (a hand-over to the computer); whole sentences each, so
    that every language can order them its own way."""
    realtime = entry["rule"] == "realtime"
    sentences = {
        ("claim", False): N_("%(name)s left %(seconds)d s ago; you can claim once they have been away "
                             "%(timeout)d s, in %(wait)d s."),
        ("claim", True): N_("%(name)s left %(seconds)d s ago; you can claim once they have been away "
                            "%(timeout)d s (a real-time game: the clocks do not stop meanwhile), in %(wait)d s."),
        ("computer", False): N_("%(name)s left %(seconds)d s ago; the computer can take the seat once they have "
                                "been away %(timeout)d s, in %(wait)d s."),
        ("computer", True): N_("%(name)s left %(seconds)d s ago; the computer can take the seat once they have "
                               "been away %(timeout)d s (a real-time game: the clocks do not stop meanwhile), in "
                               "%(wait)d s."),
    }
    return ServiceError(409, "too-early", _l(sentences[(what, realtime)], name=match.name(seat),
                                             seconds=round(entry["seconds"]), timeout=round(entry["timeout"]),
                                             wait=round(entry["claimable_in"])),
                        claimable_in=entry["claimable_in"])
