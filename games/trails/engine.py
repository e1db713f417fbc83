"""Trails and Towers: the rules engine (its rules for players: docs/games.md, /rules/trails).

Two trails grow from opposite corners of an N x N board. A move is a direction
(`up`, `down`, `left`, `right`): a new direction moves one cell onto a free cell;
repeating the previous direction jumps further each time (2, 3, 4, ... cells),
claims the free cells it passes and may take a tower standing exactly on its
target. More than half of the configured towers wins; so does leaving the
opponent without a move, while trapping yourself loses at once.

Representation (chosen for speed, the AI plays through `legal_moves` + `push`):

* `_cells` is a flat list over a padded (N+2) x (N+2) grid: a ring of WALL cells
  surrounds the board, so a one-cell step never needs a bounds test. Cell (r, c)
  is at index (r+1)*W + (c+1) with W = N+2; sorting indices sorts by (row, col).
* Player state lives in 3-slot lists indexed by seat (slot 0 unused): head
  index, last direction, boost counter (continuation distance = boost+2) and
  towers taken.
* Directions are indices 0..3 in notation order: down, left, right, up. The
  legal directions of the player to move are kept as a 4-bit mask, computed
  once per ply (it is needed anyway for the end-of-move test), so
  `legal_moves()` is a table look-up.
* `push` records (move, player, claimed cells, tower taken, previous direction,
  boost, head, mask) on an undo stack; `pop` restores exactly that. No copies.
"""
from __future__ import annotations

from games.base import Board, Game, IllegalMove, Option, Outcome, Reason, reason_n
from games.notation import cell_name, trails_names

FREE, P1, P2, TOWER, WALL = 0, 1, 2, 3, 4

DIRECTIONS = ("down", "left", "right", "up")          # notation order = sorted order
_DIR_INDEX = {name: i for i, name in enumerate(DIRECTIONS)}
_START_DIR = (None, 1, 2)                             # P1 "left", P2 "right": both off the board
_BIT = (1, 2, 4, 8)
_CLEAR = (~1, ~2, ~4, ~8)
# mask -> the legal directions as a tuple of names, in sorted order
_MASK_NAMES = tuple(tuple(DIRECTIONS[d] for d in range(4) if m >> d & 1) for m in range(16))
_CHARS = bytes.maketrans(bytes([FREE, P1, P2, TOWER, WALL]), b".12T#")
_SEAT_NAME = (None, "Blue", "Red")


def _direction(move) -> int | None:
    """The direction index of a move string, or None when it is not one."""
    if isinstance(move, str):
        return _DIR_INDEX.get(move)
    return None


# -- geometry, shared by every board of one size ------------------------------------------------------

_GEOMETRY: dict[int, tuple] = {}


def _geometry(n: int) -> tuple:
    """(W, steps, edge distances, index -> (r, c)) for an N x N board, built once per size."""
    geo = _GEOMETRY.get(n)
    if geo is None:
        w = n + 2
        steps = (w, -1, 1, -w)
        size = w * w
        edist = tuple([0] * size for _ in range(4))
        rc = [None] * size
        for r in range(n):
            for c in range(n):
                i = (r + 1) * w + c + 1
                rc[i] = (r, c)
                edist[0][i] = n - 1 - r
                edist[1][i] = c
                edist[2][i] = n - 1 - c
                edist[3][i] = r
        geo = _GEOMETRY[n] = (w, steps, edist, tuple(rc))
    return geo


def tower_layout(size: int, towers: int, distance: int) -> tuple[int, list[tuple[int, int]]]:
    """(effective K, sorted tower cells that fit on the board), exactly as the original places them.

    Quadrille refuses sizes below 3, so the original's clamp N = max(N, 3) is not needed; for N >= 3 the
    anti-diagonal never meets the bases (0, 0) and (N-1, N-1)."""
    n, k, d = size, towers, distance
    if n % 2 == 0 and k % 2 == 1:
        k += 1
    cells: set[tuple[int, int]] = set()

    def put_pair(r: int, c: int) -> None:
        for a, b in ((r, c), (c, r)):
            if 0 <= a < n and 0 <= b < n:
                cells.add((a, b))

    if n % 2 == 1:
        m = n // 2
        if k % 2 == 1:
            for t in range((k - 1) // 2 + 1):
                put_pair(m - t * (d + 1), m + t * (d + 1))
        else:
            s = d // 2 + 1
            for t in range(k // 2):
                put_pair(m - s - t * (d + 1), m + s + t * (d + 1))
    else:
        for t in range(1, k // 2 + 1):
            put_pair(n - t * (d + 1), t * (d + 1) - 1)
    return k, sorted(cells)


class TrailsBoard(Board):
    game_name = "trails"

    def __init__(self, options: dict):
        self.options = dict(options)         # already normalised by Game.new
        self.players = 2
        n = self.options["size"]
        k, towers = tower_layout(n, self.options["towers"], self.options["distance"])
        self.size = n
        self.towers_count = k                # effective K, used in the win test even if towers fell off
        self.tower_cells = tuple(towers)     # the initial towers that fit, sorted (row, col)
        self._half = k // 2                  # a tower win needs taken > K // 2
        w, self._step, self._edist, self._rc = _geometry(n)
        self._w = w
        cells = [WALL] * (w * w)
        for r in range(n):
            base = (r + 1) * w + 1
            cells[base:base + n] = [FREE] * n
        for r, c in towers:
            cells[(r + 1) * w + c + 1] = TOWER
        p1, p2 = w + 1, n * w + n
        cells[p1] = P1
        cells[p2] = P2
        self._cells = cells
        self._head = [0, p1, p2]
        self._dir = list(_START_DIR)
        self._boost = [0, 0, 0]
        self._taken = [0, 0, 0]
        self._turn: int | None = 1           # Blue moves first
        self._outcome: Outcome | None = None
        self._undo: list[tuple] = []
        self._moves: list[str] = []
        self._mask = self._legal_mask(1)

    # -- the contract (docs/engine.md) -----------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        """The directions the seat to act may take, sorted: a table look-up, as push and pop keep the mask.

            >>> board = GAME.new(size=5)
            >>> board.legal_moves()        # Blue's head in the top-left corner: up and left leave the field
            ['down', 'right']
        """
        return list(_MASK_NAMES[self._mask])

    def outcome(self) -> Outcome | None:
        """None, or who won and why: `towers` (more than half of them), `stuck` (the opponent has no move) or
        `trapped` (the mover left itself none). Scores are the towers taken; Trails has no draws.

            >>> board = GAME.new(size=5)
            >>> for move in ["down", "left", "down", "left", "right"]:
            ...     board.push(move)
            >>> board.outcome()            # Red, on the bottom row beside a tower, cannot move
            Outcome(winners=(1,), scores=(0, 0), reason='stuck')
        """
        return self._outcome

    def push(self, move: str) -> None:
        """Move the head of the seat to act: a new direction one cell, the k-th move in a row in one direction
        k cells, claiming every cell passed. The end of the game is decided here.

            >>> board = GAME.new(size=5)
            >>> for move in ["right", "left", "right"]:   # Blue's second `right` jumps two cells
            ...     board.push(move)
            >>> board.view()["cells"][0]
            '1111T'
            >>> board.push("right")                       # Red's turn: its own trail lies to the right
            Traceback (most recent call last):
            games.base.IllegalMove: the target cell is occupied: turning moves one cell, to e1
        """
        d = _direction(move)
        if d is None or not self._mask >> d & 1:
            raise IllegalMove(self._refusal(move, d))
        p = self._turn
        claimed = self._path(p, d)
        cells = self._cells
        target = claimed[-1]
        took = cells[target] == TOWER
        for x in claimed:
            cells[x] = p
        pd, b = self._dir[p], self._boost[p]
        self._undo.append((move, p, claimed, took, pd, b, self._head[p], self._mask))
        self._moves.append(move)
        self._boost[p] = b + 1 if d == pd else 0
        self._dir[p] = d
        self._head[p] = target
        # end of move: tower majority or a stuck opponent wins; a self-trapped mover loses
        if took:
            self._taken[p] += 1
            if self._taken[p] > self._half:
                return self._finish(p, "towers")
        q = 3 - p
        mask = self._legal_mask(q)
        if not mask:
            return self._finish(p, "stuck")
        if not self._legal_mask(p):
            return self._finish(q, "trapped")
        self._turn = q
        self._mask = mask

    def pop(self) -> str:
        """Take back the last move from the undo stack (no copies), the exact inverse of `push`.

            >>> board = GAME.new(size=5)
            >>> board.push("right"); board.push("left")
            >>> board.pop(), board.turn, board.legal_moves()
            ('left', 2, ['left', 'up'])
        """
        if not self._undo:
            raise IndexError("pop from an empty move stack: no move to take back")
        move, p, claimed, took, pd, b, head, mask = self._undo.pop()
        self._moves.pop()
        cells = self._cells
        for x in claimed:
            cells[x] = FREE
        if took:
            cells[claimed[-1]] = TOWER
            self._taken[p] -= 1
        self._dir[p] = pd
        self._boost[p] = b
        self._head[p] = head
        self._turn = p
        self._mask = mask
        self._outcome = None
        return move

    def copy(self) -> "TrailsBoard":
        board = TrailsBoard.__new__(TrailsBoard)
        board.__dict__.update(self.__dict__)
        # the undo records and tower list are never mutated, so the copies may share them
        for name in ("_cells", "_head", "_dir", "_boost", "_taken", "_undo", "_moves"):
            setattr(board, name, list(getattr(self, name)))
        board.options = dict(self.options)
        return board

    def view(self) -> dict:
        """The field for the renderer: `cells` (rows from the top: `.` free, `1` and `2` the trails, `T` a
        tower), `heads`, `legal` (each direction and the cells [row, column] it would claim), `green` (all of
        them), `taken`, `towers_needed`, `last_move`, `outcome`.

            >>> board = GAME.new(size=5)
            >>> board.push("right"); board.push("left"); board.push("right")
            >>> board.view()["last_move"]
            {'player': 1, 'move': 'right', 'dest': [0, 3], 'cells': [[0, 2], [0, 3]], 'tower_taken': False}
        """
        n, w, rc = self.size, self._w, self._rc
        flat = bytes(self._cells).translate(_CHARS).decode("ascii")
        rows = [flat[(r + 1) * w + 1:(r + 1) * w + 1 + n] for r in range(n)]
        legal = {}
        green: set[int] = set()
        p = self._turn
        if p is not None:
            for d in range(4):
                if self._mask >> d & 1:
                    path = self._path(p, d)
                    green.update(path)
                    legal[DIRECTIONS[d]] = [list(rc[x]) for x in sorted(path)]
        last_move = None
        if self._undo:
            move, mover, claimed, took, *_ = self._undo[-1]
            last_move = {"player": mover, "move": move, "dest": list(rc[claimed[-1]]),
                         "cells": [list(rc[x]) for x in sorted(claimed)], "tower_taken": took}
        outcome = None
        if self._outcome is not None:
            outcome = self._outcome.to_dict()
            outcome["winner_moves"] = self.winner_moves()
            outcome["text"] = self.title()
        return {
            "size": n,
            "cells": rows,
            "heads": [list(rc[self._head[1]]), list(rc[self._head[2]])],
            "dirs": [DIRECTIONS[self._dir[1]], DIRECTIONS[self._dir[2]]],
            "boost": [self._boost[1], self._boost[2]],
            "taken": [self._taken[1], self._taken[2]],
            "towers_count": self.towers_count,
            "towers_placed": len(self.tower_cells),
            "towers_needed": self.towers_needed,
            "turn": p,
            "legal": legal,
            "green": [list(rc[x]) for x in sorted(green)],
            "last_move": last_move,
            "over": self._outcome is not None,
            "outcome": outcome,
        }

    # -- game-specific queries -----------------------------------------------------------------------

    @property
    def towers_needed(self) -> int | None:
        """Towers needed for a tower win (K//2 + 1), or None when fewer towers than that are on the board."""
        need = self._half + 1
        return need if need <= len(self.tower_cells) else None

    def claimed(self, move: str) -> list[tuple[int, int]]:
        """The cells `move` would claim for the player to move (sorted; the green cells of that direction)."""
        d = _direction(move)
        if d is None or not self._mask >> d & 1:
            raise IllegalMove(self._refusal(move, d))
        return [self._rc[x] for x in sorted(self._path(self._turn, d))]

    def winner_moves(self) -> int | None:
        """How many moves the winner made (the original's title counts these), or None while playing."""
        if self._outcome is None:
            return None
        total = len(self._moves)
        return (total + 1) // 2 if self._outcome.winners == (1,) else total // 2

    def title(self) -> str:
        """The original's window title: "Trails and Towers", or "Blue wins in 19 moves!" at the end."""
        if self._outcome is None:
            return "Trails and Towers"
        return f"{_SEAT_NAME[self._outcome.winners[0]]} wins in {self.winner_moves()} moves!"

    def __str__(self) -> str:
        return "\n".join(self.view()["cells"])

    # -- internals -----------------------------------------------------------------------------------

    def _legal_mask(self, p: int) -> int:
        """The legal directions of seat p as a bit mask (bit d = direction d)."""
        c = self._cells
        h = self._head[p]
        w = self._w
        m = 0
        if c[h + w] == FREE:
            m = 1
        if c[h - 1] == FREE:
            m |= 2
        if c[h + 1] == FREE:
            m |= 4
        if c[h - w] == FREE:
            m |= 8
        # the previous direction is a continuation: it travels boost+2 cells, clamped at the edge
        pd = self._dir[p]
        m &= _CLEAR[pd]
        n = self._edist[pd][h]
        k = self._boost[p] + 2
        if k <= n:
            v = c[h + k * self._step[pd]]
            if v == FREE or v == TOWER:
                m |= _BIT[pd]
        elif n and c[h + n * self._step[pd]] == FREE:
            m |= _BIT[pd]
        return m

    def _path(self, p: int, d: int) -> list[int]:
        """The cells a legal move of seat p in direction d claims: free cells passed, then the target."""
        h = self._head[p]
        step = self._step[d]
        if d != self._dir[p]:
            return [h + step]
        k = self._boost[p] + 2
        n = self._edist[d][h]
        if k > n:
            k = n
        cells = self._cells
        claimed = [x for x in range(h + step, h + k * step, step) if cells[x] == FREE]
        claimed.append(h + k * step)
        return claimed

    def _finish(self, winner: int, reason: str) -> None:
        self._turn = None
        self._mask = 0
        self._outcome = Outcome((winner,), (self._taken[1], self._taken[2]), reason)

    def _recompute(self) -> None:
        """Recompute the legal mask of the player to move (after the position was set by hand)."""
        self._mask = self._legal_mask(self._turn) if self._turn is not None else 0

    def _refusal(self, move, d: int | None) -> Reason:
        """Why `move` is refused, for a person who may see the board turned: cells ("c11"), never "the top edge"."""
        if self._turn is None:
            return Reason("the game is over")
        if not isinstance(move, str):
            return Reason("a move must be a direction (up, down, left or right), not %(kind)s",
                          kind=type(move).__name__)
        if d is None:
            return Reason("unknown move %(move)s: a move is one of up, down, left, right", move=repr(move))
        p = self._turn
        h = self._head[p]
        n = self._edist[d][h]
        head = self._where(h)
        if d != self._dir[p]:
            if n == 0:
                return Reason("the head, on %(head)s, is on the edge: a new direction cannot leave the board",
                              head=head)
            target = self._where(h + self._step[d])
            if self._cells[h + self._step[d]] == TOWER:
                return Reason("turning moves one cell, onto the tower on %(cell)s: a tower can only be taken by "
                              "continuing in the same direction", cell=target)
            return Reason("the target cell is occupied: turning moves one cell, to %(cell)s", cell=target)
        k = self._boost[p] + 2
        if n == 0:
            return Reason("the head, on %(head)s, is already on the edge, so it cannot continue that way", head=head)
        if k <= n:
            return reason_n("the target cell is occupied: continuing moves exactly %(num)d cell, to %(cell)s, and "
                            "never stops short",
                            "the target cell is occupied: continuing moves exactly %(num)d cells, to %(cell)s, and "
                            "never stops short", k, cell=self._where(h + k * self._step[d]))
        t = h + n * self._step[d]
        if self._cells[t] == TOWER:
            return reason_n("continuing (%(num)d cell) runs over the edge, and the edge cell %(cell)s holds a "
                            "tower: an edge tower can only be taken by landing on it exactly",
                            "continuing (%(num)d cells) runs over the edge, and the edge cell %(cell)s holds a "
                            "tower: an edge tower can only be taken by landing on it exactly", k, cell=self._where(t))
        return reason_n("continuing (%(num)d cell) runs over the edge, and the edge cell %(cell)s is occupied",
                        "continuing (%(num)d cells) runs over the edge, and the edge cell %(cell)s is occupied",
                        k, cell=self._where(t))

    def _where(self, i: int) -> str:
        r, c = self._rc[i]
        return cell_name(c, self.size - r)

    def targets(self, start: int = 0) -> list[tuple[int, int, bool]]:
        """(row, column, tower taken) of the cell each move so far reached, in order, from the `start`-th move on
        (for games.notation)."""
        return [(*self._rc[claimed[-1]], took) for _, _, claimed, took, *_ in self._undo[start:]]


def _notes(options: dict) -> list[str]:
    """Warnings for the new-game form: the even-board adjustment, towers that do not fit, no tower win."""
    n, k0 = options["size"], options["towers"]
    k, towers = tower_layout(n, k0, options["distance"])
    notes = []
    if k != k0:
        notes.append(f"On an even board the tower count must be even, so {k0} towers become {k}.")
    placed, need = len(towers), k // 2 + 1
    if k == 0:
        notes.append("There are no towers, so nobody can win by towers: only getting stuck decides the game.")
    elif placed < k:
        fits = "fits" if placed == 1 else "fit"
        if placed == 0:
            notes.append(f"None of the {k} towers fits on a {n}x{n} board, so nobody can win by towers.")
        elif placed < need:
            notes.append(f"Only {placed} of {k} towers {fits} on a {n}x{n} board, so nobody can win by towers.")
        else:
            notes.append(f"{placed} of {k} towers {fits}; a tower win still needs {need}.")
    return notes


def _longest(options: dict) -> int:
    """Every move claims its target cell, which was free or held a tower, and no cell is ever freed: a game
    has at most N x N - 2 moves (the two corners are taken at the start). An exact bound, not an estimate."""
    return options["size"] ** 2 - 2


GAME = Game(
    name="trails",
    title="Trails and Towers",
    seats=(2, 2),
    options={
        "size": Option(11, "int", range=(3, 25), help="board side N (an N x N board)"),
        "towers": Option(3, "int", range=(0, 12),
                         help="number of towers on the anti-diagonal (an odd count on an even board is raised by 1)"),
        "distance": Option(1, "int", range=(0, 6), help="free cells between neighbouring towers"),
    },
    board_class=TrailsBoard,
    summary=(
        "Blue starts in the top-left corner and Red in the bottom-right; each move extends your trail up, down, "
        "left or right. Turning moves one cell onto a free cell, while repeating your last direction jumps "
        "further each time (2, 3, 4 cells...), claims the free cells it passes and takes a tower it lands on "
        "exactly. Take more than half of the towers to win, or leave your opponent without a move; "
        "a player who traps themselves loses at once."
    ),
    notes=_notes,
    longest=_longest,
    notation=trails_names,
    names=lambda options: ["Blue", "Red"],
    draws=False,  # every game ends with a winner (docs/games.md, *Trails and Towers*)
)
