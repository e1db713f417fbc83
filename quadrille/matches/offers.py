"""Offers between the players of a match, decided by consent: who may offer what, and when.

An offer is an event in the match's log, like a move (`offer`, `decline`), so every tab and every process
sees the same offers after a reload or a restart. The match core carries out an accepted offer (agreements.py):

- `rematch`, once the game is over: a new match whose seats belong to the same players.
- `takeback`, during an online game: back to before the offering player's last move (lichess's take-back:
  on their own turn, their opponent's reply goes too).
- `draw`, during an online game of a game that has draws (`Game.draws`): the game ends with no winner.

An offer stands until every other player has accepted it (then the service carries it out) or one of them
declines it. Offering what another player already offers accepts it. Against spam: a player cannot offer
what they already offer, and a declined take-back or draw cannot be offered again by that side until a move
is made (a declined rematch never again). Offers lapse with the position they were made in: any move ends a
pending take-back (it would take back another move), and a draw offer stands through its maker's own moves
(offer, then move, as over the board) and lapses when another player moves instead of accepting.

Aborting (before every player has moved) is a player's own decision, not an offer: endings.abort.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import games

from ..errors import ServiceError
from ..i18n import _l

KINDS = ("rematch", "takeback", "draw")
IN_GAME = ("takeback", "draw")  # offered while the game goes on; lapse with the position


@dataclass(frozen=True)
class Situation:
    """What the rules of offers look at in a match, as the service sees it at the moment of an offer."""

    over: bool                       # the game has ended
    begun: bool                      # moves may be made (match.py: every seat taken, or the creator started it)
    online: bool                     # players on separate screens (elsewhere a take-back is immediate)
    draws: bool                      # the game has draws
    title: str = ""                  # the game's title, for messages
    turn: int | None = None          # the seat to act
    moved: frozenset = frozenset()   # seats with a move in the current line

    @classmethod
    def of(cls, match) -> "Situation":
        """A match's situation now (`match`: match.py's Match)."""
        game = games.get(match.row.game)
        return cls(over=match.outcome() is not None, begun=match.begun(), online=match.row.mode == "online",
                   draws=game.draws, title=game.title, turn=match.board.turn,
                   moved=frozenset(s for s in match.move_seats if s is not None))


def _refuse(status: int, error: str, reason: str) -> ServiceError:
    return ServiceError(status, error, reason)


@dataclass
class Offers:
    """The offers of one match, rebuilt from its events."""

    pending: dict = field(default_factory=dict)    # kind -> seats that offer it (its maker and who agreed)
    declined: dict = field(default_factory=dict)   # kind -> seats whose offer was declined
    makers: dict = field(default_factory=dict)     # kind -> the seat that made the pending offer
    rematch: str | None = None                     # the rematch's match id, once agreed

    # -- events ---------------------------------------------------------------------------------------
    def apply(self, kind: str, data: dict) -> None:
        if kind == "offer":
            offered = self.pending.setdefault(data["offer"], set())
            if not offered:
                self.makers[data["offer"]] = data["seat"]
            offered.add(data["seat"])
        elif kind == "decline":
            offered = self.pending.pop(data["offer"], set())
            self.makers.pop(data["offer"], None)
            self.declined.setdefault(data["offer"], set()).update(offered)
        elif kind == "rematch":
            self.pending.pop("rematch", None)
            self.makers.pop("rematch", None)
            self.rematch = data["match"]

    def moved(self, seat: int | None) -> None:
        """A move was made (or the position went back): in-game offers lapse, declined ones may come again."""
        for kind in IN_GAME:
            self.declined.pop(kind, None)
        self._drop("takeback")
        if seat is None or self.makers.get("draw") != seat:
            self._drop("draw")

    def rewound(self) -> None:
        self.moved(None)

    def ended(self) -> None:
        """The game ended by a decision (resigned, aborted, drawn, claimed): in-game offers have nothing left
        to apply to."""
        for kind in IN_GAME:
            self._drop(kind)

    def _drop(self, kind: str) -> None:
        self.pending.pop(kind, None)
        self.makers.pop(kind, None)

    # -- reading --------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {kind: sorted(seats) for kind, seats in self.pending.items() if seats}

    def declined_dict(self) -> dict:
        return {kind: sorted(seats) for kind, seats in self.declined.items() if seats}

    def maker(self, kind: str) -> int | None:
        return self.makers.get(kind)

    def agreed(self, kind: str, seats: list[int], humans: list[int]) -> bool:
        """Whether every player would agree once `seats` join the offer."""
        return set(humans) <= self.pending.get(kind, set()) | set(seats)

    # -- rules ----------------------------------------------------------------------------------------
    def check_offer(self, kind: str, seats: list[int], situation: Situation) -> None:
        """Refuse an offer that the rules do not allow now (ServiceError), else return."""
        if kind not in KINDS:
            raise _refuse(400, "bad-offer", _l("Players can offer: %(kinds)s.", kinds=", ".join(KINDS)))
        if kind == "rematch":
            if not situation.over:
                raise _refuse(409, "game-not-over", _l("A rematch can be offered once the game is over."))
        else:
            self._check_in_game(kind, seats, situation)
        mine = set(seats)
        if mine & self.pending.get(kind, set()):
            raise _refuse(409, "already-offered", _l("You have already offered that; wait for the answer."))
        if mine & self.declined.get(kind, set()):
            raise _refuse(409, "offer-declined", _l("Your offer was declined; it cannot be made again.")
                          if kind == "rematch" else _l("Your offer was declined; you can offer it again after a move."))

    def others_offer(self, kind: str, seats: list[int]) -> bool:
        """Whether another player offers `kind` and these seats have not agreed yet: offering it accepts it."""
        offered = self.pending.get(kind, set())
        return bool(offered - set(seats)) and not set(seats) & offered

    @staticmethod
    def _check_in_game(kind: str, seats: list[int], situation: Situation, maker: bool = True) -> None:
        """The rules of an in-game offer; `maker`: also those of making it (not of accepting it)."""
        if not situation.online:
            raise _refuse(403, "not-allowed", _l("On one screen and against the computer, a take-back is immediate; "
                                                 "there is nobody to ask.") if kind == "takeback" else
                                              _l("Offers are for players on separate screens."))
        if situation.over:
            raise _refuse(409, "game-over", _l("The game is over."))
        if not situation.begun:
            raise _refuse(409, "not-started", _l("The game has not started yet."))
        if not maker:
            return
        if kind == "draw":
            if not situation.draws:
                raise _refuse(400, "bad-offer", _l("%(title)s has no draws: every game has a winner.",
                                                   title=situation.title)
                              if situation.title else _l("This game has no draws: every game has a winner."))
            if situation.turn not in seats:
                raise _refuse(403, "not-your-turn", _l("Offer a draw on your own turn (then make your move, or wait "
                                                       "for the answer)."))
        if kind == "takeback" and not set(seats) & situation.moved:
            raise _refuse(409, "bad-rewind", _l("You have no move to take back yet."))

    def check_answer(self, kind: str, seats: list[int], situation: Situation | None = None) -> None:
        """Refuse accepting when no other player offers `kind` (or, in game, when it can no longer be)."""
        if kind not in KINDS:
            raise _refuse(400, "bad-offer", _l("Players can offer: %(kinds)s.", kinds=", ".join(KINDS)))
        offered = self.pending.get(kind, set())
        if not offered:
            raise _refuse(409, "no-offer", _l("Nobody offers that now."))
        if self.makers.get(kind) in seats or offered <= set(seats):
            raise _refuse(409, "own-offer", _l("You made this offer; the other player answers it."))
        if set(seats) & offered:
            raise _refuse(409, "already-offered", _l("You have already agreed; wait for the others."))
        if kind in IN_GAME and situation is not None:
            self._check_in_game(kind, seats, situation, maker=False)

    def check_decline(self, kind: str, seats: list[int]) -> None:
        """Decline: as an answer, except that declining one's own offer is `no-offer` (as before this module
        knew take-backs)."""
        if kind not in KINDS:
            raise _refuse(400, "bad-offer", _l("Players can offer: %(kinds)s.", kinds=", ".join(KINDS)))
        offered = self.pending.get(kind, set())
        if not offered or offered <= set(seats):
            raise _refuse(409, "no-offer", _l("There is no offer from another player to decline."))
