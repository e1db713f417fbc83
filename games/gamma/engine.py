"""Gamma's fast core: the University of Warsaw assignment's engine functions.

`Gamma(width, height, players, areas)` is the C API of the assignment's `gamma.h`:
`move`, `golden_move`, `busy_fields`, `free_fields`, `golden_possible`, `board`, plus
`undo` (make/unmake, for the turn-based board and the AI) and a few queries that the
browser view needs (`move_targets`, `golden_targets`, `areas_of`).

Layout, chosen for speed in pure Python:

* The board is one flat list, padded with a sentinel (-1): one extra column (shared by
  the left and the right edge, since rows wrap) and one extra row below and above.
  Field (x, y) is cell `(y + 1) * S + x` with `S = width + 1`; its neighbours are
  `c - 1, c + 1, c - S, c + S`, and no bounds checks are needed.
* Areas are a union-find per board (union by size, no path compression, so that every
  change can be undone by restoring a few slots). A golden move relabels only the
  victim's component it cuts, by a BFS over that component.
* Counters kept incrementally on every change: busy fields, areas and "empty fields
  next to one of my fields" per player, empty fields on the board. `free_fields` is
  O(1). `golden_possible` is O(1) below the area limit; at the limit it looks at the
  player's contacts (other players' fields next to his, kept up to date from the first
  such question on) and searches locally only where taking a field might split its
  owner; the answer is cached until the board changes.

Coordinates and players are plain Python ints; every query validates them the way
the C functions do (an invalid player or field gives 0/False, never an exception).
"""
from __future__ import annotations

from games.reasons import Reason, reason_n

UINT32_MAX = 0xFFFFFFFF
# Refused sizes fail cleanly (ValueError) instead of exhausting memory, as the
# assignment's gamma_new may fail (batch mode prints ERROR either way). Up to 2,097,152 fields (1448 x 1448, or a 1 x 2,097,152 strip: a strip is never
# refused when a square of as many fields is not) and 1,048,576 players. Measured in
# CPython 3.11: a new 1448 x 1448 game takes 64 MB (the 1-wide strip 128 MB, the padding
# doubles it), a full one about 420 MB with its undo history; 1000 x 1000 full, 200 MB.
MAX_FIELDS = 1 << 21
MAX_PLAYERS = 1 << 20
_FIELD = "({},{})".format         # a field in a reason, as the assignment writes it
_PLAYER = "player {}".format      # a player in a reason

_SENTINEL = -1
_MOVE = 0
_GOLDEN = 1


class Gamma:
    """One game of gamma. Raises ValueError for parameters that are 0, above
    UINT32_MAX, or too large to hold (the C `gamma_new` returning NULL)."""

    # The part-1/part-2 meaning of golden_possible (unused and somebody else has a
    # field), only to run the old test folder; Quadrille plays the final meaning.
    old_golden_possible = False

    def __init__(self, width: int, height: int, players: int, areas: int, *, undo: bool = True):
        for name, value in (("width", width), ("height", height), ("players", players), ("areas", areas)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(Reason("%(name)s must be an integer, got %(value)s", name=name, value=repr(value)))
            if value < 1:
                raise ValueError(Reason("%(name)s must be positive, got %(value)d", name=name, value=value))
            if value > UINT32_MAX:
                raise ValueError(Reason("%(name)s must be at most %(most)d, got %(value)d", name=name,
                                        most=UINT32_MAX, value=value))
        if width * height > MAX_FIELDS:
            raise ValueError(Reason("a %(width)dx%(height)d board has %(fields)d fields; at most %(most)d fit in "
                                    "memory", width=width, height=height, fields=width * height, most=MAX_FIELDS))
        if players > MAX_PLAYERS:
            raise ValueError(Reason("%(players)d players is too many; at most %(most)d", players=players,
                                    most=MAX_PLAYERS))
        self.width = width
        self.height = height
        self.players = players
        self.max_areas = areas
        S = width + 1
        N = S * (height + 2)
        self._S = S
        try:
            owner = [0] * N
            owner[0:S] = [_SENTINEL] * S
            owner[N - S:N] = [_SENTINEL] * S
            owner[width::S] = [_SENTINEL] * len(range(width, N, S))
            self._owner = owner
            self._parent = [0] * N
            self._size = [0] * N
            self._pos = [0] * N              # index of a cell in its owner's cell list
            n = players + 1
            self._busy = [0] * n
            self._areas = [0] * n
            self._near = [0] * n             # empty fields next to at least one own field
            self._used = bytearray(n)        # golden move made
            self._stamp = [0] * n            # version of the player's last change
            self._cells: list = [None] * n   # the player's cells, created lazily
            # For players whose golden_possible was asked at the area limit: the other
            # players' cells next to theirs -> how many of their fields touch them. Built
            # on the first such question, then kept up to date by every change.
            self._contact: list = [None] * n
        except MemoryError:  # pragma: no cover - depends on the machine
            raise ValueError(f"not enough memory for a {width}x{height} board with {players} players") from None
        self._tracked = 0
        self._empty = width * height
        self._total = 0
        self._version = 0
        self._log: list | None = [] if undo else None
        self._gp_cache: dict = {}            # player -> (version, golden_possible)
        self._cut_cache: dict = {}           # player -> (stamp, {cell: pieces after removal})
        self._board_cache = (-1, b"")

    # ------------------------------------------------------------------ geometry
    def _cell(self, x: int, y: int) -> int:
        return (y + 1) * self._S + x

    def xy(self, c: int) -> tuple[int, int]:
        r, x = divmod(c, self._S)
        return x, r - 1

    def _valid(self, p, x, y) -> bool:
        return 0 < p <= self.players and 0 <= x < self.width and 0 <= y < self.height

    # ------------------------------------------------------------------ counters
    def _set_owner(self, c: int, new: int) -> None:
        """Give cell c to `new` (0 = empty) and keep busy/near/empty counters right."""
        o = self._owner
        old = o[c]
        S = self._S
        near = self._near
        a, b, d, u = c - 1, c + 1, c - S, c + S
        if old == 0 or new == 0:
            # c itself stops (or starts) being an empty field next to its neighbours' owners.
            delta = -1 if old == 0 else 1
            qa, qb, qd, qu = o[a], o[b], o[d], o[u]
            if qa > 0:
                near[qa] += delta
            if qb > 0 and qb != qa:
                near[qb] += delta
            if qd > 0 and qd != qa and qd != qb:
                near[qd] += delta
            if qu > 0 and qu != qa and qu != qb and qu != qd:
                near[qu] += delta
        # Empty neighbours of c lose `old` (if c was their only old-neighbour) and
        # gain `new` (if they had no new-neighbour). o[c] still holds `old` here.
        for e in (a, b, d, u):
            if o[e] == 0:
                na, nb, nd, nu = o[e - 1], o[e + 1], o[e - S], o[e + S]
                if old > 0 and (na == old) + (nb == old) + (nd == old) + (nu == old) == 1:
                    near[old] -= 1
                if new > 0 and na != new and nb != new and nd != new and nu != new:
                    near[new] += 1
        if self._tracked:
            # Contacts of the players tracked (pairs (c, neighbour) of two different owners).
            contact = self._contact
            for n in (a, b, d, u):
                q = o[n]
                if q <= 0:
                    continue
                if old > 0 and q != old:
                    t = contact[old]
                    if t is not None:
                        k = t[n] - 1
                        if k:
                            t[n] = k
                        else:
                            del t[n]
                    t = contact[q]
                    if t is not None:
                        k = t[c] - 1
                        if k:
                            t[c] = k
                        else:
                            del t[c]
                if new > 0 and q != new:
                    t = contact[new]
                    if t is not None:
                        t[n] = t.get(n, 0) + 1
                    t = contact[q]
                    if t is not None:
                        t[c] = t.get(c, 0) + 1
        o[c] = new
        busy = self._busy
        if old > 0:
            busy[old] -= 1
        else:
            self._empty -= 1
            self._total += 1
        if new > 0:
            busy[new] += 1
        else:
            self._empty += 1
            self._total -= 1
        self._version += 1
        v = self._version
        stamp = self._stamp
        if old > 0:
            stamp[old] = v
        if new > 0:
            stamp[new] = v

    def _roots(self, p: int, c: int) -> list:
        """Distinct union-find roots of p's areas next to cell c."""
        o = self._owner
        par = self._parent
        S = self._S
        roots = []
        for n in (c - 1, c + 1, c - S, c + S):
            if o[n] == p:
                q = par[n]
                while q != n:
                    n = q
                    q = par[n]
                if n not in roots:
                    roots.append(n)
        return roots

    def _union(self, c: int, roots: list) -> tuple:
        """Make cell c a member of the union of `roots` (or a new area). Returns undo data."""
        par = self._parent
        size = self._size
        if not roots:
            old = size[c]
            par[c] = c
            size[c] = 1
            return c, (), old
        R = roots[0]
        if len(roots) == 1:
            old = size[R]
            par[c] = R
            size[R] = old + 1
            return R, (), old
        best = size[R]
        for r in roots:
            if size[r] > best:
                R, best = r, size[r]
        total = 1
        others = []
        for r in roots:
            if r != R:
                par[r] = R
                total += size[r]
                others.append(r)
        par[c] = R
        size[R] = best + total
        return R, others, best

    def _add_cell(self, p: int, c: int) -> None:
        cells = self._cells[p]
        if cells is None:
            cells = self._cells[p] = []
        self._pos[c] = len(cells)
        cells.append(c)

    def _remove_cell(self, p: int, c: int) -> int:
        """Swap-remove c from p's cell list; returns its index (for the exact undo)."""
        cells = self._cells[p]
        pos = self._pos
        i = pos[c]
        last = cells.pop()
        if i < len(cells):
            cells[i] = last
            pos[last] = i
        return i

    def _restore_cell(self, p: int, c: int, i: int) -> None:
        cells = self._cells[p]
        pos = self._pos
        if i < len(cells):
            last = cells[i]
            cells.append(last)
            pos[last] = len(cells) - 1
            cells[i] = c
        else:
            cells.append(c)
        pos[c] = i

    # ------------------------------------------------------------------ moves
    def move(self, player: int, x: int, y: int) -> bool:
        """gamma_move: put a pawn of `player` on the empty field (x, y)."""
        if not (0 < player <= self.players and 0 <= x < self.width and 0 <= y < self.height):
            return False
        c = (y + 1) * self._S + x
        if self._owner[c]:
            return False
        roots = self._roots(player, c)
        k = len(roots)
        if self._areas[player] + 1 - k > self.max_areas:
            return False
        cut = None
        if self._cut_cache:
            cut = self._cut_cache.get(player)
            if cut is not None and cut[0] != self._stamp[player]:
                cut = None
        self._set_owner(c, player)
        R, others, old = self._union(c, roots)
        self._areas[player] += 1 - k
        self._add_cell(player, c)
        if self._log is not None:
            self._log.append((_MOVE, player, c, R, others, old, k))
        if cut is not None:
            self._grow_cut_table(player, c, cut[1])
        return True

    def _grow_cut_table(self, p: int, c: int, table: dict) -> None:
        """Keep p's cut table fresh after p placed a pawn on c that touches at most one
        of p's fields: a new leaf (or a new single field) changes nothing but its
        neighbour's count. This keeps golden_possible cheap while a long snake grows."""
        o = self._owner
        S = self._S
        own = [n for n in (c - 1, c + 1, c - S, c + S) if o[n] == p]
        if len(own) > 1:
            return
        table[c] = len(own)      # a new single field: 0 pieces; a leaf: 1
        if own:
            table[own[0]] += 1
        self._cut_cache[p] = (self._stamp[p], table)

    def _pieces(self, v: int, c: int, nv: list) -> list:
        """The pieces (lists of cells) that v's component around cell c falls into once c
        is removed, one per group of connected neighbours `nv`."""
        o = self._owner
        S = self._S
        seen = {c}
        pieces = []
        for s in nv:
            if s in seen:
                continue
            seen.add(s)
            piece = [s]
            i = 0
            while i < len(piece):
                a = piece[i]
                i += 1
                for n in (a - 1, a + 1, a - S, a + S):
                    if o[n] == v and n not in seen:
                        seen.add(n)
                        piece.append(n)
            pieces.append(piece)
        return pieces

    def _victim_ok(self, v: int, c: int) -> bool:
        """Would v stay within the area limit if it lost cell c?"""
        o = self._owner
        S = self._S
        nv = [n for n in (c - 1, c + 1, c - S, c + S) if o[n] == v]
        m = len(nv)
        allowed = self.max_areas - self._areas[v] + 1   # pieces v may end up with
        if m <= 1 or m <= allowed:
            return True
        cached = self._cut_cache.get(v)
        if cached is not None and cached[0] == self._stamp[v]:
            return cached[1][c] <= allowed
        return self._few_pieces(v, c, nv, allowed)

    def _few_pieces(self, v: int, c: int, nv: list, allowed: int) -> bool:
        """Do v's neighbours `nv` of cell c fall into at most `allowed` pieces once c is
        removed? One BFS front per neighbour, expanded in turn, fronts merging when they
        meet; it stops as soon as the answer is known, so a cut near the end of a long
        snake costs the short side, not the whole snake."""
        o = self._owner
        S = self._S
        label = {c: -1}
        queues = {}
        heads = {}
        group = list(range(len(nv)))
        for i, s in enumerate(nv):
            label[s] = i
            queues[i] = [s]
            heads[i] = 0
        finished = 0
        while True:
            if finished + len(queues) <= allowed:
                return True
            for g in list(queues):
                q = queues.get(g)
                if q is None:
                    continue
                h = heads[g]
                if h == len(q):
                    finished += 1
                    del queues[g], heads[g]
                    if finished + 1 > allowed and queues:
                        return False
                    continue
                a = q[h]
                heads[g] = h + 1
                for n in (a - 1, a + 1, a - S, a + S):
                    if o[n] != v:
                        continue
                    lab = label.get(n)
                    if lab is None:
                        label[n] = g
                        q.append(n)
                    elif lab >= 0:
                        while group[lab] != lab:
                            lab = group[lab]
                        if lab != g:
                            group[lab] = g
                            q.extend(queues[lab][heads[lab]:])
                            del queues[lab], heads[lab]

    def _golden_ok(self, p: int, c: int) -> bool:
        """Is the golden move of p onto cell c legal (p valid and not yet used)?"""
        v = self._owner[c]
        if v <= 0 or v == p:
            return False
        if self._areas[p] >= self.max_areas and not self._roots(p, c):
            return False
        return self._victim_ok(v, c)

    def golden_move(self, player: int, x: int, y: int) -> bool:
        """gamma_golden_move: take the field (x, y) from another player, once per game."""
        if not self._valid(player, x, y) or self._used[player]:
            return False
        S = self._S
        c = (y + 1) * S + x
        o = self._owner
        v = o[c]
        if v <= 0 or v == player:
            return False
        roots = self._roots(player, c)
        k = len(roots)
        if self._areas[player] + 1 - k > self.max_areas:
            return False
        nv = [n for n in (c - 1, c + 1, c - S, c + S) if o[n] == v]
        if len(nv) > self.max_areas - self._areas[v] + 1 and not self._victim_ok(v, c):
            return False
        # Relabel v's component without c: each piece becomes a flat tree.
        pieces = self._pieces(v, c, nv)
        par = self._parent
        size = self._size
        log = self._log
        saved = [(c, par[c], size[c])] if log is not None else None
        for piece in pieces:
            r = piece[0]
            if saved is not None:
                saved.extend([(a, par[a], size[a]) for a in piece])
            for a in piece:
                par[a] = r
            size[r] = len(piece)
        j = len(pieces)
        i = self._remove_cell(v, c)
        self._set_owner(c, player)
        R, others, old = self._union(c, roots)
        self._areas[player] += 1 - k
        self._areas[v] += j - 1
        self._add_cell(player, c)
        self._used[player] = 1
        if log is not None:
            log.append((_GOLDEN, player, c, R, others, old, k, v, j, i, saved))
        return True

    def undo(self) -> None:
        """Take back the last successful move or golden move (IndexError if none)."""
        if not self._log:
            raise IndexError("nothing to undo")
        rec = self._log.pop()
        p, c, R, others, old, k = rec[1:7]
        par = self._parent
        for r in others:
            par[r] = r
        self._size[R] = old
        self._areas[p] -= 1 - k
        cells = self._cells[p]
        cells.pop()
        if rec[0] == _MOVE:
            self._set_owner(c, 0)
            return
        v, j, i, saved = rec[7:]
        self._restore_cell(v, c, i)
        self._set_owner(c, v)
        size = self._size
        for a, pa, sz in saved:
            par[a] = pa
            size[a] = sz
        self._areas[v] -= j - 1
        self._used[p] = 0

    @property
    def version(self) -> int:
        """Rises with every change of the board (moves, golden moves, undos); never repeats."""
        return self._version

    @property
    def history_length(self) -> int:
        return len(self._log) if self._log is not None else 0

    # ------------------------------------------------------------------ queries
    def busy_fields(self, player: int) -> int:
        if not 0 < player <= self.players:
            return 0
        return self._busy[player]

    def free_fields(self, player: int) -> int:
        if not 0 < player <= self.players:
            return 0
        if self._areas[player] < self.max_areas:
            return self._empty
        return self._near[player]

    def areas_of(self, player: int) -> int:
        if not 0 < player <= self.players:
            return 0
        return self._areas[player]

    def golden_used(self, player: int) -> bool:
        return 0 < player <= self.players and bool(self._used[player])

    @property
    def empty_fields(self) -> int:
        return self._empty

    def golden_possible(self, player: int) -> bool:
        """gamma_golden_possible, final (part 3) meaning: some golden move is legal now."""
        if not 0 < player <= self.players or self._used[player]:
            return False
        if self._total == self._busy[player]:
            return False                      # nobody else has a field
        if self.old_golden_possible:
            return True
        if self._areas[player] < self.max_areas:
            # Any area of any player has a field whose loss does not split it (a leaf of
            # a spanning tree), and the attacker may open a new area: always possible.
            return True
        cached = self._gp_cache.get(player)
        if cached is not None and cached[0] == self._version:
            return cached[1]
        result = self._golden_possible_at_limit(player)
        self._gp_cache[player] = (self._version, result)
        return result

    def _golden_possible_at_limit(self, p: int) -> bool:
        """At the area limit only fields next to p's own can be taken: its contacts."""
        contact = self._contact[p]
        if contact is None:
            contact = self._track(p)
        if not contact:
            return False
        o = self._owner
        S = self._S
        A = self.max_areas
        areas = self._areas
        hard: dict = {}
        for c in contact:
            v = o[c]
            m = (o[c - 1] == v) + (o[c + 1] == v) + (o[c - S] == v) + (o[c + S] == v)
            if m <= 1 or m <= A - areas[v] + 1:
                return True
            hard.setdefault(v, []).append(c)
        # Fields that may cut their owner's area: look them up in the owner's cut table
        # (built once, then kept fresh while the owner's areas grow leaf by leaf).
        for v, cells in hard.items():
            allowed = A - areas[v] + 1
            table = self._cut_table(v)
            for c in cells:
                if table[c] <= allowed:
                    return True
        return False

    def _track(self, p: int) -> dict:
        """Start keeping p's contacts (O(p's fields) once, then O(1) per change)."""
        o = self._owner
        S = self._S
        contact: dict = {}
        for a in self._cells[p] or ():
            for n in (a - 1, a + 1, a - S, a + S):
                q = o[n]
                if q > 0 and q != p:
                    contact[n] = contact.get(n, 0) + 1
        self._contact[p] = contact
        self._tracked += 1
        return contact

    def _cut_table(self, v: int) -> dict:
        """For every cell of v: how many pieces its v-neighbours fall into if it is
        removed (iterative Tarjan over all of v's areas; cached per player and kept
        fresh by `_grow_cut_table` while v grows leaf by leaf)."""
        cached = self._cut_cache.get(v)
        if cached is not None and cached[0] == self._stamp[v]:
            return cached[1]
        o = self._owner
        S = self._S
        disc: dict = {}
        low: dict = {}
        table: dict = {}
        t = 0
        for root in self._cells[v] or ():
            if root in disc:
                continue
            disc[root] = low[root] = t
            t += 1
            root_children = 0
            # stack entries: [cell, parent, next neighbour index, separated children]
            stack = [[root, -1, 0, 0]]
            while stack:
                top = stack[-1]
                a = top[0]
                i = top[2]
                if i < 4:
                    top[2] = i + 1
                    n = (a - 1, a + 1, a - S, a + S)[i]
                    if o[n] != v or n == top[1]:
                        continue
                    if n in disc:
                        if disc[n] < low[a]:
                            low[a] = disc[n]
                    else:
                        disc[n] = low[n] = t
                        t += 1
                        stack.append([n, a, 0, 0])
                    continue
                stack.pop()
                if stack:
                    parent = stack[-1]
                    pa = parent[0]
                    if low[a] < low[pa]:
                        low[pa] = low[a]
                    if pa == root:
                        root_children += 1
                    elif low[a] >= disc[pa]:
                        parent[3] += 1
                    if top[0] != root:
                        table[a] = 1 + top[3]
            table[root] = root_children
        self._cut_cache[v] = (self._stamp[v], table)
        return table

    def can_play(self, player: int) -> bool:
        """Has `player` any move at all (a free field or a golden move)?"""
        return self.free_fields(player) > 0 or self.golden_possible(player)

    def next_player(self, player: int) -> int | None:
        """The next player after `player` in cyclic order who can move, `player` itself
        last; None when nobody can (the turn order of the interactive mode)."""
        can_play = self.can_play
        for q in range(player + 1, self.players + 1):
            if can_play(q):
                return q
        for q in range(1, player + 1):
            if can_play(q):
                return q
        return None

    # ------------------------------------------------------------------ lists for the browser / AI
    def move_targets(self, player: int) -> list:
        """Cells (flat indices, ascending) where `player` may move normally now."""
        if not 0 < player <= self.players:
            return []
        o = self._owner
        if self._areas[player] < self.max_areas:
            if not self._empty:
                return []
            return [c for c in range(self._S, len(o) - self._S) if o[c] == 0]
        S = self._S
        found = set()
        for a in self._cells[player] or ():
            for c in (a - 1, a + 1, a - S, a + S):
                if o[c] == 0:
                    found.add(c)
        return sorted(found)

    def golden_targets(self, player: int) -> list:
        """Cells (flat indices, ascending) that `player` may take with a golden move now."""
        if not 0 < player <= self.players or self._used[player]:
            return []
        o = self._owner
        S = self._S
        if self._areas[player] < self.max_areas:
            cand = [c for c in range(S, len(o) - S) if o[c] > 0 and o[c] != player]
        else:
            found = set()
            for a in self._cells[player] or ():
                for c in (a - 1, a + 1, a - S, a + S):
                    if o[c] > 0 and o[c] != player:
                        found.add(c)
            cand = sorted(found)
        A = self.max_areas
        areas = self._areas
        result = []
        for c in cand:
            v = o[c]
            m = (o[c - 1] == v) + (o[c + 1] == v) + (o[c - S] == v) + (o[c + S] == v)
            allowed = A - areas[v] + 1
            if m <= 1 or m <= allowed or self._cut_table(v)[c] <= allowed:
                result.append(c)
        return result

    def can_move_normally(self, player: int, x: int, y: int) -> bool:
        """Would `move` succeed? (No change to the board.)"""
        if not self._valid(player, x, y):
            return False
        c = (y + 1) * self._S + x
        if self._owner[c]:
            return False
        return self._areas[player] + 1 - len(self._roots(player, c)) <= self.max_areas

    def can_move_golden(self, player: int, x: int, y: int) -> bool:
        """Would `golden_move` succeed? (No change to the board.)"""
        if not self._valid(player, x, y) or self._used[player]:
            return False
        return self._golden_ok(player, (y + 1) * self._S + x)

    # `field(x, y)` and `who(player)` name a field and a player in a reason (default: "(x,y)", "player N"; the
    # arcade passes its field names "c5" and colours, as its pages say them).
    def why_not_move(self, player: int, x: int, y: int, field=_FIELD, who=_PLAYER) -> Reason:
        if not 0 < player <= self.players:
            return Reason("there is no player %(number)d", number=player)
        if not (0 <= x < self.width and 0 <= y < self.height):
            return Reason("%(field)s is off the %(width)dx%(height)d board", field=field(x, y), width=self.width,
                          height=self.height)
        if self._owner[(y + 1) * self._S + x]:
            return Reason("%(field)s is taken", field=field(x, y))
        return reason_n("a pawn on %(field)s would give %(player)s more than %(num)d area",
                        "a pawn on %(field)s would give %(player)s more than %(num)d areas", self.max_areas,
                        field=field(x, y), player=who(player))

    def why_not_golden(self, player: int, x: int, y: int, field=_FIELD, who=_PLAYER) -> Reason:
        if not self._valid(player, x, y):
            return self.why_not_move(player, x, y, field, who)
        if self._used[player]:
            return Reason("%(player)s has already made the golden move", player=who(player))
        c = (y + 1) * self._S + x
        v = self._owner[c]
        if v == 0:
            return Reason("%(field)s is empty: a golden move takes another player's field", field=field(x, y))
        if v == player:
            return Reason("%(field)s is already %(player)s's", field=field(x, y), player=who(player))
        if self._areas[player] >= self.max_areas and not self._roots(player, c):
            return reason_n("taking %(field)s would give %(player)s more than %(num)d area",
                            "taking %(field)s would give %(player)s more than %(num)d areas", self.max_areas,
                            field=field(x, y), player=who(player))
        return reason_n("taking %(field)s would split %(player)s into more than %(num)d area",
                        "taking %(field)s would split %(player)s into more than %(num)d areas", self.max_areas,
                        field=field(x, y), player=who(v))

    def owner_at(self, x: int, y: int) -> int:
        """The player on (x, y), 0 if empty (no bounds check beyond the C semantics)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return 0
        return self._owner[(y + 1) * self._S + x]

    def rows(self) -> list:
        """The board as rows of player numbers (0 = empty), rows[y][x], y = 0 first."""
        o = self._owner
        S = self._S
        W = self.width
        return [o[r * S:r * S + W] for r in range(1, self.height + 1)]

    # ------------------------------------------------------------------ printout
    def board_bytes(self) -> bytes:
        """gamma_board as ASCII bytes: top row first, every row ends with a newline."""
        version, text = self._board_cache
        if version == self._version:
            return text
        o = self._owner
        S = self._S
        W = self.width
        if self.players <= 9:
            table = _DIGITS
            out = [bytes(o[r * S:r * S + W]).translate(table) for r in range(self.height, 0, -1)]
        else:
            wd = len(str(self.players))
            label = {0: ".".rjust(wd)}
            for q in o:
                if q > 0 and q not in label:
                    label[q] = str(q).rjust(wd)
            out = [" ".join([label[q] for q in o[r * S:r * S + W]]).encode("ascii")
                   for r in range(self.height, 0, -1)]
        out.append(b"")
        text = b"\n".join(out)
        self._board_cache = (self._version, text)
        return text

    def board(self) -> str:
        return self.board_bytes().decode("ascii")

    # ------------------------------------------------------------------ copying
    def clone(self) -> "Gamma":
        other = object.__new__(Gamma)
        other.__dict__.update(self.__dict__)
        for name in ("_owner", "_parent", "_size", "_pos", "_busy", "_areas", "_near", "_stamp"):
            setattr(other, name, list(getattr(self, name)))
        other._used = bytearray(self._used)
        other._cells = [None if cs is None else list(cs) for cs in self._cells]
        other._contact = [None if t is None else dict(t) for t in self._contact]
        other._log = None if self._log is None else list(self._log)   # records are never mutated
        other._gp_cache = dict(self._gp_cache)
        other._cut_cache = {v: (stamp, dict(t)) for v, (stamp, t) in self._cut_cache.items()}
        return other

    def state(self) -> tuple:
        """Everything observable, for tests (push/pop inverse, equality of copies)."""
        return (tuple(self._owner), tuple(self._busy), tuple(self._areas), tuple(self._near),
                bytes(self._used), self._empty, self._total)


_DIGITS = bytes([46] + [48 + q for q in range(1, 10)] + [63] * 246)
