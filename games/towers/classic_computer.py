"""Towers: the original program's rule-based computer player AI-1, as "classic".

AI-1 plans a whole turn in one pass of six rules, each playing the actions it finds on the board at once:

1. if a path reaches the enemy master (the "master in danger" search of `TowersBoard.master_attacked`, the
   original's `find-attacked-path*`), walk it
   (the master tower imports pawns before its last step when it needs the height) and win;
2. if its own master is attacked: by more than one enemy piece, run away (move the master along a path to
   a free cell or onto a single own pawn, accepted only if the master is then no longer attacked); by one,
   capture the attacker (with a non-master tower if the attacker is protected, else with the master,
   else with any piece), or else run away;
3. capture every reachable enemy cell whose protectors are no more than its attackers, by safe paths;
4. if its reserve is smaller than the opponent's, raise the master with a pawn (exported next turn);
5. raise each own cell attacked by a taller enemy tower and not protected by a taller own one (safe paths);
6. import one pawn ("to avoid draw games") and end the turn.

Quadrille's one change (the rules' draw: four pure passes in a row): the import of rule 6 is exported
again at the end of the turn, so such a turn changes nothing, yet it is not a pass; the original's AI-1 thus
answered every pass with it, and a game against it (or between two of them) could never be drawn. When rule 6
is all it would play and the opponent's last turn changed nothing either (a pass, or an import exported
again), AI-1 passes instead, and the engine's draw rule ends a game in which neither side acts.

"Safe" means that after the path is played, the own master is not attacked (`master_attacked`). The engine plays one
action per call, so `choose` rebuilds the turn's start, plans the whole turn from there (deterministically)
and returns the plan's next action; if the actions played so far this turn are not the plan's (another
player held the seat earlier in the turn), it plans from the current position instead.

Paths go through empty cells only and move whole towers, as the original's search does; every action is
checked by the engine, and a path that turns out illegal is taken back and skipped.
"""
from __future__ import annotations

from collections import deque

from games.base import IllegalMove

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def choose(board, rng=None) -> str:
    """AI-1's next action for the side to move (`rng` is accepted for symmetry; AI-1 is deterministic)."""
    done = board.turn_moves()
    start = board.copy()
    for _ in done:
        start.pop()
    plan = plan_turn(start)
    if plan[:len(done)] == done and len(plan) > len(done):
        return plan[len(done)]
    return plan_turn(board.copy())[0]


def opponent_changed_nothing(board) -> bool:
    """At the start of a turn: did the opponent's last turn leave the towers and the reserves as they were?"""
    plies = board.plies()
    if len(plies) < 2 or plies[-1] or not plies[-2]:
        return False                        # not at the start of a turn, or no turn before this one
    before = board.copy()
    for _ in plies[-2]:
        before.pop()
    return _position(before) == _position(board)


def _position(board) -> tuple:
    n = board.size
    return tuple(board.cell(x, y) for y in range(n) for x in range(n)), board.reserve


def plan_turn(board) -> list:
    """The actions AI-1 plays in a turn from this position (the board is played on)."""
    planner = _Turn(board)
    planner.run()
    return planner.plan


class _Turn:
    def __init__(self, board):
        self.b = board
        self.me = board.turn
        self.opp = 3 - self.me
        self.n = board.size
        self.plan: list = []

    # -- the board -------------------------------------------------------------------------------------

    def owner(self, x, y) -> int:
        v = self.b.cell(x, y)
        return 0 if v == 0 else (1 if v > 0 else 2)

    def height(self, x, y) -> int:
        return abs(self.b.cell(x, y))

    def my_turn(self) -> bool:
        return self.b.turn == self.me

    def play(self, moves: list) -> bool:
        """Push a sequence of actions; all or nothing."""
        pushed = 0
        try:
            for m in moves:
                if not self.my_turn():
                    raise IllegalMove("the turn is over")
                self.b.push(m)
                pushed += 1
        except IllegalMove:
            for _ in range(pushed):
                self.b.pop()
            return False
        self.plan.extend(moves)
        return True

    def take_back(self, count: int) -> None:
        for _ in range(count):
            self.b.pop()
        del self.plan[len(self.plan) - count:]

    def safe(self) -> bool:
        return self.b.outcome() is not None or not self.b.master_attacked(self.me)

    # -- paths (master_attacked's breadth-first search, returning the paths) ----------------------------------------

    def paths_to(self, target, side: int, budget: int, *, skip_locked: bool, master_rule: bool = True) -> list:
        """Every piece of `side` that can reach `target` through empty cells within `budget` points:
        [(source cell, [cells from the source to the target])], nearest first."""
        n = self.n
        tx, ty = target
        locked = set(self.b.locked_cells()) if skip_locked else set()
        master = self.b.master_cell(side)
        t_h = self.height(tx, ty) if self.owner(tx, ty) else 0
        prev = {target: None}
        queue = deque([(target, 0)])
        found = []
        while queue:
            (x, y), dist = queue.popleft()
            if abs(x - tx) + abs(y - ty) > budget:
                break
            for dx, dy in _STEPS:
                c = (x + dx, y + dy)
                if not (0 <= c[0] < n and 0 <= c[1] < n) or c in prev:
                    continue
                prev[c] = (x, y)
                o = self.owner(*c)
                if o == 0:
                    queue.append((c, dist + 1))
                elif o == side and c not in locked:
                    h = self.height(*c)
                    steps = dist + 1
                    if c == master and master_rule:
                        cost = h * steps + 2 * max(0, max(t_h, 1) - h)
                    else:
                        cost = h * steps
                    if cost <= budget and (c == master or h >= t_h or self.owner(tx, ty) != 3 - side):
                        path = [c]
                        p = prev[c]
                        while p is not None:
                            path.append(p)
                            p = prev[p]
                        found.append((c, path))
        return found

    def walk(self, path: list) -> list:
        """The actions that move the tower at path[0] along the path (straight runs; the master imports
        before its last run when the target is taller)."""
        src = path[0]
        h = self.height(*src)
        is_master = self.b.master_cell(self.me) == src
        runs = []
        start = path[0]
        for i in range(1, len(path)):
            if i + 1 < len(path):
                a, b, c = path[i - 1], path[i], path[i + 1]
                if (b[0] - a[0], b[1] - a[1]) == (c[0] - b[0], c[1] - b[1]):
                    continue
            runs.append((start, path[i]))
            start = path[i]
        target = path[-1]
        t_h = self.height(*target) if self.owner(*target) == self.opp else 0
        moves = []
        for j, (a, b) in enumerate(runs):
            k = h
            if j == len(runs) - 1 and is_master and t_h > h:
                moves.append(f"i{t_h - h}")
                k = t_h
            moves.append(f"m{a[0]},{a[1]}>{b[0]},{b[1]}:{k}")
        return moves

    def walk_safely(self, path: list, *, check_safe: bool = True) -> bool:
        moves = self.walk(path)
        if not self.play(moves):
            return False
        if check_safe and not self.safe():
            self.take_back(len(moves))
            return False
        return True

    # -- the six rules ---------------------------------------------------------------------------------

    def budget(self) -> int:
        return self.b.move_points if self.my_turn() else 0

    def run(self) -> None:
        b = self.b
        if not self.my_turn():
            return
        # 1. the enemy master
        target = b.master_cell(self.opp)
        if target is not None:
            for src, path in self.paths_to(target, self.me, self.budget(), skip_locked=True):
                if self.walk_safely(path, check_safe=False):
                    return                         # won (or the turn is over)
        # 2. my master attacked
        if self.my_turn() and b.master_attacked(self.me):
            self.defend()
        # 3. captures
        if self.my_turn():
            self.captures()
        # 4. grow the reserve
        if self.my_turn():
            r_me, r_opp = b.reserve[self.me - 1], b.reserve[self.opp - 1]
            if r_me < r_opp:
                self.raise_cell(b.master_cell(self.me))
        # 5. strengthen attacked cells
        if self.my_turn():
            self.strengthen()
        # 6. import one pawn and end the turn (or pass, when neither side has changed anything: see above)
        if self.my_turn():
            if not self.plan and opponent_changed_nothing(b):
                self.play(["end"])
                return
            if "i1" in b.legal_moves():
                self.play(["i1"])
            if self.my_turn():
                self.play(["end"])

    def enemy_reach(self, cell) -> list:
        """Enemy pieces that could reach `cell` next turn (with the enemy's reserve)."""
        return self.paths_to(cell, self.opp, self.b.reserve[self.opp - 1], skip_locked=False)

    def my_reach(self, cell) -> list:
        return self.paths_to(cell, self.me, self.budget(), skip_locked=True)

    def defend(self) -> None:
        master = self.b.master_cell(self.me)
        attackers = self.enemy_reach(master)
        if len(attackers) == 1:
            att = attackers[0][0]
            protected = len(self.enemy_reach(att)) > 0
            mine = self.my_reach(att)
            non_master = [p for s, p in mine if s != master]
            by_master = [p for s, p in mine if s == master]
            for group in ((non_master,) if protected else (by_master,)) + ((non_master + by_master),):
                for path in group:
                    if self.walk_safely(path):
                        return
        self.run_away()

    def run_away(self) -> None:
        """Move the master along a path to a free cell or onto a single own pawn, if it is then safe."""
        b = self.b
        master = b.master_cell(self.me)
        if master is None or master in set(b.locked_cells()):
            return
        h = self.height(*master)
        n = self.n
        budget = self.budget()
        prev = {master: None}
        queue = deque([(master, 0)])
        while queue:
            c, dist = queue.popleft()
            if (dist + 1) * h > budget:
                break
            for dx, dy in _STEPS:
                d = (c[0] + dx, c[1] + dy)
                if not (0 <= d[0] < n and 0 <= d[1] < n) or d in prev:
                    continue
                prev[d] = c
                o = self.owner(*d)
                if o == 0 or (o == self.me and self.height(*d) == 1 and h == 1):
                    path = [d]
                    p = prev[d]
                    while p is not None:
                        path.append(p)
                        p = prev[p]
                    path.reverse()
                    if self.walk_safely(path):
                        return
                    if o == 0:
                        queue.append((d, dist + 1))

    def captures(self) -> None:
        n = self.n
        for y in range(n):
            for x in range(n):
                if not self.my_turn():
                    return
                if self.owner(x, y) != self.opp:
                    continue
                attackers = self.my_reach((x, y))
                if not attackers:
                    continue
                protectors = [s for s, _ in self.enemy_reach((x, y)) if s != (x, y)]
                if len(protectors) > len(attackers):
                    continue
                for _, path in attackers:
                    if self.owner(x, y) != self.opp:
                        break
                    if self.walk_safely(path):
                        break

    def raise_cell(self, cell) -> bool:
        """Bring one single own pawn onto `cell` by a safe path."""
        if cell is None or not self.my_turn():
            return False
        for src, path in self.paths_to(cell, self.me, self.budget(), skip_locked=True, master_rule=False):
            if src == cell or self.height(*src) != 1 or src == self.b.master_cell(self.me):
                continue
            if self.walk_safely(path):
                return True
        return False

    def strengthen(self) -> None:
        n = self.n
        master = self.b.master_cell(self.me)
        for y in range(n):
            for x in range(n):
                if not self.my_turn():
                    return
                if self.owner(x, y) != self.me or (x, y) == master:
                    continue
                h = self.height(x, y)
                taller = [s for s, _ in self.enemy_reach((x, y)) if self.height(*s) > h]
                if not taller:
                    continue
                guards = [s for s, _ in self.paths_to((x, y), self.me, self.b.reserve[self.me - 1],
                                                        skip_locked=False, master_rule=False)
                          if s != (x, y) and self.height(*s) > h]
                if guards:
                    continue
                self.raise_cell((x, y))
