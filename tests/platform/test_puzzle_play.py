"""Playing puzzles (quadrille/puzzles/service.py, lines.py, ratings.py, store.py): lines checked on the engine,
Glicko-2 for puzzles and solvers, rated once per solver, the choice near a rating, the daily puzzle; on SQLite
and PostgreSQL. The doors (web/puzzle_pages.py) are in test_puzzle_api.py."""
from __future__ import annotations

import random
from datetime import date

import pytest

from quadrille.errors import ServiceError
from quadrille.matches.store import Storage
from quadrille.puzzles import library, lines, ratings
from quadrille.puzzles.service import NEAREST, PuzzleService, Solver
from quadrille.puzzles.store import PuzzleStore
from quadrille.ratings.glicko2 import Rating
from tests.support.clock import Clock
from tests.support.puzzles import longest_puzzle, solver_moves, wrong_first_move

DAY = 86400.0


@pytest.fixture
def storage(database):
    opened = Storage.open(database)
    yield opened
    opened.close()


@pytest.fixture
def clock():
    return Clock(1_000_000.0)


@pytest.fixture
def budget():
    """A guest address's rated results: admitted while `left` lasts."""
    left = {"count": 1000}

    def admit(client):
        left["count"] -= 1
        return left["count"] >= 0
    admit.left = left
    return admit


@pytest.fixture
def puzzles(storage, clock, budget):
    return PuzzleService(storage, "secret", repeat_after=30 * DAY, guest_budget=budget, clock=clock,
                         rng=random.Random(7))


# -- lines, on the engine (pure) ----------------------------------------------------------------------------
def test_a_right_line_gets_the_opponents_reply_and_the_solution_ends_solved():
    puzzle = longest_puzzle()
    solution, seat = puzzle["solution"], puzzle["turn"]
    board, at, mine = lines.position(puzzle), 0, []
    while at < len(solution):
        assert board.turn == seat
        mine.append(solution[at])
        board.push(solution[at])
        at += 1
        reply = []
        while at < len(solution) and board.turn not in (seat, None):
            reply.append(solution[at])
            board.push(solution[at])
            at += 1
        answer = lines.check(puzzle, mine)
        assert answer["correct"] is True and answer["reply"] == reply and len(answer["states"]) == 1 + len(reply)
        assert list(answer["states"][-1]["moves"]) == list(board.moves) and answer["states"][-1]["mode"] == "puzzle"
        assert answer["done"] == (at == len(solution))


def test_a_wrong_move_is_answered_with_the_solution_from_where_it_went_wrong():
    puzzle, wrong = wrong_first_move()
    answer = lines.check(puzzle, [wrong])
    assert answer["correct"] is False and answer["done"] is True and answer["at"] == 0
    assert answer["played"]["moves"][-1] == wrong
    assert [s["moves"][-1] for s in answer["states"]] == puzzle["solution"]


@pytest.mark.parametrize("game", library.games_with_puzzles())
def test_every_games_longest_puzzle_is_solved_by_its_solvers_moves_and_failed_by_another(game):
    """Towers' turns of several actions and Lattice's extra turns included: the solver sends its own moves only."""
    puzzle = longest_puzzle(game)
    mine = solver_moves(puzzle)
    for count in range(1, len(mine) + 1):
        answer = lines.check(puzzle, mine[:count])
        assert answer["correct"] is True and answer["done"] == (count == len(mine))
    assert answer["states"][-1]["moves"] == [*puzzle["moves"], *puzzle["solution"]]
    other, wrong = wrong_first_move(game)
    assert lines.check(other, [wrong])["correct"] is False


def test_an_illegal_move_or_a_move_past_the_solution_is_refused_not_counted():
    puzzle = longest_puzzle()
    with pytest.raises(lines.IllegalLine, match="not a legal move"):
        lines.check(puzzle, ["no-such-move"])
    mine = solver_moves(puzzle)
    with pytest.raises(lines.IllegalLine, match="more moves"):
        lines.check(puzzle, [*mine, mine[0]])


# -- ratings (pure) -----------------------------------------------------------------------------------------
def test_a_right_answer_raises_the_solver_and_lowers_the_puzzle_and_a_wrong_one_the_reverse():
    solver, puzzle = Rating(1500, 200, 0.06), ratings.puzzle_start(1500)
    assert ratings.solver_after(solver, puzzle, True).rating > 1500
    assert ratings.puzzle_after(puzzle, solver, True, guest=False).rating < 1500
    assert ratings.solver_after(solver, puzzle, False).rating < 1500
    assert ratings.puzzle_after(puzzle, solver, False, guest=False).rating > 1500


def test_a_guests_rating_is_clamped_refused_when_not_numbers_and_counts_for_less_on_a_puzzle():
    assert ratings.guest_rating(None) == Rating()
    assert ratings.guest_rating({"rating": 99999, "rd": 1, "volatility": 5}) == Rating(3500, 45, 0.12)
    assert ratings.guest_rating({"rating": -5}).rating == 400
    for nonsense in ({"rating": "2000"}, {"rating": True}, {"rd": float("nan")}, {"rating": float("inf")}, [1500],
                     "1500"):
        with pytest.raises(ServiceError) as refused:
            ratings.guest_rating(nonsense)
        assert refused.value.status == 400 and refused.value.error == "bad-rating"
    # a guest that claims a confident 3500 moves a puzzle less than an account of that rating would
    claimed, puzzle = ratings.guest_rating({"rating": 3500, "rd": 45}), ratings.puzzle_start(1500)
    by_guest = ratings.puzzle_after(puzzle, claimed, False, guest=True).rating - 1500
    by_account = ratings.puzzle_after(puzzle, claimed, False, guest=False).rating - 1500
    assert 0 < by_guest < by_account


# -- the service, on the database -----------------------------------------------------------------------------
def _solve(puzzles, puzzle, solver, guest=None):
    """The solver plays the whole solution, move by move, as the page does; the last answer."""
    mine = []
    for move in solver_moves(puzzle):
        mine.append(move)
        answer = puzzles.attempt(puzzle["id"], list(mine), solver, guest)
    return answer


def test_an_accounts_first_result_of_a_puzzle_is_rated_and_no_later_one(puzzles):
    puzzle = longest_puzzle()
    ann = Solver(account=1)
    first = _solve(puzzles, puzzle, ann)
    assert first["correct"] and first["done"] and first["rated"] and first["solution"] == puzzle["solution"]
    assert first["change"] > 0 and first["rating"]["rating"] > 1500
    after = puzzles.store.puzzle_ratings([puzzle["id"]])[puzzle["id"]]
    assert after["plays"] == 1 and after["wins"] == 0 and after["rating"] < ratings.puzzle_start(puzzle["rating"]).rating
    again = _solve(puzzles, puzzle, ann)
    assert again["rated"] is False and again["change"] == 0
    assert puzzles.store.puzzle_ratings([puzzle["id"]])[puzzle["id"]] == after
    assert puzzles.store.player_rating(1)["plays"] == 1
    assert puzzles.solver_rating(ann)["rating"] == first["rating"]["rating"]


def test_a_wrong_first_move_is_a_rated_loss_and_the_puzzle_wins(puzzles):
    puzzle, wrong = wrong_first_move()
    answer = puzzles.attempt(puzzle["id"], [wrong], Solver(account=2))
    assert answer["correct"] is False and answer["rated"] and answer["change"] < 0
    row = puzzles.store.puzzle_ratings([puzzle["id"]])[puzzle["id"]]
    assert row["plays"] == 1 and row["wins"] == 1 and row["rating"] > ratings.puzzle_start(puzzle["rating"]).rating


def test_a_guest_address_rates_a_puzzle_once_and_a_bot_hammering_past_its_budget_moves_nothing(puzzles, budget,
                                                                                             clock):
    puzzle, wrong = wrong_first_move()
    guest = puzzles.solver(None, "203.0.113.9")
    assert guest.client and "203.0.113.9" not in guest.client  # the address is kept keyed, never itself
    first = puzzles.attempt(puzzle["id"], [wrong], guest, {"rating": 1700, "rd": 90})
    assert first["rated"] and first["rating"]["rating"] < 1700  # the guest's own rating, answered updated
    moved = puzzles.store.puzzle_ratings()[puzzle["id"]]
    for _ in range(20):  # the same address again and again: answered, never rated again
        assert puzzles.attempt(puzzle["id"], [wrong], guest, {"rating": 1700})["rated"] is False
    assert puzzles.store.puzzle_ratings()[puzzle["id"]] == moved
    # another address, past its budget of rated results: answered unrated
    budget.left["count"] = 0
    other = puzzles.attempt(puzzle["id"], [wrong], puzzles.solver(None, "198.51.100.7"))
    assert other["rated"] is False and puzzles.store.puzzle_ratings()[puzzle["id"]] == moved
    # after PUZZLE_REPEAT_DAYS the first address's result is forgotten, and it may rate the puzzle again
    budget.left["count"] = 10
    clock.advance(31 * DAY)
    assert puzzles.attempt(puzzle["id"], [wrong], guest)["rated"] is True


def test_the_next_puzzle_is_near_the_solvers_rating_and_not_one_it_had_lately(puzzles, clock):
    game = library.games_with_puzzles()[0]
    pool = library.puzzles(game)
    ann = Solver(account=3)
    for target in (800.0, 2400.0):
        puzzles.store.update_player(3, Rating(), lambda _: Rating(target, 60, 0.06), True, clock())
        start = {p["id"]: ratings.puzzle_start(p["rating"]).rating for p in pool}
        nearest = sorted(start, key=lambda i: abs(start[i] - target))[:NEAREST]
        for _ in range(5):
            served = puzzles.next(ann, game)
            assert served["id"] in nearest and served["you"]["rating"] == target
            assert "solution" not in served and served["state"]["turn"] == served["turn"]
    had = set()
    for _ in range(min(6, len(pool) - 1)):  # a result keeps a puzzle away
        served = puzzles.next(ann, game)
        assert served["id"] not in had
        had.add(served["id"])
        _solve(puzzles, library.puzzle(served["id"]), ann)  # a result (a first move alone may be none yet)
    for p in pool:  # a result of every one lately: it serves one again rather than nothing
        if p["id"] not in had:
            puzzles.store.record({"account": 3}, p["id"], True, False, clock())
    assert puzzles.next(ann, game)["id"] in {p["id"] for p in pool}
    assert had <= puzzles.store.recent({"account": 3}, clock() - 30 * DAY)
    clock.advance(31 * DAY)  # long after: nothing is kept away any more
    assert puzzles.store.recent({"account": 3}, clock() - 30 * DAY) == set()
    with pytest.raises(ServiceError) as refused:
        puzzles.next(ann, "no-such-game")
    assert refused.value.status == 404


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_date(puzzles, storage, clock):
    day = date(2026, 11, 27)
    first = puzzles.daily(day)
    other = PuzzleService(storage, "another secret", clock=clock)
    assert other.daily(day)["id"] == first["id"] and first["date"] == "2026-11-27"
    days = {puzzles.daily(date(2026, 12, d))["id"] for d in range(1, 29)}
    assert len(days) > 1


def test_two_results_of_one_puzzle_at_once_both_count(storage):
    """The compare-and-set on `plays`: a result that lands while another is computed is not lost."""
    store = PuzzleStore(storage)
    start = Rating(1500, 250, 0.06)
    store.update_puzzle("p-1", start, lambda r: Rating(r.rating + 10, r.rd, r.volatility), False)
    interleaved = []

    def slow_change(rating):
        if not interleaved:  # another process's result lands between this one's read and its write
            interleaved.append(store.update_puzzle("p-1", start, lambda r: Rating(r.rating + 1, r.rd, r.volatility), True))
        return Rating(rating.rating + 100, rating.rd, rating.volatility)
    store.update_puzzle("p-1", start, slow_change, False)
    row = store.puzzle_ratings(["p-1"])["p-1"]
    assert row["plays"] == 3 and row["wins"] == 1 and row["rating"] == 1500 + 10 + 1 + 100


def test_a_deleted_account_leaves_no_puzzle_rows(puzzles, storage):
    puzzle, wrong = wrong_first_move()
    puzzles.attempt(puzzle["id"], [wrong], Solver(account=9))
    assert puzzles.store.player_rating(9) is not None
    with storage.engine.begin() as conn:
        puzzles.store.forget(conn, 9)
    assert puzzles.store.player_rating(9) is None
    assert puzzles.store.has_result({"account": 9}, puzzle["id"]) is False
