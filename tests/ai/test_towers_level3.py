"""Towers level 3 (games/towers/computer.py, the search over whole turns): it wins at once when it can, walks a path of
several actions onto the enemy master, parries a threat to its master over its whole turn, plays legal
actions only, repeats itself with a seed and a node cap, keeps to its time budget, converts a lead in move
points against a corner fortress (and keeps to that plan after an import), takes an attacker with a pawn
split out of its master, weighs a turn that keeps move points against the opponent's reply, and its third
turn sees a win that no reply prevents."""
from __future__ import annotations

import ai
from ai.model import WIN
from ai.search import Limits
from games.towers.computer import TowersModel, TurnSearch, turn_start_lead
from tests.ai.test_classic_towers import l_shaped_path, play_turn, position
from tests.ai.test_levels import random_positions
from tests.ai.watch import SearchWatch

def test_takes_a_one_action_win_among_many_moves():
    # the pawn at (4, 3) takes the master at (4, 0) straight up the empty column
    board = position([[-1, -1, 0, 0, -1],
                      [-1, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0],
                      [0, 1, 1, 0, 1],
                      [1, 1, 1, 1, 1]], reserve=(4, 2), masters=((2, 4), (4, 0)))
    for seed in range(3):
        assert ai.choose_move(board, 3, seed=seed, max_nodes=300) == "m4,3>4,0:1"


def test_walks_an_l_shaped_path_onto_the_enemy_master():
    board = l_shaped_path()
    actions = play_turn(board, 3, max_nodes=2000)
    assert board.outcome() is not None and board.outcome().winners == (1,), actions


def test_parries_a_threat_to_its_master_over_the_whole_turn():
    # the master at (2, 4) is open from above: Player 2's pawn at (2, 1) walks down the empty column onto it
    # with Player 2's 3 points. Player 1 has 2 points and must end its turn with no path left open.
    board = position([[-1, -1, -1, -1, -1],
                      [-1, 0, -1, 0, -1],
                      [0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0],
                      [1, 1, 1, 1, 1]], reserve=(2, 3), masters=((2, 4), (2, 0)))
    assert board.master_attacked(1)
    for budget in (dict(max_nodes=3000), dict(time_budget=0.3)):
        b = board.copy()
        actions = play_turn(b, 3, **budget)
        assert b.turn == 2 and b.outcome() is None, actions
        assert not b.master_attacked(1), (actions, budget)


def test_keeps_the_master_covered_against_a_tower_next_to_it():
    # a Player 2 pawn at (1, 3) is one step from the master's neighbour; Player 1 must not leave a path open
    board = position([[-1, -1, -1, -1, -1],
                      [-1, 0, 0, 0, -1],
                      [0, 0, 0, 0, 0],
                      [0, -1, 0, 0, 0],
                      [1, 0, 1, 1, 1]], reserve=(2, 2), masters=((2, 4), (2, 0)))
    actions = play_turn(board, 3, max_nodes=3000)
    assert board.outcome() is None or board.outcome().winners == (1,)
    if board.outcome() is None:
        assert not board.master_attacked(1), actions


def test_legal_actions_whole_turns_and_no_change_to_the_board():
    for options in ({"size": 6}, {"size": 5, "rules": ["lock-after-move"]}):
        for i, board in enumerate(random_positions("towers", options, 6, seed=31)):
            before = (board.to_dict(), board.legal_moves())
            move = ai.choose_move(board, 3, seed=i, max_nodes=600)
            assert move in board.legal_moves()
            assert (board.to_dict(), board.legal_moves()) == before


def test_same_seed_and_node_cap_same_move():
    for board in random_positions("towers", {"size": 6}, 4, seed=17):
        moves = {ai.choose_move(board, 3, seed=5, max_nodes=800) for _ in range(2)}
        assert len(moves) == 1


def test_keeps_to_its_time_budget_and_stop(monkeypatch):
    # counted, not timed (tests/ai/watch.py; bench/ai_levels.py gives the seconds): at most one look at the
    # clock past the deadline, and between two looks one check's worth of nodes, each pushing the few actions
    # of a turn
    most = 2 * Limits.CHECK_EVERY
    reached = 0
    for board in random_positions("towers", {"size": 10}, 3, seed=23):
        watch = SearchWatch(type(board), step=0.02).counting(monkeypatch)
        move = ai.choose_move(board, 3, seed=1, time_budget=watch.budget(0.3), clock=watch)
        assert move in board.legal_moves()
        assert watch.late <= 1 and watch.readings <= 0.3 / 0.02 + 3
        assert watch.most_between <= most and watch.after_last_reading <= most
        reached += watch.late
        watch = SearchWatch(type(board), step=0.0).counting(monkeypatch)
        move = ai.choose_move(board, 3, seed=1, time_budget=watch.budget(5.0), stop=lambda: True, clock=watch)
        assert move in board.legal_moves()
        assert watch.pushes <= most
    assert reached >= 1           # the budget, not the end of the search, stopped at least one of them


def corner_fortress():
    """What level 3's wins over level 2 often come to: its lone master and 7 reserve pawns against a master in
    the corner with two pawns beside it and 2 reserve pawns. Valuing its reserve above everything, level 3
    used to sit on its points here until the game was stopped."""
    return position([[0, 0, 0, 0, -1, -1],
                     [0, 0, 0, 0, -1, 0],
                     [0, 0, 0, 0, 0, 0],
                     [0, 0, 0, 0, 0, 0],
                     [0, 1, 0, 0, 0, 0],
                     [0, 0, 0, 0, 0, 0]], reserve=(7, 2), masters=((1, 4), (5, 0)), size=6)


def test_converts_a_lead_in_move_points_against_a_corner_fortress():
    for seed in range(3):
        board = corner_fortress()
        plies = 0
        while board.turn is not None and plies < 200:
            if board.turn == 1:
                move = ai.choose_move(board, 3, seed=seed * 1000 + plies, max_nodes=1000, time_budget=None)
            else:
                move = ai.choose_move(board, 2, seed=seed * 1000 + plies)
            board.push(move)
            plies += 1
        assert board.outcome() is not None and board.outcome().winners == (1,), (seed, plies)


def test_keeps_to_its_plan_when_an_import_lowers_its_lead_in_the_middle_of_a_turn():
    # a lone master with 5 points against a master in a corner with two pawns and 2 points: level 3 converts
    # its lead by importing a pawn and sending it at the guards. After the import its reserve leads by 2
    # only; it once took that for the end of its lead, and ended the turn sending the pawn back.
    board = position([[0, 0, 0, 0, -1, -1],
                      [0, 0, 0, 0, 0, -1],
                      [0, 0, 1, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0]], reserve=(5, 2), current=1, masters=((2, 2), (5, 0)), size=6)
    after_import = board.copy()
    after_import.push("i1")
    assert turn_start_lead(after_import) == turn_start_lead(board) == 3
    actions = play_turn(board, 3, max_nodes=3000)
    assert "i1" in actions and board.reserve[0] < 5, actions          # the imported pawn stays out
    assert sum(1 for row in board.state()["board"] for v in row if v > 0) == 2, actions


def test_a_lone_master_splits_a_pawn_out_to_take_an_attacker():
    # Player 2's pawn at (4, 3) can reach Player 1's lone master, and no cell within reach is safe from it.
    # Taking it with the master leaves the master within reach of Player 2's master; a pawn split out of the
    # master takes it instead (the master steps to (4, 4), imports a pawn and splits it onto (4, 3)). The
    # beam search keeps such captures under way, whichever action of the turn level 3 is deciding.
    board = position([[0, 0, 0, 0, 0, -1],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, -1, 0],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 1]], reserve=(4, 4), current=1, masters=((5, 5), (5, 0)), size=6)
    actions = play_turn(board, 3, max_nodes=3000)
    assert board.cell(4, 3) > 0 and board.master_cell(1) == (4, 4), actions
    assert not board.master_attacked(1)


def test_a_turn_that_keeps_points_is_weighed_against_the_reply_it_lets_through():
    # Player 2's tower of two at (2, 2) steps down to (2, 3) for 2 of its 4 points. The turn is not over, but
    # the reply must be the opponent's: Player 1's master imports a pawn and takes the tower (1 + 2 x 2 of its
    # 6 points). Level 3 once weighed such a turn against its own further actions instead.
    board = position([[0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, -1],
                      [0, 0, -2, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 1, 0, 0, 0]], reserve=(6, 4), current=2, masters=((2, 5), (5, 1)), size=6)
    search = TurnSearch(board, TowersModel(board, 2), Limits(None, 100_000, None))
    step = ("m2,2>2,3:2",)
    left_open = search.reply_value(step)
    assert left_open == search.reply_value(step + ("end",))
    assert left_open < search.reply_value(("end",)) - 2      # the tower is lost
    assert board.turn == 2 and board.cell(2, 2) == -2 and board.turn_moves() == []


def test_the_third_turn_sees_a_win_after_any_reply():
    # Player 2 has one point and a bare master in the corner; after Player 1 passes, whatever Player 2 does,
    # Player 1's pawns at (3, 0) and (5, 2) walk onto its master. Two turns see a threat; three see the win.
    board = position([[0, 0, 0, 1, 0, -1],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 1],
                      [0, 0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0, 0],
                      [1, 0, 0, 0, 0, 0]], reserve=(4, 1), masters=((0, 5), (5, 0)), size=6)
    search = TurnSearch(board, TowersModel(board, 1), Limits(None, 100_000, None))
    before = board.state()
    two_turns = search.reply_value(("end",))
    three_turns = search.reply_value(("end",), follow=3)
    assert 0 < two_turns < WIN // 2
    assert three_turns >= WIN // 2
    assert board.state() == before
    # level 3 searches the third turn when asked to (max_depth=3), and still plays a legal action
    fortress = corner_fortress()
    assert ai.choose_move(fortress, 3, seed=1, max_depth=3, max_nodes=3000) in fortress.legal_moves()
