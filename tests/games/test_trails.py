"""Trails and Towers engine tests: reference replay, the checklist of trails.md §13, the worked examples of §9,
options, records, and property tests against an independent restatement of §5-§7.

Positions for the unit tests are built with `position()`, a test-only helper that writes the engine's state
directly (the examples of §9 are positions, not games). Run: python -m pytest tests/games/test_trails.py -q
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from tests.support.paths import SHARED, read_jsonl
from games import IllegalMove
from games.trails import DIRECTIONS, TrailsBoard

GAME = games.get("trails")
REFERENCE = read_jsonl(SHARED / "reference" / "trails.jsonl")
PLACEMENTS = [p for p in read_jsonl(SHARED / "reference" / "trails_placements.jsonl") if p["size_param"] >= 3]
DELTA = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

# the 7x7 board of the worked examples (§9): 7/3/1 towers at (1,5) (3,3) (5,1)
EMPTY7 = [
    "1......",
    ".....T.",
    ".......",
    "...T...",
    ".......",
    ".T.....",
    "......2",
]


# -- helpers ---------------------------------------------------------------------------------------------


def position(rows, blue, red, *, dirs=("left", "right"), boost=(0, 0), taken=(0, 0), turn=1,
             towers=3, distance=1) -> TrailsBoard:
    """A board of len(rows) x len(rows) with the given cells and player state (test-only: writes internals).

    rows use the reference characters . 1 2 T; blue/red are the heads (row, col); towers/distance are the
    options (they fix the effective K of the win test)."""
    n = len(rows)
    board = GAME.new(size=n, towers=towers, distance=distance)
    w = n + 2
    code = {".": 0, "1": 1, "2": 2, "T": 3}
    for r, row in enumerate(rows):
        assert len(row) == n
        for c, ch in enumerate(row):
            board._cells[(r + 1) * w + c + 1] = code[ch]
    board._head[1:] = [(r + 1) * w + c + 1 for r, c in (blue, red)]
    board._dir[1:] = [DIRECTIONS.index(d) for d in dirs]
    board._boost[1:] = list(boost)
    board._taken[1:] = list(taken)
    board._turn = turn
    board._recompute()
    assert board.view()["cells"] == list(rows)
    return board


def edit(rows, changes: dict) -> list[str]:
    """rows with some cells changed: {(r, c): char}."""
    grid = [list(row) for row in rows]
    for (r, c), ch in changes.items():
        grid[r][c] = ch
    return ["".join(row) for row in grid]


def snapshot(board) -> tuple:
    return (board.view(), board.legal_moves(), board.moves, board.turn, board.outcome(), board.to_dict())


def play(board, moves) -> TrailsBoard:
    for m in moves:
        board.push(m)
    return board


def refused(board, move) -> str:
    """Push a move that must be refused; check that nothing changed; return the reason."""
    before = snapshot(board)
    with pytest.raises(IllegalMove) as info:
        board.push(move)
    assert snapshot(board) == before
    assert isinstance(info.value.reason, str) and info.value.reason
    return info.value.reason


class Model:
    """An independent, slow restatement of §5-§7 on plain (row, col) data, for the property tests."""

    def __init__(self, view: dict):
        self.n = view["size"]
        self.grid = [list(row) for row in view["cells"]]
        self.last = [tuple(h) for h in view["heads"]]
        self.dir = list(view["dirs"])
        self.boost = list(view["boost"])
        self.taken = list(view["taken"])
        self.k = view["towers_count"]
        self.turn = view["turn"]
        self.winner = self.reason = None

    def on(self, r, c) -> bool:
        return 0 <= r < self.n and 0 <= c < self.n

    def claimed(self, p: int, d: str):
        """(sorted claimed cells, target) of seat p moving d, or None if illegal (§5 pseudo-code)."""
        (r, c), (dr, dc) = self.last[p - 1], DELTA[d]
        cont = d == self.dir[p - 1]
        dist = self.boost[p - 1] + 2 if cont else 1
        tr, tc = r + dr * dist, c + dc * dist
        if self.on(tr, tc):
            legal = self.grid[tr][tc] == "." or (cont and self.grid[tr][tc] == "T")
        else:
            while not self.on(tr, tc):
                tr, tc = tr - dr, tc - dc
            legal = self.grid[tr][tc] == "."
        if not legal:
            return None
        cells, (x, y) = [(tr, tc)], (r + dr, c + dc)
        while (x, y) != (tr, tc):
            if self.grid[x][y] == ".":
                cells.append((x, y))
            x, y = x + dr, y + dc
        return sorted(cells), (tr, tc)

    def legal(self, p: int) -> dict:
        out = {}
        for d in DELTA:
            got = self.claimed(p, d)
            if got is not None:
                out[d] = [list(x) for x in got[0]]
        return out

    def move(self, d: str) -> None:
        p = self.turn
        q = 3 - p
        cells, target = self.claimed(p, d)
        took = self.grid[target[0]][target[1]] == "T"
        for r, c in cells:
            self.grid[r][c] = str(p)
        self.boost[p - 1] = self.boost[p - 1] + 1 if d == self.dir[p - 1] else 0
        self.dir[p - 1] = d
        self.last[p - 1] = target
        self.taken[p - 1] += took
        by_towers = self.taken[p - 1] > self.k // 2
        if by_towers or not self.legal(q):
            self.winner, self.reason, self.turn = p, "towers" if by_towers else "stuck", None
        elif not self.legal(p):
            self.winner, self.reason, self.turn = q, "trapped", None
        else:
            self.turn = q


# -- reference data --------------------------------------------------------------------------------------


def _reason(result: dict) -> str:
    if result["by_towers"]:
        return "towers"
    if result["opponent_stuck"]:
        return "stuck"
    assert result["mover_stuck"]
    return "trapped"


def _state(view: dict) -> dict:
    return {"last": view["heads"], "dir": view["dirs"], "boost": view["boost"], "taken": view["taken"]}


@pytest.mark.parametrize("ref", REFERENCE, ids=[f"game{g['game']}-{g['size']}x{g['size']}" for g in REFERENCE])
def test_reference_game_replays(ref):
    board = GAME.new(size=ref["size"], towers=ref["towers_param"], distance=ref["distance"])
    view = board.view()
    assert [list(t) for t in board.tower_cells] == ref["towers"]
    assert view["towers_count"] == ref["towers_count"]
    for ply in ref["plies"]:
        where = f"game {ref['game']} ply {ply['ply']}"
        assert board.turn == ply["player"], where
        assert view["cells"] == ply["board"], where
        assert _state(view) == ply["state"], where
        assert view["legal"] == ply["legal"], where
        assert view["green"] == ply["green"], where
        assert board.legal_moves() == sorted(ply["legal"]), where
        assert len(ply["legal"]) <= 3, where
        board.push(ply["move"])
        view = board.view()
        last = view["last_move"]
        assert last["player"] == ply["player"] and last["move"] == ply["move"], where
        assert last["dest"] == ply["dest"], where
        assert [x for x in last["cells"] if x != last["dest"]] == ply["filled"], where
        assert last["tower_taken"] == ply["tower_taken"], where
        assert view["boost"][ply["player"] - 1] == ply["boost_after"], where
        assert view["heads"][ply["player"] - 1] == ply["dest"], where
    result = ref["result"]
    assert view["cells"] == ref["final_board"]
    assert _state(view) == ref["final_state"]
    assert board.turn is None and view["over"] and view["legal"] == {} and view["green"] == []
    outcome = board.outcome()
    assert outcome.winners == (result["winner"],)
    assert outcome.reason == _reason(result)
    assert outcome.scores == tuple(ref["final_state"]["taken"])
    assert len(board.moves) == result["plies"] == result["moves_count"]
    assert board.title() == result["title"]
    assert view["outcome"]["text"] == result["title"]


def test_reference_placements():
    wrong = []
    for p in PLACEMENTS:
        board = GAME.new(size=p["size_param"], towers=p["towers_param"], distance=p["distance"])
        got = (board.size, board.towers_count, [list(t) for t in board.tower_cells])
        want = (p["size"], p["towers_count"], p["towers"])
        if got != want or board.view()["towers_count"] != p["towers_count"]:
            wrong.append((p, got))
    assert len(PLACEMENTS) == 950
    assert not wrong, wrong[:3]


def _spec_layout(n: int, k: int, d: int) -> tuple[int, list]:
    """§3's closed form, restated, for the settings the placements file does not cover."""
    if n % 2 == 0 and k % 2:
        k += 1
    cells = set()
    if n % 2:
        m = n // 2
        starts = [(m - t * (d + 1), m + t * (d + 1)) for t in range((k + 1) // 2)] if k % 2 else \
            [(m - d // 2 - 1 - t * (d + 1), m + d // 2 + 1 + t * (d + 1)) for t in range(k // 2)]
    else:
        starts = [(n - t * (d + 1), t * (d + 1) - 1) for t in range(1, k // 2 + 1)]
    for r, c in starts:
        cells |= {(a, b) for a, b in ((r, c), (c, r)) if 0 <= a < n and 0 <= b < n}
    return k, sorted(cells)


def test_placements_beyond_the_reference_file():
    for n in range(3, 26):
        for k in range(13):
            for d in range(7):
                if n <= 21 and k <= 9 and d <= 4:
                    continue  # covered by trails_placements.jsonl
                board = GAME.new(size=n, towers=k, distance=d)
                assert (board.towers_count, list(board.tower_cells)) == _spec_layout(n, k, d), (n, k, d)
                assert all(r + c == n - 1 for r, c in board.tower_cells)


# -- §13 Setup -------------------------------------------------------------------------------------------


def test_setup_classic_layout_and_bases():
    board = GAME.new()
    assert board.options == {"size": 11, "towers": 3, "distance": 1}
    assert board.tower_cells == ((3, 7), (5, 5), (7, 3))
    view = board.view()
    assert view["cells"] == [
        "1..........", "...........", "...........", ".......T...", "...........", ".....T.....",
        "...........", "...T.......", "...........", "...........", "..........2",
    ]
    assert view["heads"] == [[0, 0], [10, 10]]
    assert view["dirs"] == ["left", "right"] and view["boost"] == [0, 0] and view["taken"] == [0, 0]
    assert view["towers_count"] == 3 and view["towers_needed"] == 2
    assert board.turn == 1 and board.outcome() is None and view["last_move"] is None


def test_setup_even_size_makes_k_even_and_anchors_at_corners():
    assert GAME.new(size=10, towers=3, distance=1).tower_cells == ((1, 8), (3, 6), (6, 3), (8, 1))
    assert GAME.new(size=10, towers=3, distance=1).towers_count == 4
    assert GAME.new(size=4, towers=3, distance=1).tower_cells == ((0, 3), (1, 2), (2, 1), (3, 0))
    assert GAME.new(size=6, towers=3, distance=1).tower_cells == ((1, 4), (2, 3), (3, 2), (4, 1))
    assert GAME.new(size=6, towers=3).towers_count == 4 and GAME.new(size=6, towers=4).towers_count == 4


def test_setup_odd_size_even_k_has_no_centre_tower():
    assert GAME.new(size=11, towers=2, distance=1).tower_cells == ((4, 6), (6, 4))
    d2 = GAME.new(size=11, towers=2, distance=2).tower_cells
    assert d2 == ((3, 7), (7, 3)) == GAME.new(size=11, towers=2, distance=3).tower_cells
    for k in (2, 4, 6):
        assert (5, 5) not in GAME.new(size=11, towers=k).tower_cells
    assert GAME.new(size=5, towers=3, distance=1).tower_cells == ((0, 4), (2, 2), (4, 0))
    assert GAME.new(size=7, towers=3, distance=1).tower_cells == ((1, 5), (3, 3), (5, 1))


def test_setup_towers_off_the_board_are_dropped_but_k_is_kept():
    small = GAME.new(size=3, towers=3, distance=1)
    assert small.tower_cells == ((1, 1),) and small.towers_count == 3
    assert small.view()["towers_needed"] is None  # 2 needed, 1 exists
    big = GAME.new(size=11, towers=7, distance=1)
    assert big.tower_cells == ((1, 9), (3, 7), (5, 5), (7, 3), (9, 1))
    assert big.towers_count == 7 and big.view()["towers_needed"] == 4


def test_setup_no_towers_and_small_sizes_refused():
    for d in range(7):
        board = GAME.new(size=11, towers=0, distance=d)
        assert board.tower_cells == () and "T" not in "".join(board.view()["cells"])
        assert board.view()["towers_needed"] is None
    for size in (0, 1, 2):
        with pytest.raises(ValueError, match="size"):
            GAME.new(size=size)


def test_setup_new_game_form_warnings():
    assert GAME.warnings({"size": 3, "towers": 3, "distance": 1}) == [
        "Only 1 of 3 towers fits on a 3x3 board, so nobody can win by towers."]
    assert GAME.warnings({"size": 11, "towers": 7, "distance": 1}) == ["5 of 7 towers fit; a tower win still needs 4."]
    assert GAME.warnings({}) == []
    assert GAME.warnings({"size": 10, "towers": 3}) == [
        "On an even board the tower count must be even, so 3 towers become 4."]
    assert GAME.warnings({"size": 3, "towers": 2, "distance": 2}) == [
        "None of the 2 towers fits on a 3x3 board, so nobody can win by towers."]
    assert GAME.warnings({"size": 4, "towers": 5, "distance": 1}) == [
        "On an even board the tower count must be even, so 5 towers become 6.",
        "4 of 6 towers fit; a tower win still needs 4."]
    assert GAME.warnings({"towers": 0}) == [
        "There are no towers, so nobody can win by towers: only getting stuck decides the game."]
    # a warning appears exactly when a tower win is impossible or some towers do not fit
    for n in (3, 4, 5, 8, 11, 25):
        for k in range(13):
            for d in (0, 1, 3, 6):
                board = GAME.new(size=n, towers=k, distance=d)
                short = len(board.tower_cells) < board.towers_count or board.towers_count == 0
                adjusted = board.towers_count != k
                assert len(GAME.warnings({"size": n, "towers": k, "distance": d})) == short + adjusted


# -- §13 Movement and the worked examples of §9 -------------------------------------------------------------


def test_e1_opening_moves():
    for n in (3, 7, 11, 25):
        board = GAME.new(size=n)
        assert board.legal_moves() == ["down", "right"]
        assert board.view()["legal"] == {"down": [[1, 0]], "right": [[0, 1]]}
        assert "edge" in refused(board, "up") and "edge" in refused(board, "left")
        board.push("right")
        assert board.view()["boost"] == [0, 0] and board.view()["heads"][0] == [0, 1]
        assert board.turn == 2 and board.legal_moves() == ["left", "up"]
        assert board.view()["legal"] == {"up": [[n - 2, n - 1]], "left": [[n - 1, n - 2]]}
        board.push("up")
        assert board.view()["boost"] == [0, 0] and board.view()["heads"][1] == [n - 2, n - 1]


def test_e2_boost_run_along_a_row():
    board = GAME.new()
    runs = []
    for red in ("up", "up", "up", "left"):
        board.push("right")
        v = board.view()
        runs.append((v["last_move"]["cells"], v["boost"][0]))
        board.push(red)
    assert runs == [
        ([[0, 1]], 0),
        ([[0, 2], [0, 3]], 1),
        ([[0, 4], [0, 5], [0, 6]], 2),
        ([[0, 7], [0, 8], [0, 9], [0, 10]], 3),
    ]
    assert board.view()["cells"][0] == "1" * 11
    assert board.legal_moves() == ["down"]
    assert "edge" in refused(board, "right")
    # a direction change moves exactly one cell, onto a free cell, and resets the boost
    board.push("down")
    v = board.view()
    assert v["last_move"]["cells"] == [[1, 10]] and v["boost"][0] == 0 and v["dirs"][0] == "down"


def test_e3_continuation_reaching_the_edge():
    rows = edit(EMPTY7, {(0, 1): "1", (0, 2): "1", (0, 3): "1"})
    board = position(rows, (0, 3), (6, 6), dirs=("right", "right"), boost=(1, 0))
    assert board.view()["legal"] == {"right": [[0, 4], [0, 5], [0, 6]], "down": [[1, 3]]}
    turned = board.copy()
    turned.push("down")
    assert turned.view()["cells"][1] == "...1.T." and turned.view()["boost"][0] == 0
    board.push("right")
    assert board.view()["cells"][0] == "1111111" and board.view()["boost"][0] == 2
    # after reaching the edge by continuing, a further continuation is illegal
    board.push("up")
    assert board.legal_moves() == ["down"]
    assert "edge" in refused(board, "right")


def test_e4_over_the_bound_with_a_free_edge_cell():
    rows = edit(EMPTY7, {(0, c): "1" for c in range(5)})
    board = position(rows, (0, 4), (6, 6), dirs=("right", "right"), boost=(1, 0))
    assert board.view()["legal"]["right"] == [[0, 5], [0, 6]]
    board.push("right")
    v = board.view()
    assert v["last_move"]["dest"] == [0, 6] and v["last_move"]["cells"] == [[0, 5], [0, 6]]
    assert v["boost"][0] == 2 and v["heads"][0] == [0, 6]


def test_over_the_bound_may_move_a_single_cell():
    rows = edit(EMPTY7, {(0, 1): "1", (1, 1): "1"})
    board = position(rows, (1, 1), (6, 6), dirs=("left", "right"), boost=(0, 0))
    assert board.view()["legal"]["left"] == [[1, 0]]
    board.push("left")
    v = board.view()
    assert v["last_move"]["cells"] == [[1, 0]] and v["boost"][0] == 1 and v["dirs"][0] == "left"


@pytest.mark.parametrize("edge", ["T", "2", "1"])
def test_e4_over_the_bound_onto_a_tower_or_occupied_edge_cell_is_illegal(edge):
    rows = edit(EMPTY7, {**{(0, c): "1" for c in range(5)}, (0, 6): edge})
    board = position(rows, (0, 4), (6, 6), dirs=("right", "right"), boost=(1, 0))
    assert board.legal_moves() == ["down"]
    reason = refused(board, "right")
    assert "edge" in reason
    if edge == "T":
        assert "tower" in reason


def test_e4_continuation_landing_exactly_on_an_edge_tower():
    rows = edit(EMPTY7, {(0, 1): "1", (0, 2): "1", (0, 3): "1", (0, 6): "T"})
    board = position(rows, (0, 3), (6, 6), dirs=("right", "right"), boost=(1, 0))
    assert board.view()["legal"]["right"] == [[0, 4], [0, 5], [0, 6]]  # the target tower is green
    board.push("right")
    v = board.view()
    assert v["last_move"]["tower_taken"] and v["taken"] == [1, 0] and v["cells"][0] == "1111111"


def test_e5_jumping_the_opponent_and_taking_a_tower():
    rows = ["1......", "1....T.", "1......", "12.T...", ".2.....", ".T.....", "......2"]
    board = position(rows, (3, 0), (4, 1), dirs=("right", "left"), boost=(1, 0))
    assert board.view()["legal"] == {"right": [[3, 2], [3, 3]], "down": [[4, 0]]}
    assert board.view()["green"] == [[3, 2], [3, 3], [4, 0]]
    assert "occupied" in refused(board, "up")
    board.push("right")
    v = board.view()
    assert v["cells"][3] == "1211..." and v["taken"] == [1, 0] and v["boost"][0] == 2
    assert board.turn == 2 and board.outcome() is None


def test_e6_a_jumped_tower_stays_and_can_be_taken_later():
    rows = ["1......", "1....T.", "1......", "11.T...", ".1.....", ".T.2...", "......2"]
    board = position(rows, (4, 1), (5, 3), dirs=("down", "left"), boost=(0, 0))
    assert board.view()["legal"]["down"] == [[6, 1]]  # the jumped tower is not green
    board.push("down")
    assert board.view()["cells"][5] == ".T.2..." and board.view()["cells"][6] == ".1....2"
    # Red takes the jumped tower by continuing left (distance 2)
    assert board.view()["legal"]["left"] == [[5, 1], [5, 2]]
    board.push("left")
    v = board.view()
    assert v["cells"][5] == ".222..." and v["taken"] == [0, 1] and v["last_move"]["tower_taken"]


def test_e7_adjacent_tower_needs_a_continuation():
    rows = ["11.....", ".1...T.", ".1.....", ".1T....", ".......", ".T.....", "......2"]
    board = position(rows, (3, 1), (6, 6), dirs=("down", "right"), boost=(0, 0))
    assert board.legal_moves() == ["down", "left"]
    assert "a tower can only be taken by continuing in the same direction" in refused(board, "right")
    assert board.view()["legal"]["down"] == [[4, 1], [5, 1]]
    board.push("down")
    assert board.view()["taken"] == [1, 0] and board.view()["cells"][5] == ".1....."


@pytest.mark.parametrize("owner", ["2", "1"])
def test_e8_continuation_blocked_by_occupied_target_has_no_fallback(owner):
    rows = edit(EMPTY7, {(0, 1): "1", (0, 3): owner})
    board = position(rows, (0, 1), (6, 6), dirs=("right", "right"), boost=(0, 0))
    assert board.legal_moves() == ["down"]  # (0,2) is free, but a continuation travels exactly 2 cells
    assert "the target cell is occupied" in refused(board, "right")


def test_continuation_claims_only_the_free_cells_between():
    rows = ["1......", "1......", "112T...", ".......", ".......", ".......", "......2"]
    board = position(rows, (2, 0), (6, 6), dirs=("right", "right"), boost=(3, 0), towers=0)
    assert board.view()["legal"]["right"] == [[2, 4], [2, 5]]
    board.push("right")
    v = board.view()
    assert v["cells"][2] == "112T11." and v["taken"] == [0, 0] and v["boost"][0] == 4
    assert v["last_move"]["cells"] == [[2, 4], [2, 5]] and not v["last_move"]["tower_taken"]


def test_direction_change_moves_one_cell_onto_a_free_cell_and_resets_boost():
    rows = edit(EMPTY7, {(0, c): "1" for c in range(4)})
    board = position(rows, (0, 3), (6, 6), dirs=("right", "right"), boost=(1, 0))
    board.push("down")
    v = board.view()
    assert v["last_move"]["cells"] == [[1, 3]] and v["boost"][0] == 0 and v["dirs"][0] == "down"
    assert "the target cell is occupied" in refused(position(rows, (0, 3), (6, 6), dirs=("down", "right")), "left")


def test_direction_change_toward_the_own_edge_is_illegal():
    rows = edit(EMPTY7, {(0, 1): "1", (0, 2): "1"})
    board = position(rows, (0, 2), (6, 6), dirs=("right", "right"))
    assert "up" not in board.legal_moves()
    assert "edge" in refused(board, "up")
    board = position(edit(EMPTY7, {(1, 0): "1", (2, 0): "1"}), (2, 0), (6, 6), dirs=("down", "right"))
    assert "left" not in board.legal_moves() and "edge" in refused(board, "left")


def test_at_most_three_legal_directions_and_the_cell_behind_is_never_free():
    # over every reference position (the property test below checks random games of every size, too)
    for ref in REFERENCE:
        n = ref["size"]
        for ply in ref["plies"]:
            assert 1 <= len(ply["legal"]) <= 3
            if ply["ply"] >= 2:
                p = ply["player"] - 1
                (r, c), (dr, dc) = ply["state"]["last"][p], DELTA[ply["state"]["dir"][p]]
                assert 0 <= r - dr < n and 0 <= c - dc < n and ply["board"][r - dr][c - dc] != "."
    board = GAME.new()
    assert len(board.legal_moves()) == 2


@pytest.mark.parametrize("move", ["north", "", "UP", "up ", None, 3, ["up"], b"up", 1.5])
def test_an_illegal_input_changes_nothing(move):
    board = play(GAME.new(), ["right", "up"])
    reason = refused(board, move)
    assert board.turn == 1
    if isinstance(move, str):
        assert "unknown move" in reason
    else:
        assert "direction" in reason
    assert "occupied" in refused(board, "left")  # an illegal direction, too


# -- §13 End of game -------------------------------------------------------------------------------------

TOWER_ROW = ["1......", "1....T.", "1......", "11.T...", ".......", ".T.....", "......2"]


def test_e9_tower_majority_two_of_three_wins_immediately():
    board = position(TOWER_ROW, (3, 1), (6, 6), dirs=("right", "right"), taken=(1, 0))
    board.push("right")
    assert board.outcome() == games.Outcome((1,), (2, 0), "towers")
    assert board.turn is None and board.legal_moves() == [] and board.view()["over"]


def test_tower_majority_three_of_four_and_two_of_two():
    rows = edit(GAME.new(size=8, towers=4).view()["cells"], {(4, 0): "1", (4, 1): "1"})
    assert rows[4] == "11.T...."
    board = position(rows, (4, 1), (7, 7), dirs=("right", "right"), taken=(2, 0), towers=4)
    board.push("right")
    assert board.outcome() == games.Outcome((1,), (3, 0), "towers")
    rows = edit(GAME.new(size=11, towers=2).view()["cells"], {(6, 2): "1"})
    board = position(rows, (6, 2), (10, 10), dirs=("right", "right"), taken=(1, 0), towers=2)
    board.push("right")
    assert board.outcome() == games.Outcome((1,), (2, 0), "towers")
    board = position(TOWER_ROW, (3, 1), (6, 6), dirs=("right", "right"), taken=(0, 1), turn=1)
    board.push("right")  # 1 of 3 is not a majority
    assert board.outcome() is None and board.turn == 2


def test_no_draw_even_split_two_two_of_four_goes_on():
    rows = edit(GAME.new(size=8, towers=4).view()["cells"], {(4, 0): "1", (4, 1): "1"})
    board = position(rows, (4, 1), (7, 7), dirs=("right", "right"), taken=(1, 2), towers=4)
    board.push("right")
    assert board.view()["taken"] == [2, 2] and board.outcome() is None and board.turn == 2


def test_e10_tower_majority_wins_even_if_the_mover_is_stuck():
    rows = edit(TOWER_ROW, {(2, 3): "2", (4, 3): "2", (3, 6): "2"})
    board = position(rows, (3, 1), (6, 6), dirs=("right", "right"), taken=(1, 0))
    board.push("right")
    assert board.outcome() == games.Outcome((1,), (2, 0), "towers")
    assert board._legal_mask(1) == 0  # Blue is stuck, yet wins


def test_e11_a_self_trapped_mover_loses_at_once():
    rows = edit(TOWER_ROW, {(2, 3): "2", (4, 3): "2", (3, 6): "2"})
    board = position(rows, (3, 1), (6, 6), dirs=("right", "right"), taken=(0, 0))
    board.push("right")
    assert board.outcome() == games.Outcome((2,), (1, 0), "trapped")
    assert board.turn is None and len(board.moves) == 1  # Red does not move again


def test_e12_trapping_the_opponent_wins_even_if_the_mover_is_stuck_too():
    rows = ["1......", "1....T.", "1......", "1..T...", "1......", "1T....2", "111...2"]
    board = position(rows, (6, 2), (6, 6), dirs=("right", "right"), boost=(1, 0))
    assert board.view()["legal"]["right"] == [[6, 3], [6, 4], [6, 5]]
    board.push("right")
    assert board.outcome() == games.Outcome((1,), (0, 0), "stuck")
    both = position(edit(rows, {(5, 5): "2"}), (6, 2), (6, 6), dirs=("right", "right"), boost=(1, 0))
    both.push("right")
    assert both._legal_mask(1) == 0
    assert both.outcome() == games.Outcome((1,), (0, 0), "stuck")


def test_result_text_counts_the_winners_own_moves():
    board = play(GAME.new(size=3), ["down", "left", "down"])  # both stuck: the mover, Blue, wins
    assert board.outcome() == games.Outcome((1,), (0, 0), "stuck")
    assert board.title() == "Blue wins in 2 moves!" and board.winner_moves() == 2
    board = play(GAME.new(size=3), ["down", "up", "down", "up", "right"])  # Blue traps itself
    assert board.outcome() == games.Outcome((2,), (0, 0), "trapped")
    assert board.title() == "Red wins in 2 moves!"
    assert board.view()["outcome"] == {"winners": [2], "scores": [0, 0], "reason": "trapped",
                                       "winner_moves": 2, "text": "Red wins in 2 moves!"}
    assert GAME.new().title() == "Trails and Towers"


def test_no_moves_are_accepted_after_the_end():
    board = play(GAME.new(size=3), ["down", "left", "down"])
    assert board.turn is None and board.legal_moves() == [] and board.view()["legal"] == {}
    for move in DIRECTIONS + ("north", None):
        assert refused(board, move) == "the game is over"
    assert board.pop() == "down" and board.turn == 1 and board.outcome() is None
    assert board.legal_moves() == ["down"]


def test_pop_at_the_start_raises_index_error():
    with pytest.raises(IndexError):
        GAME.new().pop()


# -- options, records, copies ----------------------------------------------------------------------------


def test_game_metadata():
    assert GAME.name == "trails" and GAME.title == "Trails and Towers" and GAME.seats == (2, 2)
    assert set(GAME.options) == {"size", "towers", "distance"}
    assert {k: (o.default, o.range) for k, o in GAME.options.items()} == {
        "size": (11, (3, 25)), "towers": (3, (0, 12)), "distance": (1, (0, 6))}
    assert GAME.summary and GAME.notes is not None
    board = GAME.new()
    assert isinstance(board, TrailsBoard) and board.players == 2 and board.game_name == "trails"
    json.dumps(GAME.to_dict())


@pytest.mark.parametrize("options, name", [
    ({"size": 2}, "size"), ({"size": 26}, "size"), ({"size": "11"}, "size"), ({"size": 11.0}, "size"),
    ({"size": True}, "size"), ({"size": None}, "size"),
    ({"towers": -1}, "towers"), ({"towers": 13}, "towers"), ({"towers": "3"}, "towers"),
    ({"distance": -1}, "distance"), ({"distance": 7}, "distance"), ({"distance": [1]}, "distance"),
    ({"colour": "blue"}, "colour"), ({"Size": 11}, "Size"),
])
def test_bad_options_raise_value_error_naming_the_option(options, name):
    with pytest.raises(ValueError, match=repr(name)):
        GAME.new(**options)
    with pytest.raises(ValueError, match=repr(name)):
        GAME.warnings(options)


def test_record_round_trip_and_corrupt_records():
    board = GAME.new(size=9, towers=2, distance=1)
    play(board, REFERENCE_MOVES_9x9)
    record = json.loads(json.dumps(board.to_dict()))
    assert record == {"game": "trails", "options": {"size": 9, "towers": 2, "distance": 1},
                      "moves": REFERENCE_MOVES_9x9}
    again = games.from_dict(record)
    assert snapshot(again) == snapshot(board)
    with pytest.raises(IllegalMove, match="move 2"):
        games.from_dict({"game": "trails", "options": {}, "moves": ["right", "down"]})
    with pytest.raises(IllegalMove, match="unknown move"):
        games.from_dict({"game": "trails", "options": {}, "moves": ["sideways"]})
    with pytest.raises(ValueError, match="'towers'"):
        games.from_dict({"game": "trails", "options": {"towers": 99}, "moves": []})


REFERENCE_MOVES_9x9 = next(
    [p["move"] for p in g["plies"]] for g in REFERENCE if g["size"] == 9)


def test_copy_is_independent():
    board = play(GAME.new(), ["right", "up", "right"])
    before = snapshot(board)
    twin = board.copy()
    assert snapshot(twin) == before
    twin.push(twin.legal_moves()[0])
    twin.push(twin.legal_moves()[-1])
    assert snapshot(board) == before
    board.pop()
    board.pop()
    assert twin.moves[:3] == ["right", "up", "right"] and len(twin.moves) == 5
    finished = play(GAME.new(size=3), ["down", "left", "down"])
    assert finished.copy().outcome() == finished.outcome()
    assert snapshot(finished.copy()) == snapshot(finished)


def test_view_is_json_ready():
    board = play(GAME.new(), ["right", "up"])
    view = board.view()
    assert json.loads(json.dumps(view)) == view
    assert view["last_move"] == {"player": 2, "move": "up", "dest": [9, 10], "cells": [[9, 10]],
                                 "tower_taken": False}
    assert board.claimed("down") == [(1, 1)] and board.claimed("right") == [(0, 2), (0, 3)]
    with pytest.raises(IllegalMove):
        board.claimed("up")


# -- property tests --------------------------------------------------------------------------------------

OPTIONS = st.fixed_dictionaries({
    "size": st.integers(3, 25), "towers": st.integers(0, 12), "distance": st.integers(0, 6)})
SMALL_OPTIONS = st.fixed_dictionaries({
    "size": st.integers(3, 12), "towers": st.integers(0, 12), "distance": st.integers(0, 6)})
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(options=SMALL_OPTIONS, rng=st.randoms(use_true_random=False))
def test_push_and_pop_are_exact_inverses(options, rng):
    board = GAME.new(**options)
    start = snapshot(board)
    while board.turn is not None:
        before = snapshot(board)
        for move in board.legal_moves():
            board.push(move)
            assert board.pop() == move
            assert snapshot(board) == before
        board.push(rng.choice(board.legal_moves()))
    while board.moves:
        board.pop()
    assert snapshot(board) == start


@PROPERTY
@given(options=OPTIONS, rng=st.randoms(use_true_random=False))
def test_random_games_end_without_a_draw(options, rng):
    board = GAME.new(**options)
    n = board.size
    for _ in range(n * n - 2):
        if board.turn is None:
            break
        board.push(rng.choice(board.legal_moves()))
    outcome = board.outcome()
    assert outcome is not None and board.turn is None
    assert len(outcome.winners) == 1 and outcome.winners[0] in (1, 2)
    assert outcome.reason in ("towers", "stuck", "trapped")
    assert outcome.scores == tuple(board.view()["taken"])
    assert len(board.moves) <= n * n - 2


@PROPERTY
@given(options=OPTIONS, rng=st.randoms(use_true_random=False))
def test_engine_agrees_with_the_rules_model(options, rng):
    """Legal cells, green = union of legal cells, every move's effect and the ending follow §5-§7."""
    board = GAME.new(**options)
    view = board.view()
    model = Model(view)
    while board.turn is not None:
        legal = view["legal"]
        assert legal == model.legal(board.turn)
        assert list(legal) == board.legal_moves() and 1 <= len(legal) <= 3
        assert view["green"] == [list(x) for x in sorted({tuple(x) for cells in legal.values() for x in cells})]
        if len(board.moves) >= 2:  # the player to move has moved: the cell it came from is never free
            r, c = view["heads"][board.turn - 1]
            dr, dc = DELTA[view["dirs"][board.turn - 1]]
            assert model.on(r - dr, c - dc) and view["cells"][r - dr][c - dc] != "."
        move = rng.choice(board.legal_moves())
        board.push(move)
        model.move(move)
        view = board.view()
        assert view["cells"] == ["".join(row) for row in model.grid]
        assert view["heads"] == [list(h) for h in model.last]
        assert (view["dirs"], view["boost"], view["taken"]) == (model.dir, model.boost, model.taken)
        assert board.turn == model.turn
    assert board.outcome() == games.Outcome((model.winner,), tuple(model.taken), model.reason)
