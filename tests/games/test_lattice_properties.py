"""Property tests on random Lattice Checkers games: push/pop are exact inverses, the pieces of each side on
the lattice plus its captured ones stay constant, the turn never names a side without an action, records
and copies rebuild the same board, garbage moves change nothing, and the node values and piece sets that
search models read (`node_values`, `nodes_of`) agree with the position string after every push and pop."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import IllegalMove
from games.lattice import lattice, parse_pos

SIZES = ("222", "322", "223", "323", "333")
PIECES = {"222": 8, "322": 12, "223": 16, "323": 24, "333": 36}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def light(board):
    return (board.turn, board.pos(), board.legal_moves(), board.moves, board.outcome(), board.pending_return,
            board.extra_turn, board.passed, board.last, board.bench, board.on_board())


def full(board):
    return light(board) + (json.dumps(board.view(), sort_keys=True),)


def check_invariants(board, pieces):
    cells, _ = parse_pos(lattice(board.options["size"]), board.pos())
    assert list(board.node_values()) == list(cells)
    assert board.nodes_of(1) == {n for n, v in enumerate(cells) if v > 0}
    assert board.nodes_of(2) == {n for n, v in enumerate(cells) if v < 0}
    on, bench = board.on_board(), board.bench
    assert on[0] + bench[0] == pieces and on[1] + bench[1] == pieces
    legal = board.legal_moves()
    assert legal == sorted(set(legal))
    if board.turn is None:
        assert board.outcome() is not None and legal == []
    else:
        assert board.outcome() is None and legal
        if board.pending_return:
            assert all(m.startswith("+") for m in legal)
            assert board.last["seat"] == board.turn and board.last["promoted"]
        else:
            captures = [":" in m for m in legal]
            assert all(captures) or not any(captures)


game_params = st.tuples(st.sampled_from(SIZES), st.sampled_from((1, 2)), st.booleans())


@SETTINGS
@given(params=game_params, data=st.data())
def test_push_pop_inverse_and_piece_counts(params, data):
    size, first, eoe = params
    board = games.get("lattice").new(size=size, first=first, end_on_elimination=eoe)
    start = full(board)
    pieces = PIECES[size]
    history = []
    steps = data.draw(st.integers(min_value=0, max_value=400), label="steps")
    for step in range(steps):
        if board.turn is None:
            break
        check_invariants(board, pieces)
        legal = board.legal_moves()
        before = full(board) if step % 25 == 0 else light(board)
        snap = full if step % 25 == 0 else light
        # try a few alternatives, each undone at once
        for alt in data.draw(st.lists(st.sampled_from(legal), max_size=3), label="alternatives"):
            board.push(alt)
            check_invariants(board, pieces)
            assert board.pop() == alt
            assert snap(board) == before
        move = data.draw(st.sampled_from(legal), label="move")
        history.append(before if snap is light else before[:-1])
        board.push(move)
    check_invariants(board, pieces)
    # the record rebuilds the same board
    again = games.from_dict(json.loads(json.dumps(board.to_dict())))
    assert full(again) == full(board)
    # a copy is the same board and independent of it
    twin = board.copy()
    assert full(twin) == full(board)
    # pop everything: back through the same states to the start
    for before in reversed(history):
        board.pop()
        assert light(board) == before
    assert full(board) == start


@SETTINGS
@given(params=game_params, seed=st.randoms(use_true_random=False),
       junk=st.lists(st.one_of(st.text(max_size=12), st.integers(), st.none(),
                               st.text(alphabet="ABCDEFabcdef123456-:+*", max_size=16)), max_size=8))
def test_illegal_moves_change_nothing(params, seed, junk):
    size, first, eoe = params
    board = games.get("lattice").new(size=size, first=first, end_on_elimination=eoe)
    for _ in range(seed.randrange(120)):
        if board.turn is None:
            break
        board.push(seed.choice(board.legal_moves()))
    before = full(board)
    legal = set(board.legal_moves())
    for move in junk:
        if move in legal:
            continue
        try:
            board.push(move)
        except IllegalMove as exc:
            assert exc.reason and isinstance(exc.reason, str)
        else:
            raise AssertionError(f"{move!r} was accepted but is not in the legal list")
        assert full(board) == before


@SETTINGS
@given(params=game_params, seed=st.randoms(use_true_random=False))
def test_every_legal_move_is_accepted_and_the_game_ends(params, seed):
    size, first, eoe = params
    board = games.get("lattice").new(size=size, first=first, end_on_elimination=eoe)
    while board.turn is not None:
        legal = board.legal_moves()
        for m in legal:
            board.push(m)
            board.pop()
        board.push(seed.choice(legal))
        assert len(board.moves) < 5000
    out = board.outcome()
    assert out.scores == board.scores()
    assert out.winners == ((1,) if out.scores[0] > out.scores[1] else (2,) if out.scores[1] > out.scores[0] else ())
    assert out.reason in ("stuck", "eliminated")
    if out.reason == "eliminated":
        assert eoe and 0 in board.on_board()
