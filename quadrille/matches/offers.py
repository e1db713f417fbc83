"""Offers between the players of a match, decided by consent: who may offer what, and when.

An offer is an event in the match's log, like a move (`offer`, `decline`), so every tab and every process
sees the same offers after a reload or a restart. The service applies the outcome of an accepted offer
(for a rematch: a new match whose seats belong to the same players).

A rematch can be offered once the game is over, once per side: a player whose offer is pending or was
declined cannot offer again, so nobody can be flooded with offers.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ServiceError

KINDS = ("rematch",)


@dataclass
class Offers:
    """The offers of one match, rebuilt from its events."""

    pending: dict = field(default_factory=dict)    # kind -> seats that offer it
    declined: dict = field(default_factory=dict)   # kind -> seats whose offer was declined
    rematch: str | None = None                     # the rematch's match id, once agreed

    def apply(self, kind: str, data: dict) -> None:
        if kind == "offer":
            self.pending.setdefault(data["offer"], set()).add(data["seat"])
        elif kind == "decline":
            offered = self.pending.pop(data["offer"], set())
            self.declined.setdefault(data["offer"], set()).update(offered)
        elif kind == "rematch":
            self.pending.pop("rematch", None)
            self.rematch = data["match"]

    def to_dict(self) -> dict:
        return {kind: sorted(seats) for kind, seats in self.pending.items() if seats}

    def check_offer(self, kind: str, seats: list[int], over: bool) -> None:
        """Refuse an offer that the rules do not allow now (ServiceError), else return."""
        if kind not in KINDS:
            raise ServiceError(400, "bad-offer", "Players can offer: " + ", ".join(KINDS) + ".")
        if kind == "rematch" and not over:
            raise ServiceError(409, "game-not-over", "A rematch can be offered once the game is over.")
        mine = set(seats)
        if mine & self.pending.get(kind, set()):
            raise ServiceError(409, "already-offered", "You have already offered that; wait for the answer.")
        if mine & self.declined.get(kind, set()):
            raise ServiceError(409, "offer-declined", "Your offer was declined; it cannot be made again.")

    def check_decline(self, kind: str, seats: list[int]) -> None:
        if kind not in KINDS:
            raise ServiceError(400, "bad-offer", "Players can offer: " + ", ".join(KINDS) + ".")
        offered = self.pending.get(kind, set())
        if not offered or offered <= set(seats):
            raise ServiceError(409, "no-offer", "There is no offer from another player to decline.")
