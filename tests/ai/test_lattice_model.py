"""The Lattice Checkers search model (games/lattice/computer.py): what its evaluation values (material first, promotions
still to come, the bench only while it can still come back). The node values it reads are checked against the
position after every push and pop in tests/games/test_lattice_properties.py."""
from __future__ import annotations

import games
from games.lattice.computer import LatticeModel


def value(start: str, me: int = 1) -> float:
    board = games.get("lattice").new(size="222", start=start)
    return LatticeModel(board, me).evaluate(board)


def test_evaluation_is_symmetric_and_counts_material_first():
    pos = "B:Ab2,Bb1,Cc3;T:Ac3,Db3;benchB:5;benchT:6"
    assert value(pos, 1) == -value(pos, 2)
    # a piece more outweighs any progress: B's three pieces at the start against two T pieces one step from
    # their far level, with nothing to return when they promote
    assert value("B:Aa1,Bb1,Cc1;T:Ab2,Cb2;benchB:5;benchT:0") > 0
    # a star on the far level is worth more than one below it
    assert value("B:Ab4*;T:Cb2;benchB:0;benchT:0") > value("B:Ac3*;T:Cb2;benchB:0;benchT:0")


def test_promotions_to_come_count():
    # a ball has its promotion (a return, an extra turn) still to come; a star that left the far level not
    assert value("B:Ab2;T:Cb2;benchB:0;benchT:0") > value("B:Ab2*;T:Cb2;benchB:0;benchT:0") + 2
    # a ball one step from promotion, a node free ahead: worth more with a captured ball to bring back (beyond
    # the bench's own worth) ...
    ready = value("B:Ac3;T:Cb2;benchB:1;benchT:0") - value("B:Ac3;T:Cb2;benchB:0;benchT:0")
    assert ready > LatticeModel.bench_weight + 2
    # ... and not when every node ahead of it is taken (T's pieces on its first level block it)
    blocked = value("B:Ac3;T:Ab4,Ad4,Bc4;benchB:1;benchT:0") - value("B:Ac3;T:Ab4,Ad4,Bc4;benchB:0;benchT:0")
    assert blocked == LatticeModel.bench_weight


def test_bench_counts_only_while_a_piece_can_still_promote():
    # B has a ball to promote, T only stars on its far level: B's captured pieces will all come back
    live = value("B:Bc2;T:Aa1*,Ca1*;benchB:3;benchT:6")
    assert live > value("B:Bc2;T:Aa1*,Ca1*;benchB:0;benchT:6") + 3 * LatticeModel.piece - 1e-9
    # B has only stars: its bench is lost, and T's bench (T has a ball) comes back
    assert value("B:Ab4*;T:Ca1*,Cc3;benchB:3;benchT:2") == value("B:Ab4*;T:Ca1*,Cc3;benchB:0;benchT:2")
    assert value("B:Ab4*;T:Ca1*,Cc3;benchB:0;benchT:2") < value("B:Ab4*;T:Ca1*,Cc3;benchB:0;benchT:0")

