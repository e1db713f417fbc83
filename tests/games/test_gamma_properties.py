"""Property tests of the gamma engine (hypothesis), against a brute-force model.

* busy fields, free fields, golden_possible, areas and the board printout agree with a
  brute-force recount after every command of random batch-style games (random
  players, including invalid ones, and random fields, including ones off the board);
* no player ever exceeds `areas` areas;
* `push` and `pop` are exact inverses (state, view, legal moves), and popping a whole
  game gives back a new board;
* `legal_moves()` is exactly the set of moves `push` accepts, and `is_legal` agrees.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.base import IllegalMove
from games.gamma.engine import Gamma

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------- brute force
class Model:
    """gamma by definition: a dict of fields, areas counted by flood fill every time."""

    def __init__(self, w, h, players, areas):
        self.w, self.h, self.players, self.limit = w, h, players, areas
        self.owner = {}
        self.used = set()

    def areas(self, p, owner=None):
        owner = self.owner if owner is None else owner
        cells = {c for c, q in owner.items() if q == p}
        count = 0
        while cells:
            count += 1
            stack = [cells.pop()]
            while stack:
                x, y = stack.pop()
                for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if n in cells:
                        cells.remove(n)
                        stack.append(n)
        return count

    def valid(self, p, x, y):
        return 1 <= p <= self.players and 0 <= x < self.w and 0 <= y < self.h

    def can_move(self, p, x, y):
        if not self.valid(p, x, y) or (x, y) in self.owner:
            return False
        after = dict(self.owner)
        after[(x, y)] = p
        return self.areas(p, after) <= self.limit

    def can_golden(self, p, x, y):
        if not self.valid(p, x, y) or p in self.used:
            return False
        v = self.owner.get((x, y))
        if v is None or v == p:
            return False
        after = dict(self.owner)
        after[(x, y)] = p
        return self.areas(p, after) <= self.limit and self.areas(v, after) <= self.limit

    def move(self, p, x, y):
        if self.can_move(p, x, y):
            self.owner[(x, y)] = p
            return True
        return False

    def golden(self, p, x, y):
        if self.can_golden(p, x, y):
            self.owner[(x, y)] = p
            self.used.add(p)
            return True
        return False

    def busy(self, p):
        return sum(1 for q in self.owner.values() if q == p) if 1 <= p <= self.players else 0

    def free(self, p):
        if not 1 <= p <= self.players:
            return 0
        return sum(1 for x in range(self.w) for y in range(self.h) if self.can_move(p, x, y))

    def golden_possible(self, p):
        return any(self.can_golden(p, x, y) for (x, y) in list(self.owner))

    def board(self):
        wd = len(str(self.players))
        rows = []
        for y in range(self.h - 1, -1, -1):
            cells = [str(self.owner.get((x, y), ".")) for x in range(self.w)]
            if self.players <= 9:
                rows.append("".join(cells))
            else:
                rows.append(" ".join(c.rjust(wd) for c in cells))
        return "".join(r + "\n" for r in rows)


def params(max_side=6, max_players=4, max_areas=4):
    return st.tuples(st.integers(1, max_side), st.integers(1, max_side),
                     st.integers(1, max_players), st.integers(1, max_areas))


@st.composite
def games_and_commands(draw):
    w, h, players, areas = draw(params())
    n = draw(st.integers(0, 60))
    # mostly valid, sometimes off the board or an invalid player
    cmd = st.tuples(st.sampled_from("mmmmg"), st.integers(0, players + 1),
                    st.integers(0, w), st.integers(0, h))
    return (w, h, players, areas), draw(st.lists(cmd, min_size=n, max_size=n))


def check_against(game: Gamma, model: Model):
    for p in range(0, model.players + 2):
        assert game.busy_fields(p) == model.busy(p), f"busy({p})"
        assert game.free_fields(p) == model.free(p), f"free({p})"
        assert game.golden_possible(p) == model.golden_possible(p), f"golden_possible({p})"
        if 1 <= p <= model.players:
            assert game.areas_of(p) == model.areas(p), f"areas({p})"
            assert game.areas_of(p) <= model.limit
    assert game.board() == model.board()


@SETTINGS
@given(games_and_commands())
def test_counts_agree_with_brute_force(case):
    (w, h, players, areas), commands = case
    game = Gamma(w, h, players, areas)
    model = Model(w, h, players, areas)
    for op, p, x, y in commands:
        if op == "m":
            assert game.move(p, x, y) == model.move(p, x, y), ("move", p, x, y)
        else:
            assert game.golden_move(p, x, y) == model.golden(p, x, y), ("golden", p, x, y)
        check_against(game, model)


@SETTINGS
@given(games_and_commands())
def test_move_lists_agree_with_brute_force(case):
    """move_targets / golden_targets / can_move_* against the model, and undo restores."""
    (w, h, players, areas), commands = case
    game = Gamma(w, h, players, areas)
    model = Model(w, h, players, areas)
    for op, p, x, y in commands:
        before = game.state()
        ok = game.move(p, x, y) if op == "m" else game.golden_move(p, x, y)
        assert ok == (model.move(p, x, y) if op == "m" else model.golden(p, x, y))
        if ok:
            game.undo()
            assert game.state() == before
            assert (game.move(p, x, y) if op == "m" else game.golden_move(p, x, y))
        for q in range(1, players + 1):
            normal = sorted(game.xy(c) for c in game.move_targets(q))
            golden = sorted(game.xy(c) for c in game.golden_targets(q))
            assert normal == sorted((x, y) for x in range(w) for y in range(h) if model.can_move(q, x, y))
            assert golden == sorted(c for c in model.owner if model.can_golden(q, *c))
            for xx in range(w):
                for yy in range(h):
                    assert game.can_move_normally(q, xx, yy) == ((xx, yy) in normal)
                    assert game.can_move_golden(q, xx, yy) == ((xx, yy) in golden)


@SETTINGS
@given(params(max_side=5, max_players=12, max_areas=3), st.randoms(use_true_random=False))
def test_undo_all_gives_a_new_game(p, rng):
    w, h, players, areas = p
    game = Gamma(w, h, players, areas)
    fresh = Gamma(w, h, players, areas).state()
    done = 0
    for _ in range(80):
        q = rng.randint(1, players)
        x, y = rng.randrange(w), rng.randrange(h)
        if rng.random() < 0.2:
            done += game.golden_move(q, x, y)
        else:
            done += game.move(q, x, y)
        for r in range(1, players + 1):
            assert game.areas_of(r) <= areas
    assert Model(w, h, players, areas).board() != game.board() or done == 0
    for _ in range(done):
        game.undo()
    assert game.state() == fresh


# ---------------------------------------------------------------------- the turn-based board
def snapshot(board):
    return (board.core.state(), board.view(), board.legal_moves(), board.moves, board.turn, board.outcome())


@st.composite
def board_games(draw):
    w, h, players, areas = draw(params(max_side=5, max_players=4, max_areas=3))
    board = games.get("gamma").new(width=w, height=h, players=players, areas=areas)
    picks = draw(st.lists(st.integers(0, 10 ** 6), max_size=40))
    return board, picks


@SETTINGS
@given(board_games())
def test_push_pop_inverse(case):
    board, picks = case
    start = snapshot(board)
    history = []
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            assert board.turn is None and board.outcome() is not None
            break
        before = snapshot(board)
        move = legal[pick % len(legal)]
        board.push(move)
        assert board.pop() == move
        assert snapshot(board) == before
        board.push(move)
        history.append(before)
        for q in range(1, board.players + 1):
            assert board.core.areas_of(q) <= board.options["areas"]
    for before in reversed(history):
        board.pop()
        assert snapshot(board) == before
    assert snapshot(board) == start


@SETTINGS
@given(board_games())
def test_legal_moves_are_exactly_the_pushable_moves(case):
    board, picks = case
    w, h = board.options["width"], board.options["height"]
    for pick in picks[:12]:
        legal = board.legal_moves()
        if not legal:
            break
        assert legal == sorted(legal)
        candidates = ["skip"] + [f"{pre}{x},{y}" for pre in ("", "g") for x in range(w + 1) for y in range(h + 1)]
        accepted = []
        for move in candidates:
            before = snapshot(board)
            try:
                board.push(move)
            except IllegalMove:
                assert snapshot(board) == before
                assert not board.is_legal(move)
                continue
            accepted.append(move)
            board.pop()
            assert board.is_legal(move)
        assert sorted(accepted) == legal
        # the view's lists are the same moves
        view = board.view()
        assert sorted(f"{x},{y}" for x, y in view["legal"]) == sorted(m for m in legal if m[0].isdigit())
        assert sorted(f"g{x},{y}" for x, y in view["golden"]) == sorted(m for m in legal if m[0] == "g")
        board.push(legal[pick % len(legal)])


@SETTINGS
@given(board_games())
def test_turn_skips_exactly_the_players_who_cannot_move(case):
    board, picks = case
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            break
        mover = board.turn
        board.push(legal[pick % len(legal)])
        core = board.core
        able = [q for q in range(1, board.players + 1)
                if core.free_fields(q) > 0 or core.golden_possible(q)]
        if not able:
            assert board.turn is None
            continue
        if board.turn is None:
            # the end by passes (games/gamma/passes.py): no pawn can be placed, and every player able to move
            # (only by a golden move, then) passed once, in a row
            assert board.outcome().reason == "passed"
            assert all(core.free_fields(q) == 0 for q in range(1, board.players + 1))
            assert board.moves[-len(able):] == ["skip"] * len(able)
            assert sorted(board._turns[-len(able):]) == able
            break
        order = list(range(mover + 1, board.players + 1)) + list(range(1, mover + 1))
        assert board.turn == next(q for q in order if q in able)


@SETTINGS
@given(board_games())
def test_copy_is_independent_and_equal(case):
    board, picks = case
    for pick in picks[:15]:
        legal = board.legal_moves()
        if not legal:
            break
        board.push(legal[pick % len(legal)])
    twin = board.copy()
    assert snapshot(twin) == snapshot(board)
    assert games.from_dict(board.to_dict()).view() == board.view()
    legal = twin.legal_moves()
    if legal:
        before = snapshot(board)
        twin.push(legal[-1])
        assert snapshot(board) == before
    if board.moves:
        board.pop()
        twin2 = board.copy()
        assert twin2.moves == board.moves


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 8), st.integers(3, 8), st.integers(2, 3), st.integers(1, 2), st.randoms(use_true_random=False))
def test_dense_boards_golden_possible_agrees_with_brute_force(w, h, players, areas, rng):
    """Dense boards with tight limits: long areas full of cut fields, where golden_possible
    at the limit needs the local searches and the cut tables (also while they grow)."""
    game = Gamma(w, h, players, areas)
    model = Model(w, h, players, areas)
    for step in range(w * h * 2):
        p = rng.randint(1, players)
        if step % 3 == 0:
            # probe first, so that cut tables exist and are kept up to date by later moves
            assert game.golden_possible(p) == model.golden_possible(p)
        targets = game.move_targets(p)
        if targets and rng.random() < 0.93:
            x, y = game.xy(rng.choice(targets))
            assert game.move(p, x, y) and model.move(p, x, y)
        else:
            gold = game.golden_targets(p)
            if gold:
                x, y = game.xy(rng.choice(gold))
                assert game.golden_move(p, x, y) and model.golden(p, x, y)
        if step % 7 == 0:
            for q in range(1, players + 1):
                assert game.golden_possible(q) == model.golden_possible(q)
                assert game.free_fields(q) == model.free(q)
    check_against(game, model)


def true_pieces(owner: dict, cell, p) -> int:
    """How many areas p's neighbours of `cell` fall into once `cell` is removed (flood fill)."""
    rest = {c for c, q in owner.items() if q == p and c != cell}
    x, y = cell
    starts = [n for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if n in rest]
    pieces, seen = 0, set()
    for s in starts:
        if s in seen:
            continue
        pieces += 1
        stack = [s]
        seen.add(s)
        while stack:
            a, b = stack.pop()
            for n in ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1)):
                if n in rest and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return pieces


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.lists(st.booleans(), min_size=49, max_size=49))
def test_local_search_and_cut_table_count_pieces_exactly(w, h, mask):
    """The interleaved search (`_few_pieces`) and the cut table (Tarjan) against a flood fill,
    for every field of random shapes and every limit."""
    cells = [(x, y) for y in range(h) for x in range(w) if mask[y * 7 + x]]
    game = Gamma(w, h, 1, w * h)
    for x, y in cells:
        assert game.move(1, x, y)
    owner = {c: 1 for c in cells}
    table = game._cut_table(1)
    S = game._S
    for x, y in cells:
        c = game._cell(x, y)
        want = true_pieces(owner, (x, y), 1)
        assert table[c] == want
        nv = [n for n in (c - 1, c + 1, c - S, c + S) if game._owner[n] == 1]
        for allowed in range(1, 5):
            assert game._few_pieces(1, c, nv, allowed) == (want <= allowed), (x, y, allowed, want)
        assert len(game._pieces(1, c, nv)) == want
