"""Lattice Checkers: the original program's three computer levels, exactly.

Each level is a chain of heuristic filters over the legal first actions, then a two-stage random pick
(a piece uniformly, then one of its options uniformly); a capture chain continues with uniformly random
hops, unfiltered. The quirks of the original are kept on purpose, so that the candidate sets equal
the `ai` sets recorded in the reference games.

    candidates(board, level) -> set of first actions ("Aa1-Ab2" or "Cd2:Ad4", the first hop of a chain)
    choose(board, level, rng) -> a legal move (a whole chain, or a return "+node" after a promotion)

`level` is the menu level 1, 2 or 3 (the original's smartLevel 2, 16, 32). The position is read through
the public `pos()` string and the shared geometry (`games.lattice.lattice`).
"""
from __future__ import annotations

from functools import lru_cache

from games.lattice import lattice, parse_pos

B, T = 1, 2
# the index of the opposite of each of the 8 steps (geometry.STEPS order)
OPPOSITE = (5, 4, 7, 6, 1, 0, 3, 2)
SMART = {1: 2, 2: 16, 3: 32}

# the filter sequences of each level, as the original chains them
CAPTURE_FILTERS = {1: "ESESN", 2: "ESESN", 3: "ESN"}
MOVE_FILTERS = {
    1: ("safe", "attacked"),
    2: ("attacked", "notAvenged", "safe", "podstava", "toStar"),
    3: ("toStar", "attacked", "notAvenged", "safe", "cover", "podstava", "next", "attacking", "wayToStar"),
}


class Position:
    """The board as the filters see it: cells (0 empty, +-1 ball, +-2 star; + = B), the side to move."""

    def __init__(self, board):
        g = self.g = lattice(board.options["size"])
        self.cells, self.bench = parse_pos(g, board.pos())
        self.side = board.turn
        self.sign = 1 if self.side == B else -1
        self.nb = g.neighbours            # per node: 8 neighbours in scan order, None when out of bounds
        self.step_of = _step_table(board.options["size"])

    # -- the original's predicates ------------------------------------------------------------------------------

    def own(self, n) -> bool:
        return self.cells[n] * self.sign > 0

    def enemy(self, n) -> bool:
        return self.cells[n] * self.sign < 0

    def threat(self, ex, n, attackers_enemy: bool) -> bool:
        """Could a piece on node n be captured by a piece of the given camp (True = the enemies of the
        side to move, False = its own pieces)? Node `ex` counts as empty."""
        nb, cells = self.nb[n], self.cells
        for k in range(8):
            a = nb[k]
            if a is None or not (cells[a] == 0 or a == ex):
                continue
            b = nb[OPPOSITE[k]]
            if b is None or cells[b] == 0:
                continue
            if (cells[b] * self.sign < 0) == attackers_enemy:
                return True
        return False

    def first_enemy_capture(self, s, back: int) -> bool:
        """isEatFromHere: at the first step (scan order, skipping `back`) whose neighbour holds an enemy,
        is the node behind it in bounds and empty?"""
        nb = self.nb[s]
        for k in range(8):
            if k == back:
                continue
            m = nb[k]
            if m is not None and self.enemy(m):
                behind = self.nb[m][k]
                return behind is not None and self.cells[behind] == 0
        return False

    def way_safe(self, t) -> bool:
        """Walk from t by (+1,0,+1) for B, (-1,0,-1) for T up to the far level: False if the walk leaves
        the board, else whether the far node reached is empty."""
        g = self.g
        far = g.far_level[self.side]
        k = 0 if self.side == B else 5
        n = t
        while g.level[n] != far:
            n = self.nb[n][k]
            if n is None:
                return False
        return self.cells[n] == 0

    # -- the actions of the side to move, in the original's scan order -------------------------------------

    def first_hops(self) -> dict:
        caps = {}
        jumps = self.g.jumps
        for p in self.g.nodes:
            if not self.own(p):
                continue
            hops = [(mid, land) for mid, land in jumps[p] if self.enemy(mid) and self.cells[land] == 0]
            if hops:
                caps[p] = hops
        return caps

    def simple_moves(self) -> dict:
        moves = {}
        fwd = self.g.steps_fwd[self.side]
        for p in self.g.nodes:
            if not self.own(p):
                continue
            dests = [t for t in fwd[p] if self.cells[t] == 0]
            if dests:
                moves[p] = dests
        return moves

    def star(self, p) -> bool:
        return abs(self.cells[p]) == 2


@lru_cache(maxsize=None)
def _step_table(size: str) -> dict:
    """(node, neighbour) -> the index of the step between them."""
    g = lattice(size)
    return {(n, m): k for n in g.nodes for k, m in enumerate(g.neighbours[n]) if m is not None}


def _restrict(current: dict, new: dict) -> dict:
    """Every filter but a few: restrict to the new map if it is not empty, else keep the old one."""
    new = {p: v for p, v in new.items() if v}
    return new if new else current


def capture_filters(pos: Position, caps: dict, level: int) -> dict:
    for f in CAPTURE_FILTERS[level]:
        if f == "E":
            hit = [p for p in caps if pos.threat(p, p, True)]
            if hit and len(hit) < len(caps):
                caps = {p: caps[p] for p in hit}
        elif f == "S":
            caps = _restrict(caps, {p: [(v, t) for v, t in hops if not pos.threat(v, t, True)]
                                    for p, hops in caps.items()})
        else:  # "N"
            caps = _restrict(caps, {p: [(v, t) for v, t in hops
                                        if pos.first_enemy_capture(t, pos.step_of[(v, t)])]
                                    for p, hops in caps.items()})
    return caps


def _avenged(pos: Position, p) -> bool:
    """Some enemy can capture p now, and a piece of ours could take it back where it lands."""
    nb = pos.nb[p]
    for k in range(8):
        e = nb[k]
        if e is None or not pos.enemy(e):
            continue
        land = nb[OPPOSITE[k]]
        if land is None or pos.cells[land] != 0:
            continue
        if pos.threat(p, land, False):
            return True
    return False


def move_filters(pos: Position, moves: dict, level: int) -> dict:
    g = pos.g
    far = g.far_level[pos.side]
    first_fwd = 0 if pos.side == B else 4
    for f in MOVE_FILTERS[level]:
        if f == "safe":
            moves = _restrict(moves, {p: [t for t in ts if not pos.threat(p, t, True)] for p, ts in moves.items()})
        elif f == "attacked":
            hit = [p for p in moves if pos.threat(p, p, True)]
            if hit:
                moves = {p: moves[p] for p in hit}
        elif f == "notAvenged":
            keep = [p for p in moves if not _avenged(pos, p)]
            if keep:
                moves = {p: moves[p] for p in keep}
        elif f == "podstava":
            # p's node only matters for the pieces next to it; a piece threatened anyway makes every p
            # qualify, and then the filter is not applied
            own = [q for q in g.nodes if pos.own(q)]
            if not any(pos.threat(None, q, True) for q in own):
                keep = [p for p in moves
                        if not any(q is not None and pos.own(q) and pos.threat(p, q, True) for q in pos.nb[p])]
                if keep:
                    moves = {p: moves[p] for p in keep}
        elif f == "toStar":
            moves = _restrict(moves, {p: ts for p, ts in moves.items()
                                      if not pos.star(p) and any(g.level[t] == far for t in ts)})
        elif f == "cover":
            pass                 # the original compares with the attacker's own node: never matches
        elif f == "next":
            def has_next(t):
                m = pos.nb[t][first_fwd]
                return m is not None and pos.cells[m] == 0
            moves = _restrict(moves, {p: ts for p, ts in moves.items()
                                      if not pos.star(p) and any(has_next(t) for t in ts)})
        elif f == "attacking":
            moves = _restrict(moves, {p: [t for t in ts if pos.first_enemy_capture(t, pos.step_of[(t, p)])]
                                      for p, ts in moves.items()})
        elif f == "wayToStar":
            new = {}
            for p, ts in moves.items():
                if pos.star(p):
                    continue
                # a piece's destinations all lie on the next level; on the far level way_safe holds for
                # each (they are free), so a piece that can promote keeps every destination (the
                # reference data confirms it: no "stop at the first far destination")
                new[p] = [t for t in ts if pos.way_safe(t)]
            moves = _restrict(moves, new)
    return moves


def _filtered(board, level: int):
    """('capture' | 'move', the filtered map piece -> options, Position)."""
    if level not in SMART:
        raise ValueError(f"classic Lattice levels are 1, 2 and 3, not {level!r}")
    pos = Position(board)
    caps = pos.first_hops()
    if caps:
        return "capture", capture_filters(pos, caps, level), pos
    return "move", move_filters(pos, pos.simple_moves(), level), pos


def candidates(board, level: int) -> set:
    """The first actions the original's level keeps: "From-To" moves, or "From:Landing" first hops."""
    if board.turn is None or board.pending_return:
        return set()
    kind, m, pos = _filtered(board, level)
    lab = pos.g.label
    if kind == "capture":
        return {f"{lab[p]}:{lab[t]}" for p, hops in m.items() for _, t in hops}
    return {f"{lab[p]}-{lab[t]}" for p, ts in m.items() for t in ts}


def return_pool(board, level: int) -> list:
    """The nodes the original picks a returned ball's node from (labels, sorted)."""
    pos = Position(board)
    g = pos.g
    free = [n for n in g.level_nodes[g.first_level[pos.side]] if pos.cells[n] == 0]
    if SMART[level] > 10:
        fwd = range(4) if pos.side == B else range(4, 8)
        threat = []
        for f in free:
            for k in fwd:
                m = pos.nb[f][k]
                if m is not None and pos.enemy(m):
                    behind = pos.nb[m][k]
                    if behind is not None and pos.cells[behind] == 0:
                        threat.append(f)
                        break
        if threat:
            free = threat
    return sorted(g.label[n] for n in free)


def choose(board, level: int, rng) -> str:
    """The original's choice at `level`: a seeded two-stage pick among the candidates, then random hops."""
    if board.pending_return:
        return "+" + rng.choice(return_pool(board, level))
    kind, m, pos = _filtered(board, level)
    lab = pos.g.label
    pieces = sorted(m, key=lambda n: lab[n])
    p = rng.choice(pieces)
    if kind == "move":
        t = rng.choice(m[p])
        return f"{lab[p]}-{lab[t]}"
    _, t = rng.choice(m[p])
    prefix = [lab[p], lab[t]]
    chains = [mv.split(":") for mv in board.legal_moves()]
    while True:
        longer = [c for c in chains if c[:len(prefix)] == prefix]
        if any(len(c) == len(prefix) for c in longer):
            return ":".join(prefix)
        prefix.append(rng.choice(sorted({c[len(prefix)] for c in longer})))
