"""Gamma's end by passes (games/gamma/passes.py): once no player can place a pawn, a round in which every
player still able to move (by a golden move) passes ends the game, as the original's game ends when nobody
can move; while a pawn can be placed, passes never end it (the terminal game's 955 scripts, replayed on
the turn-based board by test_gamma_interactive.py, pass over such positions)."""
from __future__ import annotations

import pytest

import ai
from games.base import IllegalMove, Outcome
from games.gamma import GAME


def played(width, height, players, areas, moves):
    board = GAME.new(width=width, height=height, players=players, areas=areas)
    for m in moves:
        board.push(m)
    return board


def test_a_full_board_ends_when_the_only_player_with_a_golden_move_declines_it():
    # 3x1: Blue takes a1 and b1, Orange c1 and then Blue's a1 with its golden move; the board is full and
    # only Blue can move (by its golden move): once Blue passes, the game is over
    board = played(3, 1, 2, 2, ["0,0", "2,0", "1,0", "g0,0"])
    assert board.turn == 1 and board.core.empty_fields == 0
    assert board.legal_moves() == ["g0,0", "g2,0", "skip"]
    board.push("skip")
    assert board.turn is None and board.legal_moves() == []
    assert board.outcome() == Outcome((2,), (1, 2), "passed")
    assert board.view()["over"] and board.view()["outcome"]["reason"] == "passed"
    with pytest.raises(IllegalMove, match="over"):
        board.push("skip")


def test_a_full_board_ends_when_every_player_declines_the_golden_move_in_a_row():
    board = played(2, 2, 2, 2, ["0,0", "1,0", "0,1", "1,1"])
    assert board.core.empty_fields == 0
    assert board.core.golden_possible(1) and board.core.golden_possible(2)
    board.push("skip")
    assert board.turn == 2                      # Orange may still take a field
    board.push("skip")
    assert board.turn is None
    assert board.outcome() == Outcome((1, 2), (2, 2), "passed")


def test_a_golden_move_between_passes_starts_the_round_again():
    board = played(2, 2, 3, 4, ["0,0", "1,0", "0,1", "1,1"])  # Blue a1 b2, Orange b1, Pink a2; Orange to move
    assert board.turn == 2 and board.core.empty_fields == 0
    board.push("skip")                           # Orange passes
    board.push("skip")                           # Pink passes
    assert board.turn == 1
    board.push("g1,0")                           # Blue takes Orange's b1: the board changed, a new round
    assert board.turn == 2
    board.push("skip")
    assert board.turn == 3
    board.push("skip")                           # Blue has used its golden move: every player able to move passed
    assert board.turn is None and board.outcome() == Outcome((1,), (3, 0, 1), "passed")


def test_passes_never_end_a_game_while_a_pawn_can_be_placed():
    board = played(3, 3, 2, 1, [])
    for _ in range(10):
        board.push("skip")
    assert board.turn == 1 and board.outcome() is None


def test_a_pass_taken_back_reopens_the_game():
    board = played(3, 1, 2, 2, ["0,0", "2,0", "1,0", "g0,0", "skip"])
    assert board.pop() == "skip"
    assert board.turn == 1 and board.outcome() is None
    board.push("g2,0")                           # Blue uses its golden move after all: nobody can move
    assert board.turn is None and board.outcome() == Outcome((1,), (2, 1), "stuck")


def test_a_copy_and_a_record_keep_the_run_of_passes():
    board = played(2, 2, 2, 2, ["0,0", "1,0", "0,1", "1,1", "skip"])
    twin = board.copy()
    twin.push("skip")
    assert twin.turn is None and board.turn == 2
    again = GAME.new(**board.options)
    for m in board.moves:
        again.push(m)
    again.push("skip")
    assert again.outcome() == twin.outcome()


@pytest.mark.parametrize("seed", range(4))
def test_a_game_against_the_computer_on_a_small_board_ends(seed):
    # the person only passes once the board is full and keeps the golden move; the computer (level 1) fills
    # the board and uses its own: the game ends, within a round of the full board
    board = GAME.new(width=3, height=3, players=2, areas=2)
    for _ in range(200):
        if board.turn is None:
            break
        if board.turn == 1 and board.core.empty_fields:
            board.push(next(m for m in board.legal_moves() if not m.startswith("g") and m != "skip"))
        elif board.turn == 1:
            board.push("skip")
        else:
            board.push(ai.choose_move(board, 1, seed=seed))
    assert board.turn is None and board.outcome().reason in ("passed", "stuck")
    assert len(board.moves) < 20
