"""The Lattice Checkers search model (ai/lattice.py): the progress it keeps in step with the board, and what
its evaluation values (material first, the bench only while it can still come back)."""
from __future__ import annotations

import random

import pytest

import games
from ai.lattice import LatticeModel


@pytest.mark.parametrize("size", ["222", "323", "333"])
def test_progress_follows_push_and_pop(size):
    """After every move of random games (captures, chains, promotions, returns) the incrementally kept
    progress equals that of a model made afresh from the position, and popping restores the start."""
    for seed in range(6):
        rng = random.Random(seed)
        board = games.get("lattice").new(size=size, first=1 + seed % 2)
        model = LatticeModel(board, 1)
        start = list(model.progress)
        plies = 0
        while board.turn is not None:
            model.push(board, rng.choice(board.legal_moves()))
            plies += 1
            assert model.progress == LatticeModel(board, 1).progress, (size, seed, board.moves)
        assert plies > 10
        for _ in range(plies):
            model.pop(board)
        assert model.progress == start and board.moves == []


def value(start: str, me: int = 1) -> float:
    board = games.get("lattice").new(size="222", start=start)
    return LatticeModel(board, me).evaluate(board)


def test_evaluation_is_symmetric_and_counts_material_first():
    pos = "B:Ab2,Bb1,Cc3;T:Ac3,Db3;benchB:5;benchT:6"
    assert value(pos, 1) == -value(pos, 2)
    # a piece more outweighs any progress: B's three pieces at the start against two T pieces one step from
    # their far level
    assert value("B:Aa1,Bb1,Cc1;T:Ab2,Cb2;benchB:5;benchT:6") > 0
    # a piece on the far level is worth more than one below it
    assert value("B:Ab4*;T:Cb2;benchB:0;benchT:0") > value("B:Ac3;T:Cb2;benchB:0;benchT:0")


def test_bench_counts_only_while_a_piece_can_still_promote():
    # B has a ball to promote, T only stars on its far level: B's captured pieces will all come back
    live = value("B:Bc2;T:Aa1*,Ca1*;benchB:3;benchT:6")
    assert live > value("B:Bc2;T:Aa1*,Ca1*;benchB:0;benchT:6") + 3 * LatticeModel.piece - 1e-9
    # B has only stars: its bench is lost, and T's bench (T has a ball) comes back
    assert value("B:Ab4*;T:Ca1*,Cc3;benchB:3;benchT:2") == value("B:Ab4*;T:Ca1*,Cc3;benchB:0;benchT:2")
    assert value("B:Ab4*;T:Ca1*,Cc3;benchB:0;benchT:2") < value("B:Ab4*;T:Ca1*,Cc3;benchB:0;benchT:0")

