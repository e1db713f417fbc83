"""Lattice Checkers: the edge cases of rules/lattice.md §11, the contract (options, errors, pop, records,
view) and the notation, one named test each."""
from __future__ import annotations

import json

import pytest

import games
from games import IllegalMove
from games.lattice import GAME, lattice

SIZES = ("222", "322", "223", "323", "333")


def new(pos="", first=1, size="222", **options):
    return games.get("lattice").new(size=size, first=first, start=pos, **options)


def state(board):
    return (board.turn, board.pos(), board.legal_moves(), board.moves, board.outcome(), board.pending_return,
            board.extra_turn, board.passed, json.dumps(board.view(), sort_keys=True))


# ---------------------------------------------------------------- 1. geometry

@pytest.mark.parametrize("size,count", [("222", 32), ("322", 48), ("223", 48), ("323", 72), ("333", 108)])
def test_node_count_and_parity(size, count):
    lat = lattice(size)
    assert len(lat.nodes) == count
    for n in lat.nodes:
        j, i, l = lat.coords[n]
        assert (i + j + l) % 2 == 0
        assert lat.label[n] == chr(65 + j) + chr(97 + i) + str(l + 1)
        assert lat.node(lat.label[n]) == n
    assert all(len(level) == 2 * lat.dims[0] * lat.dims[1] for level in lat.level_nodes)


def test_the_8_neighbours_of_an_interior_node_in_scan_order():
    lat = lattice("333")
    n = lat.node("Cc3")
    assert [lat.label[m] for m in lat.neighbours[n]] == [
        "Dc4", "Bc4", "Cd4", "Cb4", "Dc2", "Bc2", "Cd2", "Cb2"]


@pytest.mark.parametrize("size", SIZES)
def test_neighbours_change_level_and_are_symmetric(size):
    lat = lattice(size)
    for n in lat.nodes:
        for m in lat.neighbours[n]:
            if m is None:
                continue
            (j, i, l), (j2, i2, l2) = lat.coords[n], lat.coords[m]
            assert abs(l - l2) == 1 and abs(j - j2) + abs(i - i2) == 1      # no in-level adjacency
            assert n in lat.neighbours[m]
    # the bonds are exactly the neighbour pairs, each once
    pairs = {frozenset((n, m)) for n in lat.nodes for m in lat.neighbours[n] if m is not None}
    assert {frozenset(b) for b in lat.bonds} == pairs and len(lat.bonds) == len(pairs)


def test_border_degree_of_a_corner():
    lat = lattice("222")
    aa1 = lat.node("Aa1")
    assert sorted(lat.label[m] for m in lat.steps_fwd[1][aa1]) == ["Ab2", "Ba2"]
    assert sum(m is not None for m in lat.neighbours[aa1]) == 2
    assert len(lat.steps_fwd[2][aa1]) == 0


def test_labels_that_are_not_nodes():
    lat = lattice("222")
    for label in ("Dd4", "Ab1", "Ea1", "Ae1", "Aa5", "aa1", ""):
        with pytest.raises(ValueError):
            lat.node(label)


# ---------------------------------------------------------------- 2. initial setup

@pytest.mark.parametrize("size,pieces,first_moves", [
    ("222", 8, 24), ("322", 12, 38), ("223", 16, 24), ("323", 24, 38), ("333", 36, 60)])
def test_initial_setup(size, pieces, first_moves):
    for first in (1, 2):
        board = games.get("lattice").new(size=size, first=first)
        lat = lattice(size)
        rows = (lat.dims[2] + 1) // 2
        assert board.on_board() == (pieces, pieces) and board.bench == (0, 0)
        view = board.view()
        for node in view["nodes"]:
            if node["seat"] == 1:
                assert node["z"] < rows
            elif node["seat"] == 2:
                assert node["z"] >= lat.L - rows
            else:
                assert rows <= node["z"] < lat.L - rows
            assert node["star"] is False
        assert board.turn == first and len(board.legal_moves()) == first_moves
        assert board.outcome() is None and board.moves == []


def test_first_option_decides_who_moves_first():
    assert games.get("lattice").new().turn == 1
    board = games.get("lattice").new(first=2)
    assert board.turn == 2 and all(m[2] == "4" for m in board.legal_moves())


# ---------------------------------------------------------------- 3-8. moves and captures

def test_simple_moves_only_forward_for_balls_and_stars():
    # B ball and B star on level 2, T ball and T star on level 3, far from each other: no captures
    board = new("B:Aa3*,Da2;T:Ad2*,Dd3;benchB:0;benchT:0", size="222")
    assert board.legal_moves() == ["Aa3-Ab4", "Aa3-Ba4", "Da2-Ca3", "Da2-Db3"]
    board = new("B:Aa3*,Da2;T:Ad2*,Dd3;benchB:0;benchT:0", first=2, size="222")
    assert board.legal_moves() == ["Ad2-Ac1", "Ad2-Bd1", "Dd3-Cd2", "Dd3-Dc2"]


def test_no_backward_simple_move():
    board = new("B:Bb3*;T:Dd1;benchB:0;benchT:0")
    assert board.legal_moves() == ["Bb3-Ab4", "Bb3-Ba4", "Bb3-Bc4", "Bb3-Cb4"]
    with pytest.raises(IllegalMove, match="only forward"):
        board.push("Bb3-Ab2")


def test_capture_in_all_8_directions_by_an_ordinary_ball():
    lat = lattice("333")
    around = [lat.label[m] for m in lat.neighbours[lat.node("Cc3")]]
    board = new("B:Cc3;T:" + ",".join(around) + ";benchB:0;benchT:0", size="333")
    firsts = {":".join(m.split(":")[:2]) for m in board.legal_moves()}
    assert firsts == {"Cc3:" + lat.label[land] for _, land in lat.jumps[lat.node("Cc3")]}
    assert len(firsts) == 8
    # the same for a T ball: backward (upward) captures too
    board = new("B:" + ",".join(around) + ";T:Cc3;benchB:0;benchT:0", first=2, size="333")
    assert len({":".join(m.split(":")[:2]) for m in board.legal_moves()}) == 8


def test_backward_capture_reference_game_0_decision_40():
    board = new("B:Ca3,Cc1,Dc4*,Dd3;T:Aa1*,Ac1*,Ba2,Ba4,Ca1*,Db3;benchB:4;benchT:2", first=2)
    assert board.legal_moves() == ["Ba2:Da4", "Ba4:Da2"]
    board.push("Ba2:Da4")
    assert board.piece_at("Da4") == (2, False) and board.piece_at("Ca3") is None


def test_no_capture_towards_the_border():
    # T ball on Ab2 next to the border: B on Bb1 would land on a node outside the box (-1, ...)
    board = new("B:Bb1;T:Ab2;benchB:0;benchT:0")
    assert "Bb1:" not in "".join(board.legal_moves())
    assert board.legal_moves() == ["Bb1-Ba2", "Bb1-Bc2", "Bb1-Cb2"]


def test_mandatory_capture_reference_game_0_decision_7():
    board = new("B:Aa1,Aa3,Bb1,Bd1,Ca1,Cc1,Dc2,Dd1;T:Ab4,Ad4,Ba4,Bd3,Cb4,Cc3,Cd4,Da2;benchB:0;benchT:0")
    assert board.legal_moves() == ["Dc2:Bc4"]
    with pytest.raises(IllegalMove, match="capture is mandatory"):
        board.push("Aa1-Ab2")


def test_each_victim_is_captured_once():
    # after Aa1:Ca3 the victim on Ba2 is gone: no jump back over it
    assert new("B:Aa1;T:Ba2;benchB:0;benchT:0").legal_moves() == ["Aa1:Ca3"]


def test_chains_are_maximal_and_branches_are_separate_actions():
    # reference game 204 decision 14 (lattice_cases.md case 11)
    board = new("B:Aa3,Ab2,Ab4,Ad2,Ba2,Bb1,Bc2,Bd1,Ca1,Cb2,Cd2,Db1,Db3,Dc2,Dd1;T:Aa5,Ad6,Ba4,Ba6,Bc4,Bc6,"
                "Ca5,Cb6,Cc5,Cd4,Cd6,Da4,Da6,Dc6,Dd5;benchB:1;benchT:1", first=2, size="223")
    assert board.legal_moves() == ["Aa5:Ac3:Aa1:Ca3:Cc1:Ac3", "Aa5:Ac3:Cc1:Ca3:Aa1:Ac3"]
    with pytest.raises(IllegalMove, match="must be complete"):
        board.push("Aa5:Ac3")
    with pytest.raises(IllegalMove, match="must be complete"):
        board.push("Aa5:Ac3:Aa1:Ca3")


def test_circular_chain_ends_on_its_start_node():
    board = new("B:Ad2,Bb5,Bd3,Ca5,Cb2,Cc5,Db1,Db5*,Dc2;T:Aa5,Ab4,Ac5,Ad6,Bc6,Ca1*,Cb6,Cd4,Dd3,Dd5;"
                "benchB:7;benchT:6", first=2, size="223")
    assert "Bc6:Ba4:Da6:Dc4:Bc6" in board.legal_moves()
    board.push("Bc6:Ba4:Da6:Dc4:Bc6")
    assert board.piece_at("Bc6") == (2, False) and board.bench == (11, 6)
    assert board.pop() == "Bc6:Ba4:Da6:Dc4:Bc6"
    assert board.pos() == "B:Ad2,Bb5,Bd3,Ca5,Cb2,Cc5,Db1,Db5*,Dc2;T:Aa5,Ab4,Ac5,Ad6,Bc6,Ca1*,Cb6,Cd4,Dd3,Dd5;" \
                          "benchB:7;benchT:6"


def test_only_the_piece_that_started_the_chain_continues_it():
    # two B pieces can capture; a chain cannot go on with the other piece's hop
    board = new("B:Aa1,Dd1;T:Ba2,Dc2;benchB:0;benchT:0")
    assert board.legal_moves() == ["Aa1:Ca3", "Dd1:Db3"]
    with pytest.raises(IllegalMove):
        board.push("Aa1:Ca3:Db3")


def test_no_longest_capture_rule():
    board = new("B:Aa1,Ac1,Bb1,Bc2,Ca1,Cc1,Cd2,Dc2;T:Ab4,Ad4,Ba4,Bc4,Ca3,Cc3,Da4,Db3;benchB:0;benchT:0")
    assert board.legal_moves() == ["Bc2:Dc4:Da2", "Cd2:Cb4"]
    board.push("Cd2:Cb4")
    assert board.turn == 1 and board.extra_turn


# ---------------------------------------------------------------- 9-12. promotion, stars, return, extra turn

def test_promotion_by_a_simple_move_without_bench_gives_an_extra_turn_at_once():
    board = new("B:Ab4,Db1;T:Ba2,Dc4;benchB:0;benchT:0", first=2)
    board.push("Ba2-Aa1")
    assert board.last["promoted"] and board.piece_at("Aa1") == (2, True)
    assert board.turn == 2 and board.extra_turn and not board.pending_return


def test_promotion_mid_chain_and_the_chain_continues():
    board = new("B:Aa1,Aa3,Ad2,Bb1,Bc4*,Ca1,Cd2,Dd1;T:Ab4,Ac3,Ba4,Bd3,Ca3,Cb4,Cd4,Db1*;benchB:0;benchT:0")
    assert board.legal_moves() == ["Cd2:Ad4:Ab2"]
    v = board.view()["legal"]["Cd2"][0]
    assert v == {"move": "Cd2:Ad4:Ab2", "path": ["Cd2", "Ad4", "Ab2"], "captures": ["Bd3", "Ac3"],
                 "promotes": True}
    board.push("Cd2:Ad4:Ab2")
    assert board.piece_at("Ab2") == (1, True) and board.turn == 1 and board.extra_turn


def test_star_on_the_far_level_has_only_backward_captures():
    board = new("B:Ad2,Ba4*,Bb1,Bc4*,Bd1,Ca1,Dd1;T:Ab4,Ac3*,Ca3,Cb4,Cd4,Da4,Db1*;benchB:1;benchT:1")
    assert board.legal_moves() == ["Ba4:Da2"]


def test_a_star_reaching_the_far_level_again_is_not_promoted_again():
    board = new("B:Bb3*;T:Dc4;benchB:3;benchT:0")
    board.push("Bb3-Bc4")
    assert not board.last["promoted"] and board.piece_at("Bc4") == (1, True)
    assert board.turn == 2 and not board.extra_turn and not board.pending_return


def test_return_is_a_plain_ball_on_a_free_node_of_the_first_level_only():
    # 223: B's first level is level 1 only, though B started on levels 1 and 2
    board = new("B:Aa5,Aa1,Ac1,Bb1,Bd1,Ca1,Cc1,Db1;T:Dd3;benchB:2;benchT:0", size="223")
    board.push("Aa5-Ab6")
    assert board.pending_return and board.legal_moves() == ["+Dd1"]
    with pytest.raises(IllegalMove, match="first level"):
        board.push("+Ab2")
    with pytest.raises(IllegalMove, match="occupied"):
        board.push("+Aa1")
    with pytest.raises(IllegalMove, match="return a captured ball"):
        board.push("Aa1-Ab2")
    board.push("+Dd1")
    assert board.piece_at("Dd1") == (1, False) and board.bench == (1, 0)
    assert board.turn == 1 and board.extra_turn


def test_no_return_when_the_first_level_is_full_but_still_an_extra_turn():
    # lattice_cases.md case 6, and reference game 200 decision 75
    board = new("B:Ab4*,Ad4*,Ba4*,Bc4*,Cb4*,Cd4*,Da4*,Dd3;T:Ac1*,Ba2,Bd1*,Ca1*,Cc1*,Db1*,Dc4;benchB:0;benchT:1",
                first=2)
    board.push("Ba2-Bb1")
    assert board.last["promoted"] and not board.pending_return
    assert board.turn == 2 and board.extra_turn and board.bench == (0, 1)


def test_a_captured_star_comes_back_as_a_ball():
    # T captures B's star; B then promotes and gets a plain ball back
    board = new("B:Bb3*,Cc3,Da2;T:Cb4,Dd1;benchB:0;benchT:0", first=2)
    assert board.legal_moves() == ["Cb4:Ab2", "Cb4:Cd2"]
    board.push("Cb4:Ab2")
    assert board.bench == (1, 0)
    assert board.turn == 1
    board.push("Cc3-Cd4")
    assert board.pending_return
    board.push("+Bb1")
    assert board.piece_at("Bb1") == (1, False)


def test_pop_after_a_return_takes_back_only_the_return():
    board = new("B:Ab2;T:Bb3,Dc4;benchB:1;benchT:0")
    board.push("Ab2:Cb4")
    before = state(board)
    board.push("+Ac1")
    assert board.pop() == "+Ac1"
    assert state(board) == before
    assert board.pending_return and board.turn == 1


def test_extra_turn_can_promote_again_and_return_again():
    board = new("B:Ac3,Cc3;T:Dd1;benchB:2;benchT:0")
    board.push("Ac3-Ad4")
    board.push("+Aa1")
    assert board.turn == 1 and board.extra_turn
    board.push("Cc3-Cd4")
    assert board.pending_return and board.legal_moves()[0] == "+Ac1"
    board.push("+Ac1")
    assert board.bench == (0, 0) and board.turn == 1 and board.extra_turn


# ---------------------------------------------------------------- 13-15. passes, end, bookkeeping

def test_pass_is_automatic_and_turn_never_names_a_side_without_action():
    board = new("B:Cd4*;T:Aa1*,Aa3*,Ac1*,Bc4,Ca1*,Db1*,Dd3;benchB:7;benchT:1")
    assert board.turn == 2 and board.passed == (1,)
    assert board.view()["passed"] == [1]
    board.push("Bc4-Bb3")
    assert board.turn == 2 and board.passed == (1,)


def test_game_over_when_neither_side_can_act():
    board = new("B:Ab4*;T:Aa1*;benchB:7;benchT:7")
    assert board.turn is None and board.legal_moves() == []
    assert board.outcome() == ((), (1, 1), "stuck")
    with pytest.raises(IllegalMove, match="over"):
        board.push("Ab4-Ac3")


def test_winner_is_the_higher_score_and_counts_board_pieces_only():
    board = new("B:Ab4*,Cd4;T:Aa1*;benchB:6;benchT:7")
    assert board.outcome() == ((1,), (2, 1), "stuck")
    # T's blocked ball on Ab2 is not on T's far level (level 1): it does not count
    board = new("B:Ab4*;T:Aa1*,Ab2,Ac1*,Bb1*;benchB:7;benchT:4")
    assert board.outcome() == ((2,), (1, 3), "stuck")


def test_end_on_elimination_ends_right_after_the_last_capture():
    board = new("B:Bb1;T:Cb2;benchB:0;benchT:7", end_on_elimination=True)
    board.push("Bb1:Db3")
    assert board.turn is None and board.outcome() == ((), (0, 0), "eliminated")
    board = new("B:Bb1;T:Cb2;benchB:0;benchT:7")
    board.push("Bb1:Db3")
    assert board.turn == 1 and board.passed == (2,)


def test_end_on_elimination_wins_over_a_pending_return():
    board = new("B:Ab2;T:Bb3;benchB:1;benchT:7", end_on_elimination=True)
    board.push("Ab2:Cb4")
    assert board.turn is None and not board.pending_return
    assert board.outcome() == ((1,), (1, 0), "eliminated")


def test_rewind_to_a_turn_boundary_by_replaying_the_record():
    board = games.get("lattice").new(first=2)
    for m in ["Bc4-Bd3", "Ac1-Ab2", "Dc4-Cc3", "Ab2-Aa3", "Da4-Db3", "Db1-Dc2", "Db3-Da2",
              "Dc2:Bc4", "Cc1-Cd2", "Ba4-Ca3", "Bd1-Ad2", "Da2-Db1", "+Ba4", "Ad4-Ac3", "Cd2:Ad4:Ab2"]:
        board.push(m)
    moves = board.moves
    snapshots = []
    replay = games.get("lattice").new(first=2)
    for m in moves:
        snapshots.append(state(replay))
        replay.push(m)
    for k in range(len(moves), -1, -1):
        rebuilt = games.from_dict({"game": "lattice", "options": board.options, "moves": moves[:k]})
        if k < len(moves):
            assert state(rebuilt) == snapshots[k]
            assert state(board) == snapshots[k]
        if k:
            board.pop()
    with pytest.raises(IndexError):
        board.pop()
    assert state(board) == state(games.get("lattice").new(first=2))


def test_turn_boundaries_never_split_a_move_from_its_return():
    board = games.get("lattice").new(first=2)
    for m in ["Bc4-Bd3", "Ac1-Ab2", "Dc4-Cc3", "Ab2-Aa3", "Da4-Db3", "Db1-Dc2", "Db3-Da2",
              "Dc2:Bc4", "Cc1-Cd2", "Ba4-Ca3", "Bd1-Ad2", "Da2-Db1"]:
        board.push(m)
    assert board.pending_return and board.turn_boundaries() == list(range(12))
    board.push("+Ba4")
    assert board.turn_boundaries() == [k for k in range(14) if k != 12]
    for k in board.turn_boundaries():
        rebuilt = games.from_dict({"game": "lattice", "options": board.options, "moves": board.moves[:k]})
        assert not rebuilt.pending_return


# ---------------------------------------------------------------- 16. net orientation

@pytest.mark.parametrize("size", SIZES)
def test_net_orientation_is_an_involution_swapping_the_setups(size):
    lat = lattice(size)
    assert all(lat.opposite(lat.opposite(n)) == n for n in lat.nodes)
    assert sorted(lat.opposite(n) for n in lat.setup[1]) == sorted(lat.setup[2])
    if size == "222":
        assert lat.label[lat.opposite(lat.node("Bb1"))] == "Bc4"


# ---------------------------------------------------------------- 17. records

def test_record_round_trip_mid_game_with_stars_bench_and_pending_return():
    board = games.get("lattice").new(first=2)
    for m in ["Bc4-Bd3", "Ac1-Ab2", "Dc4-Cc3", "Ab2-Aa3", "Da4-Db3", "Db1-Dc2", "Db3-Da2",
              "Dc2:Bc4", "Cc1-Cd2", "Ba4-Ca3", "Bd1-Ad2", "Da2-Db1"]:
        board.push(m)
    assert board.pending_return
    record = json.loads(json.dumps(board.to_dict()))
    assert record["game"] == "lattice" and record["moves"] == board.moves
    assert record["options"] == {"size": "222", "first": 2, "end_on_elimination": False,
                                 "color_b": "blue", "color_t": "red", "start": ""}
    again = games.from_dict(record)
    assert state(again) == state(board)
    assert "Bc4*" in again.pos() and again.bench == (0, 1)


def test_record_of_a_game_from_a_start_position():
    board = new("B:Bb1;T:Cb2,Aa3;benchB:2;benchT:1")
    board.push("Bb1:Db3")
    again = games.from_dict(json.loads(json.dumps(board.to_dict())))
    assert state(again) == state(board)


def test_corrupt_record_fails_loudly():
    with pytest.raises(IllegalMove, match="move 2"):
        games.from_dict({"game": "lattice", "options": {}, "moves": ["Aa1-Ab2", "Aa1-Ab2"]})


# ---------------------------------------------------------------- options and errors

def test_game_metadata():
    assert games.get("lattice") is GAME
    assert GAME.name == "lattice" and GAME.title == "Lattice Checkers" and GAME.seats == (2, 2)
    assert set(GAME.options) == {"size", "first", "end_on_elimination", "color_b", "color_t", "start"}
    assert GAME.options["size"].choices == SIZES and GAME.options["size"].default == "222"
    assert GAME.options["first"].default == 1
    assert GAME.options["end_on_elimination"].default is False
    assert (GAME.options["color_b"].default, GAME.options["color_t"].default) == ("blue", "red")
    assert len(GAME.options["color_b"].choices) == 8
    assert 3 <= GAME.summary.count(". ") + 1 <= 4
    json.dumps(GAME.to_dict())


@pytest.mark.parametrize("options,word", [
    ({"size": "444"}, "size"), ({"size": 222}, "size"), ({"first": 3}, "first"), ({"first": "B"}, "first"),
    ({"end_on_elimination": 1}, "end_on_elimination"), ({"color_b": "pink"}, "color_b"),
    ({"color_b": "red"}, "color_b"), ({"start": "nonsense"}, "start"), ({"start": 5}, "start"),
    ({"start": "B:Dd4;T:;benchB:0;benchT:0"}, "start"), ({"start": "B:Aa1;T:Aa1;benchB:0;benchT:0"}, "start"),
    ({"colour": "red"}, "colour"),
])
def test_bad_options_name_the_option(options, word):
    with pytest.raises(ValueError, match=word):
        games.get("lattice").new(**options)


@pytest.mark.parametrize("move,reason", [
    (None, "string"), (7, "string"), ("", "not a move"), ("Aa1", "not a move"), ("Aa1-", "not a move"),
    ("Aa1-Ab2-Ac3", "not a move"), ("Aa1:Ab2-Ac3", "not a move"), ("aa1-ab2", "not a node label"),
    ("Dd4-Dc3", "not a node of the 222 lattice"), ("Ab2-Ac3", "no piece on Ab2"),
    ("Ab4-Ac3", "holds a piece of T"), ("Aa1-Bb1", "not next to"), ("Aa1-Ac3", "not next to"),
    ("Aa1:Ca3", "no piece of T to capture"), ("Aa1:Ab2", "not a capture hop"), ("+Aa1", "only played right after"),
    (" Aa1-Ab2", "not a node label"),
])
def test_illegal_moves_explain_themselves_and_leave_the_board_unchanged(move, reason):
    board = games.get("lattice").new()
    before = state(board)
    with pytest.raises(IllegalMove, match=reason) as info:
        board.push(move)
    assert info.value.reason == str(info.value)
    assert state(board) == before


def test_occupied_destination_and_landing():
    board = new("B:Bb1,Ab2;T:Cb2,Db3;benchB:0;benchT:0")
    with pytest.raises(IllegalMove, match="Ab2 is occupied"):
        board.push("Bb1-Ab2")
    with pytest.raises(IllegalMove, match="landing node Db3 is occupied"):
        board.push("Bb1:Db3")


# ---------------------------------------------------------------- view

def test_view_shape():
    board = games.get("lattice").new()
    v = board.view()
    json.dumps(v)
    assert v["game"] == "lattice" and v["size"] == "222" and v["dims"] == [2, 2, 2] and v["grid"] == [4, 4, 4]
    assert len(v["nodes"]) == 32 and len(v["bonds"]) == 72
    assert v["nodes"][0] == {"id": "Aa1", "x": 0, "y": 0, "z": 0, "level": 1, "seat": 1, "star": False}
    assert [lv["level"] for lv in v["levels"]] == [1, 2, 3, 4]
    assert v["levels"][0]["rows"] == ["b b ", " b b", "b b ", " b b"]
    assert v["levels"][3]["rows"] == [" t t", "t t ", " t t", "t t "]
    assert v["turn"] == 1 and v["pending"] == "move" and v["returns"] == [] and not v["must_capture"]
    assert sum(len(ms) for ms in v["legal"].values()) == 24
    assert v["legal"]["Aa1"] == [
        {"move": "Aa1-Ab2", "path": ["Aa1", "Ab2"], "captures": [], "promotes": False},
        {"move": "Aa1-Ba2", "path": ["Aa1", "Ba2"], "captures": [], "promotes": False}]
    assert v["bench"] == [0, 0] and v["on_board"] == [8, 8] and v["score"] == [0, 0]
    assert v["over"] is False and v["outcome"] is None and v["last"] is None
    assert v["colors"]["1"] == {"name": "blue", "rgb": [0.0, 0.0, 1.0]}
    assert v["sides"]["2"] == {"name": "T", "first_level": 4, "far_level": 1, "forward": -1}


def test_view_of_a_pending_return_and_of_the_end():
    board = new("B:Ab2;T:Bb3,Dc4;benchB:1;benchT:0")
    board.push("Ab2:Cb4")
    v = board.view()
    assert v["pending"] == "return" and v["legal"] == {} and v["returns"][0] == "Aa1" and len(v["returns"]) == 8
    assert v["last"] == {"move": "Ab2:Cb4", "seat": 1, "kind": "capture", "path": ["Ab2", "Cb4"],
                         "captures": ["Bb3"], "promoted": True}
    end = new("B:Ab4*;T:Aa1*;benchB:7;benchT:7").view()
    assert end["over"] and end["turn"] is None and end["pending"] is None and end["legal"] == {}
    assert end["outcome"] == {"winners": [], "scores": [1, 1], "reason": "stuck"}


def test_copy_is_independent():
    board = games.get("lattice").new()
    board.push("Aa1-Ab2")
    twin = board.copy()
    assert state(twin) == state(board)
    twin.push(twin.legal_moves()[0])
    assert len(board.moves) == 1 and board.pos() != twin.pos()
    twin.pop()
    assert state(twin) == state(board)
