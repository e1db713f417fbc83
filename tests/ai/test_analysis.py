"""The computer analysis (ai/analysis.py): right where the answer is known, and on one scale for every game.

Known answers: positions of small boards with a forced win that the exhaustive solver (tests/ai/solver.py)
proves at test time. The analysis's best move must be one of the solver's winning moves, and a move the
solver proves throws the win away must be classed "blunder". The positions come from seeded games between
the computer's weak levels, cut a few moves before their end.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ai.analysis as analysis
import games

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver import Solver  # noqa: E402

NODES = 3000          # enough for the small boards below; the tests stay fast

# (game, options, the moves to the position, a move of the mover there that throws its win away)
KNOWN = [
    ("trails", {"size": 5, "towers": 0}, ["down"], "up"),
    ("trails", {"size": 6, "towers": 2}, ["right", "left", "down", "left", "right"], "left"),
    ("trails", {"size": 6, "towers": 2}, ["right", "up", "down", "left", "right", "left", "right", "up", "down",
                                          "right"], "right"),
    ("gamma", {"width": 4, "height": 3}, ["1,1", "g1,1", "0,2", "2,0", "1,0", "1,2"], "2,2"),
    ("gamma", {"width": 4, "height": 3}, ["3,2", "0,2", "1,1", "1,0", "skip", "g3,2", "3,1", "2,2", "g1,0", "1,2",
                                          "3,0", "2,0", "skip"], "skip"),
    ("gamma", {"width": 4, "height": 3, "players": 3}, ["3,1", "skip", "1,2", "2,2", "3,2", "0,2", "1,1", "g3,1", "g1,1",
                                          "g1,1", "1,0", "2,1", "0,0"], "2,0"),
    ("gamma", {"width": 4, "height": 3, "players": 3}, ["1,1", "2,2", "skip", "g2,2", "g1,1", "0,1", "3,1", "0,0",
                                                        "1,2", "3,0", "skip"], "1,0"),
    ("gamma", {"width": 4, "height": 3, "players": 3}, ["3,2", "0,2", "0,1", "1,1", "g3,2", "g3,2", "3,1", "3,0",
                                                        "2,0"], "g0,1"),
    ("lattice", {}, ["Db1-Dc2", "Bc4-Ac3", "Bd1-Cd2", "Cd4-Dd3", "Dc2-Db3", "Da4:Dc2", "Dd1:Db3", "Dd3:Bd1", "+Cd4",
                     "Dc4:Da2", "Bb1-Ab2", "Cd4-Bd3", "Aa1-Ba2", "Ac3:Aa1:Ca3", "Da2-Db1", "Cb4-Cc3", "Ac1-Ab2",
                     "Ba4-Bb3", "Ab2:Cb4:Cd2", "+Aa1", "Cd2-Cc3", "Ca3-Cb2", "Cc1:Ca3", "Ad4-Ac3", "Aa1-Ab2",
                     "Ac3:Aa1", "+Cb4", "Cb4:Cd2", "Ca3-Cb4", "+Bb1", "Ca1-Da2", "Cd2-Cc1", "+Da4", "Bd3-Bc2",
                     "Bb1:Bd3", "Ab4-Ac3", "Bd3-Cd4", "+Ac1", "Ac1-Bc2", "Bd1:Bb3", "Cb4:Ab2:Ad4", "Da4-Ca3",
                     "Da2:Ba4", "+Ca1"], "Ca1-Cb2"),
    ("lattice", {}, ["Bb1-Cb2", "Bc4-Bb3", "Aa1-Ab2", "Ad4-Bd3", "Ca1-Da2", "Cb4-Cc3", "Ab2:Cb4:Cd2:Ad4", "Ac1-Ad2",
                     "Cd4-Dd3", "Cc1-Dc2", "Ba4-Aa3", "Dc2-Cc3", "Dc4:Bc2", "Bd1:Bb3", "Aa3-Ab2", "Bb3-Ba4", "+Cc1",
                     "Cc1-Bc2", "Ab2-Aa1", "+Cd4", "Dd3-Cd2", "Dd1:Bd3", "Ab4-Ac3", "Ad2:Ab4", "Bd3-Bc4", "Db1-Dc2",
                     "Cd4-Dd3", "Dc2-Cc3", "Dd3-Cd2", "Cc3-Dc4", "Bc2-Cc3", "Cd2:Cb4", "Cb2-Ca3", "Da4:Ba2",
                     "Da2-Db3", "Ba2-Ca1", "+Da4", "Da4:Dc2", "Dc2-Db1", "+Da4"], "Cb4-Cc3"),
    ("towers", {"size": 5}, ["m2,3>2,2:1", "m3,1>3,0:1", "m3,3>3,2:1", "m1,1>1,2:1", "m1,3>2,3:1", "m2,1>2,2:1",
                             "m4,4>3,4:1", "m0,0>1,0:1", "m4,3>3,3:1", "m2,2>2,3:1", "m3,3>2,3:1", "m2,0>2,1:1", "m2,4>1,4:1", "m2,1>1,1:1", "m2,3>1,3:1", "m1,4>1,3:1"], "end"),
    ("towers", {"size": 5}, ["m4,4>4,3:1", "m3,0>3,1:1", "m3,3>4,3:1", "i1", "end", "m1,1>1,0:1", "m0,4>0,3:1",
                             "m2,1>2,0:1", "m1,4>1,3:1", "m0,1>0,2:1", "end", "m2,3>2,4:1", "m2,0>3,0:1", "m0,0>0,1:1",
                             "m1,3>1,4:2", "m0,2>2,2:1", "m2,4>2,2:1", "m4,0>3,0:1", "m0,1>0,2:1"], "end"),
]
# Towers is too big to solve to the end: its wins are a capture of the master within a few actions, and its
# throw-away moves hand the opponent a capture of ours (proved within as many actions)
DEPTH = {"trails": 60, "gamma": 40, "lattice": 40, "towers": 3}


def position(game, options, moves):
    board = games.get(game).new(**options)
    for move in moves:
        board.push(move)
    return board


@pytest.mark.parametrize("game,options,moves,throw", KNOWN, ids=[f"{k[0]}-{i}" for i, k in enumerate(KNOWN)])
def test_the_best_move_wins_and_throwing_the_win_away_is_a_blunder(game, options, moves, throw):
    board = position(game, options, moves)
    seat, depth = board.turn, DEPTH[game]
    solver = Solver(board)
    winning = solver.winning_moves(board, depth)
    assert winning and throw in board.legal_moves() and throw not in winning
    if game == "towers":                          # the solver proves the loss that follows
        board.push(throw)
        assert solver.loses(board, seat, depth)
        board.pop()

    evaluation = analysis.evaluate(board, max_nodes=NODES)
    assert evaluation.best in winning

    report = analysis.analyse(game, options, moves + [throw], max_nodes=NODES, from_ply=len(moves))
    last = report["plies"][-1]
    assert (last["ply"], last["move"], last["seat"], last["class"]) == (len(moves) + 1, throw, seat, "blunder")
    assert last["best"] in winning
    assert report["summary"][str(seat)]["blunder"] == 1


SHAPES = [("trails", {"size": 7}), ("lattice", {}), ("towers", {"size": 5}), ("gamma", {"width": 5, "height": 4}),
          ("gamma", {"width": 4, "height": 4, "players": 3})]


def some_moves(game, options, count):
    """The first `count` moves of a game between the analysis's own best moves (short searches)."""
    board = games.get(game).new(**options)
    while len(board.moves) < count and board.outcome() is None:
        board.push(analysis.evaluate(board, max_nodes=200).best)
    return list(board.moves)


@pytest.mark.parametrize("game,options", SHAPES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(SHAPES)])
def test_an_analysis_has_the_shape_and_ranges_of_the_interface(game, options):
    moves = some_moves(game, options, 8)
    calls = []
    report = analysis.analyse(game, options, moves, max_nodes=400, progress=lambda d, t: calls.append((d, t)))
    board = games.get(game).new(**options)
    seats = [str(s) for s in range(1, board.players + 1)]
    assert set(report) == {"start", "plies", "summary"}
    assert -analysis.SCALE <= report["start"] <= analysis.SCALE
    assert calls == [(i, len(moves)) for i in range(1, len(moves) + 1)]
    assert sorted(report["summary"]) == seats
    for counts in report["summary"].values():
        assert set(counts) == {"inaccuracy", "mistake", "blunder"}
    for k, (ply, move) in enumerate(zip(report["plies"], moves), 1):
        legal = board.legal_moves()
        assert ply["ply"] == k and ply["move"] == move and ply["seat"] == board.turn
        assert ply["best"] in legal and ply["line"][0] == ply["best"]
        assert ply["class"] in analysis.CLASSES
        assert (ply["class"] == "best") == (move == ply["best"])
        board.push(move)
        assert sorted(ply["evals"]) == seats
        assert all(isinstance(v, int) and -analysis.SCALE <= v <= analysis.SCALE for v in ply["evals"].values())
        assert ply["eval"] == ply["evals"]["1"]
        if board.players == 2:
            assert ply["evals"]["2"] == -ply["eval"]
    counted = {s: {c: 0 for c in ("inaccuracy", "mistake", "blunder")} for s in seats}
    for ply in report["plies"]:
        if ply["class"] in counted[str(ply["seat"])]:
            counted[str(ply["seat"])][ply["class"]] += 1
    assert report["summary"] == counted


@pytest.mark.parametrize("game,options", SHAPES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(SHAPES)])
def test_evaluate_is_deterministic_and_leaves_the_board_alone(game, options):
    board = position(game, options, some_moves(game, options, 5))
    record = board.to_dict()
    first = analysis.evaluate(board, max_nodes=600)
    assert board.to_dict() == record
    assert analysis.evaluate(board, max_nodes=600) == first
    assert first.best in board.legal_moves() and first.line[0] == first.best
    assert 0 < first.nodes <= 600 + board.players
    assert sorted(first.scores) == list(range(1, board.players + 1)) and first.score == first.scores[1]
    replay = board.copy()
    for move in first.line:                 # the line is a legal sequence from the position
        replay.push(move)
    ranked = analysis.rank_moves(board, max_nodes=600)
    assert board.to_dict() == record
    assert sorted(m for m, _ in ranked) == sorted(board.legal_moves())
    assert [v for _, v in ranked] == sorted((v for _, v in ranked), reverse=True)
    assert analysis.rank_moves(board, max_nodes=600) == ranked


def test_rank_moves_puts_the_winning_moves_first():
    game, options, moves, throw = KNOWN[7]           # lattice: two of the mover's moves keep the win
    board = position(game, options, moves)
    winning = Solver(board).winning_moves(board, DEPTH[game])
    ranked = analysis.rank_moves(board, max_nodes=NODES)
    assert {m for m, _ in ranked[:len(winning)]} == set(winning)
    assert ranked[0][1] == analysis.SCALE
    assert dict(ranked)[throw] < analysis.SCALE - analysis.thresholds(game)["blunder"]


def test_a_finished_game_is_scored_by_its_result():
    game, options, moves, _ = KNOWN[0]
    board = position(game, options, moves)
    while board.outcome() is None:
        board.push(analysis.evaluate(board, max_nodes=NODES).best)
    winner = board.outcome().winners[0]
    evaluation = analysis.evaluate(board)
    assert evaluation.best is None and evaluation.line == [] and evaluation.nodes == 0
    assert evaluation.scores == {winner: analysis.SCALE, 3 - winner: -analysis.SCALE}
    assert analysis.rank_moves(board) == []


def test_stop_ends_an_analysis_and_progress_reports_each_ply():
    moves = some_moves("trails", {"size": 7}, 10)
    calls = []

    def stop():
        return len(calls) >= 3

    with pytest.raises(analysis.Stopped):
        analysis.analyse("trails", {"size": 7}, moves, max_nodes=300, stop=stop,
                         progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 10), (2, 10), (3, 10)]


def test_gamma_with_three_players_scores_every_seat_from_its_own_side():
    options = {"width": 4, "height": 3, "players": 3}
    game, _, moves, throw = KNOWN[5]
    board = position(game, options, moves)
    evaluation = analysis.evaluate(board, max_nodes=NODES)
    assert sorted(evaluation.scores) == [1, 2, 3]
    seat = board.turn
    assert evaluation.scores[seat] == analysis.SCALE
    # the mover's win is the others' loss: each of them, from its own side, is behind
    assert all(evaluation.scores[s] < 0 for s in (1, 2, 3) if s != seat)
    report = analysis.analyse(game, options, moves + [throw], max_nodes=NODES, from_ply=len(moves))
    assert report["plies"][-1]["class"] == "blunder"        # classed by the mover's own score
    assert report["summary"][str(seat)]["blunder"] == 1
    assert sum(report["summary"][str(s)]["blunder"] for s in (1, 2, 3) if s != seat) == 0


def test_every_game_has_its_own_analysis_numbers():
    for name in games.names():
        numbers = analysis.thresholds(name)
        assert set(games.part(name, "computer").ANALYSIS) == {"k", "inaccuracy", "mistake", "blunder"}
        assert 0 < numbers["inaccuracy"] < numbers["mistake"] < numbers["blunder"] < analysis.SCALE
        assert numbers["k"] > 0


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        analysis.analyse("chess", {}, [])
    with pytest.raises(ValueError):
        analysis.analyse("trails", {"size": 99}, [])
    with pytest.raises(games.IllegalMove):
        analysis.analyse("trails", {"size": 5}, ["down", "down", "sideways"], max_nodes=50)
