"""Unit tests of the Towers engine: the contract, the notation, every official rule and every alternative rule
(shared/rules/towers.md; section numbers refer to it), the view."""
from __future__ import annotations

import json

import pytest

import games
from games.base import IllegalMove
from games.towers import GAME, TowersBoard
from games.towers.core import (
    CANNOT_MOVE, CANNOT_SPLIT, GAME_OVER, IMPORT_LOCKED, IMPORT_NONE, IMPORT_NOT_FIRST, IMPORT_POINTS, MALFORMED,
    MASTER_ON_TOWER, NO_MASTER_WIN, NOT_OWNER, NOT_STRAIGHT, OFF_BOARD, PATH_NOT_FREE, RAISE_BY_ONE,
    SOURCE_LOCKED, TARGET_LOCKED, TOO_MANY_PAWNS, WRONG_POINTS,
)

TOWERS = games.get("towers")


def position(diagram: str, *, rules=(), reserve=(3, 3), current=1, mp=None, locked=()) -> TowersBoard:
    """A board from a diagram as in towers_cases.md: rows top first, `.` empty, `+h`/`-h`, suffix `M`."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    board, masters = [], [None, None]
    for y, row in enumerate(rows):
        line = []
        for x, tok in enumerate(row):
            if tok == ".":
                line.append(0)
                continue
            v = int(tok.rstrip("M"))
            if tok.endswith("M"):
                masters[0 if v > 0 else 1] = (x, y)
            line.append(v)
        board.append(line)
    return TowersBoard.from_position(len(rows), rules, board=board, masters=masters, reserve=reserve,
                                     current=current, move_points=mp, locked=locked)


def refused(board, move, reason):
    before = (board.state(), board.moves, board.legal_moves(), board.view())
    with pytest.raises(IllegalMove) as exc:
        board.push(move)
    assert exc.value.reason == reason, (move, exc.value.reason)
    assert move not in board.legal_moves()
    assert (board.state(), board.moves, board.legal_moves(), board.view()) == before
    return exc.value


def legal(board, move, cost=None):
    assert move in board.legal_moves(), move
    if cost is not None:
        assert board.validate(move) == cost


# ------------------------------------------------------------------------------------------------ contract

class TestContract:
    def test_game(self):
        assert "towers" in games.names()
        assert GAME is TOWERS
        assert TOWERS.name == "towers" and TOWERS.title == "Towers" and TOWERS.seats == (2, 2)
        assert set(TOWERS.options) == {"size", "rules"}
        assert TOWERS.options["size"].form == (5, 10)
        assert TOWERS.options["rules"].kind == "list"
        assert 2 <= TOWERS.summary.count(". ") + 1 <= 5
        json.dumps(TOWERS.to_dict())

    def test_defaults(self):
        b = TOWERS.new()
        assert b.options == {"size": 6, "rules": []}
        assert b.players == 2 and b.game_name == "towers" and b.turn == 1 and b.moves == []

    @pytest.mark.parametrize("size", [4, 3, 0, -1, 33, "6", 6.0, True, None])
    def test_bad_size(self, size):
        with pytest.raises(ValueError, match="size"):
            TOWERS.new(size=size)

    @pytest.mark.parametrize("size", [5, 10, 11, 15, 32])
    def test_any_size_the_rules_allow(self, size):
        b = TOWERS.new(size=size)
        assert b.size == size and b.reserve == (size - 4, size - 4)
        b.push(b.legal_moves()[-1])

    @pytest.mark.parametrize("rules", [["no-such-rule"], ["tower-out", "tower-out"], "tower-out", [1]])
    def test_bad_rules(self, rules):
        with pytest.raises(ValueError, match="rules"):
            TOWERS.new(rules=rules)

    def test_unknown_option(self):
        with pytest.raises(ValueError, match="colour"):
            TOWERS.new(colour="red")
        with pytest.raises(ValueError):
            TowersBoard({"size": 6, "colour": 1})

    def test_rules_normalised(self):
        b = TOWERS.new(rules=["no-master-win", "tower-out"])
        assert b.options["rules"] == ["no-master-win", "tower-out"]
        assert TOWERS.warnings({"size": 12, "rules": ["no-master-win"]})

    @pytest.mark.parametrize("move", [None, 5, ["end"], b"end", "", "END", " end", "end ", "pass", "resign",
                                      "m1,4>1,3", "m1,4>1,3:", "m1,4-1,3:1", "m01,4>1,3:1", "m1,4>1,3:01",
                                      "m-1,4>1,3:1", "i", "i01", "i-1", "i1.0", "m1, 4>1,3:1"])
    def test_malformed(self, move):
        b = TOWERS.new()
        refused(b, move, MALFORMED)

    @pytest.mark.parametrize("move", ["m6,4>6,3:1", "m1,4>1,6:1", "m1,6>1,5:1", "m99,4>1,3:1"])
    def test_off_board(self, move):
        exc = refused(TOWERS.new(size=6), move, OFF_BOARD)
        assert "6x6" in exc.detail

    def test_reasons_have_explanations(self):
        exc = refused(TOWERS.new(), "m0,4>0,1:1", WRONG_POINTS)
        assert "costs 3" in exc.detail and "2 left" in exc.detail
        assert isinstance(exc, IllegalMove) and exc.reason == str(exc)

    def test_push_pop_moves_copy(self):
        b = TOWERS.new()
        b.push("m0,4>0,3:1")
        c = b.copy()
        c.push("m0,3>0,2:1")
        assert b.moves == ["m0,4>0,3:1"] and c.moves == ["m0,4>0,3:1", "m0,3>0,2:1"]
        assert c.turn == 2 and b.turn == 1
        assert c.pop() == "m0,3>0,2:1"
        assert c.state() == b.state() and c.view() == b.view()
        assert b.pop() == "m0,4>0,3:1"
        assert b.state() == TOWERS.new().state()
        with pytest.raises(IndexError):
            b.pop()

    def test_to_dict_from_dict(self):
        b = TOWERS.new(size=7, rules=["tower-out"])
        for m in ["m0,5>0,4:1", "m0,4>0,3:1", "end", "m6,1>6,2:1"]:
            b.push(m)
        d = b.to_dict()
        assert d == {"game": "towers", "options": {"size": 7, "rules": ["tower-out"]},
                     "moves": ["m0,5>0,4:1", "m0,4>0,3:1", "end", "m6,1>6,2:1"]}
        again = games.from_dict(json.loads(json.dumps(d)))
        assert again.state() == b.state() and again.view() == b.view()
        d["moves"].append("m0,0>0,1:5")
        with pytest.raises(IllegalMove, match="move 5"):
            games.from_dict(d)

    def test_legal_moves_sorted_and_fresh(self):
        b = TOWERS.new()
        lm = b.legal_moves()
        assert lm == sorted(lm) and "end" in lm
        lm.clear()
        assert b.legal_moves()

    def test_notation_examples(self):
        b = TOWERS.new(size=6)
        assert "m3,4>3,3:1" in b.legal_moves()
        b = TOWERS.new(size=6, rules=["no-first-lock-master"])
        assert {"i1", "i2"} <= set(b.legal_moves()) and "i3" not in b.legal_moves()


# ------------------------------------------------------------------------------------------------ setup (§2)

class TestSetup:
    @pytest.mark.parametrize("n,m1,m2", [(5, (2, 4), (2, 0)), (6, (3, 5), (2, 0)), (7, (3, 6), (3, 0)),
                                         (8, (4, 7), (3, 0)), (9, (4, 8), (4, 0)), (10, (5, 9), (4, 0))])
    def test_initial(self, n, m1, m2):
        b = TOWERS.new(size=n)
        s = b.state()
        for y in range(n):
            assert s["board"][y] == [-1 if y < 2 else 1 if y >= n - 2 else 0] * n
        assert b.master_cell(1) == m1 and b.master_cell(2) == m2
        assert s["reserve"] == [n - 4, n - 4] and s["current"] == 1 and s["move_points"] == n - 4
        assert b.turn == 1 and b.locked_cells() == [m1]  # the first-ply lock of P1's master

    @pytest.mark.parametrize("n", range(5, 11))
    def test_master_at_corner(self, n):
        b = TOWERS.new(size=n, rules=["master-at-corner"])
        assert b.master_cell(1) == (n - 1, n - 1) and b.master_cell(2) == (0, 0)
        assert b.locked_cells() == [(n - 1, n - 1)]

    def test_first_ply_master_lock(self):
        b = TOWERS.new(size=5)
        refused(b, "i1", IMPORT_LOCKED)
        refused(b, "m2,4>2,3:1", SOURCE_LOCKED)
        refused(b, "m2,3>2,4:1", TARGET_LOCKED)
        refused(b, "m1,4>2,4:1", TARGET_LOCKED)
        legal(b, "m2,3>2,2:1", 1)
        b.push("end")
        # Player 2's first turn has no lock; nor has Player 1's second
        assert b.locked_cells() == []
        legal(b, "i1", 1)
        b.push("end")
        assert b.locked_cells() == []
        legal(b, "i1")
        legal(b, "m2,4>2,3:1")

    def test_no_first_lock_master(self):
        b = TOWERS.new(size=5, rules=["no-first-lock-master"])
        assert b.locked_cells() == []
        legal(b, "i1", 1)
        legal(b, "m2,4>2,3:1", 1)
        legal(b, "m2,3>2,4:1", 1)


# ------------------------------------------------------------------------------------------------ moves (§4.1)

class TestMoves:
    def test_straight_line_and_cost(self):
        b = TOWERS.new(size=6)
        legal(b, "m0,4>0,2:1", 2)
        refused(b, "m0,4>0,1:1", WRONG_POINTS)
        refused(b, "m0,4>1,3:1", NOT_STRAIGHT)
        refused(b, "m0,4>0,4:1", NOT_STRAIGHT)
        refused(b, "m1,1>1,2:1", NOT_OWNER)
        refused(b, "m0,2>0,3:1", NOT_OWNER)     # an empty source
        refused(b, "m0,4>0,3:0", WRONG_POINTS)  # k = 0 costs 0

    def test_path_must_be_free_own_pieces_block(self):
        b = TOWERS.new(size=6)
        refused(b, "m0,5>0,3:1", PATH_NOT_FREE)
        b = position("""
            .   .   -1M .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            +1  .   -1  .   .   .
            .   .   .   .   .   .
            +1  .   .   +1M .   .""", reserve=(5, 2))
        refused(b, "m0,5>0,2:1", PATH_NOT_FREE)
        refused(b, "m0,3>3,3:1", PATH_NOT_FREE)
        legal(b, "m0,3>2,3:1", 2)  # attack at distance

    def test_k_larger_than_height_refused(self):
        b = TOWERS.new(size=6)
        exc = refused(b, "m0,4>0,3:2", TOO_MANY_PAWNS)
        assert "holds 1 pawn" in exc.detail

    def test_l_move_is_two_actions(self):
        b = TOWERS.new(size=6)
        b.push("m0,4>0,3:1")
        assert b.locked_cells() == [(3, 5)]  # moving onto an empty cell does not lock
        b.push("m0,3>1,3:1")
        assert b.moves == ["m0,4>0,3:1", "m0,3>1,3:1"] and b.turn == 2
        assert b.cell(1, 3) == 1 and b.cell(0, 4) == 0

    def test_raise_single_pawn_only_and_lock(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   +2  +1  +1  .   .   .
            .   .   .   +1M .   .   .""", reserve=(5, 3))
        refused(b, "m1,5>2,5:2", RAISE_BY_ONE)
        legal(b, "m1,5>1,4:2", 2)
        b.push("m2,5>1,5:1")
        assert b.cell(1, 5) == 3 and (1, 5) in b.locked_cells()
        refused(b, "m1,5>1,4:3", SOURCE_LOCKED)   # a raised tower cannot move
        refused(b, "m3,5>1,5:1", TARGET_LOCKED)   # nor be raised again
        refused(b, "m1,5>1,4:1", SOURCE_LOCKED)   # nor be split

    def test_tower_cost_is_height_per_cell(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   +2  .   .   .   .   .
            .   .   .   +1M .   .   .""", reserve=(4, 3))
        legal(b, "m1,5>1,3:2", 4)
        refused(b, "m1,5>1,2:2", WRONG_POINTS)
        refused(b, "m1,5>1,4:1", CANNOT_SPLIT)

    def test_attack(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   -1  -2  -3  .   .   .
            .   +1  +2  +2  .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   +1M .   .   .""", reserve=(5, 3))
        legal(b, "m1,3>1,2:1", 1)
        legal(b, "m2,3>2,2:2", 2)           # equal heights
        refused(b, "m3,3>3,2:2", CANNOT_MOVE)  # onto a taller tower
        b.push("m2,3>2,2:2")
        assert b.cell(2, 2) == 2 and (2, 2) in b.locked_cells()  # defenders gone, attacker keeps its height
        assert b.reserve == (5, 3)
        refused(b, "m2,2>2,1:2", SOURCE_LOCKED)  # an attacking tower cannot continue
        b.push("end")
        assert b.reserve == (5, 3)  # destroyed pawns go nowhere

    def test_master_onto_single_pawn_only(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   +2  +1  .   .   .
            .   .   +2  +1M +1  .   .""")
        legal(b, "m3,6>3,5:1", 1)
        refused(b, "m3,6>2,6:1", MASTER_ON_TOWER)
        b.push("m3,6>3,5:1")
        assert b.master_cell(1) == (3, 5) and b.cell(3, 5) == 2 and (3, 5) in b.locked_cells()
        refused(b, "i1", IMPORT_LOCKED)
        b.push("end")
        assert b.cell(3, 5) == 1 and b.reserve == (4, 3)  # export

    def test_pawn_onto_master_raises_and_locks(self):
        b = position("""
            .   .   -1M .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   +1  .   .
            .   .   .   +1M .   .""", reserve=(3, 2))
        b.push("m3,4>3,5:1")
        assert b.cell(3, 5) == 2 and b.locked_cells() == [(3, 5)]
        refused(b, "i1", IMPORT_LOCKED)
        refused(b, "m3,5>2,5:2", SOURCE_LOCKED)
        refused(b, "m3,5>2,5:1", SOURCE_LOCKED)
        b.push("end")
        assert b.reserve == (4, 2) and b.cell(3, 5) == 1 and b.turn == 2 and b.move_points == 2


# ------------------------------------------------------------------------------------------------ import, master

class TestImportAndMaster:
    def test_import(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   +1M .   .   .""", reserve=(3, 3))
        assert [m for m in b.legal_moves() if m[0] == "i"] == ["i1", "i2", "i3"]
        refused(b, "i4", IMPORT_POINTS)
        refused(b, "i0", IMPORT_NONE)
        b.push("i1")
        assert b.cell(3, 6) == 2 and b.reserve == (2, 3) and b.move_points == 2 and b.locked_cells() == []
        legal(b, "m3,6>3,5:2", 2)
        b.push("m3,6>3,5:1")  # master-out: the pawn stays on the board
        assert b.cell(3, 6) == 1 and b.cell(3, 5) == 1 and b.locked_cells() == []
        refused(b, "m3,6>3,4:1", WRONG_POINTS)
        b.push("i1")  # the last point: the turn ends by itself and the useless import is exported back
        assert b.turn == 2 and b.reserve == (2, 3) and b.cell(3, 6) == 1

    def test_master_out_then_pawn_keeps_moving(self):
        b = position("""
            .   .   .   .   -1M .   .   .
            .   .   .   .   .   .   .   .
            .   .   .   .   .   .   .   .
            .   .   .   .   .   .   .   .
            .   .   .   .   .   .   .   .
            .   .   .   .   .   .   .   .
            .   .   .   .   +2  .   .   .
            .   .   .   +1  +1M .   -1  .""", reserve=(6, 4))
        b.push("i3")
        legal(b, "m4,7>4,6:1", 1)                    # onto an own tower (raise by 1)
        refused(b, "m4,7>3,7:2", RAISE_BY_ONE)       # 2 pawns onto an own pawn
        legal(b, "m4,7>5,7:2", 2)                    # 2 pawns onto an empty cell
        legal(b, "m4,7>6,7:1", 2)                    # 1 pawn attacks an enemy pawn
        refused(b, "m4,7>4,6:4", WRONG_POINTS)
        b.push("m4,7>5,7:1")
        assert (5, 7) not in b.locked_cells() and b.cell(4, 7) == 3
        legal(b, "m5,7>5,6:1", 1)                    # the pawn out is free to go on
        legal(b, "i1")                               # splitting does not lock the master
        b.push("m5,7>5,6:1")
        b.push("end")
        assert b.reserve == (3 + 2, 4)               # 3 imported, 1 left: 2 exported back

    def test_master_tower_attack_captures(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   -2  .   .   .
            .   .   .   +1M .   .   .""", reserve=(4, 3))
        refused(b, "m3,6>3,5:1", CANNOT_MOVE)
        b.push("i1")
        b.push("m3,6>3,5:2")
        assert b.cell(3, 5) == 4 and b.master_cell(1) == (3, 5) and (3, 5) in b.locked_cells()
        refused(b, "i1", IMPORT_LOCKED)
        b.push("end")
        assert b.reserve == (6, 3) and b.cell(3, 5) == 1

    def test_master_height_one_captures_pawn(self):
        b = position("""
            .   .   -1M .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   -1  .   .
            .   .   .   +1M .   .""", reserve=(2, 2))
        b.push("m3,5>3,4:1")
        assert b.cell(3, 4) == 2
        b.push("end")
        assert b.reserve == (3, 2)

    def test_export_only_for_the_ending_player(self):
        b = position("""
            .   .   -3M .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   +1  .   .
            .   .   .   +1M .   .""", reserve=(2, 2))
        b.push("m3,4>3,5:1")
        b.push("end")
        assert b.cell(2, 0) == -3 and b.reserve == (3, 2) and b.move_points == 2


# ------------------------------------------------------------------------------------------------ turns, end

class TestTurnsAndEnd:
    def test_automatic_end_of_turn(self):
        b = TOWERS.new(size=6)
        b.push("m0,4>0,3:1")
        assert b.turn == 1 and b.turn_moves() == ["m0,4>0,3:1"]
        b.push("m1,4>1,3:1")
        assert b.turn == 2 and b.move_points == 2 and b.locked_cells() == [] and b.turn_moves() == []
        assert "end" not in b.moves and b.plies() == [["m0,4>0,3:1", "m1,4>1,3:1"], []]
        # pop takes back the action together with the automatic end of turn
        assert b.pop() == "m1,4>1,3:1"
        assert b.turn == 1 and b.move_points == 1 and b.locked_cells() == [(3, 5)]

    def test_end_with_points_left_is_recorded(self):
        b = TOWERS.new(size=7)
        b.push("m0,5>1,5:1")
        b.push("end")
        assert b.plies() == [["m0,5>1,5:1", "end"], []] and b.turn == 2 and b.move_points == 3

    def test_in_turn_undo(self):
        b = TOWERS.new(size=7)
        b.push("m0,5>0,4:1")
        b.push("end")
        b.push("m0,1>0,2:1")
        v = b.view()
        assert v["turn_moves"] == ["m0,1>0,2:1"] and v["can_undo"] and v["previous_turn"] == ["m0,5>0,4:1", "end"]
        b.pop()
        assert b.view()["turn_moves"] == [] and not b.view()["can_undo"]

    def test_draw_after_four_passes(self):
        b = TOWERS.new(size=5)
        for i in range(3):
            assert not b.end_draws()
            b.push("end")
            assert b.outcome() is None
        assert b.end_draws() and b.view()["legal"]["end_draws"]
        b.push("end")
        assert b.turn is None and b.outcome() == ((), (0, 0), "draw-passes")
        assert b.state()["winner"] == "draw" and b.state()["current"] == 1  # the turn was switched
        assert b.legal_moves() == []
        refused(b, "end", GAME_OVER)
        assert b.pop() == "end" and b.turn == 2 and b.outcome() is None

    def test_import_then_end_is_not_a_pass(self):
        b = TOWERS.new(size=5, rules=["no-first-lock-master"])
        for _ in range(3):
            b.push("end")
        b.push("i1")  # uses the last point: the turn ends by itself
        assert b.turn == 1 and b.outcome() is None and b.reserve == (1, 1)
        for _ in range(3):
            b.push("end")
        assert b.outcome() is None
        b.push("end")
        assert b.outcome().reason == "draw-passes"

    def test_a_turn_whose_actions_were_undone_is_a_pass(self):
        b = TOWERS.new(size=6)
        for _ in range(3):
            b.push("end")
        b.push("m0,1>0,2:1")
        assert not b.end_draws()
        b.pop()
        assert b.end_draws()
        b.push("end")
        assert b.outcome().reason == "draw-passes"

    def test_pass_count_resets(self):
        b = TOWERS.new(size=7)
        for m in ["end", "end", "end", "m0,1>0,2:1", "end", "end", "end", "end"]:
            assert b.outcome() is None
            b.push(m)
        assert b.outcome() is None  # passes: 3, then a move ended with `end`, then 3 passes
        b.push("end")
        assert b.outcome().reason == "draw-passes"

    def test_win_by_pawn(self):
        b = position("""
            .   .   -1M .   .   .
            .   .   +1  .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   +1M .   .""", reserve=(2, 2))
        b.push("m2,1>2,0:1")
        assert b.turn is None and b.outcome() == ((1,), (1, 0), "master-captured")
        s = b.state()
        assert s["winner"] == 1 and s["current"] == 1 and s["move_points"] == 1 and s["locked"] == [[2, 0]]
        assert b.cell(2, 0) == 1 and b.master_cell(2) is None
        assert b.legal_moves() == [] and b.view()["over"] and not b.view()["legal"]["sources"]
        for m in ["m3,5>3,4:1", "end", "i1"]:
            refused(b, m, GAME_OVER)

    def test_win_by_master_tower_no_export(self):
        b = position("""
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   -1M .   .   .
            .   .   .   .   .   .
            .   .   +1M .   .   .""", reserve=(5, 2))
        b.push("i1")
        b.push("m2,5>2,3:2")
        assert b.outcome().winners == (1,) and b.cell(2, 3) == 3 and b.reserve == (4, 2)
        assert b.master_cell(1) == (2, 3) and b.move_points == 0

    def test_win_by_player_two(self):
        b = position("""
            .   .   -1M .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   -2  .   .
            .   .   .   +1M .   .""", reserve=(2, 2), current=2)
        b.push("m3,4>3,5:2")
        assert b.outcome() == ((2,), (0, 1), "master-captured")

    def test_resign_is_not_an_engine_move(self):
        refused(TOWERS.new(), "resign", MALFORMED)


# ------------------------------------------------------------------------------------------------ alternative rules

class TestAlternativeRules:
    TALL = """
        .   .   .   -1M .   .   .
        .   .   .   .   .   .   .
        .   .   .   .   .   .   .
        .   .   .   .   .   .   .
        .   .   .   +3  .   .   .
        .   .   .   .   .   .   .
        .   .   .   +1M .   .   ."""

    def test_official_towers_cannot_split(self):
        b = position(self.TALL)
        refused(b, "m3,4>3,3:1", CANNOT_SPLIT)
        refused(b, "m3,4>3,3:2", CANNOT_SPLIT)
        legal(b, "m3,4>3,3:3", 3)

    def test_tower_out(self):
        b = position(self.TALL, rules=["tower-out"])
        b.push("m3,4>3,3:1")
        assert b.cell(3, 4) == 2 and b.locked_cells() == []
        legal(b, "m3,4>3,5:2", 2)
        b.push("m3,4>2,4:1")
        assert b.cell(3, 4) == 1 and b.cell(2, 4) == 1 and b.move_points == 1

    def test_tower_out_split_raises_only_one(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   +1  +3  -2  .   .
            .   .   .   .   .   .   .
            .   .   .   +1M .   .   .""", rules=["tower-out"])
        legal(b, "m3,4>2,4:1", 1)
        refused(b, "m3,4>2,4:2", RAISE_BY_ONE)
        legal(b, "m3,4>4,4:2", 2)
        refused(b, "m3,4>4,4:1", CANNOT_MOVE)

    def test_tower_out_with_lock_split_tower(self):
        b = position(self.TALL, rules=["tower-out", "lock-split-tower"])
        b.push("m3,4>3,3:1")
        assert b.locked_cells() == [(3, 4)]
        refused(b, "m3,4>2,4:1", SOURCE_LOCKED)
        legal(b, "m3,3>3,2:1", 1)

    def test_lock_split_tower_master_out_locks_master(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   +1M .   .   .""", rules=["lock-split-tower"], reserve=(4, 3))
        b.push("i2")
        b.push("m3,6>3,5:1")
        assert b.locked_cells() == [(3, 6)]
        refused(b, "i1", IMPORT_LOCKED)
        refused(b, "m3,6>2,6:1", SOURCE_LOCKED)
        refused(b, "m3,6>2,6:2", WRONG_POINTS)

    def test_lock_split_tower_no_effect_without_split(self):
        b = TOWERS.new(size=6, rules=["lock-split-tower"])
        b.push("m0,4>0,3:1")
        assert b.locked_cells() == [(3, 5)]

    def test_lock_after_move(self):
        b = TOWERS.new(size=6, rules=["lock-after-move"])
        b.push("m0,4>0,3:1")
        assert b.locked_cells() == [(0, 3), (3, 5)]
        refused(b, "m0,3>1,3:1", SOURCE_LOCKED)
        refused(b, "m0,3>0,2:1", SOURCE_LOCKED)
        legal(b, "m1,4>1,3:1", 1)

    def test_lock_after_move_master_imports_first(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   +1M .   .   .""", rules=["lock-after-move"], reserve=(4, 3))
        b.push("m3,6>3,5:1")
        refused(b, "i1", IMPORT_LOCKED)

    def test_import_first(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   +1  .   .   .   .   .
            .   .   .   +1M .   .   .""", rules=["import-first"], reserve=(4, 3))
        b.push("i1")
        b.push("i1")
        b.push("m1,5>1,4:1")
        refused(b, "i1", IMPORT_NOT_FIRST)
        assert not any(m.startswith("i") for m in b.legal_moves())
        b.pop()
        legal(b, "i1")
        # without the rule an import may come after a move
        c = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   +1  .   .   .   .   .
            .   .   .   +1M .   .   .""", reserve=(4, 3))
        c.push("m1,5>1,4:1")
        legal(c, "i1")

    def test_import_first_applies_each_turn(self):
        b = TOWERS.new(size=6, rules=["import-first", "no-first-lock-master"])
        b.push("m0,4>0,3:1")
        refused(b, "i1", IMPORT_NOT_FIRST)
        b.push("end")
        legal(b, "i1")

    MASTERS_FACE = """
        .   .   .   .   .   .
        .   .   .   .   .   .
        .   .   .   .   .   .
        .   .   -1M .   .   .
        .   .   .   .   .   .
        .   .   +1M .   .   ."""

    def test_master_takes_master_official(self):
        b = position(self.MASTERS_FACE, reserve=(2, 2))
        legal(b, "m2,5>2,3:1", 2)
        b.push("m2,5>2,3:1")
        assert b.outcome().winners == (1,) and b.cell(2, 3) == 2 and b.master_cell(1) == (2, 3)

    def test_no_master_win(self):
        b = position(self.MASTERS_FACE, rules=["no-master-win"], reserve=(5, 2))
        refused(b, "m2,5>2,3:1", NO_MASTER_WIN)
        # a pawn split from the master tower may take the master: only the whole master tower may not
        b.push("i1")
        refused(b, "m2,5>2,3:2", NO_MASTER_WIN)
        legal(b, "m2,5>2,3:1", 2)
        b.push("m2,5>2,3:1")
        assert b.outcome().winners == (1,)

    def test_no_master_win_ordinary_pawn_may_win(self):
        b = position("""
            .   .   -1M .   .   .
            .   .   +1  .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   +1M .   .""", rules=["no-master-win"], reserve=(2, 2))
        b.push("m2,1>2,0:1")
        assert b.outcome().winners == (1,)

    def test_no_master_win_other_captures_by_master_stay_legal(self):
        b = position("""
            .   .   -1M .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   -1  .   .
            .   .   .   +1M .   .""", rules=["no-master-win"], reserve=(2, 2))
        legal(b, "m3,5>3,4:1", 1)


# ------------------------------------------------------------------------------------------------ danger, view

class TestDangerAndView:
    def danger_board(self, p1_reserve):
        # towers.md §15 row 18, verified on the original engine
        return position("""
            .   .   .   -1M .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   .   .   .   .   .
            .   -2  .   +1M .   .""", reserve=(p1_reserve, 2), current=2, mp=2)

    def test_master_in_danger(self):
        assert not self.danger_board(4).master_attacked(2)
        assert self.danger_board(5).master_attacked(2)
        assert not self.danger_board(5).master_attacked(1)
        v = self.danger_board(5).view()
        assert v["master_in_danger"] == [False, True]
        assert [t["danger"] for t in v["towers"] if t["master"] and t["owner"] == 2] == [True]

    def test_view_shape(self):
        b = TOWERS.new(size=6)
        b.push("m0,4>0,3:1")
        v = b.view()
        json.dumps(v)
        assert v["game"] == "towers" and v["size"] == 6 and v["turn"] == 1 and v["current"] == 1
        assert v["move_points"] == 1 and v["points"] == [{"unused": 1, "used": 1}, {"unused": 2, "used": 0}]
        assert v["reserve"] == [2, 2] and v["locked"] == [[3, 5]] and v["masters"] == [[3, 5], [2, 0]]
        assert v["turn_moves"] == ["m0,4>0,3:1"] and v["can_undo"]
        assert v["board"] == b.state()["board"]
        cells = {(t["x"], t["y"]): t for t in v["towers"]}
        assert cells[(3, 5)] == {"x": 3, "y": 5, "owner": 1, "height": 1, "master": True, "locked": True,
                                 "danger": False}
        assert len(cells) == 24
        lg = v["legal"]
        assert lg["can_end"] and not lg["can_import"] and lg["imports"] == [] and not lg["end_draws"]
        # every legal move appears exactly once in the grouped form, and nothing else does
        grouped = [m for s in lg["sources"] for t in s["targets"] for m in t["moves"]]
        assert sorted(grouped) == [m for m in b.legal_moves() if m != "end"]
        for s in lg["sources"]:
            for t in s["targets"]:
                x1, y1 = s["from"]
                x2, y2 = t["to"]
                assert t["moves"] == [f"m{x1},{y1}>{x2},{y2}:{k}" for k in t["counts"]]
                assert t["costs"] == [k * t["distance"] for k in t["counts"]]
                assert t["whole"] == (s["height"] in t["counts"])

    def test_view_split_counts(self):
        b = position("""
            .   .   .   -1M .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   .   .   .   .
            .   .   .   +3M .   .   .""", reserve=(4, 3))
        src = next(s for s in b.view()["legal"]["sources"] if s["from"] == [3, 6])
        up = next(t for t in src["targets"] if t["to"] == [3, 5])
        assert src["height"] == 3 and up["counts"] == [1, 2, 3] and up["whole"]
        far = next(t for t in src["targets"] if t["to"] == [3, 3])
        assert far["counts"] == [1] and not far["whole"]
        assert b.view()["legal"]["imports"] == ["i1", "i2", "i3", "i4"]

    def test_view_after_game_over(self):
        b = TOWERS.new(size=5)
        for _ in range(4):
            b.push("end")
        v = b.view()
        assert v["over"] and v["turn"] is None and v["winner"] == "draw"
        assert v["outcome"] == {"winners": [], "scores": [0, 0], "reason": "draw-passes"}
        assert v["legal"] == {"sources": [], "imports": [], "can_import": False, "can_end": False,
                              "end_draws": False}
        assert not v["can_undo"]

    def test_text(self):
        assert TOWERS.new(size=5).text().splitlines()[-1] == "+1  +1  <+1M>+1  +1"
