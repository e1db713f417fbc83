"""The STATE's move names are kept on the match between STATEs (quadrille/matches/naming.py): each STATE names
only its new moves, and a take-back, a rewind or another line is named afresh, always as naming the whole game
would."""
from __future__ import annotations

import random

import games
from quadrille.matches.naming import MoveNames


def whole(game, board) -> list[str]:
    return game.move_names(board)


def test_each_game_names_its_new_moves_as_its_whole_game_and_follows_take_backs():
    for name, options in (("trails", {"size": 7}), ("gamma", {}), ("towers", {"size": 6}), ("lattice", {})):
        game, rng = games.get(name), random.Random(name)
        board, kept = game.new(**options), MoveNames()
        for step in range(60):
            if board.outcome() is not None or (step % 7 == 6 and board.moves):
                board.pop()  # a take-back: the names kept are no longer the line's
            else:
                board.push(rng.choice(board.legal_moves()))
            names = kept.of(game, board, board.moves)
            assert names == whole(game, board), (name, step)
            assert kept.moves == board.moves


def test_a_line_of_the_same_length_but_other_moves_is_named_afresh():
    game = games.get("trails")
    board, kept = game.new(size=7), MoveNames()
    board.push("down")
    assert kept.of(game, board, board.moves) == whole(game, board)
    board.pop()
    board.push("right")  # the same ply, another move
    assert kept.of(game, board, board.moves) == whole(game, board) != []


def test_the_names_handed_out_are_copies():
    game = games.get("gamma")
    board, kept = game.new(), MoveNames()
    board.push(board.legal_moves()[0])
    names = kept.of(game, board, board.moves)
    names.append("not a move")
    assert kept.of(game, board, board.moves) == whole(game, board)


def test_the_states_names_follow_moves_take_backs_and_rewinds(service):
    created = service.create("trails", {"size": 7}, "local")
    match, token = created["match"], created["token"]
    for _ in range(6):
        state = service.state(match)
        state = service.play(match, token, state["legal"][0])
    named = state["move_names"]
    assert len(named) == 6
    state = service.takeback(match, token)
    assert state["move_names"] == named[:len(state["moves"])]
    state = service.play(match, token, state["legal"][-1])
    board = games.get("trails").new(size=7)
    for move in state["moves"]:
        board.push(move)
    assert state["move_names"] == games.get("trails").move_names(board)
    state = service.rewind(match, token, 2)
    assert state["move_names"] == named[:2]
