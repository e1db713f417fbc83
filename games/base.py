"""The engine contract shared by every game (docs/engine.md explains it, with examples).

An engine is pure: no I/O, no clock, no unseeded randomness. The names here
(`Option`, `Outcome`, `IllegalMove`, `Game`, `Board`) are the fixed contract that
the server, the AI, the tests and outside checks speak to. Every example in these
docstrings runs (tests/games/test_doctests.py), on real positions of real games:

    >>> import games
    >>> board = games.get("trails").new(size=5)
    >>> board.legal_moves()
    ['down', 'right']
    >>> board.push("down")
    >>> board.turn, board.moves
    (2, ['down'])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from games.reasons import Reason, as_reason, bad_option, reason_n  # noqa: F401 - the engines' reasons, part of the contract


# The move limit of a game that does not know its longest real game (`Game.longest` is None): far above any
# real game of the arcade's boards, yet small enough that a record cannot grow without end.
DEFAULT_MOVE_LIMIT = 10_000


class IllegalMove(ValueError):
    """A move that is malformed or not legal now. `reason` is for a person: an English `Reason` (a `str`) that a
    server says in the person's language (games/reasons.py).

        >>> import games
        >>> try:
        ...     games.get("gamma").new(width=3, height=3).push("3,0")
        ... except games.IllegalMove as refusal:
        ...     print(refusal.reason)
        d1 is off the 3x3 board
    """

    def __init__(self, reason: str, /, **params):
        # the English sentence, which keeps its template and values for a server to translate (games/reasons.py):
        # `IllegalMove("%(cell)s is taken", cell="a1")`, or a Reason made beforehand
        reason = Reason(reason, **params) if params else as_reason(reason)
        super().__init__(reason)
        self.reason = reason


class Outcome(NamedTuple):
    """How a game ended: `winners` (seats; empty for a draw), `scores` (one a seat) and a machine word `reason`.

        >>> Outcome((1,), (0, 0), "stuck").to_dict()
        {'winners': [1], 'scores': [0, 0], 'reason': 'stuck'}
    """

    winners: tuple  # seats (1-based); empty tuple = draw
    scores: tuple   # one number per seat
    reason: str     # a short machine word, e.g. "towers", "stuck"

    def to_dict(self) -> dict:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}


@dataclass(frozen=True)
class Option:
    """One option of a new game.

    kind is "int" (range = (lo, hi), inclusive), "choice" (choices = tuple of
    accepted values), "bool", "list" (choices = accepted items; the value is a
    list of distinct items, e.g. Towers' alternative rules), or "text" (a string
    the engine parses itself, e.g. an imported start position; not shown in the
    new-game form).
    """

    default: Any
    kind: str
    range: tuple | None = None
    choices: tuple | None = None
    help: str = ""
    form: tuple | None = None  # the (lo, hi) the new-game form offers, when narrower than the engine's range
    # Set away from its default, the option makes the game start from another position than the standard one
    # of its size (an imported game's own setup): a rated game leaves it at its default.
    changes_start: bool = False
    # Only imports set the option (the new-game form never shows it): a challenge's invitee would see it only
    # as text, so a rated game leaves it at its default.
    import_only: bool = False

    def accepted(self) -> str:
        if self.kind == "int":
            return Reason("an integer from %(low)d to %(high)d", low=self.range[0], high=self.range[1])
        if self.kind == "bool":
            return Reason("true or false")
        if self.kind == "list":
            return Reason("a list of distinct items from: %(choices)s", choices=", ".join(map(str, self.choices)))
        if self.kind == "text":
            return Reason("a string")
        return Reason("one of: %(choices)s", choices=", ".join(map(str, self.choices)))

    def check(self, name: str, value: Any) -> Any:
        """Return the value if acceptable (a list sorted), else raise ValueError naming the option.

            >>> Option(11, "int", range=(3, 25)).check("size", 5)
            5
            >>> Option(11, "int", range=(3, 25)).check("size", 30)
            Traceback (most recent call last):
            ValueError: option 'size': got 30, expected an integer from 3 to 25
        """
        ok = False
        if self.kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool) and self.range[0] <= value <= self.range[1]
        elif self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "choice":
            ok = isinstance(value, (str, int)) and not isinstance(value, bool) and value in self.choices
        elif self.kind == "list":
            ok = (isinstance(value, (list, tuple)) and len(set(map(str, value))) == len(value)
                  and all(isinstance(v, str) and v in self.choices for v in value))
            if ok:
                value = sorted(value)
        elif self.kind == "text":
            ok = isinstance(value, str) and len(value) <= 10_000
        if not ok:
            raise ValueError(bad_option(name, value, self.accepted()))
        return value

    def to_dict(self) -> dict:
        d = {"default": self.default, "kind": self.kind, "help": self.help}
        if self.range is not None:
            d["range"] = list(self.range)
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.form is not None:
            d["form"] = list(self.form)
        for flag in ("changes_start", "import_only"):
            if getattr(self, flag):
                d[flag] = True
        return d


class Board:
    """Base class of every game's board. Subclasses implement the contract:

    legal_moves(), push(move), pop(), outcome(), view(), plus `players` (the
    number of seats of this board) and `options` (the normalised options it was
    made with); `turn` and `moves` come from `_turn` and `_moves`; copy() and
    to_dict() replay the moves unless an engine has something faster.

    The examples below play Trails and Towers on a 5x5 field (Blue from the top-left
    corner, Red from the bottom-right) and Gamma; each game's engine shows its own.
    """

    game_name: str = ""
    options: dict
    players: int
    _turn: int | None = None   # subclasses keep the seat to act here (or override `turn`)
    _moves: list               # and every move pushed, in order

    @property
    def turn(self) -> int | None:
        """The seat that has to act now (1, 2, ...), or None once the game is over. A seat that cannot act is
        passed inside `push`, so this is always a seat with a legal move.

            >>> import games
            >>> games.get("trails").new(size=5).turn
            1
        """
        return self._turn

    @property
    def moves(self) -> list[str]:
        """Every move pushed since the start, in order (a copy). Automatic passes and ends of turn are not in it.

            >>> import games
            >>> board = games.get("towers").new(size=6)       # 2 move points a turn
            >>> board.push("m1,4>1,3:1"); board.push("m1,3>1,2:1")
            >>> board.moves, board.turn                       # the points ran out: Red's turn, no `end` pushed
            (['m1,4>1,3:1', 'm1,3>1,2:1'], 2)
        """
        return list(self._moves)

    def legal_moves(self) -> list[str]:  # pragma: no cover - abstract
        """Every legal move of `turn`, as notation strings, sorted; [] once the game is over.

            >>> import games
            >>> games.get("trails").new(size=5).legal_moves()
            ['down', 'right']
            >>> games.get("gamma").new(width=2, height=1).legal_moves()
            ['0,0', '1,0', 'skip']
        """
        raise NotImplementedError

    def push(self, move: str) -> None:  # pragma: no cover - abstract
        """Play `move` for `turn`. A malformed or illegal move raises `IllegalMove` with a reason for people,
        and leaves the board exactly as it was.

            >>> import games
            >>> board = games.get("trails").new(size=5)
            >>> board.push("up")
            Traceback (most recent call last):
            games.base.IllegalMove: the head, on a5, is on the edge: a new direction cannot leave the board
            >>> board.push("right")
            >>> board.moves
            ['right']
        """
        raise NotImplementedError

    def pop(self) -> str:  # pragma: no cover - abstract
        """Take back the last move and return it; IndexError when there is none. The exact inverse of `push`:
        `view()`, `legal_moves()` and `outcome()` are what they were.

            >>> import games
            >>> board = games.get("trails").new(size=5)
            >>> before = board.view()
            >>> board.push("down")
            >>> board.pop()
            'down'
            >>> board.view() == before
            True
        """
        raise NotImplementedError

    def outcome(self) -> Outcome | None:  # pragma: no cover - abstract
        """None while the game goes on, else its `Outcome`. Here Blue's last move leaves Red no move:

            >>> import games
            >>> board = games.get("trails").new(size=5)
            >>> for move in ["down", "left", "down", "left"]:
            ...     board.push(move)
            >>> board.outcome() is None
            True
            >>> board.push("right")
            >>> board.outcome()
            Outcome(winners=(1,), scores=(0, 0), reason='stuck')
        """
        raise NotImplementedError

    def view(self) -> dict:  # pragma: no cover - abstract
        """Everything a page needs to draw the position and the legal targets of `turn`, JSON-ready, with no
        secrets. The fields are each game's own; its renderer (games/<name>/static/) reads them.

            >>> import games
            >>> view = games.get("trails").new(size=5).view()
            >>> view["cells"]                  # rows from the top: Blue's head (1), Red's (2), towers (T)
            ['1...T', '.....', '..T..', '.....', 'T...2']
            >>> view["legal"]                  # each direction and the cells [row, column] it would claim
            {'down': [[1, 0]], 'right': [[0, 1]]}
        """
        raise NotImplementedError

    def can_still_win(self, seat: int) -> bool:
        """Whether `seat` could still win from here, were the game to go on: when a player's time runs out,
        an opponent who cannot makes it a draw (quadrille/clocks/results.py). Yes, unless an engine knows
        better (Lattice: a side with no piece left, on the board or on its bench)."""
        return True

    def copy(self) -> "Board":
        """An independent board with the same history (replay; engines may override).

            >>> import games
            >>> board = games.get("trails").new(size=5)
            >>> board.push("down")
            >>> twin = board.copy()
            >>> twin.push("left")
            >>> board.moves, twin.moves
            (['down'], ['down', 'left'])
        """
        from games import get
        board = get(self.game_name).new(**self.options)
        for move in self.moves:
            board.push(move)
        return board

    def to_dict(self) -> dict:
        """The record: the game, its options and the moves; `games.from_dict` rebuilds the board from it.

            >>> import games
            >>> board = games.get("trails").new(size=5)
            >>> board.push("down")
            >>> board.to_dict()
            {'game': 'trails', 'options': {'size': 5, 'towers': 3, 'distance': 1}, 'moves': ['down']}
            >>> games.from_dict(board.to_dict()).turn
            2
        """
        return {"game": self.game_name, "options": dict(self.options), "moves": list(self.moves)}


@dataclass
class Game:
    """A kind of game: its name, title, seats, options and board factory."""

    name: str
    title: str
    seats: tuple               # (min, max) players; max None = unbounded
    options: dict              # name -> Option
    board_class: type
    summary: str = ""          # a few sentences of rules for the lobby
    notes: Any = None          # optional callable(options) -> list[str] of warnings for the new-game form
    formats: dict = field(default_factory=dict)  # file extension -> module with load(text) -> Board, dump(board) -> str
    extra: dict = field(default_factory=dict)
    # optional callable(normalised options) -> int: the most moves a real game with these options can take
    # (see move_limit); None = DEFAULT_MOVE_LIMIT
    longest: Callable[[dict], int] | None = None
    # optional callable(normalised options) -> list[str]: what players call each seat ("Blue", "Red"); see
    # seat_names. None = "Player 1", "Player 2", ...
    names: Callable[[dict], list] | None = None
    # whether the rules know a drawn game (a result with no winner): a draw may then be agreed or claimed
    draws: bool = False
    # optional callable(board, start=0) -> list[str]: each move of `board.moves[start:]` named for people, the
    # same for every viewer (cell names whose coordinates the renderer draws on the board: games/notation.py); a
    # move's name may depend on the moves before it, never on those after; see move_names
    notation: Callable[..., list] | None = None

    def normalise(self, options: dict | None) -> dict:
        """Validate options; fill defaults. ValueError names the option and accepted values.

            >>> import games
            >>> games.get("trails").normalise({"size": 7})
            {'size': 7, 'towers': 3, 'distance': 1}
            >>> games.get("trails").normalise({"colour": "red"})
            Traceback (most recent call last):
            ValueError: unknown option 'colour'; this game takes: distance, size, towers
        """
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise ValueError(Reason("unknown option %(name)s; this game takes: %(names)s", name=repr(unknown[0]),
                                    names=", ".join(sorted(self.options))))
        return {name: opt.check(name, options.get(name, opt.default)) for name, opt in self.options.items()}

    def new(self, **options) -> Board:
        """A board at the start of a game with these options (checked as `normalise` does).

            >>> import games
            >>> board = games.get("gamma").new(width=5, height=5, players=3)
            >>> board.players, board.turn
            (3, 1)
        """
        return self.board_class(self.normalise(options))

    def move_limit(self, options: dict | None = None) -> int:
        """The most moves (entries of `board.moves`, in the game's notation) that a real game with these options
        can take: a bound set safely above any real game, so that a record cannot grow without end (the server
        refuses longer imports and ends a match that reaches it as a draw). `longest` gives it per game;
        `DEFAULT_MOVE_LIMIT` without one. ValueError for bad options, as `normalise`.

            >>> import games
            >>> games.get("trails").move_limit({"size": 11})     # every move claims a cell: 11 x 11 - 2
            119
        """
        opts = self.normalise(options)
        if self.longest is None:
            return DEFAULT_MOVE_LIMIT
        return int(self.longest(opts))

    def seat_names(self, options: dict | None = None) -> list[str]:
        """What players call each seat of a game with these options, seat 1 first: the colours or sides the
        renderer draws ("Blue", "Red"), so that every message can say "It is Red's turn", never a seat number.
        A game without `names`, or a seat beyond its list, is "Player N". ValueError for bad options.

            >>> import games
            >>> games.get("gamma").seat_names({"players": 3})
            ['Blue', 'Orange', 'Pink']
        """
        opts = self.normalise(options)
        count = opts.get("players", self.seats[1] or self.seats[0])
        named = list(self.names(opts)) if self.names else []
        return [named[i] if i < len(named) else f"Player {i + 1}" for i in range(count)]

    def nonstandard(self, options: dict | None) -> list[str]:
        """The options set away from their default that change the starting position or that only imports set
        (`Option.changes_start`, `Option.import_only`): a game with any of them does not start from the
        standard position a new game of the form has, so it is not rated. ValueError for bad options."""
        opts = self.normalise(options)
        return [name for name, option in self.options.items()
                if (option.changes_start or option.import_only) and opts[name] != option.default]

    def move_names(self, board: Board, start: int = 0) -> list[str]:
        """The moves of `board` as people read them ("c2→c3", "f7"), one per entry of `board.moves[start:]`: the
        same words for every player and spectator, whichever side they see the board from. Without `notation`,
        the move strings themselves. The API and the records keep the move strings. `start`: name only the moves
        from that one on (a caller that kept the names of the earlier ones: they never change).

            >>> import games
            >>> board = games.get("trails").new(size=5)
            >>> board.push("down"); board.push("left")
            >>> games.get("trails").move_names(board)          # the cell each trail reached
            ['a4', 'd1']
        """
        if self.notation is None:
            return board.moves[start:]
        return list(self.notation(board, start) if start else self.notation(board))

    def warnings(self, options: dict | None) -> list[str]:
        """Sentences for the new-game dialog about these options (from `notes`); [] when there is nothing to say.

            >>> import games
            >>> games.get("trails").warnings({"size": 4, "towers": 12})
            ['Only 4 of 12 towers fit on a 4x4 board, so nobody can win by towers.']
        """
        opts = self.normalise(options)
        return list(self.notes(opts)) if self.notes else []

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "seats": [self.seats[0], self.seats[1]],
            "options": {k: o.to_dict() for k, o in self.options.items()},
            "summary": self.summary,
            "formats": sorted(self.formats),
            "draws": self.draws,
        }
