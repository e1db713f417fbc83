"""Towers: the evaluation (material, move points, the masters' safety) and the action ordering.

A turn is several actions, and the search goes action by action (`end` is one of them), so a leaf can fall
in the middle of a turn. The evaluation therefore reads the masters' danger through the engine's public
`master_attacked(player)` (the original's own heuristic), which measures the attacker's
reach with its move points left when it is to move, else with its next turn's points:

* after my turn has ended, an attacked master of mine means the opponent can probably take it: close to a
  loss; an attacked enemy master is a threat it must answer;
* during my turn, an attacked enemy master means I can probably take it now: close to a win.

Levels 1 and 2 search action by action (ai/search.py). Level 3 (`TowersModel.deep_search`, `turn_search`)
searches whole turns instead: a beam search finds each side's best complete turns, and my best turns (eight
that end in different positions) are weighed against the opponent's best reply turn, so that it sees the end
of its own turn (a master left open) and the reply's captures and walks onto the master. A turn the beam
stops with points left is ended before the reply is searched (`played(..., whole_turn=True)`): until it was,
such turns were weighed against more of level 3's own actions, and it walked towers into capture.

Level 3 decides each action of its turn afresh, so a plan must survive its own first steps: the captures
under way (`tactical`, including a pawn split out of the master) stay in the beam however bad the position
looks half-way, and whether it is converting a lead is read from the reserves at the start of the turn
(`turn_start_lead`), not lowered by its own imports.

A third turn is there on request (`max_depth=3`), not by default: the best four turns weighed against my best
answer to each of the opponent's four best replies, the worst of them counting. It sees a threat no reply can
parry, but it ends the search on my own turn and so hopes too much. Measured with the fixes above: against
level 2 it won 114 of 120 games (two turns: 107 of 120), against AI-1 73 of 80 (two turns: 78 of 80), and it
takes longer. Two turns keep a wide margin on both targets.

Converting a lead. Level 3 usually wins the middle game on move points, and often ends it with a lone master
and a reserve of 6-7 against a master in a corner, two pawns beside it and a reserve of 2. Valuing its reserve
above pieces on the board (TURN_POINTS), it then sat on its points: 10 of 40 games against level 2 reached a
600-action cap. So when its reserve leads by CONVERT_LEAD or more (`TowersModel.converting`), it drops that
premium and weighs its own pieces' closeness to the enemy master by CONVERT_PRESSURE, a tower of two counting
double: neither a pawn nor a master of height 1 can take it back, so it breaks the guard. The search's
tactics keep the pieces it sends out from hanging.
"""
from __future__ import annotations

import math
from contextlib import contextmanager

from ai.model import WIN, Model

PAWN = 1.0           # a pawn on the board or in the reserve
MOBILITY = 2.5       # times the square root of the reserve: the move points of every turn, worth most when few
DANGER = 40.0        # a master the side to move can probably reach
THREAT = 4.0         # a master the other side could reach next turn
GUARD = 0.6          # an own piece next to the own master (it blocks paths)
PRESSURE = 1.5       # per own piece, by closeness to the enemy master
HANGING = 1.0        # the side to move takes the best capture it can reach: this share of it
CONVERT_LEAD = 3       # level 3 converts a lead (see the module's docstring) when its reserve is this much larger
CONVERT_PRESSURE = 4.0  # ... and then weighs its pieces' closeness to the enemy master this much (not PRESSURE)
WIDTH = (64, 20, 12, 8)   # moves searched at ply 0, 1, 2 and deeper (the most promising by `order`)


_DESTINATIONS: dict = {}   # move string -> (target x, target y)


def destination(move: str) -> tuple:
    """The cell a move action ("mX,Y>X2,Y2:H") lands on, as (x, y); parsed once per string."""
    cell = _DESTINATIONS.get(move)
    if cell is None:
        x, y = move[move.index(">") + 1:move.index(":")].split(",")
        cell = _DESTINATIONS[move] = (int(x), int(y))
    return cell


_NEIGHBOURS: dict = {}   # board size -> the cells next to each cell


def neighbours(n: int) -> list:
    """For each cell index of an n x n board, the indices of the cells next to it."""
    table = _NEIGHBOURS.get(n)
    if table is None:
        table = _NEIGHBOURS[n] = [
            [d for d, ok in ((c + 1, c % n + 1 < n), (c - 1, c % n > 0), (c + n, c // n + 1 < n), (c - n, c >= n))
             if ok]
            for c in range(n * n)]
    return table


def walk(flat: list, n: int, start: int, steps: int, parents: dict | None = None):
    """Walk from `start` through empty cells for at most `steps` steps: (steps taken, the cell before, cell)
    for every occupied cell reached, once per approach (an occupied cell is not walked through). With
    `parents`, each empty cell walked is recorded there with the cell it was reached from."""
    near = neighbours(n)
    seen = {start}
    frontier = [start]
    for step in range(1, steps + 1):
        nxt = []
        for c in frontier:
            for d in near[c]:
                if d in seen:
                    continue
                if flat[d] == 0:
                    seen.add(d)
                    nxt.append(d)
                    if parents is not None:
                        parents[d] = c
                else:
                    yield step, c, d
        frontier = nxt


def captures(flat: list, n: int, side: int, budget: int, locked):
    """Every capture `side` can make this turn with one whole-tower move through empty cells (a tower
    of height h walks budget // h steps): [(source, height, target, target height)]."""
    sign = 1 if side == 1 else -1
    out = []
    for src, v in enumerate(flat):
        h = v * sign
        if h <= 0 or src in locked or h > budget:
            continue
        taken = set()
        for _, _, d in walk(flat, n, src, budget // h):
            t = -flat[d] * sign
            if 0 < t <= h and d not in locked and d not in taken:
                taken.add(d)
                out.append((src, h, d, t))
    return out


def covered(flat: list, n: int, side: int, budget: int, cell: int, height: int) -> bool:
    """Could a tower of `side` at least `height` tall walk onto `cell` next turn with `budget` points
    (height x steps, through empty cells)? Searched back from the cell: no such tower is further than
    budget // height steps."""
    if height > budget:
        return False
    sign = 1 if side == 1 else -1
    for step, _, d in walk(flat, n, cell, budget // height):
        h = flat[d] * sign
        if h >= height and h * step <= budget:
            return True
    return False


def best_capture(flat: list, n: int, side: int, budget: int, locked, master: int, exposed: set | None = None,
                 defender_budget: int = 0) -> float:
    """What `side` gains with its best capture this turn, net of the defender's recapture (the defender
    takes the capturing tower back next turn when a tall enough piece of its can reach the cell; a
    capture by the own master counts its pawns twice: they join the reserve). Cells taken at a profit
    are added to `exposed` when given."""
    best = 0.0
    known: dict = {}                  # (cell, height) -> covered: several towers can take the same cell
    for src, h, d, t in captures(flat, n, side, budget, locked):
        by_master = src == master
        gain = t * (2 if by_master else 1)
        moved = h + t if by_master else h
        if gain > best or exposed is not None:
            hit = known.get((d, moved))
            if hit is None:
                hit = known[d, moved] = covered(flat, n, 3 - side, defender_budget, d, moved)
            if hit:
                gain -= moved
        if gain > 0 and exposed is not None:
            exposed.add(d)
        if gain > best:
            best = gain
    return float(best)


class TowersModel(Model):
    converting = False    # set by level 3 when it is far ahead on move points (the module's docstring)
    temperature = 1.0
    level2_depth = 3
    level2_nodes = 3000
    extension = 0

    def __init__(self, board, me: int):
        super().__init__(board, me)
        self.n = board.size
        self.opp = 3 - me

    def key(self, board):
        st = board.state()
        return (tuple(v for row in st["board"] for v in row), st["masters"][0][0], st["masters"][0][1],
                st["masters"][1][0], st["masters"][1][1], st["reserve"][0], st["reserve"][1], st["current"],
                st["move_points"], tuple(map(tuple, st["locked"])), not board.turn_moves(),
                board.end_draws())

    def moves(self, board, ply: int) -> list:
        """Every legal action, best first by `rank`, at most WIDTH[ply] of them (`end` is always among
        them, last)."""
        moves = self.rank(board, board.legal_moves())
        width = WIDTH[min(ply, len(WIDTH) - 1)]
        return moves[:width - 1] + ["end"] if len(moves) > width else moves

    def order(self, board, moves: list) -> list:
        return moves                      # `moves` already ranks them

    def rank(self, board, moves: list) -> list:
        """Captures of the enemy master, other attacks (bigger first), moves towards the enemy master,
        imports, and `end` last."""
        p = board.turn
        n = self.n
        target = board.master_cell(3 - p)
        tx, ty = target if target is not None else (n // 2, n // 2)
        sign = 1 if p == 1 else -1
        cell = board.cell

        def rank(move):
            if move == "end":
                return 50.0
            if move[0] == "i":
                return 20.0
            x2, y2 = destination(move)
            v = cell(x2, y2) * sign
            if v < 0:
                if (x2, y2) == target:
                    return -1000.0
                return -100.0 + v
            return abs(x2 - tx) + abs(y2 - ty) - (0.5 if v > 0 else 0.0)

        return sorted(moves, key=rank)

    def tactical(self, board) -> set:
        """The first actions of every capture the side to move can reach this turn: a whole tower walking
        through empty cells (an L-shaped path is several actions) onto an enemy cell it may take, the
        master importing first when it needs the height, and a pawn split out of the master (after an
        import when the master stands alone), which takes a pawn and leaves the master where it is. The
        beam search of whole turns always tries them, so that it sees captures that need more than one
        action."""
        st = board.state()
        n = self.n
        flat = [v for row in st["board"] for v in row]
        side = board.turn
        sign = 1 if side == 1 else -1
        mp = st["move_points"]
        locked = {y * n + x for x, y in st["locked"]}
        mx, my = st["masters"][side - 1]
        master = my * n + mx
        out = set()
        for src, v in enumerate(flat):
            h = v * sign
            if h <= 0 or src in locked:
                continue
            spare = mp - h if src == master else 0      # points a master could spend on imports
            for step, last, d, t, parent in self._approaches(flat, sign, src, mp // h, locked):
                need = max(0, t - h)
                if need == 0 or (src == master and need + (h + need) * step <= mp and need <= spare):
                    out.add(self._first_action(parent, last, d, src, h, need))
            if src == master:
                out |= self._split_captures(board, flat, sign, src, h, mp, locked)
        return out

    def _split_captures(self, board, flat, sign, src, h, mp, locked) -> set:
        """The first actions of captures by one pawn split out of the master on `src`."""
        importing = h == 1                   # a lone master imports the pawn first, for a point
        if importing and "i1" not in board.legal_set():
            return set()
        first = set()
        reach = mp - 1 if importing else mp
        for _, last, d, t, parent in self._approaches(flat, sign, src, reach, locked):
            if t == 1:
                first.add("i1" if importing else self._first_action(parent, last, d, src, 1, 0))
        return first

    def _approaches(self, flat, sign, src, reach, locked):
        """(steps, the cell before, enemy cell, its height, parents) for every enemy cell a piece on `src`
        could step onto within `reach` steps through empty cells, once per approach (each a different
        first action); `parents` keeps the paths walked."""
        parents = {src: None}
        for step, last, d in walk(flat, self.n, src, reach, parents):
            t = flat[d] * sign
            if t < 0 and d not in locked:
                yield step, last, d, -t, parents

    def _first_action(self, parent: dict, last: int, target: int, src: int, h: int, need: int) -> str:
        if need:
            return f"i{need}"
        n = self.n
        path = [target, last]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        path.reverse()                       # src ... last, target
        step = path[1] - path[0]
        end = path[1]
        for a, b in zip(path[1:], path[2:]):
            if b - a != step:
                break
            end = b
        return f"m{src % n},{src // n}>{end % n},{end // n}:{h}"

    def deep_search(self, board, limits, rng, max_depth=None):
        """Level 3: the search over whole turns (TurnSearch): my turn and the opponent's reply (and my turn
        again with `max_depth=3`)."""
        return turn_search(board, self, limits, rng, max_depth=min(max_depth or TURN_DEPTH, MAX_TURN_DEPTH))

    def walk_to_master(self, board):
        """The first action of a walk of the side to move onto the enemy master this turn (the original's
        "master in danger" path, walked as AI-1 walks it), when one is found and wins; else None."""
        side = board.turn
        if side is None or not board.master_attacked(3 - side):
            return None
        from games.towers.classic_computer import _Turn
        planner = _Turn(board)
        target = board.master_cell(3 - side)
        for _, path in planner.paths_to(target, side, board.move_points, skip_locked=True):
            moves = planner.walk(path)
            pushed = 0
            try:
                for m in moves:
                    if board.turn != side or m not in board.legal_set():
                        break
                    board.push(m)
                    pushed += 1
                o = board.outcome()
                if o is not None and o.winners == (side,):
                    return moves[0]
            finally:
                for _ in range(pushed):
                    board.pop()
        return None

    def defences(self, board, legal: list) -> list:
        """When the side to move would leave its master attacked (master_attacked) by ending now: its master's moves and
        the actions onto the cells around the master that an attacker's path could cross (nearest first),
        and attacks on the enemy pieces next to them; else nothing."""
        side = board.turn
        if side is None or not board.master_attacked(side):
            return []
        n = self.n
        mx, my = board.master_cell(side)
        budget = board.reserve[2 - side]
        dist = {(mx, my): 0}
        frontier = [(mx, my)]
        enemy = set()
        sign = 1 if side == 1 else -1
        for step in range(1, budget + 1):
            nxt = []
            for x, y in frontier:
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    c = (x + dx, y + dy)
                    if not (0 <= c[0] < n and 0 <= c[1] < n) or c in dist:
                        continue
                    v = board.cell(*c) * sign
                    if v == 0:
                        dist[c] = step
                        nxt.append(c)
                    elif v < 0:
                        enemy.add(c)
            frontier = nxt
        master_src = f"m{mx},{my}>"
        scored = []
        for m in legal:
            if m[0] != "m":
                continue
            if m.startswith(master_src):
                scored.append((0, m))
                continue
            parsed = destination(m)
            if parsed in dist:
                scored.append((dist[parsed], m))
            elif parsed in enemy:
                scored.append((1, m))
        scored.sort()
        return [m for _, m in scored[:DEFENCES]]

    def _hanging(self, st: dict, flat: list, turn, exposed: set) -> float:
        """The capture the side to move can make now, as a share of its pawns (from my point of view); the
        cells it could take go into `exposed`."""
        if turn is None:
            return 0.0
        n = self.n
        locked = {y * n + x for x, y in st["locked"]}
        mx, my = st["masters"][turn - 1]
        gain = best_capture(flat, n, turn, st["move_points"], locked, my * n + mx, exposed,
                            st["reserve"][2 - turn])
        return HANGING * gain if turn == self.me else -HANGING * gain

    def evaluate(self, board) -> float:
        me, opp = self.me, self.opp
        st = board.state()
        n = self.n
        flat = [v for row in st["board"] for v in row]
        reserve = st["reserve"]
        mine = opp_pawns = 0
        for v in flat:
            if v > 0:
                mine += v
            elif v < 0:
                opp_pawns -= v
        if me == 2:
            mine, opp_pawns = opp_pawns, mine
        r_me, r_opp = reserve[me - 1], reserve[opp - 1]
        value = PAWN * (mine + r_me - opp_pawns - r_opp) + MOBILITY * (math.sqrt(r_me) - math.sqrt(r_opp))
        turn = board.turn
        mine_hit = board.master_attacked(me)
        theirs_hit = board.master_attacked(opp)
        if turn == me:
            if theirs_hit:
                value += DANGER * 0.8
            if mine_hit:
                value -= THREAT
        else:
            if mine_hit:
                value -= DANGER
            if theirs_hit:
                value += THREAT
        exposed: set = set()
        value += self._hanging(st, flat, turn, exposed)
        masters = st["masters"]
        # guards and pressure
        sign_me = 1 if me == 1 else -1
        for who, s in ((me, 1.0), (opp, -1.0)):
            mx, my = masters[who - 1]
            ox, oy = masters[2 - who]
            ws = sign_me if who == me else -sign_me
            guards = 0
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                x, y = mx + dx, my + dy
                if 0 <= x < n and 0 <= y < n and flat[y * n + x] * ws > 0:
                    guards += 1
            press = 0.0
            tall = self.converting and who == me
            for i, v in enumerate(flat):
                if v * ws > 0 and i not in exposed:          # a piece about to be taken presses nothing
                    d = abs(i % n - ox) + abs(i // n - oy)
                    press += max(0, n - d) * (min(2, v * ws) if tall else 1)
            weight = CONVERT_PRESSURE if tall else PRESSURE
            value += s * (GUARD * guards + weight * press / n)
        return value


# -- level 3: a search over whole turns ----------------------------------------------------------------

TURN_BEAM = 6        # partial turns kept at each action of the beam search over my turn
TURN_RANKED = 10     # actions tried from each partial turn: the best by `rank` (captures under way, defences
                     # of a threatened master and `i1` come on top)
TURN_TACTICS = 6     # partial turns in the middle of a capture kept besides the beam
REPLY_BEAM = 3       # the same for the opponent's replies
REPLY_RANKED = 8
REPLY_TACTICS = 2
ROOT_TURNS = 8       # my best turns weighed against the opponent's best reply (distinct positions once ended)
TURN_DEPTH = 2       # turns level 3 searches by default: mine and the opponent's reply
MAX_TURN_DEPTH = 3   # ... and at most, on request: mine again (see the module's docstring)
DEEP_TURNS = 4       # the best of the ROOT_TURNS weighed to the third turn...
DEEP_REPLIES = 4     # ... each against this many of the opponent's best replies (the worst of them counts;
                     # with 2, optimism about the unexamined replies cost games against level 2)
DEFENCES = 16        # defensive actions tried at most from one partial turn
TURN_POINTS = 1.5    # level 3 values a reserve pawn (a move point every turn) this much more than the levels
                     # below do, up to n + 1 pawns (beyond them it would rather hoard than play): whole turns
                     # show what the points buy, and the tournaments show it pays


class TurnSearch:
    """A search over whole turns: a turn is several actions, so an action-by-action search spends its depth
    inside one turn and sees neither the end of its own turn (the master left open) nor the reply.

    A beam search finds a side's best complete turns: every partial turn is scored by the position after it
    ends there (`end` pushed), which is a lower bound of what the turn can still do, and the best partial
    turns are extended action by action, the captures under way kept too. Level 3 weighs its best turns
    against the opponent's best reply turn found the same way (depth 2), or takes the best turn alone
    (depth 1) when time is short. Values are always from `me`'s point of view. The board is searched in
    place and restored, also when a limit interrupts the search."""

    def __init__(self, board, model: "TowersModel", limits):
        self.board = board
        self.model = model
        self.limits = limits
        self.me = model.me
        self.cap = model.n + 1            # points beyond it buy little: a pawn crosses the board with n

    def value(self) -> float:
        board = self.board
        self.limits.tick()
        outcome = board.outcome()
        if outcome is not None:
            return self.model.terminal(board, outcome, 0)
        if self.model.converting:
            return self.model.evaluate(board)          # points are to be spent now, not hoarded
        r = board.reserve
        me = self.me
        cap = self.cap
        return self.model.evaluate(board) + TURN_POINTS * (min(r[me - 1], cap) - min(r[2 - me], cap))

    def ended_value(self, side: int) -> float:
        """The value once `side`'s turn is over: as it is if the turn has passed, else after `end`."""
        board = self.board
        if board.turn != side:
            return self.value()
        with played(board, ("end",)):
            return self.value()

    def candidates(self, side: int, ranked: int) -> tuple:
        """(actions worth trying now, the first actions of captures under way)."""
        board, model = self.board, self.model
        legal = board.legal_moves()
        order = model.rank(board, legal)
        tried = [m for m in order[:ranked] if m != "end"]
        seen = set(tried)
        tactics = model.tactical(board)
        for m in sorted(tactics):
            if m not in seen:
                tried.append(m)
                seen.add(m)
        for m in model.defences(board, legal):
            if m not in seen:
                tried.append(m)
                seen.add(m)
        if "i1" in legal and "i1" not in seen:
            tried.append("i1")
        # raising the own master (a pawn onto it, or the master onto a pawn): a move point more every turn
        own = board.master_cell(side)
        if own is not None:
            onto, out = f">{own[0]},{own[1]}:", f"m{own[0]},{own[1]}>"
            sign = 1 if side == 1 else -1
            for m in legal:
                if m not in seen and m[0] == "m" and (onto in m or (m.startswith(out) and self._onto_own(m, sign))):
                    tried.append(m)
                    seen.add(m)
        return tried, tactics

    def _onto_own(self, move: str, sign: int) -> bool:
        return self.board.cell(*destination(move)) * sign > 0

    def best_turns(self, beam: int, ranked: int, tactics_kept: int, full: bool = False) -> list:
        """The complete turns of the side to move found by the beam search: [(actions, value)], best first
        for that side (values from my point of view). Ending at once is one of them."""
        board, model = self.board, self.model
        side = board.turn
        sign = 1.0 if side == self.me else -1.0
        found: dict = {}                      # position -> (actions, value)
        self.found = found                    # what a search cut short by a limit has found so far
        v = self.ended_value(side)
        found[None] = (("end",), v)
        frontier = [()]
        while frontier:
            children: dict = {}
            for seq in frontier:
                with played(board, seq):
                    tried, tactics = self.candidates(side, ranked if seq or not full else 10_000)
                    for move in tried:
                        with played(board, (move,)):
                            going = board.turn == side
                            key = model.key(board) if going else ("done", seq + (move,))
                            if key in found:
                                continue
                            v = self.ended_value(side)
                            found[key] = (seq + (move,), v)
                            if going:
                                children[key] = (sign * v, seq + (move,), move in tactics)
            ranked_children = sorted(children.values(), key=lambda e: (-e[0], e[1]))
            frontier = [e[1] for e in ranked_children[:beam]]
            frontier += [e[1] for e in ranked_children[beam:] if e[2]][:tactics_kept]
        return sorted(found.values(), key=lambda e: (-sign * e[1], len(e[0]), e[0]))

    def distinct(self, turns: list, count: int):
        """The first `count` of `turns` that end in different positions (a pawn imported and not moved out
        goes back to the reserve when the turn ends: the turn with it and the turn without are the same)."""
        board = self.board
        seen = set()
        for seq, _ in turns:
            with played(board, seq, whole_turn=True):
                key = self.model.key(board)
            if key not in seen:
                seen.add(key)
                yield seq
                if len(seen) == count:
                    return

    def reply_value(self, seq: tuple, follow: int = 0) -> float:
        """My value after my turn `seq` and the opponent's best reply turn; with `follow`, after my best turn
        in answer to each of its `follow` best replies, the worst of them for me (a third turn)."""
        board = self.board
        with played(board, seq, whole_turn=True):
            if board.outcome() is not None or board.turn is None:
                return self.value()
            if self.model.walk_to_master(board) is not None:
                return -WIN // 2          # it walks onto my master
            replies = self.best_turns(REPLY_BEAM, REPLY_RANKED, REPLY_TACTICS)
            if not follow:
                return replies[0][1]
            return min(self.follow_value(reply) for reply, _ in replies[:follow])

    def follow_value(self, reply: tuple) -> float:
        """My value after the opponent's turn `reply` and my best turn in answer."""
        board = self.board
        with played(board, reply, whole_turn=True):
            if board.outcome() is not None or board.turn is None:
                return self.value()
            if self.model.walk_to_master(board) is not None:
                return WIN // 2           # I walk onto its master
            return self.best_turns(REPLY_BEAM, REPLY_RANKED, REPLY_TACTICS)[0][1]


@contextmanager
def played(board, actions, whole_turn: bool = False):
    """The board with `actions` pushed for the duration of the block, then taken back (also on Stop). With
    `whole_turn`, the turn they belong to is also ended when they leave it open (a turn found by
    `best_turns` stops where its last action was worth the most, often with points left)."""
    pushed = []
    side = board.turn
    try:
        for m in actions:
            board.push(m)
            pushed.append(m)
        if whole_turn and board.turn == side and board.outcome() is None:
            board.push("end")
            pushed.append("end")
        yield board
    finally:
        for _ in pushed:
            board.pop()


def turn_start_lead(board) -> int:
    """How many pawns the side to move had in its reserve at the start of its turn beyond the opponent's.
    Imports lower the reserve in the middle of a turn, but level 3 decides each action afresh and must not
    change its plan (converting a lead) half-way."""
    me = board.turn
    imported = sum(int(m[1:]) for m in board.turn_moves() if m[0] == "i")
    return board.reserve[me - 1] + imported - board.reserve[2 - me]


def turn_search(board, model: "TowersModel", limits, rng, max_depth: int = TURN_DEPTH):
    """Level 3 for Towers: the first action of the best turn found. An immediate win or a walk onto the
    enemy master comes first; then my best turns by the beam search (depth 1), weighed, while the limits
    allow, against the opponent's best reply (depth 2), and with `max_depth=3` the best of them against my
    answers to its best replies (depth 3). A depth the limits cut short leaves the one before it to decide.
    Returns the action."""
    from ai.search import Stop, immediate_wins

    me = board.turn
    legal = board.legal_moves()
    target = board.master_cell(3 - me)
    if target is not None:
        tail = f">{target[0]},{target[1]}:"
        wins = immediate_wins(board, model, [m for m in legal if tail in m])
        if wins:
            return rng.choice(sorted(wins))
    onto_master = model.walk_to_master(board)
    if onto_master is not None:
        return onto_master
    if len(legal) == 1:
        return legal[0]
    model.converting = turn_start_lead(board) >= CONVERT_LEAD
    search = TurnSearch(board, model, limits)
    saved = limits
    search.found = {}
    try:
        mine = search.best_turns(TURN_BEAM, TURN_RANKED, TURN_TACTICS, full=True)
    except Stop:
        # out of time inside the first beam: the best of the turns it has weighed so far
        mine = sorted(search.found.values(), key=lambda e: (-e[1], len(e[0]), e[0])) or None
    if mine is None:
        # not even ending the turn was weighed: a one-action look (a fresh, tiny allowance of nodes)
        from ai.search import Limits
        search.limits = Limits(None, 400, saved.stop)
        try:
            mine = search.best_turns(1, TURN_RANKED, 0)
        except Stop:
            return "end"
        search.limits = saved
    best = mine[0][1]
    if max_depth >= 2 and abs(best) < WIN // 2 and not limits.expired():
        scored = []
        try:
            for seq in search.distinct(mine, ROOT_TURNS):
                scored.append((seq, search.reply_value(seq)))
        except Stop:
            pass
        if scored and max_depth >= 3 and not limits.expired():
            # a third turn for the best of them: my answer to each of the opponent's best replies
            scored.sort(key=lambda e: (-e[1], len(e[0]), e[0]))
            deeper = []
            try:
                for seq, v in scored[:DEEP_TURNS]:
                    deeper.append((seq, v if abs(v) >= WIN // 2 else search.reply_value(seq, DEEP_REPLIES)))
            except Stop:
                deeper = []
            if deeper:
                scored = deeper
        if scored:
            top = max(v for _, v in scored)
            ties = sorted((len(seq), seq) for seq, v in scored if v >= top - 1e-9)
            shortest = [seq for n_, seq in ties if n_ == ties[0][0]]
            return rng.choice(shortest)[0]
    top = mine[0][1]
    ties = sorted(seq for seq, v in mine if v >= top - 1e-9 and len(seq) == len(mine[0][0]))
    return rng.choice(ties)[0]


#: the model ai.choose_move searches with (ai/__init__.py); its level 3 searches whole turns (deep_search)
MODEL = TowersModel
#: the original's rule-based AI-1 (classic_computer.py), offered beside levels 1 to 3
CLASSIC_LEVELS = [
    {"id": "classic", "label": "Classic AI-1 (the original's rule-based opponent)"},
]


def classic(board, level: str, rng) -> str:
    """The original's AI-1's move."""
    from games.towers.classic_computer import choose
    return choose(board, rng)

#: computer analysis (ai/analysis.py, docs/analysis.md): k squashes the model's values onto the scale
#: (HEURISTIC * tanh(value / k)); the rest are the drops in the mover's score that class a move.
#: (being measured)
ANALYSIS = {"k": 10.0, "inaccuracy": 100, "mistake": 200, "blunder": 300}
