"""The original Towers AI-1 ("classic", games/towers/classic_computer.py) behaves as rules/towers.md §10 describes:
it walks a path onto the enemy master, defends its own master (captures a lone attacker, runs from two),
raises its master when its reserve is the smaller, imports one pawn and ends a quiet turn, and plays only
legal actions, one per call, following its plan for the turn."""
from __future__ import annotations

import random

import ai
import games
from games.towers.classic_computer import plan_turn

TowersBoard = games.get("towers").board_class


def position(board, reserve, current=1, masters=((2, 4), (2, 0)), size=5):
    return TowersBoard.from_position(size, board=board, masters=list(masters), reserve=list(reserve),
                                     current=current)


def l_shaped_path():
    """Player 1's pawn at (1, 3) can reach the enemy master at (2, 0) by (1, 1) and (2, 1), with 4 points."""
    return position([[-1, -1, -1, -1, -1],
                     [-1, 0, 0, -1, -1],
                     [0, 0, 0, 0, 0],
                     [0, 1, 0, 0, 0],
                     [1, 0, 1, 1, 1]], reserve=(4, 1))


def play_turn(board, level="classic", **kwargs) -> list:
    """Let the computer at `level` play the side to move until its turn ends; the actions it chose."""
    seat = board.turn
    actions = []
    while board.turn == seat:
        move = ai.choose_move(board, level, seed=len(actions), **kwargs)
        assert move in board.legal_moves()
        board.push(move)
        actions.append(move)
    return actions


def test_walks_an_l_shaped_path_onto_the_enemy_master():
    board = l_shaped_path()
    assert board.master_attacked(2)
    actions = play_turn(board)
    assert actions == ["m1,3>1,1:1", "m1,1>2,1:1", "m2,1>2,0:1"]
    assert board.outcome().winners == (1,)


def test_captures_a_lone_attacker_with_a_pawn_when_it_is_protected():
    board = position([[-1, -1, -1, -1, -1],
                      [-1, 0, 0, 0, -1],
                      [0, 1, -1, 0, 0],
                      [0, 0, 0, 0, 0],
                      [1, 1, 1, 1, 1]], reserve=(1, 2))
    assert board.master_attacked(1)
    assert play_turn(board) == ["m1,2>2,2:1"]
    assert not board.master_attacked(1) or board.turn == 2


def test_captures_a_lone_unprotected_attacker_with_the_master():
    board = position([[-1, -1, -1, -1, -1],
                      [-1, 0, 0, 0, -1],
                      [0, 0, 0, 0, 0],
                      [0, 0, -1, 0, 0],
                      [1, 1, 1, 1, 1]], reserve=(2, 2))
    actions = play_turn(board)
    assert actions[0] == "m2,4>2,3:1"            # the master takes it (its pawns join the reserve)
    assert board.reserve[0] == 3


def test_runs_away_from_two_attackers_to_a_safe_cell():
    board = position([[-1, -1, -1, -1, -1],
                      [-1, 0, 0, 0, -1],
                      [0, -1, 0, -1, 0],
                      [0, 0, 0, 1, 1],
                      [0, 0, 1, 0, 0]], reserve=(2, 3))
    assert board.master_attacked(1)
    actions = play_turn(board)
    assert actions[0] == "m2,4>3,4:1"
    assert board.master_cell(1) == (3, 4)
    assert not board.master_attacked(1)


def test_raises_its_master_when_its_reserve_is_smaller():
    board = position([[-1, -1, -1, -1, -1],
                      [-1, -1, 0, -1, -1],
                      [0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 0],
                      [1, 1, 1, 1, 1]], reserve=(1, 3))
    assert play_turn(board) == ["m3,4>2,4:1"]
    assert board.reserve[0] == 2                  # the raised pawn was exported at the end of the turn


def test_a_quiet_turn_is_an_import_and_end():
    board = games.get("towers").new(size=6, rules=["no-first-lock-master"])
    assert play_turn(board) == ["i1", "end"]
    board = games.get("towers").new(size=6)      # the master is locked on the first turn: no import
    assert play_turn(board) == ["end"]


def test_one_action_per_call_follows_the_plan():
    board = l_shaped_path()
    plan = plan_turn(board.copy())
    for i, action in enumerate(plan):
        assert ai.choose_move(board, "classic", seed=i) == action
        board.push(action)


def test_whole_games_are_legal_and_beat_random():
    rng = random.Random(4)
    wins = 0
    for g in range(6):
        size = (5, 6, 7)[g % 3]
        board = games.get("towers").new(size=size, rules=[["lock-after-move"], [], ["tower-out"]][g % 3])
        classic = 1 + g % 2
        for _ in range(600):
            if board.turn is None:
                break
            if board.turn == classic:
                move = ai.choose_move(board, "classic", seed=rng.randrange(99))
                assert move in board.legal_moves()
            else:
                move = rng.choice(board.legal_moves())
            board.push(move)
        if board.outcome() is not None and board.outcome().winners == (classic,):
            wins += 1
    assert wins >= 5


def test_answers_passes_with_a_pass_so_that_the_draw_rule_ends_the_game():
    # the original answered a pass with "import 1, end" (the pawn goes back to the reserve at the end of the turn:
    # nothing changes, yet it is not a pass), so a player who only passed could never draw
    board = games.get("towers").new(size=6, rules=["no-first-lock-master"])
    assert play_turn(board) == ["i1", "end"]        # a quiet first turn, as the original
    board.push("end")                               # the person passes
    assert play_turn(board) == ["end"]              # AI-1 passes too
    board.push("end")
    assert play_turn(board) == ["end"]
    assert board.turn is None and board.outcome().reason == "draw-passes" and board.outcome().winners == ()


def test_a_quiet_turn_after_a_real_move_is_still_an_import_and_end():
    board = games.get("towers").new(size=6, rules=["no-first-lock-master"])
    assert play_turn(board) == ["i1", "end"]
    board.push(next(m for m in board.legal_moves() if m.startswith("m")))   # the person moves a pawn
    actions = play_turn(board)
    assert actions != ["end"] and actions[-2:] in (["i1"], ["i1", "end"])   # the turn ends by itself at 0 points
