"""Towers: the evaluation (material, move points, the masters' safety) and the action ordering.

A turn is several actions, and the search goes action by action (`end` is one of them), so a leaf can fall
in the middle of a turn. The evaluation therefore reads the masters' danger through the engine's public
`master_attacked(player)` (the original's own heuristic, rules/towers.md §7), which measures the attacker's
reach with its move points left when it is to move, else with its next turn's points:

* after my turn has ended, an attacked master of mine means the opponent can probably take it: close to a
  loss; an attacked enemy master is a threat it must answer;
* during my turn, an attacked enemy master means I can probably take it now: close to a win.
"""
from __future__ import annotations

from ai.model import Model

PAWN = 1.0           # a pawn on the board or in the reserve
POINTS = 0.35        # ... in the reserve, once more: the reserve is the move points of every turn
DANGER = 40.0        # a master the side to move can probably reach
THREAT = 4.0         # a master the other side could reach next turn
GUARD = 0.6          # an own piece next to the own master (it blocks paths)
PRESSURE = 1.5       # per own piece, by closeness to the enemy master
HANGING = 0.7        # the side to move takes the best capture it can reach: this share of it
WIDTH = (64, 20, 12, 8)   # moves searched at ply 0, 1, 2 and deeper (the most promising by `order`)


_PARSED: dict = {}   # move string -> (target x, target y), or (rank,) for end and imports


def best_capture(flat: list, n: int, side: int, budget: int, locked, master: int) -> float:
    """The most pawns `side` can take this turn with one whole-tower move through empty cells (the enemy
    master excepted: `master_attacked` covers it); a capture by the own master counts twice (the pawns
    join the reserve)."""
    sign = 1 if side == 1 else -1
    best = 0.0
    for src, v in enumerate(flat):
        h = v * sign
        if h <= 0 or src in locked or h > budget:
            continue
        reach = budget // h
        seen = {src}
        frontier = [src]
        for _ in range(reach):
            nxt = []
            for c in frontier:
                x, y = c % n, c // n
                for d, ok in ((c + 1, x + 1 < n), (c - 1, x > 0), (c + n, y + 1 < n), (c - n, y > 0)):
                    if not ok or d in seen:
                        continue
                    seen.add(d)
                    t = flat[d] * sign
                    if t == 0:
                        nxt.append(d)
                    elif t < 0 and -t <= h and d not in locked:
                        gain = -t * (2 if src == master else 1)
                        if gain > best:
                            best = gain
            frontier = nxt
    return float(best)


class TowersModel(Model):
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
        """Every legal action, best first by `rank`, at most WIDTH[ply] of them."""
        moves = self.rank(board, board.legal_moves())
        width = WIDTH[min(ply, len(WIDTH) - 1)]
        return moves[:width] if len(moves) > width else moves

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
            parsed = _PARSED.get(move)
            if parsed is None:
                if move == "end":
                    parsed = (50.0,)
                elif move[0] == "i":
                    parsed = (20.0,)
                else:
                    dst = move[move.index(">") + 1:move.index(":")]
                    x, y = dst.split(",")
                    parsed = (int(x), int(y))
                _PARSED[move] = parsed
            if len(parsed) == 1:
                return parsed[0]
            x2, y2 = parsed
            v = cell(x2, y2) * sign
            if v < 0:
                if (x2, y2) == target:
                    return -1000.0
                return -100.0 + v
            return abs(x2 - tx) + abs(y2 - ty) - (0.5 if v > 0 else 0.0)

        return sorted(moves, key=rank)

    def _hanging(self, st: dict, flat: list, turn) -> float:
        """The capture the side to move can make now, as a share of its pawns (from my point of view)."""
        if turn is None:
            return 0.0
        n = self.n
        locked = {y * n + x for x, y in st["locked"]}
        mx, my = st["masters"][turn - 1]
        gain = best_capture(flat, n, turn, st["move_points"], locked, my * n + mx)
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
        value = PAWN * (mine + r_me - opp_pawns - r_opp) + POINTS * (r_me - r_opp)
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
        value += self._hanging(st, flat, turn)
        # guards and pressure
        masters = st["masters"]
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
            for i, v in enumerate(flat):
                if v * ws > 0:
                    d = abs(i % n - ox) + abs(i // n - oy)
                    press += max(0, n - d)
            value += s * (GUARD * guards + PRESSURE * press / n)
        return value
