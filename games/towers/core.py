"""Towers (Laurent Orseau): the rules engine.

The rules for players: docs/games.md (*Towers*) and the rules page, templates/rules.html. The engine follows the
original (Metaxal/towers at e6777c9) except where Quadrille decided otherwise:
`1 <= k <= height`, no import clamping, the game ends at once on a winning capture, nothing is legal once the
game is over, and `no-master-win` forbids the master tower to take the opposing master.

Representation (all private; `state()` and `view()` are the public pictures):

* `_cells`: flat list, index `y * n + x`; `+h` = Player 1 tower of height h, `-h` = Player 2, `0` = empty.
* `_master[p]`, `_reserve[p]` (p = 1, 2; index 0 unused): master cell index and reserve of each player. A
  captured master keeps its last position, as in the games recorded from the original; the game is over then.
* `_cur`, `_mp`, `_start_mp`: player to move, its move points, its points at the start of the turn.
* `_locked`: frozenset of locked cell indices (replaced, never mutated, so undo can keep references).
* `_ply`: number of completed turns (the original's plies); `_turn_start`: index in `moves` where the current
  turn began; `_acted`: whether the turn holds a non-import action (`import-first`); `_passes`: consecutive
  pure passes so far (draw at 4).
* `_stack`: one snapshot per pushed move (the state before it), so `pop()` is an exact inverse.
"""
from __future__ import annotations

import re
import threading
from collections import deque

from games.base import Board, IllegalMove, Option, Outcome, Reason, reason_n
from games.notation import cell_name

# The alternative rules, in the order of the original's New-game dialog; the .twr format writes them in
# this order. Values: the original UI text.
RULES = {
    "tower-out": "Pawns can get out of any tower, not just the master",
    "lock-after-move": "Pawns/towers get locked after their move.",
    "lock-split-tower": "When taking a pawn out of a tower, lock the tower.",
    "import-first": "Importing pawns can only be done at the beginning of the ply.",
    "no-first-lock-master": "Do not lock the master on the very first ply.",
    "master-at-corner": "The master is placed at the right corner.",
    "no-master-win": "The master cannot capture the opponent's master.",
}
RULE_ORDER = tuple(RULES)

MIN_SIZE = 5     # n = 4 would give a zero reserve
MAX_SIZE = 32    # no rule limit; a practical bound so that a request cannot build a huge board
FORM_SIZES = (5, 10)  # what the original client (and Quadrille's new-game form) offers

OPTIONS = {
    "size": Option(6, "int", range=(MIN_SIZE, MAX_SIZE), form=FORM_SIZES,
                   help=f"board size n (n x n cells); the rules need n >= {MIN_SIZE}, the original offers 5 to 10"),
    "rules": Option([], "list", choices=RULE_ORDER,
                    help="alternative rules (empty = the official rules): " + "; ".join(
                        f"{k}: {v}" for k, v in RULES.items())),
}

DRAW_PASSES = 4

# The original engine's refusal messages, used verbatim as IllegalMove reasons, with a longer
# explanation for people in `TowersIllegalMove.detail`.
NOT_OWNER = Reason("Not owner of source cell")
NOT_STRAIGHT = Reason("Not moving in straight line")
WRONG_POINTS = Reason("Wrong number of move points")
PATH_NOT_FREE = Reason("The path to the target is not free")
SOURCE_LOCKED = Reason("Source cell is locked")
TARGET_LOCKED = Reason("Target cell is locked")
CANNOT_SPLIT = Reason("Cannot split a tower")
RAISE_BY_ONE = Reason("Cannot raise tower by more than 1")
MASTER_ON_TOWER = Reason("Cannot put the master on a 2+ tower")
CANNOT_MOVE = Reason("Cannot move")
# Quadrille's own refusals (checks the original lacks, imports, malformed input, game over).
TOO_MANY_PAWNS = Reason("Cannot move more pawns than the tower holds")
NO_MASTER_WIN = Reason("The master cannot capture the opponent's master")
GAME_OVER = Reason("The game is over")
IMPORT_LOCKED = Reason("Cannot import: the master's cell is locked")
IMPORT_NOT_FIRST = Reason("Cannot import: imports must come before any other action of the turn")
IMPORT_POINTS = Reason("Cannot import: not enough move points")
IMPORT_NONE = Reason("Cannot import: import at least one pawn")
MALFORMED = Reason("Unreadable move")
OFF_BOARD = Reason("Cell is off the board")

EXPLAIN = {
    NOT_OWNER: Reason("You can only move your own pawns and towers."),
    NOT_STRAIGHT: Reason("A move goes straight along a row or a column, to another cell."),
    WRONG_POINTS: Reason("A move costs its distance times the number of pawns moved, at least 1 and at most the "
                         "move points left."),
    PATH_NOT_FREE: Reason("Pawns cannot jump: every cell between the source and the target must be empty."),
    SOURCE_LOCKED: Reason("This cell is locked until the end of the turn: it cannot move again."),
    TARGET_LOCKED: Reason("The target cell is locked until the end of the turn."),
    CANNOT_SPLIT: Reason("Only the master's tower may move part of its pawns (with rule tower-out: any tower); "
                         "move the whole tower."),
    RAISE_BY_ONE: Reason("Only a single pawn may be put onto one of your own pawns or towers."),
    MASTER_ON_TOWER: Reason("The master may only move onto a single pawn of yours, not onto a tower."),
    CANNOT_MOVE: Reason("A tower may only attack an enemy tower that is not taller than the pawns it moves."),
    TOO_MANY_PAWNS: Reason("The number of pawns moved must be between 1 and the height of the tower."),
    NO_MASTER_WIN: Reason("With rule no-master-win the master tower may not take the opponent's master; "
                          "another tower or pawn must do it."),
    GAME_OVER: Reason("The game has ended: no more moves."),
    IMPORT_LOCKED: Reason("Pawns are imported onto your master, and its cell is locked this turn "
                          "(first turn, or the master was raised, moved onto a pawn, attacked or split)."),
    IMPORT_NOT_FIRST: Reason("With rule import-first, imports must come at the start of the turn."),
    IMPORT_POINTS: Reason("Each imported pawn costs one move point."),
    IMPORT_NONE: Reason("Import at least one pawn."),
    MALFORMED: Reason("Moves are written m{x},{y}>{x},{y}:{k} (move k pawns), i{k} (import k pawns) or end."),
    OFF_BOARD: Reason("Both cells of a move must be on the board."),
}


class TowersIllegalMove(IllegalMove):
    """An IllegalMove whose `reason` is the original's message (or Quadrille's for checks the original
    lacks), with a longer explanation for people in `detail`."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(reason)
        self.detail = detail or EXPLAIN.get(reason, "")


def _illegal(reason: str, detail: str = "") -> TowersIllegalMove:
    return TowersIllegalMove(reason, detail)


_NUM = r"(0|[1-9][0-9]{0,8})"   # at most 9 digits: int() of a longer one could raise ValueError, not IllegalMove
_MOVE_RE = re.compile(rf"m{_NUM},{_NUM}>{_NUM},{_NUM}:{_NUM}")
_IMPORT_RE = re.compile(rf"i{_NUM}")

# Per-size tables, built once: for each cell its four rays, each a tuple of (distance, cell, entries) where
# entries[k] = (move string, parsed action) for k pawns (grown on demand by `_grow`), and the neighbours.
_TABLES: dict[int, tuple] = {}
_PREFILL = 4
_GROW_LOCK = threading.Lock()


def _entry(n: int, src: int, dst: int, k: int, d: int) -> tuple:
    return (f"m{src % n},{src // n}>{dst % n},{dst // n}:{k}", ("m", src, dst, k, d * k))


def _grow(n: int, src: int, dst: int, d: int, entries: list, k: int) -> None:
    with _GROW_LOCK:  # the tables are shared: never let two threads append the same index
        while len(entries) <= k:
            entries.append(_entry(n, src, dst, len(entries), d))


def _tables(n: int) -> tuple:
    t = _TABLES.get(n)
    if t is None:
        # boards the original offers get their common entries up front; larger ones grow them on demand
        prefill = _PREFILL if n <= FORM_SIZES[1] else 0
        rays = []
        for idx in range(n * n):
            x, y = idx % n, idx // n
            rs = []
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ray = []
                d, cx, cy = 1, x + dx, y + dy
                while 0 <= cx < n and 0 <= cy < n:
                    dst = cy * n + cx
                    ray.append((d, dst, [None] + [_entry(n, idx, dst, k, d) for k in range(1, prefill + 1)]))
                    d, cx, cy = d + 1, cx + dx, cy + dy
                if ray:
                    rs.append(tuple(ray))
            rays.append(tuple(rs))
        neighbours = tuple(tuple(r[0][1] for r in rays[idx]) for idx in range(n * n))
        t = (tuple(rays), neighbours, prefill)
        _TABLES[n] = t
    return t


def initial_masters(n: int, corner: bool) -> tuple[tuple[int, int], tuple[int, int]]:
    """Masters' starting cells (x, y) of Player 1 and Player 2."""
    if corner:
        return (n - 1, n - 1), (0, 0)
    return (n // 2, n - 1), ((n - 1) // 2, 0)


class TowersBoard(Board):
    game_name = "towers"
    players = 2

    def __init__(self, options: dict | None = None):
        opts = dict(options or {})
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; this game takes: " + ", ".join(sorted(OPTIONS)))
        self.options = {name: opt.check(name, opts.get(name, opt.default)) for name, opt in OPTIONS.items()}
        n = self.options["size"]
        rules = frozenset(self.options["rules"])
        self._setup(n, rules)
        cells = [0] * (n * n)
        for i in range(2 * n):
            cells[i] = -1
            cells[n * n - 1 - i] = 1
        (m1x, m1y), (m2x, m2y) = initial_masters(n, "master-at-corner" in rules)
        self._cells = cells
        self._master = [0, m1y * n + m1x, m2y * n + m2x]
        self._reserve = [0, n - 4, n - 4]
        self._cur = 1
        self._mp = self._start_mp = n - 4
        # first-ply lock of Player 1's master, unless no-first-lock-master
        self._locked = frozenset() if "no-first-lock-master" in rules else frozenset((self._master[1],))
        self._ply = 0
        self._turn_start = 0
        self._prev_turn_start = 0
        self._acted = False
        self._passes = 0
        self._winner = None  # None, 1, 2 or 0 (draw)
        self._moves = []
        self._stack = []
        self._legal = None   # cached {move: parsed} for this position
        self._sorted = None  # cached sorted legal list
        self._custom = False  # set up by from_position: no history from the initial position

    def _setup(self, n: int, rules: frozenset) -> None:
        self.n = n
        self.rules = rules
        self._tower_out = "tower-out" in rules
        self._lock_after_move = "lock-after-move" in rules
        self._lock_split = "lock-split-tower" in rules
        self._import_first = "import-first" in rules
        self._no_master_win = "no-master-win" in rules
        self._rays, self._nbrs, self._prefill = _tables(n)

    # ------------------------------------------------------------------ custom positions (tests, puzzles)

    @classmethod
    def from_position(cls, size: int, rules=(), *, board, masters, reserve, current=1, move_points=None,
                      locked=(), passes: int = 0) -> "TowersBoard":
        """A board set up at an arbitrary position (tests, analysis). `board[y][x]` is a signed height,
        `masters` the (x, y) of each player's master, `locked` a list of (x, y). Such a board has no history:
        `moves` starts empty and `to_dict()` cannot rebuild the position."""
        b = cls({"size": size, "rules": list(rules)})
        n = b.n
        if len(board) != n or any(len(row) != n for row in board):
            raise ValueError(f"board must be {n} rows of {n} cells")
        b._cells = [int(v) for row in board for v in row]
        b._master = [0] + [y * n + x for x, y in masters]
        for p in (1, 2):
            v = b._cells[b._master[p]]
            if (v > 0) != (p == 1) or v == 0:
                raise ValueError(f"the master of player {p} must stand on a cell of player {p}")
        b._reserve = [0, int(reserve[0]), int(reserve[1])]
        b._cur = current
        b._mp = b._start_mp = b._reserve[current] if move_points is None else int(move_points)
        b._locked = frozenset(y * n + x for x, y in locked)
        b._passes = passes
        b._custom = True
        return b

    # ------------------------------------------------------------------ contract (docs/engine.md)

    @property
    def turn(self):
        """The player whose turn it is, for every action of the turn; None once the game is over.

            >>> board = TowersBoard({"size": 6})          # 2 move points a turn on 6x6
            >>> board.push("m1,4>1,3:1"); board.turn      # one point left: still Blue's turn
            1
            >>> board.push("m1,3>1,2:1"); board.turn      # none left: the turn ended inside push
            2
        """
        return None if self._winner is not None else self._cur

    def outcome(self):
        """None, or `master-captured` (the winner scores 1) or `draw-passes` (four pure passes in a row).

            >>> board = TowersBoard({"size": 6})
            >>> for _ in range(4):
            ...     board.push("end")
            >>> board.outcome()
            Outcome(winners=(), scores=(0, 0), reason='draw-passes')
        """
        w = self._winner
        if w is None:
            return None
        if w == 0:
            return Outcome((), (0, 0), "draw-passes")
        return Outcome((w,), (1, 0) if w == 1 else (0, 1), "master-captured")

    def legal_moves(self) -> list[str]:
        """Every action of the player to act, sorted: `end`, moves `m{x},{y}>{u},{v}:{k}` (x, y from the
        top-left; Blue sits at the bottom) and imports `i{k}`.

            >>> board = TowersBoard({"size": 6})
            >>> board.legal_moves()[:4]
            ['end', 'm0,4>0,2:1', 'm0,4>0,3:1', 'm0,4>0,5:1']
        """
        s = self._sorted
        if s is None:
            s = self._sorted = sorted(self._legal_map())
        return list(s)

    def legal_set(self):
        """The legal moves as an unordered, read-only mapping view (fast path for search)."""
        return self._legal_map().keys()

    def is_legal(self, move) -> bool:
        return isinstance(move, str) and move in self._legal_map()

    def push(self, move) -> None:
        """Play one action. A refusal carries the original's own words as `reason` and a sentence for people
        as `detail`.

            >>> board = TowersBoard({"size": 6})
            >>> try:
            ...     board.push("i1")                      # Blue's master is locked on the first turn
            ... except IllegalMove as refusal:
            ...     print(refusal.reason)
            Cannot import: the master's cell is locked
        """
        legal = self._legal
        if legal is not None:
            act = legal.get(move) if isinstance(move, str) else None
            if act is None:
                self._check(move)  # raises with the reason
                raise AssertionError(f"towers: {move!r} passes the checks but is not in the legal set")
        else:
            act = self._check(move)
        self._apply(move, act)

    def pop(self) -> str:
        """Take back the last action (a snapshot per action), across the end of a turn too.

            >>> board = TowersBoard({"size": 6})
            >>> board.push("m1,4>1,3:1"); board.push("m1,3>1,2:1")
            >>> board.pop(), board.turn, board.view()["move_points"]
            ('m1,3>1,2:1', 1, 1)
        """
        if not self._stack:
            raise IndexError("pop from an empty move stack")
        (cells, m1, m2, r1, r2, self._cur, self._mp, self._start_mp, self._locked, self._ply,
         self._turn_start, self._prev_turn_start, self._acted, self._passes, self._winner,
         self._legal, self._sorted) = self._stack.pop()
        self._cells = list(cells)  # snapshots are immutable: copies of a board share them safely
        self._master = [0, m1, m2]
        self._reserve = [0, r1, r2]
        return self._moves.pop()

    def to_dict(self) -> dict:
        if self._custom:
            raise ValueError("a board set up at a custom position (from_position) has no record")
        return {"game": "towers", "options": {"size": self.n, "rules": list(self.options["rules"])},
                "moves": list(self._moves)}

    def copy(self) -> "TowersBoard":
        b = object.__new__(TowersBoard)
        b.__dict__.update(self.__dict__)
        b.options = {"size": self.options["size"], "rules": list(self.options["rules"])}
        b._cells = list(self._cells)
        b._master = list(self._master)
        b._reserve = list(self._reserve)
        b._moves = list(self._moves)
        b._stack = list(self._stack)  # snapshots are immutable tuples, shared safely
        return b

    # ------------------------------------------------------------------ checks

    def validate(self, move) -> int:
        """The cost in move points of `move` if it is legal now (`end` costs 0); else raise IllegalMove
        with the reason. The board is not changed."""
        act = self._check(move)
        if act[0] == "m":
            return act[4]
        if act[0] == "i":
            return act[1]
        return 0

    def _parse(self, move):
        if not isinstance(move, str):
            raise _illegal(MALFORMED, Reason("A move is a string, not %(kind)s. %(explain)s", kind=type(move).__name__,
                                              explain=EXPLAIN[MALFORMED]))
        if move == "end":
            return ("e",)
        m = _MOVE_RE.fullmatch(move)
        if m:
            x1, y1, x2, y2, k = map(int, m.groups())
            n = self.n
            for x, y in ((x1, y1), (x2, y2)):
                if x >= n or y >= n:
                    raise _illegal(OFF_BOARD, Reason("Cell (%(x)d, %(y)d) is not on the %(size)dx%(size)d board.",
                                                     x=x, y=y, size=n))
            return ("m", x1, y1, x2, y2, k)
        m = _IMPORT_RE.fullmatch(move)
        if m:
            return ("i", int(m.group(1)))
        raise _illegal(MALFORMED, Reason("%(move)s is not a move. %(explain)s", move=repr(move),
                                          explain=EXPLAIN[MALFORMED]))

    def _check(self, move):
        """Parse and check `move` in the original's order; return the parsed action
        ("m", src, dst, k, cost) / ("i", k) / ("e",); raise TowersIllegalMove otherwise."""
        p = self._parse(move)
        if self._winner is not None:
            raise _illegal(GAME_OVER)
        if p[0] == "e":
            return p
        if p[0] == "i":
            k = p[1]
            if self._master[self._cur] in self._locked:
                raise _illegal(IMPORT_LOCKED)
            if self._import_first and self._acted:
                raise _illegal(IMPORT_NOT_FIRST)
            if k < 1:
                raise _illegal(IMPORT_NONE)
            if k > self._mp:
                raise _illegal(IMPORT_POINTS, reason_n(
                    "Importing %(num)d pawn costs %(num)d move point; %(left)d left.",
                    "Importing %(num)d pawns costs %(num)d move points; %(left)d left.", k, left=self._mp))
            return p
        _, x1, y1, x2, y2, k = p
        n = self.n
        cells = self._cells
        src, dst = y1 * n + x1, y2 * n + x2
        sign = 1 if self._cur == 1 else -1
        v = cells[src] * sign
        if v <= 0:                                                          # 1
            raise _illegal(NOT_OWNER)
        h = v
        if k > h:                                                           # Quadrille: 1 <= k <= h
            raise _illegal(TOO_MANY_PAWNS, reason_n("The tower on %(cell)s holds %(num)d pawn; cannot move %(moved)d.",
                                                    "The tower on %(cell)s holds %(num)d pawns; cannot move %(moved)d.",
                                                    h, cell=cell_name(x1, n - y1), moved=k))
        if (x1 == x2) == (y1 == y2):                                        # 2
            raise _illegal(NOT_STRAIGHT)
        dist = abs(x2 - x1) + abs(y2 - y1)
        cost = dist * k
        if not 1 <= cost <= self._mp:                                       # 3
            raise _illegal(WRONG_POINTS, reason_n(
                "This move costs %(num)d move point (distance %(distance)d x %(pawns)s); %(left)d left.",
                "This move costs %(num)d move points (distance %(distance)d x %(pawns)s); %(left)d left.",
                cost, distance=dist, pawns=reason_n("%(num)d pawn", "%(num)d pawns", k), left=self._mp))
        step = (1 if x2 > x1 else -1) if y1 == y2 else (n if y2 > y1 else -n)
        for c in range(src + step, dst, step):                              # 4
            if cells[c]:
                raise _illegal(PATH_NOT_FREE)
        locked = self._locked
        if src in locked:                                                   # 5
            raise _illegal(SOURCE_LOCKED)
        if dst in locked:                                                   # 6
            raise _illegal(TARGET_LOCKED)
        splitting = k < h
        from_master = src == self._master[self._cur]
        if splitting and not from_master and not self._tower_out:           # 7
            raise _illegal(CANNOT_SPLIT)
        t = cells[dst] * sign
        if t > 0 and k > 1:                                                 # 8
            raise _illegal(RAISE_BY_ONE)
        move_master = from_master and not splitting
        if move_master and t > 1:                                           # 9
            raise _illegal(MASTER_ON_TOWER)
        if t < 0 and k < -t:                                                # 10
            raise _illegal(CANNOT_MOVE, reason_n("The enemy tower holds %(num)d pawn; attacking it needs at least "
                                                 "%(num)d pawn, this move takes %(moved)d.",
                                                 "The enemy tower holds %(num)d pawns; attacking it needs at least "
                                                 "%(num)d pawns, this move takes %(moved)d.", -t, moved=k))
        if self._no_master_win and move_master and dst == self._master[3 - self._cur]:
            raise _illegal(NO_MASTER_WIN)
        return ("m", src, dst, k, cost)

    # ------------------------------------------------------------------ legal set

    def _legal_map(self) -> dict:
        legal = self._legal
        if legal is not None:
            return legal
        legal = {}
        if self._winner is not None:
            self._legal = legal
            return legal
        legal["end"] = ("e",)
        cur, mp, cells, locked = self._cur, self._mp, self._cells, self._locked
        master = self._master[cur]
        if mp >= 1 and master not in locked and not (self._import_first and self._acted):
            for k in range(1, mp + 1):
                legal[f"i{k}"] = ("i", k)
        opp_master = self._master[3 - cur]
        tower_out, nmw = self._tower_out, self._no_master_win
        n = self.n
        rays, pre = self._rays, self._prefill
        p1 = cur == 1
        for src, v in enumerate(cells):
            h = v if p1 else -v
            if h <= 0 or src in locked:
                continue
            is_master = src == master
            kmin = 1 if (is_master or tower_out) else h
            if kmin > mp:
                continue
            for ray in rays[src]:
                for d, dst, entries in ray:
                    if d * kmin > mp:
                        break
                    t = cells[dst]
                    if not p1:
                        t = -t
                    if t == 0:
                        if dst not in locked:
                            kmax = mp // d
                            if kmax > h:
                                kmax = h
                            if kmax > pre and kmax >= len(entries):
                                _grow(n, src, dst, d, entries, kmax)
                            for k in range(kmin, kmax + 1):
                                name, act = entries[k]
                                legal[name] = act
                        continue
                    if dst not in locked:
                        if t > 0:
                            # raise: a single pawn; the master (whole, height 1) only onto a single pawn
                            if kmin == 1 and not (is_master and h == 1 and t > 1):
                                if pre < 1 and len(entries) < 2:
                                    _grow(n, src, dst, d, entries, 1)
                                name, act = entries[1]
                                legal[name] = act
                        else:
                            kmax = mp // d
                            if kmax > h:
                                kmax = h
                            k0 = -t if -t > kmin else kmin
                            if kmax > pre and kmax >= len(entries):
                                _grow(n, src, dst, d, entries, kmax)
                            for k in range(k0, kmax + 1):
                                if nmw and is_master and k == h and dst == opp_master:
                                    continue
                                name, act = entries[k]
                                legal[name] = act
                    break
        self._legal = legal
        return legal

    def _name(self, src: int, dst: int, k: int) -> str:
        n = self.n
        return f"m{src % n},{src // n}>{dst % n},{dst // n}:{k}"

    # ------------------------------------------------------------------ applying

    def _apply(self, move: str, act) -> None:
        self._stack.append((tuple(self._cells), self._master[1], self._master[2], self._reserve[1],
                            self._reserve[2], self._cur, self._mp, self._start_mp, self._locked, self._ply,
                            self._turn_start, self._prev_turn_start, self._acted, self._passes,
                            self._winner, self._legal, self._sorted))
        self._moves.append(move)
        self._legal = self._sorted = None
        kind = act[0]
        cur = self._cur
        if kind == "e":
            if len(self._moves) - 1 == self._turn_start:   # a pure pass: the ply is exactly [end]
                self._passes += 1
                self._end_turn()
                if self._passes >= DRAW_PASSES:
                    self._winner = 0
                return
            self._passes = 0
            self._end_turn()
            return
        sign = 1 if cur == 1 else -1
        cells = self._cells
        if kind == "i":
            k = act[1]
            cells[self._master[cur]] += sign * k
            self._reserve[cur] -= k
            self._mp -= k
        else:
            _, src, dst, k, cost = act
            h = cells[src] * sign
            splitting = k < h
            move_master = not splitting and src == self._master[cur]
            t = cells[dst] * sign
            cells[src] = sign * (h - k)
            if t >= 0:                          # empty or own: plain move / raise
                cells[dst] = sign * (t + k)
                if move_master:
                    self._master[cur] = dst
            else:                               # attack
                if dst == self._master[3 - cur]:
                    self._winner = cur
                if move_master:                 # capture: the pawns join the master tower
                    cells[dst] = sign * (k - t)
                    self._master[cur] = dst
                else:                           # the defenders leave the game
                    cells[dst] = sign * k
            if t != 0 or self._lock_after_move:
                self._locked = self._locked | {dst}
            if splitting and self._lock_split:
                self._locked = self._locked | {src}
            self._mp -= cost
            self._acted = True
        if self._winner is None and self._mp <= 0:
            self._passes = 0
            self._end_turn()  # automatic end of turn (no `end` recorded)

    def _end_turn(self) -> None:
        cur = self._cur
        m = self._master[cur]
        h = abs(self._cells[m])
        if h > 1:                               # export
            self._cells[m] = 1 if cur == 1 else -1
            self._reserve[cur] += h - 1
        opp = 3 - cur
        self._cur = opp
        self._mp = self._start_mp = self._reserve[opp]
        self._locked = frozenset()
        self._ply += 1
        self._prev_turn_start = self._turn_start
        self._turn_start = len(self._moves)
        self._acted = False

    # ------------------------------------------------------------------ queries

    @property
    def size(self) -> int:
        return self.n

    @property
    def ply(self) -> int:
        """Number of completed turns (the original's plies)."""
        return self._ply

    def turn_moves(self) -> list[str]:
        """The moves of the turn in progress (what in-turn undo may take back, newest last)."""
        return self._moves[self._turn_start:]

    def plies(self) -> list[list[str]]:
        """The record grouped by turns, as the .twr format does: every completed turn, then the turn in
        progress (empty right after a turn ended; after a winning capture, the capturing turn)."""
        out = [[] for _ in range(self._ply + 1)]
        stack = self._stack
        for i, mv in enumerate(self._moves):
            out[stack[i][9]].append(mv)
        return out

    def cell(self, x: int, y: int) -> int:
        """Signed height at (x, y): +h Player 1, -h Player 2, 0 empty."""
        return self._cells[y * self.n + x]

    def master_cell(self, player: int):
        """(x, y) of the player's master, or None once it has been captured."""
        m = self._master[player]
        v = self._cells[m]
        if v == 0 or (v > 0) != (player == 1):
            return None
        return (m % self.n, m // self.n)

    @property
    def reserve(self) -> tuple:
        return (self._reserve[1], self._reserve[2])

    @property
    def move_points(self) -> int:
        return self._mp

    @property
    def current(self) -> int:
        """The player whose turn it is (also after the end: the capturing player, or after a draw the next)."""
        return self._cur

    def locked_cells(self) -> list[tuple[int, int]]:
        n = self.n
        return [(i % n, i // n) for i in sorted(self._locked)]

    def end_draws(self) -> bool:
        """True when ending the turn now would draw (three passes before and nothing done this turn)."""
        return (self._winner is None and self._passes >= DRAW_PASSES - 1
                and len(self._moves) == self._turn_start)

    def state(self) -> dict:
        """The position in the reference data's STATE form (the games recorded from the original)."""
        n = self.n
        cells = self._cells
        w = self._winner
        return {
            "board": [cells[y * n:(y + 1) * n] for y in range(n)],
            "masters": [[self._master[p] % n, self._master[p] // n] for p in (1, 2)],
            "reserve": [self._reserve[1], self._reserve[2]],
            "current": self._cur,
            "move_points": self._mp,
            "locked": [[i % n, i // n] for i in sorted(self._locked)],
            "winner": "draw" if w == 0 else w,
        }

    def master_attacked(self, player: int) -> bool:
        """The original's "master in danger" heuristic: can the opponent reach `player`'s master this
        turn (if the opponent is to move) or next turn (with its reserve)?"""
        if self._winner is not None:
            return False
        n = self.n
        cells = self._cells
        target = self._master[player]
        attacker = 3 - player
        asign = 1 if attacker == 1 else -1
        to_move = attacker == self._cur
        budget = self._mp if to_move else self._reserve[attacker]
        amaster = self._master[attacker]
        tx, ty = target % n, target // n
        seen = {target}
        queue = deque(((target, 0),))
        nbrs = self._nbrs
        while queue:
            c, dist = queue.popleft()
            if abs(c % n - tx) + abs(c // n - ty) > budget:
                break
            for nb in nbrs[c]:
                if nb in seen:
                    continue
                seen.add(nb)
                v = cells[nb] * asign
                if v == 0:
                    queue.append((nb, dist + 1))
                elif v > 0:
                    if to_move and nb in self._locked:
                        continue
                    steps = dist + 1
                    if nb == amaster:
                        cost = v * steps + 2 * max(0, 1 - v)
                    else:
                        cost = v * steps
                    if cost <= budget:
                        return True
        return False

    # ------------------------------------------------------------------ view

    def view(self) -> dict:
        """The board for the renderer: `board` (rows from the top, signed heights: + Blue, - Red), `towers`,
        `masters` and `locked` ([x, y]), `reserve`, `move_points`, `legal` (each source cell's targets with
        their moves and costs, and the imports), `master_in_danger`, `outcome`.

            >>> view = TowersBoard({"size": 6}).view()
            >>> view["masters"], view["locked"], view["reserve"], view["move_points"]
            ([[3, 5], [2, 0]], [[3, 5]], [2, 2], 2)
        """
        n = self.n
        cells = self._cells
        over = self._winner is not None
        locked = self._locked
        masters = [self.master_cell(1), self.master_cell(2)]
        master_idx = {self._master[p] for p in (1, 2) if masters[p - 1] is not None}
        danger = [False, False] if over else [self.master_attacked(1), self.master_attacked(2)]
        towers = []
        for i, v in enumerate(cells):
            if v:
                towers.append({
                    "x": i % n, "y": i // n, "owner": 1 if v > 0 else 2, "height": abs(v),
                    "master": i in master_idx, "locked": i in locked,
                    "danger": i in master_idx and danger[(1 if v > 0 else 2) - 1],
                })
        sources = {}
        imports = []
        for mv, act in self._legal_map().items():
            if act[0] == "m":
                _, src, dst, k, cost = act
                s = sources.get(src)
                if s is None:
                    s = sources[src] = {"from": [src % n, src // n], "height": abs(cells[src]), "targets": {}}
                t = s["targets"].get(dst)
                if t is None:
                    d = abs(dst % n - src % n) + abs(dst // n - src // n)
                    t = s["targets"][dst] = {"to": [dst % n, dst // n], "distance": d, "counts": [], "moves": []}
                t["counts"].append(k)
            elif act[0] == "i":
                imports.append(mv)
        source_list = []
        for src in sorted(sources):
            s = sources[src]
            tl = []
            for dst in sorted(s["targets"]):
                t = s["targets"][dst]
                t["counts"].sort()
                t["moves"] = [self._name(src, dst, k) for k in t["counts"]]
                t["costs"] = [k * t["distance"] for k in t["counts"]]
                t["whole"] = s["height"] in t["counts"]
                tl.append(t)
            s["targets"] = tl
            source_list.append(s)
        imports.sort(key=lambda m: int(m[1:]))
        out = self.outcome()
        cur = self._cur
        bars = []
        for p in (1, 2):
            if p == cur and not over:
                bars.append({"unused": self._mp, "used": self._start_mp - self._mp})
            else:
                bars.append({"unused": self._reserve[p], "used": 0})
        return {
            "game": "towers",
            "size": n,
            "rules": [r for r in RULE_ORDER if r in self.rules],
            "board": [cells[y * n:(y + 1) * n] for y in range(n)],
            "towers": towers,
            "masters": [list(m) if m else None for m in masters],
            "locked": [[i % n, i // n] for i in sorted(locked)],
            "reserve": [self._reserve[1], self._reserve[2]],
            "current": cur,
            "turn": self.turn,
            "move_points": self._mp,
            "points_at_turn_start": self._start_mp,
            "points": bars,
            "ply": self._ply,
            "turn_moves": self._moves[self._turn_start:],
            "previous_turn": self._moves[self._prev_turn_start:self._turn_start],
            "can_undo": not over and len(self._moves) > self._turn_start,
            "legal": {
                "sources": source_list,
                "imports": imports,
                "can_import": bool(imports),
                "can_end": not over,
                "end_draws": self.end_draws(),
            },
            "master_in_danger": danger,
            "passes": self._passes,
            "over": over,
            "outcome": out.to_dict() if out else None,
            "winner": None if self._winner is None else ("draw" if self._winner == 0 else self._winner),
        }

    def __repr__(self) -> str:
        return f"<TowersBoard {self.n}x{self.n} rules={sorted(self.rules)} moves={len(self._moves)}>"

    def text(self) -> str:
        """A plain-text picture in the rules doc's diagram form (top row first)."""
        n = self.n
        rows = []
        for y in range(n):
            toks = []
            for x in range(n):
                i = y * n + x
                v = self._cells[i]
                if not v:
                    tok = "."
                else:
                    tok = f"{'+' if v > 0 else '-'}{abs(v)}"
                    if i == self._master[1 if v > 0 else 2]:
                        tok += "M"
                if i in self._locked:
                    tok = f"<{tok}>"
                toks.append(tok.ljust(4))
            rows.append("".join(toks).rstrip())
        return "\n".join(rows)
