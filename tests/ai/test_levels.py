"""The computer opponents of every game (ai/): the contract of `choose_move` and `levels`, legality at every
level, immediate wins, an untouched board, determinism, and the `stop` callable.

Searches here run on node caps (`max_nodes`), or on time budgets read on a clock the test moves
(tests/ai/watch.py): the whole file stays fast, and no figure depends on the machine's speed.
"""
from __future__ import annotations

import random

import pytest

import ai
import games
from ai.search import Limits
from tests.ai.watch import SearchWatch
from tests.support.clock import Clock

# small but real boards, so that random positions reach the middle and the end of games quickly
OPTIONS = {
    "trails": [{"size": 7}, {"size": 11}],
    "lattice": [{"size": "222"}, {"size": "323", "first": 2}],
    "towers": [{"size": 5}, {"size": 6, "rules": ["tower-out", "lock-split-tower"]}],
    "gamma": [{"width": 5, "height": 4, "players": 2, "areas": 2}, {"width": 6, "height": 5, "players": 3,
                                                                      "areas": 3}],
}


def snapshot(board) -> tuple:
    return (board.to_dict(), board.turn, board.legal_moves(), board.outcome(), repr(board.view()))


def random_positions(game_name: str, options: dict, count: int, seed: int) -> list:
    """Positions from seeded random games, spread over the opening, the middle and the end."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = games.get(game_name).new(**options)
        stop_at = rng.randrange(0, 60)
        for _ in range(stop_at):
            if board.turn is None:
                break
            board.push(rng.choice(board.legal_moves()))
        if board.turn is not None:
            out.append(board)
    return out


def test_levels_lists_every_game():
    for name in games.names():
        ids = [lv["id"] for lv in ai.levels(name)]
        assert ids[:3] == [1, 2, 3]
        assert all(isinstance(lv["label"], str) and lv["label"] for lv in ai.levels(name))
    assert [lv["id"] for lv in ai.levels("lattice")][3:] == ["classic-1", "classic-2", "classic-3"]
    assert [lv["id"] for lv in ai.levels("towers")][3:] == ["classic"]
    assert [lv["id"] for lv in ai.levels("trails")] == [1, 2, 3]
    assert [lv["id"] for lv in ai.levels("gamma")] == [1, 2, 3]
    with pytest.raises(KeyError):
        ai.levels("chess")


def test_bad_levels_and_finished_games_are_refused():
    board = games.get("trails").new(size=5)
    for bad in (0, 4, "classic", "classic-1", None, True, 2.5):
        with pytest.raises(ValueError):
            ai.choose_move(board, bad)
    assert ai.choose_move(board, "2", seed=1) in board.legal_moves()    # "2" is read as 2
    rng = random.Random(3)
    while board.turn is not None:
        board.push(rng.choice(board.legal_moves()))
    with pytest.raises(ValueError):
        ai.choose_move(board, 1)


@pytest.mark.parametrize("game_name", sorted(OPTIONS))
def test_every_level_plays_legal_moves_and_leaves_the_board_alone(game_name):
    levels = [lv["id"] for lv in ai.levels(game_name)] + ["random"]
    for k, options in enumerate(OPTIONS[game_name]):
        for i, board in enumerate(random_positions(game_name, options, 6, seed=10 * k + 1)):
            for level in levels:
                before = snapshot(board)
                move = ai.choose_move(board, level, seed=i, max_nodes=150, time_budget=2.0)
                assert move in board.legal_moves(), (game_name, options, level, board.moves)
                assert snapshot(board) == before, (game_name, level)


@pytest.mark.parametrize("game_name", sorted(OPTIONS))
def test_whole_games_between_levels_stay_legal(game_name):
    """Level 1 against level 3 (both seat orders), and level 2 against random, to the end (or 300 moves)."""
    options = OPTIONS[game_name][0]
    players = games.get(game_name).new(**options).players
    for pairing in ((1, 3), (3, 1), (2, "random")):
        board = games.get(game_name).new(**options)
        seats = {s: pairing[(s - 1) % 2] for s in range(1, players + 1)}
        for ply in range(300):
            if board.turn is None:
                break
            move = ai.choose_move(board, seats[board.turn], seed=ply, max_nodes=120)
            assert move in board.legal_moves()
            board.push(move)


def immediate_win_positions(game_name: str, options: dict, want: int, seed: int, limit: int = 4000) -> list:
    """Positions from seeded random games where the side to move has a move that wins at once and at least
    one move that does not: (board, winning moves)."""
    rng = random.Random(seed)
    found = []
    for _ in range(limit):
        board = games.get(game_name).new(**options)
        while board.turn is not None and len(found) < want:
            me = board.turn
            wins, others = [], []
            for m in board.legal_moves():
                board.push(m)
                o = board.outcome()
                (wins if o is not None and o.winners == (me,) else others).append(m)
                board.pop()
            if wins and others:
                found.append((board.copy(), set(wins)))
                break
            board.push(rng.choice(board.legal_moves()))
        if len(found) >= want:
            break
    return found


WIN_SETUPS = {
    "trails": {"size": 5, "towers": 3, "distance": 0},
    "lattice": {"size": "222", "end_on_elimination": True},
    "towers": {"size": 5},
    "gamma": {"width": 3, "height": 3, "players": 2, "areas": 1},
}


@pytest.mark.parametrize("game_name", sorted(WIN_SETUPS))
def test_every_level_takes_an_immediate_win(game_name):
    positions = immediate_win_positions(game_name, WIN_SETUPS[game_name], want=4, seed=7)
    assert len(positions) == 4, "the random walk should find positions with a winning move"
    for board, wins in positions:
        for level in (1, 2, 3):
            for seed in range(3):
                move = ai.choose_move(board, level, seed=seed, max_nodes=300)
                assert move in wins, (game_name, level, board.moves, wins, move)


def test_trails_constructed_win():
    # 5x5, one tower in the middle; Blue's head is at (1, 3) with Red's trail down the right edge:
    # turning up to (0, 3) leaves Red (at (4, 4), heading down) without a move, turning down does not
    board = games.get("trails").new(size=5, towers=1, distance=0)
    for m in ("down", "up", "right", "up", "right", "up"):
        board.push(m)
    assert str(board) == "1...2\n11112\n..T.2\n....2\n....2"
    assert board.turn == 1 and board.legal_moves() == ["down", "up"]
    for level in (1, 2, 3):
        for seed in range(4):
            assert ai.choose_move(board, level, seed=seed, max_nodes=200) == "up"


def test_towers_constructed_win_in_one_action():
    # Player 1's pawn at (2, 2) can walk onto Player 2's master at (2, 0) through the empty (2, 1)
    board = games.get("towers").board_class.from_position(
        5, board=[[-1, -1, -1, -1, 0],
                  [-1, 0, 0, -1, 0],
                  [0, 0, 1, 0, 0],
                  [0, 0, 0, 0, 0],
                  [1, 1, 1, 1, 1]],
        masters=[(2, 4), (2, 0)], reserve=[2, 2], current=1)
    assert "m2,2>2,0:1" in board.legal_moves()
    for level in (1, 2, 3, "classic"):
        assert ai.choose_move(board, level, seed=3, max_nodes=300) == "m2,2>2,0:1"


def test_lattice_constructed_win():
    # B to move on 222 with end_on_elimination: capturing T's last piece ends the game, B ahead
    board = games.get("lattice").new(size="222", end_on_elimination=True, start="B:Ab4*,Bb1,Cc1;T:Bc2;benchB:0;benchT:7")
    legal = board.legal_moves()
    assert any(":" in m for m in legal)
    for level in (1, 2, 3):
        move = ai.choose_move(board, level, seed=2, max_nodes=300)
        board.push(move)
        assert board.outcome() is not None and board.outcome().winners == (1,)
        board.pop()


def test_gamma_constructed_win_and_no_skip():
    # 2x1 board, one area each: player 1 on (0,0) takes the last field and the game ends 2-0... player 2
    # could only golden-move, so the game ends when nobody can move
    board = games.get("gamma").new(width=3, height=1, players=2, areas=1)
    board.push("0,0")
    board.push("2,0")
    # player 1 to move: (1,0) joins its area; afterwards player 2 can take nothing but a golden move
    for level in (1, 2, 3):
        move = ai.choose_move(board, level, seed=1, max_nodes=300)
        assert move != "skip"
        assert move in board.legal_moves()


@pytest.mark.parametrize("game_name", sorted(OPTIONS))
def test_same_seed_same_move(game_name):
    # levels 1 and 2 keep a cap on time whatever the node cap: on a clock that stands still, a loaded machine
    # cannot cut one search shorter than the other
    for board in random_positions(game_name, OPTIONS[game_name][0], 3, seed=5):
        for level in (1, 2, 3):
            a = ai.choose_move(board, level, seed=11, max_nodes=400, clock=Clock())
            b = ai.choose_move(board, level, seed=11, max_nodes=400, clock=Clock())
            assert a == b


@pytest.mark.parametrize("game_name", sorted(OPTIONS))
def test_stop_ends_a_long_search_quickly(game_name, monkeypatch):
    board = games.get(game_name).new(**OPTIONS[game_name][-1])     # an opening: nothing is decided yet
    calls = {"n": 0}

    def stop():
        calls["n"] += 1
        return calls["n"] > 3

    watch = SearchWatch(type(board), step=0.0).counting(monkeypatch)     # a clock that stands still
    move = ai.choose_move(board, 3, seed=1, time_budget=watch.budget(60.0), stop=stop, clock=watch)
    assert move in board.legal_moves()
    # it asked until `stop` said yes, then answered: no look after that, no more than one check's worth of
    # work between two looks (a node of Towers pushes the few actions of a turn)
    assert calls["n"] == 4
    assert watch.most_between <= 2 * Limits.CHECK_EVERY and watch.after_last_reading <= 2 * Limits.CHECK_EVERY


def test_stop_at_once_still_gives_a_legal_move():
    for name in games.names():
        board = random_positions(name, OPTIONS[name][0], 1, seed=2)[0]
        for level in (1, 2, 3):
            assert ai.choose_move(board, level, seed=1, stop=lambda: True) in board.legal_moves()


def assert_kept_to_the_budget(watch: SearchWatch, seconds: float) -> None:
    """The search looked at the clock about every CHECK_EVERY nodes, answered at its first look past the
    deadline, and did no more than one check's worth of work after its last look."""
    assert watch.readings <= seconds / watch.step + 3, watch.readings
    assert watch.late <= 1
    assert watch.most_between <= Limits.CHECK_EVERY and watch.after_last_reading <= Limits.CHECK_EVERY


def test_level_three_respects_its_time_budget(monkeypatch):
    board = games.get("lattice").new(size="333")
    watch = SearchWatch(type(board), step=0.001).counting(monkeypatch)
    move = ai.choose_move(board, 3, seed=1, time_budget=watch.budget(0.3), clock=watch)
    assert move in board.legal_moves()
    assert watch.late == 1                      # an open board: the search went on until the deadline
    assert_kept_to_the_budget(watch, 0.3)


@pytest.mark.parametrize("players", [1, 3, 4])
def test_gamma_levels_work_for_any_number_of_players(players):
    board = games.get("gamma").new(width=5, height=5, players=players, areas=2)
    rng = random.Random(players)
    for ply in range(200):
        if board.turn is None:
            break
        level = (1, 2, 3)[ply % 3]
        move = ai.choose_move(board, level, seed=rng.randrange(1000), max_nodes=150)
        assert move in board.legal_moves()
        assert move != "skip" or board.legal_moves() == ["skip"]
        board.push(move)
    assert board.turn is None


def test_gamma_on_a_big_board_stays_quick(monkeypatch):
    """3,600 cells: level 1 weighs each move once, levels 2 and 3 keep to their budget. (bench/ai_levels.py
    gives the seconds.)"""
    board = games.get("gamma").new(width=60, height=60, players=2, areas=5)
    board.push("30,30")
    legal = board.legal_moves()
    for level in (1, 2, 3):
        watch = SearchWatch(type(board), step=0.001).counting(monkeypatch)
        move = ai.choose_move(board, level, seed=1, time_budget=watch.budget(0.5), clock=watch)
        assert move in legal
        if level == 1:
            assert watch.pushes <= len(legal)
        else:
            assert_kept_to_the_budget(watch, 0.5)
