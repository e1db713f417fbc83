"""Moves named for people (games/notation.py, `Game.move_names`): the same names for every viewer, read off the
coordinates drawn along the board's edges; and Trails' refusals, which name cells, never a side of the screen."""
from __future__ import annotations

import pytest

import games
from games import IllegalMove
from games.notation import cell_name, file_name, lattice_name, towers_name


def played(name, moves, **options):
    board = games.get(name).new(**options)
    for move in moves:
        board.push(move)
    return board


def test_files_run_a_to_z_then_aa():
    assert [file_name(k) for k in (0, 1, 25, 26, 27, 51, 52)] == ["a", "b", "z", "aa", "ab", "az", "ba"]
    assert cell_name(2, 11) == "c11"


def test_trails_names_the_cell_each_trail_reached_from_blues_side():
    # 11x11: Blue's head starts on a11 (top left as Blue sees it), Red's on k1 (bottom right)
    board = played("trails", ["down", "left", "down", "left", "right"])
    assert games.get("trails").move_names(board) == ["a10", "j1", "a8", "h1", "b8"]


def test_trails_names_a_tower_taken():
    # 7x7, one tower on d4: Red climbs from d1 and takes it by continuing up (2 cells from d2)
    moves = ["down", "left", "down", "left", "down", "up", "right", "up"]
    board = played("trails", moves, size=7, towers=1)
    assert board.view()["taken"] == [0, 1]
    assert games.get("trails").move_names(board) == ["a6", "f1", "a4", "d1", "a1", "d2", "b1", "d4 tower"]


def test_trails_refusals_name_cells_never_a_side_of_the_screen():
    # Red's head on k1 sits on the bottom edge as Blue sees it, the top edge as Red sees it: the reason says neither.
    board = played("trails", ["down"])
    with pytest.raises(IllegalMove) as refused:
        board.push("down")
    reason = refused.value.reason
    assert "k1" in reason and "edge" in reason, reason
    for word in ("bottom", "top", "left", "right", " up", "down"):
        assert word not in reason, reason
    # a blocked turn names the cell it would reach: Blue's continuation a10 -> a8 claimed a9
    board = played("trails", ["down", "left", "down", "left"])
    with pytest.raises(IllegalMove) as refused:
        board.push("up")
    assert refused.value.reason == "the target cell is occupied: turning moves one cell, to a9"


def test_every_game_names_every_move_once():
    towers = played("towers", [], size=6)
    legal = [m for m in towers.legal_moves() if m.startswith("m")]
    towers.push(legal[0])
    towers.push("end")
    towers_names = games.get("towers").move_names(towers)
    assert towers_names[1] == "end" and "→" in towers_names[0] and len(towers_names) == 2
    assert towers_name("m2,4>2,3:1", 6) == "c2→c3"
    assert towers_name("m2,4>2,2:2", 6) == "c2→c4 (2)"
    assert towers_name("i1", 6) == "import 1"

    gamma = played("gamma", ["0,0", "1,0", "g1,0", "skip"], width=5, height=5, players=2)
    assert games.get("gamma").move_names(gamma) == ["a1", "b1", "b1 golden", "skip"]

    lattice = games.get("lattice").new()
    lattice.push(lattice.legal_moves()[0])
    name = games.get("lattice").move_names(lattice)[0]
    assert "→" in name or "×" in name
    assert lattice_name("Ad4:Ab2:Ad4") == "Ad4×Ab2×Ad4"
    assert lattice_name("+Ab1") == "return Ab1"
