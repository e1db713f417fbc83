"""Each game's picture.py names the cells a move touches (move_cells), and quadrille/pictures.py turns an analysis's
best moves into what the match page highlights (best_moves_shown): checked on real positions of every game."""
from __future__ import annotations

import random

import pytest

import games
from quadrille import pictures

SMALL = {"trails": {"size": 7}, "towers": {}, "gamma": {"width": 5, "height": 5, "players": 3}, "lattice": {}}


def played(name: str, plies: int, seed: int = 3):
    """A board of `name` after `plies` random legal moves (fewer if the game ends first)."""
    rng = random.Random(seed)
    board = games.get(name).new(**SMALL[name])
    for _ in range(plies):
        if board.turn is None:
            break
        board.push(rng.choice(board.legal_moves()))
    return board


def cells_on_board(name: str, board) -> list[dict]:
    """Every cell's data attributes as the game's board draws them, from its view."""
    view = board.view()
    if name == "trails":
        return [{"r": r, "c": c} for r in range(view["size"]) for c in range(view["size"])]
    if name == "towers":
        return [{"x": x, "y": y} for x in range(view["size"]) for y in range(view["size"])]
    if name == "gamma":
        return [{"x": x, "y": y} for x in range(view["width"]) for y in range(view["height"])]
    return [{"node": node["id"]} for node in view["nodes"]]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_legal_move_names_cells_of_the_board(name):
    for plies in (0, 5, 12):
        board = played(name, plies)
        if board.turn is None:
            continue
        cells = cells_on_board(name, board)
        before = board.to_dict()
        for move in board.legal_moves():
            marks = pictures.move_marks(name, board, move)
            assert all(mark in cells for mark in marks), (move, marks)
            if move not in ("end", "skip"):
                assert marks, move
        assert board.to_dict() == before  # the board asked is left as it was


def test_the_cells_are_those_the_move_names():
    gamma = games.get("gamma").new(width=5, height=5, players=2)
    assert pictures.move_marks("gamma", gamma, "3,4") == [{"x": 3, "y": 4}]
    assert pictures.move_marks("gamma", gamma, "skip") == []
    towers = played("towers", 0)
    move = next(m for m in towers.legal_moves() if m.startswith("m"))
    x1, y1, x2, y2 = (int(v) for v in move[1:].split(":")[0].replace(">", ",").split(","))
    assert pictures.move_marks("towers", towers, move) == [{"x": x1, "y": y1}, {"x": x2, "y": y2}]
    assert pictures.move_marks("lattice", played("lattice", 0), "Cd2:Ad4:Ab2") == [
        {"node": "Cd2"}, {"node": "Ad4"}, {"node": "Ab2"}]
    trails = played("trails", 0)
    head = trails.view()["heads"][0]
    move = trails.legal_moves()[0]
    marks = pictures.move_marks("trails", trails, move)
    trails.push(move)
    reached = trails.view()["heads"][0]
    assert marks[0] == {"r": head[0], "c": head[1]} and marks[-1] == {"r": reached[0], "c": reached[1]}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_best_moves_shown_follow_the_game(name):
    board = played(name, 8)
    moves = board.moves
    replay = games.get(name).new(**SMALL[name])
    bests = []
    for move in moves:
        bests.append(replay.legal_moves()[-1])
        replay.push(move)
    shown = pictures.best_moves_shown(name, SMALL[name], moves, bests + [None])
    assert len(shown) == len(moves) + 1 and shown[-1] == {"cells": [], "name": None}
    replay = games.get(name).new(**SMALL[name])
    for k, move in enumerate(moves):
        assert shown[k]["cells"] == pictures.move_marks(name, replay, bests[k])
        after = replay.copy()
        after.push(bests[k])
        assert shown[k]["name"] == games.get(name).move_names(after)[-1]
        replay.push(move)


def test_a_best_move_the_engine_refuses_is_shown_as_nothing():
    assert pictures.best_moves_shown("gamma", {"width": 5, "height": 5}, ["0,0"], ["0,0", "0,0"]) == [
        {"cells": [{"x": 0, "y": 0}], "name": "a1"}, {"cells": [], "name": None}]


def test_an_analysis_answer_names_each_best_move_beside_its_plies():
    plies = [{"ply": 1, "move": "0,0", "best": "1,1"}, {"ply": 2, "move": "2,2", "best": None}]
    assert pictures.best_moves_answer("gamma", {"width": 5, "height": 5}, ["0,0", "2,2"], plies) == {
        "best_cells": [[{"x": 1, "y": 1}], []], "best_names": ["b2", None]}
