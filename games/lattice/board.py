"""Lattice Checkers rules engine, on the engine contract (docs/engine.md).

Notation (docs/games.md, *Lattice Checkers*):

* ``Aa1-Ab2``      simple move one step forward (B up, T down) to a free neighbour;
* ``Cd2:Ad4:Ab2``  a whole capture chain: the start node, then every landing node; each captured piece is
                   the node halfway between two consecutive points;
* ``+Bb1``         the return of a captured ball after a promotion, played by the same side right after the
                   promoting move and before its extra turn.

Passes are automatic inside ``push``: ``turn`` always names a side that has an action, or None at the end.

Cells hold 0 (empty), +1 (B ball), +2 (B star), -1 (T ball), -2 (T star). Seat 1 = B, seat 2 = T.
"""
from __future__ import annotations

import re

from games.base import Board, IllegalMove, Option, Outcome, Reason, bad_option
from games.lattice.geometry import SIZES, SIDE_NAME, B, T, lattice

# The original's 8 colours, name -> RGB. The rules ignore them; renderers use them.
COLORS = {
    "red": (1.0, 0.0, 0.0),
    "orange": (1.0, 0.6, 0.0),
    "yellow": (1.0, 1.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "cyan": (0.0, 1.0, 1.0),
    "blue": (0.0, 0.0, 1.0),
    "magenta": (1.0, 0.0, 1.0),
    "white": (1.0, 1.0, 1.0),
}

# The colours' names as the sides are called (capitalised: "Blue"), marked for the `games` catalog (babel.cfg).
def N_(word: str) -> str:
    return word


COLOR_NAMES = (N_("Red"), N_("Orange"), N_("Yellow"), N_("Green"), N_("Cyan"), N_("Blue"), N_("Magenta"), N_("White"))

SIMPLE, CAPTURE, RETURN = 0, 1, 2
_POS_RE = re.compile(r"^B:([^;]*);T:([^;]*);benchB:(\d+);benchT:(\d+)$")


class StartOption(Option):
    """A free-text option: a start position as a ``<pos>`` string (see `parse_pos`), or "" for the
    standard setup. Only imported ``.ltc`` games set it; the JSON record needs it to rebuild such a game.
    The position itself is checked against the size when the board is made."""

    def accepted(self) -> str:
        return Reason('"" (the standard setup) or a position string such as %(example)s',
                      example='"B:Aa1,Bc4*;T:Db3;benchB:6;benchT:7"')

    def check(self, name, value):
        if not isinstance(value, str) or (value.strip() and not _POS_RE.match(value.strip())):
            raise ValueError(bad_option(name, value, self.accepted()))
        return value.strip()


OPTIONS = {
    "size": Option("222", "choice", choices=SIZES,
                   help="half-sizes in x, y and levels: 222 is a 4x4x4 box (32 nodes, 8 pieces a side), "
                        "333 a 6x6x6 box (108 nodes, 36 pieces a side)"),
    "first": Option(1, "choice", choices=(1, 2), help="the side that moves first: 1 = B (bottom), 2 = T (top)"),
    "end_on_elimination": Option(False, "bool",
                                 help="end the game as soon as a side has no pieces on the lattice"),
    "color_b": Option("blue", "choice", choices=tuple(COLORS), help="colour of B (seat 1, bottom)"),
    "color_t": Option("red", "choice", choices=tuple(COLORS), help="colour of T (seat 2, top)"),
    "start": StartOption("", "text", changes_start=True, import_only=True,
                         help="start position of an imported .ltc game (empty = the standard setup)"),
}


def parse_pos(g, text: str):
    """Parse a ``<pos>`` string for lattice ``g`` into (cells, bench). ValueError with a reason."""
    m = _POS_RE.match(text.strip())
    if not m:
        raise ValueError(f"{text!r} is not a position string like 'B:Aa1,Bc4*;T:Db3;benchB:6;benchT:7'")
    cells = [0] * g.cells
    for sign, group in ((1, m.group(1)), (-1, m.group(2))):
        for item in filter(None, (s.strip() for s in group.split(","))):
            star = item.endswith("*")
            n = g.node(item[:-1] if star else item)
            if cells[n]:
                raise ValueError(f"node {g.label[n]} is given twice in the position")
            cells[n] = sign * (2 if star else 1)
    return cells, [0, int(m.group(3)), int(m.group(4))]


class LatticeBoard(Board):
    game_name = "lattice"

    def __init__(self, options: dict):
        opts = {name: opt.default for name, opt in OPTIONS.items()}
        opts.update(options or {})
        if opts["color_b"] == opts["color_t"]:
            raise ValueError(Reason("options 'color_b' and 'color_t': the two sides cannot share a colour (both "
                                    "%(colour)s); choose two of: %(colours)s", colour=repr(opts["color_b"]),
                                    colours=", ".join(COLORS)))
        g = self._g = lattice(opts["size"])
        if opts["start"]:
            try:
                cells, bench = parse_pos(g, opts["start"])
            except ValueError as exc:
                raise ValueError(f"option 'start': {exc}") from None
            opts["start"] = _pos_string(g, cells, bench)
        else:
            cells = [0] * g.cells
            for n in g.setup[B]:
                cells[n] = 1
            for n in g.setup[T]:
                cells[n] = -1
            bench = [0, 0, 0]
        self.options = opts
        self.players = 2
        self._cells = cells
        self._bench = bench
        self._pieces = [None, {n for n in g.nodes if cells[n] > 0}, {n for n in g.nodes if cells[n] < 0}]
        self._eoe = bool(opts["end_on_elimination"])
        self._moves: list[str] = []
        self._undo: list[tuple] = []
        # the state below is saved by push in the undo record and restored by pop as one tuple
        self._turn = None
        self._pending = False          # a return (+node) is due from self._turn
        self._legal: dict = {}         # move string -> (kind, path)
        self._sorted = None            # sorted legal move strings, computed lazily
        self._outcome = None
        self._extra = False            # the side to move plays an extra turn after its promotion
        self._passed = ()              # seats that passed automatically after the last push
        self._last = None              # (seat, kind, path, promoted) of the last push
        self._settle(opts["first"], False)

    # ------------------------------------------------------------------ contract (docs/engine.md)

    def legal_moves(self) -> list[str]:
        """The side to act's steps, whole capture chains (capturing is mandatory) or, after a promotion, the
        returns of a captured ball, sorted.

            >>> board = LatticeBoard({})                  # 222: a 4x4x4 box, B on level 1, T on level 4
            >>> board.push("Bb1-Ab2"); board.push("Ad4-Ac3")
            >>> board.legal_moves()                       # B must jump Ac3, landing on the far level
            ['Ab2:Ad4']
        """
        if self._sorted is None:
            self._sorted = sorted(self._legal)
        return list(self._sorted)

    def push(self, move: str) -> None:
        """Play a step, a capture chain or a return. Passes are automatic, and a promoting side moves again.

            >>> board = LatticeBoard({})
            >>> board.push("Bb1-Ab2"); board.push("Ad4-Ac3")
            >>> board.push("Ac1-Ad2")
            Traceback (most recent call last):
            games.base.IllegalMove: a capture is mandatory: play one of Ab2:Ad4
            >>> board.push("Ab2:Ad4"); board.turn        # a star now: B plays again
            1
        """
        act = self._legal.get(move) if isinstance(move, str) else None
        if act is None:
            raise IllegalMove(self._explain(move))
        side = self._turn
        saved = (side, self._pending, self._legal, self._sorted, self._outcome, self._extra,
                 self._passed, self._last)
        kind, path = act
        cells = self._cells
        if kind == RETURN:
            n = path[0]
            cells[n] = 1 if side == B else -1
            self._pieces[side].add(n)
            self._bench[side] -= 1
            self._undo.append((move, saved, None))
            self._moves.append(move)
            self._last = (side, RETURN, path, False)
            self._settle(side, True)
            return
        # simple move or capture chain
        start, end = path[0], path[-1]
        v = cells[start]
        cells[start] = 0
        mine = self._pieces[side]
        mine.discard(start)
        captured = None
        star = v == 2 or v == -2
        far = self._g.far_level[side]
        level = self._g.level
        promoted = False
        if kind == CAPTURE:
            other = 3 - side
            theirs = self._pieces[other]
            captured = []
            prev = start
            for n in path[1:]:
                mid = (prev + n) >> 1
                captured.append((mid, cells[mid]))
                cells[mid] = 0
                theirs.discard(mid)
                if not star and level[n] == far:
                    star = promoted = True
                prev = n
            self._bench[other] += len(captured)
        elif not star and level[end] == far:
            star = promoted = True
        sign = 1 if side == B else -1
        cells[end] = sign * 2 if star else sign
        mine.add(end)
        self._undo.append((move, saved, (start, v, end, captured)))
        self._moves.append(move)
        self._last = (side, kind, path, promoted)
        if promoted and self._bench[side] > 0 and self._free_first(side) and not self._eliminated():
            # the return of a captured ball is due before the extra turn
            self._turn = side
            self._pending = True
            lab = self._g.label
            self._legal = {"+" + lab[n]: (RETURN, (n,))
                           for n in self._g.level_nodes[self._g.first_level[side]] if not cells[n]}
            self._sorted = None
            self._extra = False
            self._passed = ()
        else:
            self._settle(side if promoted else 3 - side, promoted)

    def pop(self) -> str:
        """Take back the last move, captured pieces and all.

            >>> board = LatticeBoard({})
            >>> for move in ["Bb1-Ab2", "Ad4-Ac3", "Ab2:Ad4"]:
            ...     board.push(move)
            >>> board.scores(), board.pop(), board.scores()
            ((1, 0), 'Ab2:Ad4', (0, 0))
        """
        if not self._undo:
            raise IndexError("pop from a board with no moves")
        move, saved, diff = self._undo.pop()
        self._moves.pop()
        side = saved[0]
        cells = self._cells
        if diff is None:                                   # a return
            n = self._g.index[move[1:]]
            cells[n] = 0
            self._pieces[side].discard(n)
            self._bench[side] += 1
        else:
            start, v, end, captured = diff
            mine = self._pieces[side]
            cells[end] = 0
            mine.discard(end)
            cells[start] = v
            mine.add(start)
            if captured:
                other = 3 - side
                theirs = self._pieces[other]
                for mid, cv in captured:
                    cells[mid] = cv
                    theirs.add(mid)
                self._bench[other] -= len(captured)
        (self._turn, self._pending, self._legal, self._sorted, self._outcome, self._extra,
         self._passed, self._last) = saved
        return move

    def outcome(self):
        """None, or the end: `stuck` (neither side can act) or `eliminated` (with `end_on_elimination`); the
        scores are each side's pieces on its far level, and equal scores are a draw (no winners).

            >>> board = LatticeBoard({"start": "B:Aa3;T:Dd1;benchB:0;benchT:0"})   # an imported position
            >>> board.push("Aa3-Ab4")                     # B reaches its far level; T's piece is on its own
            >>> board.outcome()
            Outcome(winners=(), scores=(1, 1), reason='stuck')
        """
        return self._outcome

    def copy(self) -> "LatticeBoard":
        b = LatticeBoard.__new__(LatticeBoard)
        b.__dict__.update(self.__dict__)
        b.options = dict(self.options)
        b._cells = list(self._cells)
        b._bench = list(self._bench)
        b._pieces = [None, set(self._pieces[1]), set(self._pieces[2])]
        b._moves = list(self._moves)
        b._undo = list(self._undo)        # records are never mutated
        return b

    # ------------------------------------------------------------------ queries

    @property
    def pending_return(self) -> bool:
        """True while the side to move must return a captured ball (``+node``)."""
        return self._pending

    @property
    def extra_turn(self) -> bool:
        """True when the side to move plays the extra turn it earned by promoting."""
        return self._extra

    @property
    def bench(self) -> tuple[int, int]:
        """(B's, T's) captured pieces not returned."""
        return self._bench[1], self._bench[2]

    def turn_boundaries(self) -> list[int]:
        """The move counts after which a complete turn has ended (a take-back's stops), from 0 up to len(moves): every
        count except one that stops between a promoting move and its return (the move after it, or the
        current position, is a ``+node`` still due). A rewind or take-back should stop only at these."""
        moves = self._moves
        return [k for k in range(len(moves)) if not moves[k].startswith("+")] + \
            ([] if self._pending else [len(moves)])

    def on_board(self) -> tuple[int, int]:
        return len(self._pieces[1]), len(self._pieces[2])

    def node_values(self) -> tuple:
        """Every node's content by node index (`lattice(size).nodes`): 0 empty, +-1 a ball, +-2 a star, + for B.
        A copy, for search evaluations that would otherwise parse `pos()`."""
        return tuple(self._cells)

    def nodes_of(self, seat: int) -> frozenset:
        """The node indexes of a seat's pieces."""
        return frozenset(self._pieces[seat])

    def scores(self) -> tuple[int, int]:
        """(B, T): each side's pieces, balls and stars, standing on its far level."""
        g = self._g
        level = g.level
        return tuple(sum(1 for n in self._pieces[s] if level[n] == g.far_level[s]) for s in (B, T))

    def can_still_win(self, seat: int) -> bool:
        """A side with no piece left, neither on the board nor on its bench, can never score again."""
        return len(self._pieces[seat]) + self._bench[seat] > 0

    def pos(self) -> str:
        """The position as a ``<pos>`` string, as `parse_pos` reads it."""
        return _pos_string(self._g, self._cells, self._bench)

    def piece_at(self, label: str):
        """(seat, star) of the piece on a node, or None when it is empty."""
        v = self._cells[self._g.node(label)]
        return None if v == 0 else (B if v > 0 else T, abs(v) == 2)

    @property
    def last(self) -> dict | None:
        """The last push: {"move", "seat", "kind" (move/capture/return), "path", "captures", "promoted"}."""
        if self._last is None:
            return None
        lab = self._g.label
        seat, kind, path, promoted = self._last
        return {"move": self._moves[-1], "seat": seat, "kind": ("move", "capture", "return")[kind],
                "path": [lab[n] for n in path],
                "captures": [lab[(a + b) >> 1] for a, b in zip(path, path[1:])] if kind == CAPTURE else [],
                "promoted": promoted}

    @property
    def passed(self) -> tuple:
        """The seats that passed automatically right after the last push (a side without a legal action)."""
        return self._passed

    # ------------------------------------------------------------------ rules

    def _gen(self, side: int) -> dict:
        """All maximal actions of `side`: capture chains if any, else forward simple moves."""
        g = self._g
        cells = self._cells
        lab = g.label
        jumps = g.jumps
        sg = 1 if side == B else -1
        chains = []
        mine = self._pieces[side]
        theirs = self._pieces[3 - side]
        for p in mine:
            for mid, land in jumps[p]:
                if mid in theirs and not cells[land]:
                    break
            else:
                continue
            v = cells[p]
            cells[p] = 0                  # the origin is free once the piece has left (circular chains)
            path = [p]

            def dfs(cur):
                extended = False
                for mid, land in jumps[cur]:
                    cv = cells[mid]
                    if cv * sg < 0 and not cells[land]:
                        extended = True
                        cells[mid] = 0    # removed at once
                        path.append(land)
                        dfs(land)
                        path.pop()
                        cells[mid] = cv
                if not extended:
                    chains.append(tuple(path))

            dfs(p)
            cells[p] = v
        if chains:
            return {":".join([lab[n] for n in c]): (CAPTURE, c) for c in chains}
        fwd = g.moves_fwd[side]
        res = {}
        for p in mine:
            for t, m, act in fwd[p]:
                if not cells[t]:
                    res[m] = act
        return res

    def _free_first(self, side: int) -> bool:
        cells = self._cells
        return any(not cells[n] for n in self._g.level_nodes[self._g.first_level[side]])

    def _eliminated(self) -> bool:
        return self._eoe and (not self._pieces[1] or not self._pieces[2])

    def _settle(self, nxt: int, extra: bool) -> None:
        """Hand the turn to `nxt` (after an action or a return), passing automatically, or end the game."""
        self._pending = False
        self._sorted = None
        if self._eliminated():
            self._finish("eliminated")
            return
        acts = self._gen(nxt)
        if acts:
            self._turn, self._legal, self._extra, self._passed = nxt, acts, extra, ()
            return
        acts = self._gen(3 - nxt)
        if acts:
            self._turn, self._legal, self._extra, self._passed = 3 - nxt, acts, False, (nxt,)
            return
        self._finish("stuck")

    def _finish(self, reason: str) -> None:
        sb, st = self.scores()
        winners = (B,) if sb > st else (T,) if st > sb else ()
        self._outcome = Outcome(winners, (sb, st), reason)
        self._turn = None
        self._pending = False
        self._legal = {}
        self._sorted = None
        self._extra = False
        self._passed = ()

    # ------------------------------------------------------------------ explanations

    def _explain(self, move) -> Reason:
        """Why `move` is not legal now (only called for a move that is not in the legal list)."""
        if not isinstance(move, str):
            return Reason("a move must be a string in the game's notation (e.g. 'Aa1-Ab2'), not %(kind)s",
                          kind=type(move).__name__)
        if self._outcome is not None:
            return Reason("the game is over")
        g = self._g
        side = self._turn
        me, them = SIDE_NAME[side], SIDE_NAME[3 - side]
        s = move
        first_level = g.first_level[side] + 1
        if s.startswith("+"):
            return self._explain_return(s, side, first_level)
        if self._pending:
            return Reason("you promoted a ball: first return a captured ball to a free node of your first level "
                          "(level %(level)d): %(moves)s", level=first_level, moves=", ".join(self.legal_moves()))
        if "-" in s and ":" not in s:
            parts, capture = s.split("-"), False
        elif ":" in s and "-" not in s:
            parts, capture = s.split(":"), True
        else:
            parts, capture = None, False
        if not parts or len(parts) < 2 or (not capture and len(parts) != 2) or not all(parts):
            return Reason("%(move)s is not a move: write a simple move as 'Aa1-Ab2', a capture chain as "
                          "'Cd2:Ad4:Ab2' (start, then every landing node), a return as '+Bb1'", move=repr(s))
        for p in parts:
            if p not in g.index:
                if re.fullmatch(r"[A-F][a-f][1-6]", p):
                    return Reason("%(node)s is not a node of the %(size)s lattice", node=p, size=g.size)
                return Reason("%(node)s is not a node label (x letter A-F, y letter a-f, level 1-6, e.g. 'Bc2')",
                              node=repr(p))
        nodes = [g.index[p] for p in parts]
        cells = self._cells
        start = nodes[0]
        v = cells[start]
        if v == 0:
            return Reason("there is no piece on %(node)s", node=parts[0])
        if (v > 0) != (side == B):
            return Reason("%(node)s holds a piece of %(them)s; it is %(me)s's turn", node=parts[0], them=them, me=me)
        captures = [m for m in self._legal if ":" in m]
        if not capture:
            return self._explain_step(s, parts, nodes, side, captures)
        return self._explain_capture(s, parts, nodes, side, captures)

    def _explain_return(self, s: str, side: int, first_level: int) -> Reason:
        g = self._g
        if not self._pending:
            return Reason("a return (+node) is only played right after your move that promoted a ball, "
                          "while you have a captured ball and a free node on your first level")
        n = g.index.get(s[1:])
        if n is None:
            return Reason("%(node)s is not a node of the %(size)s lattice", node=repr(s[1:]), size=g.size)
        if g.level[n] != g.first_level[side]:
            return Reason("a captured ball comes back on your own first level (level %(level)d); choose one of: "
                          "%(moves)s", level=first_level, moves=", ".join(self.legal_moves()))
        return Reason("%(node)s is occupied; choose one of: %(moves)s", node=s[1:], moves=", ".join(self.legal_moves()))

    def _explain_step(self, s: str, parts: list, nodes: list, side: int, captures: list) -> Reason:
        g = self._g
        a, b = nodes
        if captures:
            return Reason("a capture is mandatory: play one of %(moves)s", moves=", ".join(sorted(captures)))
        if b not in g.neighbours[a]:
            if side == B:
                return Reason("%(to)s is not next to %(start)s: a piece steps one level up and one node along x or y",
                              to=parts[1], start=parts[0])
            return Reason("%(to)s is not next to %(start)s: a piece steps one level down and one node along x or y",
                          to=parts[1], start=parts[0])
        if b not in g.steps_fwd[side][a]:
            if side == B:
                return Reason("pieces (balls and stars alike) move only forward, one level up; they go backward only "
                              "by capturing")
            return Reason("pieces (balls and stars alike) move only forward, one level down; they go backward only "
                          "by capturing")
        if self._cells[b]:
            return Reason("%(node)s is occupied", node=parts[1])
        return Reason("%(move)s is not legal now", move=s)

    def _explain_capture(self, s: str, parts: list, nodes: list, side: int, captures: list) -> Reason:
        """A capture chain: walked on a scratch copy of the board."""
        g = self._g
        cells = self._cells
        them = SIDE_NAME[3 - side]
        work = list(cells)
        work[nodes[0]] = 0
        sg = 1 if side == B else -1
        for k in range(1, len(nodes)):
            a, b = nodes[k - 1], nodes[k]
            mid = (a + b) // 2
            hop = f"{parts[k - 1]}:{parts[k]}"
            if (mid, b) not in g.jumps[a]:
                return Reason("%(hop)s is not a capture hop: a piece jumps over the neighbouring node along one of "
                              "the 8 diagonals onto the node right behind it", hop=hop)
            if work[mid] * sg >= 0:
                if cells[mid] * sg < 0:
                    return Reason("%(hop)s: there is no piece of %(them)s to capture on %(node)s (it was already "
                                  "captured in this chain)", hop=hop, them=them, node=g.label[mid])
                return Reason("%(hop)s: there is no piece of %(them)s to capture on %(node)s", hop=hop, them=them,
                              node=g.label[mid])
            if work[b]:
                return Reason("%(hop)s: the landing node %(node)s is occupied", hop=hop, node=parts[k])
            work[mid] = 0
        longer = sorted(m for m in captures if m.startswith(s + ":"))
        if longer:
            return Reason("a capture chain must be complete: the piece can capture again from %(node)s; play e.g. "
                          "%(moves)s", node=parts[-1], moves=", ".join(longer[:4]))
        return Reason("%(move)s is not legal now", move=s)

    # ------------------------------------------------------------------ view

    def view(self) -> dict:
        """The lattice for both drawings (3D and flat levels): `nodes` (id, coordinates, seat, star), `levels`
        (rows of `b`/`B`, `t`/`T`, `.`), `legal`, `bench`, `score`, `pending` (a return is due), `outcome`.

            >>> view = LatticeBoard({}).view()
            >>> view["levels"][0]
            {'level': 1, 'rows': ['b b ', ' b b', 'b b ', ' b b']}
        """
        g = self._g
        lab = g.label
        cells = self._cells
        nodes = []
        for n in g.nodes:
            j, i, l = g.coords[n]
            v = cells[n]
            nodes.append({"id": lab[n], "x": j, "y": i, "z": l, "level": l + 1,
                          "seat": None if v == 0 else (B if v > 0 else T), "star": abs(v) == 2})
        chars = {0: ".", 1: "b", 2: "B", -1: "t", -2: "T"}
        levels = []
        for l in range(g.L):
            rows = []
            for i in range(g.H):
                rows.append("".join(chars[cells[g.idx(j, i, l)]] if (i + j + l) % 2 == 0 else " "
                                    for j in range(g.W)))
            levels.append({"level": l + 1, "rows": rows})
        legal: dict = {}
        returns = []
        if self._pending:
            returns = [m[1:] for m in self.legal_moves()]
        else:
            for m in self.legal_moves():
                kind, path = self._legal[m]
                labels = [lab[n] for n in path]
                entry = {"move": m, "path": labels,
                         "captures": [lab[(a + b) // 2] for a, b in zip(path, path[1:])] if kind == CAPTURE
                         else [],
                         "promotes": self._promotes(self._turn, path)}
                legal.setdefault(labels[0], []).append(entry)
        out = self._outcome
        return {
            "game": "lattice",
            "size": g.size,
            "dims": list(g.dims),
            "grid": [g.W, g.H, g.L],
            "axes": {"x": [chr(65 + j) for j in range(g.W)], "y": [chr(97 + i) for i in range(g.H)],
                     "level": [str(l + 1) for l in range(g.L)]},
            "colors": {"1": {"name": self.options["color_b"], "rgb": list(COLORS[self.options["color_b"]])},
                       "2": {"name": self.options["color_t"], "rgb": list(COLORS[self.options["color_t"]])}},
            "sides": {"1": {"name": "B", "first_level": g.first_level[B] + 1, "far_level": g.far_level[B] + 1,
                            "forward": +1},
                      "2": {"name": "T", "first_level": g.first_level[T] + 1, "far_level": g.far_level[T] + 1,
                            "forward": -1}},
            "nodes": nodes,
            "bonds": [[lab[a], lab[b]] for a, b in g.bonds],
            "levels": levels,
            "turn": self._turn,
            "pending": None if out is not None else ("return" if self._pending else "move"),
            "extra_turn": self._extra,
            "passed": list(self._passed),
            "legal": legal,
            "returns": returns,
            "must_capture": any(":" in m for m in self._legal),
            "bench": [self._bench[1], self._bench[2]],
            "on_board": [len(self._pieces[1]), len(self._pieces[2])],
            "score": list(self.scores()),
            "last": self.last,
            "pos": self.pos(),
            "move_count": len(self._moves),
            "over": out is not None,
            "outcome": out.to_dict() if out is not None else None,
        }

    def _promotes(self, side, path) -> bool:
        v = self._cells[path[0]]
        if v == 2 or v == -2:
            return False
        far = self._g.far_level[side]
        return any(self._g.level[n] == far for n in path[1:])

    def __repr__(self) -> str:
        return f"<LatticeBoard {self.options['size']} turn={self._turn} {self.pos()}>"


def _pos_string(g, cells, bench) -> str:
    lab = g.label
    parts = []
    for sign in (1, -1):
        parts.append(",".join(lab[n] + ("*" if cells[n] * sign == 2 else "")
                              for n in g.nodes_by_label if cells[n] * sign > 0))
    return f"B:{parts[0]};T:{parts[1]};benchB:{bench[1]};benchT:{bench[2]}"
