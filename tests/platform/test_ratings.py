"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system"), and who the
leaderboards rank: rated games played out on a real database, a farm of alts among them."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import insert, update

from quadrille.infra.schema import accounts_table, rated_matches_table
from quadrille.matches.store import Storage
from quadrille.ratings import RatingService
from quadrille.ratings.glicko2 import Rating, rate
from quadrille.ratings.standing import has_opponents


def test_the_papers_example():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_a_period_without_games_widens_the_deviation():
    assert rate(Rating(), [(Rating(), 1)]).rating > 1500 > rate(Rating(), [(Rating(), 0)]).rating
    assert rate(Rating(), [(Rating(), 0.5)]).rating == pytest.approx(1500)
    assert rate(Rating(1500, 100, 0.06), []).rd > 100
    assert rate(Rating(), []).rd == 350  # never beyond a newcomer's


# -- who the leaderboards rank (quadrille/ratings/standing.py), on SQLite and PostgreSQL ---------------------
DAY = 86_400.0
WIN, LOSS = {"winners": [1], "reason": "resigned"}, {"winners": [2], "reason": "resigned"}


class League:
    """Accounts and a RatingService on a real database, with a clock the test turns: rated games are
    registered and ended as the match service's listener would end them (both players moved)."""

    def __init__(self, database):
        self.storage = Storage(database)
        self.now = 1_700_000_000.0
        self.ratings = RatingService(self.storage, pair_limit=3, clock=lambda: self.now)
        self.ids: dict[str, int] = {}
        self.played = 0

    def account(self, name: str) -> int:
        with self.storage.engine.begin() as conn:
            self.ids[name] = conn.execute(insert(accounts_table).values(
                name=name, name_key=name, password_hash="x", seat_salt="salt", created=self.now)).inserted_primary_key[0]
        return self.ids[name]

    def game(self, first: str, second: str, first_wins: bool, seats: dict | None = None) -> bool:
        """A rated Trails game: `first` in seat 1; True when it was rated (not past the pair's day)."""
        self.played += 1
        match = f"m{self.played}"
        self.ratings.register(match, "trails", seats or {1: self.ids[first], 2: self.ids[second]})
        return self.ratings.apply(match, WIN if first_wins else LOSS, movers=[1, 2])

    def standing(self, name: str) -> dict:
        return self.ratings.ratings_of(self.ids[name])["trails"]

    def board(self) -> list[str]:
        return [p["name"] for p in self.ratings.leaderboard("trails")]


@pytest.fixture
def league(database):
    made = League(database)
    yield made
    made.storage.close()


def test_a_farm_of_three_alts_is_never_ranked_however_long_it_farms(league):
    """Issue 22's farm, 9 rated games a day (3 a pair) for 10 days. Winning every game leaves the farmer
    provisional (Glicko-2 learns little from wins over much weaker players); losing one in ten settles the
    rating, but 3 opponents are never 5."""
    for name in ("farmer", "cropper", "alt0", "alt1", "alt2"):
        league.account(name)
    for day in range(10):
        league.now += DAY
        for game in range(9):
            alt = f"alt{game % 3}"
            assert league.game("farmer", alt, True)
            assert league.game("cropper", alt, (9 * day + game) % 10 != 9)
    farmer, cropper = league.standing("farmer"), league.standing("cropper")
    assert farmer["games"] == cropper["games"] == 90 and farmer["rating"] > 2100
    assert farmer["provisional"] and farmer["missing"] == {"opponents": 2, "established": True}
    assert not cropper["provisional"] and cropper["missing"] == {"opponents": 2} and not cropper["ranked"]
    assert league.board() == []


def test_a_player_is_ranked_after_twenty_games_against_five_players_and_not_once_idle(league):
    """3 rated games with each of 7 newcomers, won and lost in turn (standing.py: RD 105 after 21 games)."""
    for name in ("ann", "bob", *(f"new{k}" for k in range(7))):
        league.account(name)
    results = iter([True, False] * 30)
    for k in range(7):
        for _ in range(3):
            league.game("ann", f"new{k}", next(results))
        if k == 5:  # 18 games against 6 players: not yet
            assert league.standing("ann")["missing"] == {"games": 2, "established": True}
    ann = league.standing("ann")
    assert ann["games"] == 21 and ann["opponents"] == 7 and ann["rd"] <= 110 and ann["ranked"]
    assert ann["missing"] == {} and not ann["provisional"]
    assert league.ratings.leaderboard("trails") == [{"rank": 1, "name": "ann", "rating": ann["rating"],
                                                     "rd": ann["rd"], "games": 21, "provisional": False}]
    league.now += DAY  # the pairs' day is over: bob plays the same 7 (now better known), winning more
    for k in range(7):
        for won in (True, True, False):
            league.game("bob", f"new{k}", won)
    assert league.board() == ["bob", "ann"] and league.standing("bob")["ranked"]
    assert all(not league.standing(f"new{k}")["ranked"] for k in range(7))  # 6 games each
    league.now += 30 * DAY + 1  # nobody played a rated game for 30 days: they leave the board, keep their rating
    assert league.board() == [] and league.standing("ann")["missing"] == {"recent": True}
    league.game("ann", "new0", True)
    assert league.board() == ["ann"]


def test_opponents_are_counted_however_a_rated_match_names_its_seats(league):
    """A rematch names its seats in another order ({"2": a, "1": b}); an opponent counts once whatever seat
    each took, and all of them are found past the first texts read (standing.has_opponents)."""
    ann = league.account("ann")
    others = [league.account(f"p{k}") for k in range(6)]
    for k, other in enumerate(others[:4]):
        for seats in ({1: ann, 2: other}, {2: ann, 1: other}, {2: other, 1: ann}, {1: other, 2: ann}):
            assert league.game("ann", f"p{k}", True, seats=seats)
            league.now += DAY  # past the pair's day: each is rated
    with league.storage.reading() as conn:
        assert has_opponents(conn, ann, "trails", 4) and not has_opponents(conn, ann, "trails", 5)
    league.game("ann", "p4", True)
    with league.storage.reading() as conn:
        assert has_opponents(conn, ann, "trails", 5) and not has_opponents(conn, ann, "trails", 6)
    assert league.standing("ann")["opponents"] == 5


def test_opponents_are_counted_from_texts_in_any_format(league):
    """Were a rated match's players written otherwise (here: indented JSON, a text of its own per match), one
    opponent could fill the first texts read: has_opponents then reads them all."""
    bea, p0, p1 = league.account("bea"), league.account("p0"), league.account("p1")
    matches = []
    for _ in range(30):
        league.game("bea", "p0", True)
        matches.append(f"m{league.played}")
        league.now += DAY
    league.game("bea", "p1", True)
    with league.storage.engine.begin() as conn:
        for k, match in enumerate(matches, start=1):
            conn.execute(update(rated_matches_table).where(rated_matches_table.c.match_id == match)
                         .values(players=json.dumps({"1": bea, "2": p0}, indent=k)))
    with league.storage.reading() as conn:
        assert has_opponents(conn, bea, "trails", 2) and not has_opponents(conn, bea, "trails", 3)
        assert not has_opponents(conn, p0, "trails", 2) and has_opponents(conn, p1, "trails", 1)
    assert league.standing("bea")["opponents"] == 2
