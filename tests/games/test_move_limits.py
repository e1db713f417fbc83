"""Each game knows its longest real game: `Game.move_limit(options)` (from the optional `Game.longest`), the most
moves (entries of `board.moves`) a real game with these options can take. It must lie above every recorded game
(../shared/reference and the gamma interactive suite), seeded random games and quick computer games, and stay in
the low tens of thousands at most on the largest boards the server offers."""
from __future__ import annotations

import random

import pytest

import ai
import games
from games.base import DEFAULT_MOVE_LIMIT, Board, Game, Option
from tests.support import gamma_suites as suites
from tests.support.paths import SHARED, read_jsonl

SEAT = {"B": 1, "T": 2}


def limit(name: str, **options) -> int:
    return games.get(name).move_limit(options)


def play_out(board, choose, cap: int) -> int:
    """Play `board` to its end with choose(board) -> move, at most `cap` moves; the number of moves."""
    while board.turn is not None and len(board.moves) < cap:
        board.push(choose(board))
    return len(board.moves)


# ------------------------------------------------------------------------------------------- the contract

class _Board(Board):
    game_name = "plain"

    def __init__(self, options):
        self.options, self.players, self._moves, self._turn = options, 2, [], 1


def test_a_game_without_longest_gets_the_default():
    plain = Game("plain", "Plain", (2, 2), {"size": Option(3, "int", range=(1, 9))}, _Board)
    assert plain.longest is None
    assert plain.move_limit() == plain.move_limit({"size": 9}) == DEFAULT_MOVE_LIMIT == 10_000
    with pytest.raises(ValueError, match="size"):
        plain.move_limit({"size": 10})             # options are checked as by new()
    doubled = Game("plain", "Plain", (2, 2), {"size": Option(3, "int", range=(1, 9))}, _Board,
                   longest=lambda o: 2 * o["size"])
    assert doubled.move_limit() == 6 and doubled.move_limit({"size": 9}) == 18


def test_every_game_knows_its_longest_game():
    for name in games.names():
        game = games.get(name)
        assert callable(game.longest), name
        assert game.move_limit() == game.move_limit({}) == game.move_limit(game.normalise({})) > 0
        assert isinstance(game.move_limit(), int)


def test_the_formulas():
    assert [limit("trails", size=n) for n in (3, 11, 25)] == [7, 119, 623]
    assert [limit("lattice", size=s) for s in ("222", "322", "223", "323", "333")] == [640, 960, 960, 1440, 2160]
    assert [limit("towers", size=n) for n in (5, 6, 10, 32)] == [1500, 1800, 3000, 9600]
    assert limit("towers", size=6, rules=["tower-out", "import-first"]) == 1800
    assert limit("gamma") == 2 * (100 + 2 + 1) + 100
    assert limit("gamma", width=2, height=2, players=2, areas=1) == 2 * (4 + 2 + 1) + 100


def test_the_largest_boards_the_server_offers_stay_in_the_tens_of_thousands():
    def largest(name):
        game = games.get(name)
        options = {}
        for key, opt in game.options.items():
            if opt.kind == "int":
                options[key] = (opt.form or opt.range)[1]
            elif opt.kind == "choice" and key == "size":
                options[key] = opt.choices[-1]
        return game.move_limit(options)

    assert {name: largest(name) for name in games.names()} == {
        "trails": 623,            # 25 x 25
        "lattice": 2160,          # 333
        "towers": 3000,           # 10 x 10
        "gamma": 25972,           # 40 x 40, 16 players
    }


# ------------------------------------------------------------------------------------------- recorded games

def test_trails_reference_games():
    for g in read_jsonl(SHARED / "reference" / "trails.jsonl"):
        n = limit("trails", size=g["size"], towers=g["towers_param"], distance=g["distance"])
        assert len(g["plies"]) <= n, g["game"]


def test_lattice_reference_games():
    for g in read_jsonl(SHARED / "reference" / "lattice.jsonl"):
        board = games.get("lattice").new(size=g["size"], first=SEAT[g["first"]])
        for t in g["turns"]:
            if t["chosen"] is not None:
                board.push(t["chosen"])
            if t.get("return") and t["return"].get("chosen"):
                board.push("+" + t["return"]["chosen"])
        assert board.turn is None, g["game"]
        # the longest recorded game takes a sixth of the limit at most
        assert 5 * len(board.moves) <= board_limit(board), g["game"]


def board_limit(board) -> int:
    return games.get(board.game_name).move_limit(board.options)


def test_towers_reference_games():
    longest = 0
    for g in read_jsonl(SHARED / "reference" / "towers.jsonl"):
        actions = sum(len(t["actions"]) for t in g["turns"])
        n = limit("towers", size=g["size"], rules=g["rules"])
        assert 5 * actions <= n, g["id"]
        longest = max(longest, actions / g["size"])
    assert longest < 35                              # actions per unit of size; the limit allows 300


def test_gamma_interactive_suite():
    # 955 key scripts of the assignment's interactive mode, some passing tens of thousands of times: each
    # MOVE, GOLDEN and SKIPTURN command is one move at most; the few scripts with more commands than the
    # limit are replayed to count their moves
    root = SHARED / "gamma_tests" / "jmolinski-ipp-2020-testy" / "interactive"
    cases = suites.interactive_cases(root)
    assert len(cases) == 955
    replayed = 0
    for path in cases:
        commands, _ = suites.load(path)
        start = [c for c in commands if c[0] == "START"]
        if not start:
            continue
        w, h, p, a = start[0][1:]
        n = limit("gamma", width=w, height=h, players=p, areas=a)
        bound = sum(c[1] if len(c) > 1 else 1 for c in commands if c[0] in ("SKIPTURN", "SKIPTURNS")) + \
            sum(1 for c in commands if c[0] in ("MOVE", "GOLDEN"))
        if bound > n:
            assert len(replay_gamma(commands).moves) <= n, path.name
            replayed += 1
    assert replayed <= 5


def replay_gamma(commands):
    """The turn-based board at the end of an interactive script (as tests/support/gamma_suites.replay)."""
    board = None
    x = y = 0
    for name, *args in commands:
        if name == "START":
            board = games.get("gamma").new(width=args[0], height=args[1], players=args[2], areas=args[3])
            continue
        if board is None or board.turn is None or name == "END":
            break
        if name == "GOTO":
            x, y = args
        elif name in ("UP", "DOWN", "RIGHT", "LEFT"):
            dx, dy = {"UP": (0, 1), "DOWN": (0, -1), "RIGHT": (1, 0), "LEFT": (-1, 0)}[name]
            x = min(max(x + dx, 0), board.core.width - 1)
            y = min(max(y + dy, 0), board.core.height - 1)
        elif name in ("MOVE", "GOLDEN"):
            if board.is_legal(("g" if name == "GOLDEN" else "") + f"{x},{y}"):
                board.push(("g" if name == "GOLDEN" else "") + f"{x},{y}")
        elif name in ("SKIPTURN", "SKIPTURNS"):
            for _ in range(args[0] if args else 1):
                if board.turn is None:
                    break
                board.push("skip")
    return board


# ------------------------------------------------------------------------------------------- random games

@pytest.mark.parametrize("size", [3, 4, 5, 8, 11, 16, 25])
def test_random_trails_games(size):
    rng = random.Random(size)
    for towers in (0, 3, 12):
        for _ in range(20):
            board = games.get("trails").new(size=size, towers=towers)
            cap = board_limit(board)
            n = play_out(board, lambda b: rng.choice(b.legal_moves()), cap + 1)
            assert n <= cap and board.turn is None


@pytest.mark.parametrize("size", ["222", "322", "223", "323", "333"])
def test_random_lattice_games(size):
    rng = random.Random(size)
    for _ in range(30):
        board = games.get("lattice").new(size=size, first=rng.choice((1, 2)))
        cap = board_limit(board)
        assert 5 * play_out(board, lambda b: rng.choice(b.legal_moves()), cap + 1) <= cap
        assert board.turn is None


@pytest.mark.parametrize("size", [5, 6, 8, 10])
def test_random_towers_games(size):
    rng = random.Random(size)
    for _ in range(25):
        board = games.get("towers").new(size=size)
        cap = board_limit(board)
        assert play_out(board, lambda b: rng.choice(b.legal_moves()), cap + 1) <= cap
        assert board.turn is None


@pytest.mark.parametrize("w,h,players,areas", [(2, 2, 2, 1), (3, 3, 4, 1), (5, 5, 3, 1), (10, 10, 2, 3),
                                                (10, 10, 4, 2), (8, 5, 16, 2)])
def test_random_gamma_games(w, h, players, areas):
    # uniformly random players pass far more often than real ones (skip is one of few moves on a full board)
    rng = random.Random(w * 1000 + players)
    for _ in range(30):
        board = games.get("gamma").new(width=w, height=h, players=players, areas=areas)
        cap = board_limit(board)
        assert play_out(board, lambda b: rng.choice(b.legal_moves()), cap + 1) <= cap
        assert board.turn is None


def test_gamma_games_without_passes_stay_within_fields_and_golden_moves():
    # placements and golden moves alone: at most fields + players, whatever the order
    rng = random.Random(3)
    for w, h, players in ((4, 4, 2), (6, 3, 5), (7, 7, 3)):
        board = games.get("gamma").new(width=w, height=h, players=players, areas=2)
        n = play_out(board, lambda b: rng.choice([m for m in b.legal_moves() if m != "skip"]), 10**6)
        assert n <= w * h + players and board.turn is None


# ------------------------------------------------------------------------------------------- computer games

def test_computer_games():
    # the originals' own opponents (deterministic, quick) and the search levels under small budgets
    for size, (a, b) in (("333", ("classic-1", "classic-3")), ("222", ("classic-2", 1)), ("323", (2, "classic-3"))):
        board = games.get("lattice").new(size=size)
        seats = {1: a, 2: b}
        n = play_out(board, lambda bd: ai.choose_move(bd, seats[bd.turn], seed=len(bd.moves), time_budget=0.01),
                     board_limit(board) + 1)
        assert 5 * n <= board_limit(board) and board.turn is None
    for size in (5, 8, 10):
        board = games.get("towers").new(size=size)
        seats = {1: "classic", 2: 1} if size % 2 else {1: 1, 2: "classic"}
        n = play_out(board, lambda bd: ai.choose_move(bd, seats[bd.turn], seed=len(bd.moves), time_budget=0.01),
                     board_limit(board) + 1)
        assert 5 * n <= board_limit(board) and board.turn is None
    board = games.get("trails").new(size=25, towers=12)
    n = play_out(board, lambda bd: ai.choose_move(bd, 1, seed=len(bd.moves), time_budget=0.01), 10**6)
    assert n <= board_limit(board)
    board = games.get("gamma").new(width=12, height=12, players=4, areas=3)
    n = play_out(board, lambda bd: ai.choose_move(bd, 1, seed=len(bd.moves), time_budget=0.01), 10**6)
    assert n <= board_limit(board) and board.turn is None


def test_the_classic_towers_opponent_against_itself_ends_in_a_draw():
    # the original's AI-1 imported a pawn and ended its turn ("to avoid draw games", rules/towers.md §5) over and
    # over, so against itself it never ended; it now passes when neither side changes anything, and four passes
    # in a row draw (the engine's rule), long before the move limit
    for size, rules in ((6, []), (5, ["no-first-lock-master"]), (8, ["tower-out"])):
        board = games.get("towers").new(size=size, rules=rules)
        n = play_out(board, lambda bd: ai.choose_move(bd, "classic", seed=len(bd.moves)), board_limit(board))
        assert n < 10 and board.outcome().reason == "draw-passes" and board.outcome().winners == ()
