"""The match as the core holds it in memory: its row, its board, its version, and what its events made of it.

One word says whether moves may be made: a match has **begun** (`Match.begun()`). It begins in one of two ways,
by its game and mode:

- `begins_on_start(game, mode)`: an online game of a variable number of seats (Gamma) begins when its creator
  starts it (`Match.creator_started`, set by the `start` event);
- `begins_when_seated(game, mode)`: an online game of a fixed number of seats begins when the last seat is
  taken: nobody moves against an empty chair.

Any other match (on one screen, against the computer) has begun from its creation.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cached_property

import games

from ..clocks import ClockState
from ..errors import ServiceError
from ..i18n.words import Words, _l
from .store import MatchRow
from ..infra.tokens import seats_held
from .naming import MoveNames
from .offers import Offers

MODES = ("online", "local", "ai")
EXTRA_EVENTS = 400  # beyond 4 events a move: the decisions of a long life (offers, hand-overs, a rematch)
_UNKNOWN = object()  # an outcome not computed since the match last changed


class CopyBehind(ServiceError):
    """A write refused because this process's copy of the match is behind a change made elsewhere without an
    event (a seat handed over, a pause): to a client, a `stale-version` like any other."""


def begins_on_start(game: games.Game, mode: str) -> bool:
    """Online matches of games with a variable number of seats wait for their creator's start."""
    return mode == "online" and game.seats[0] != game.seats[1]


def begins_when_seated(game: games.Game, mode: str) -> bool:
    """Online matches of games with a fixed number of seats begin when the last seat is taken."""
    return mode == "online" and game.seats[0] == game.seats[1]


@dataclass
class Match:
    """A match as the core holds it in memory: its row, its board, its version."""

    row: MatchRow
    board: games.Board
    version: int = 0
    result: dict | None = None       # a match decision that ended it (resignation, abort, agreed draw, timeout)
    creator_started: bool = True     # false while a match that begins on its creator's start waits for it
    begins_when_seated: bool = False  # an online game of a fixed number of seats begins when every one is taken
    began_at: float = 0.0            # when it began (the core's clock; a match loaded later: its loading)
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
    # Seats whose player acts in the command under way, not yet told to presence: the STATE's look at presence
    # tells it (one look a move), or the core does at the command's end (core.py). Touched under `lock` only.
    unseen: list = field(default_factory=list)
    endings: list = field(default_factory=list)     # an ending recorded, not yet told to the bus (core.publish)
    # The outcome, computed once per change (events.py and checkpoint.py forget it): every STATE asks it often.
    known_outcome: object = field(default=_UNKNOWN, repr=False)
    named: MoveNames = field(default_factory=MoveNames, repr=False)  # the STATE's move names, kept (naming.py)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def game(self) -> str:
        return self.row.game

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

    def changed(self) -> None:
        """Its board or result changed: the outcome is computed again when next asked."""
        self.known_outcome = _UNKNOWN

    def outcome(self) -> dict | None:
        if self.known_outcome is _UNKNOWN:
            self.known_outcome = self._outcome()
        return self.known_outcome

    def _outcome(self) -> dict | None:
        if self.result is not None:
            return self.result
        outcome = self.board.outcome()
        if outcome:
            return outcome.to_dict()
        if len(self.move_seats) >= self.move_limit:
            return {"winners": [], "scores": [], "reason": "move-limit"}
        return None

    def begun(self) -> bool:
        """Whether moves may be made (or the game is over): its creator started it where it begins so, and
        every seat is taken where it begins so. A match of a release before this rule that was already played
        counts as begun."""
        if not self.creator_started:
            return False
        if not self.begins_when_seated or self.move_seats:
            return True
        return all(s.token_hash is not None or s.seat in self.computer for s in self.row.seats)

    @cached_property
    def seat_names(self) -> list[str]:
        """What players call each seat ("Blue", "Red"): every message names seats so."""
        names = games.get(self.row.game).seat_names(self.row.options)
        return names[:len(self.row.seats)] + [f"Player {s.seat}" for s in self.row.seats[len(names):]]

    def name(self, seat: int) -> str:
        """A seat's name in a sentence for a person: its colour, English here (a plain `str`) and a word of the
        games' catalog that the door says in the reader's language."""
        names = self.seat_names
        if 1 <= seat <= len(names) and not names[seat - 1].startswith("Player "):
            return Words(names[seat - 1])
        return _l("Player %(number)d", number=seat)

    def turn(self) -> int | None:
        return None if not self.begun() or self.outcome() is not None else self.board.turn

    def computer_to_move(self) -> bool:
        return not self.paused and self.turn() in self.computer

    def humans(self) -> list[int]:
        """The seats people hold (claimed, and not played by the computer)."""
        return [s.seat for s in self.row.seats if s.token_hash is not None and s.seat not in self.computer]
