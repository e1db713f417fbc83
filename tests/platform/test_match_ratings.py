"""Ratings where they matter (issue 23): a rated match's STATE carries each player's rating while it is played
(`seat_ratings`) and, once it is rated, each seat's rating before and after (`ratings`), on the HTTP API and on
every socket, the very STATE that says who won included; my games say what each rated game did to the
player's rating. Unrated, aborted and guests' matches carry none, and a move reads no rating. On SQLite and
PostgreSQL."""
from __future__ import annotations

import pytest
from sqlalchemy import select, text

from quadrille.infra import migrate
from quadrille.infra.schema import rating_history_table
from quadrille.infra.engine import database_url, make_engine
from quadrille.ratings.glicko2 import Rating, rate

from tests.support.players import play_to_the_end


pytestmark = pytest.mark.app_settings(ACCOUNT_RATE="1000 per minute", PRESENCE_INTERVAL=0.01)


def rated_match(ann, bob, rated=True) -> str:
    made = ann.challenge("bob", "trails", options={"size": 5}, first="challenger", rated=rated)
    return bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]


def finished_states(client) -> list[dict]:
    return [m["args"][0] for m in client.get_received() if m["name"] == "state" and m["args"][0]["outcome"]]


def expected_after(first_score: float) -> tuple[int, int]:
    return (round(rate(Rating(), [(Rating(), first_score)], tau=0.75).rating),
            round(rate(Rating(), [(Rating(), 1 - first_score)], tau=0.75).rating))


def test_a_rated_match_shows_the_ratings_while_played_and_their_change_once_over(app, ann, bob):
    match = rated_match(ann, bob)
    watcher = app.extensions["socketio"].test_client(app)
    seen = watcher.emit("watch", {"match": match}, callback=True)["state"]
    newcomer = {"rating": 1500, "provisional": True}
    assert seen["seat_ratings"] == {"1": newcomer, "2": newcomer} and "ratings" not in seen
    assert ann.get(f"/api/matches/{match}").json["seat_ratings"] == {"1": newcomer, "2": newcomer}

    final = play_to_the_end(match, {1: ann, 2: bob}, app)
    winners = final["outcome"]["winners"]
    score = 1.0 if winners == [1] else 0.0 if winners == [2] else 0.5
    after_1, after_2 = expected_after(score)
    ratings = {"1": {"before": 1500, "after": after_1, "provisional": True},
               "2": {"before": 1500, "after": after_2, "provisional": True}}
    assert final["ratings"] == ratings and final["seat_ratings"] == {"1": newcomer, "2": newcomer}
    broadcast = finished_states(watcher)  # the socket's STATE that said who won said the change too
    assert broadcast and broadcast[0]["ratings"] == ratings
    again = app.extensions["socketio"].test_client(app).emit("watch", {"match": match}, callback=True)["state"]
    assert again["ratings"] == ratings

    # my games and the profile: what the game did to each player's rating
    line = ann.get("/api/me/games?finished=1").json["games"][0]
    assert line["match"] == match and line["rating"] == {"before": 1500, "after": after_1}
    assert bob.get("/api/players/bob").json["recent"][0]["rating"] == {"before": 1500, "after": after_2}

    # the next rated game shows the ratings they bring to it (ann in seat 1 again)
    second = rated_match(ann, bob)
    shown = bob.get(f"/api/matches/{second}").json["seat_ratings"]
    assert shown == {"1": {"rating": after_1, "provisional": True}, "2": {"rating": after_2, "provisional": True}}


def test_unrated_aborted_and_guests_matches_carry_no_ratings(app, ann, bob):
    unrated = rated_match(ann, bob, rated=False)
    assert "seat_ratings" not in ann.get(f"/api/matches/{unrated}").json
    final = play_to_the_end(unrated, {1: ann, 2: bob}, app)
    assert "ratings" not in final and "seat_ratings" not in final
    assert ann.get("/api/me/games?finished=1").json["games"][0]["rating"] is None

    aborted = rated_match(ann, bob)
    assert "seat_ratings" in ann.get(f"/api/matches/{aborted}").json
    ended = ann.client.post(f"/api/matches/{aborted}/abort", headers={"Authorization": f"Bearer {ann.key}"}).json
    assert ended["outcome"]["reason"] == "aborted" and "ratings" not in ended and "seat_ratings" not in ended

    guests = app.extensions["quadrille"].create("trails", {"size": 5}, "online")
    assert "seat_ratings" not in ann.get(f"/api/matches/{guests['match']}").json


def test_a_move_of_a_rated_match_reads_no_rating(app, ann, bob, monkeypatch):
    """The STATE of every move is built from what was read once for the match; only its end reads (and rates)."""
    match = rated_match(ann, bob)
    ann.get(f"/api/matches/{match}")  # the match's ratings, read once
    ratings, reads = app.extensions["quadrille.ratings"], []
    # the STATE's reads (ratings.in_play), not the bots' streams: their "game started" for the accepted challenge
    # runs in the background and may read whether the match is rated while this test moves
    read, apply = ratings.in_play._read, ratings.apply
    monkeypatch.setattr(ratings.in_play, "_read", lambda *args: reads.append("read") or read(*args))
    monkeypatch.setattr(ratings, "apply", lambda *args, **kwargs: reads.append("apply") or apply(*args, **kwargs))
    for _ in range(4):
        state = ann.get(f"/api/matches/{match}").json
        assert state["outcome"] is None and state["seat_ratings"]["1"]["rating"] == 1500
        player = ann if state["turn"] == 1 else bob
        assert player.move(match, state["legal"][0]).status_code == 200
    assert reads == []
    final = play_to_the_end(match, {1: ann, 2: bob}, app)
    assert final["ratings"] and "apply" in reads  # its end is read, and rated


def test_0011_gives_earlier_rated_games_the_rating_they_started_from(empty_database):
    """Rows rated before 0011 get the rating of the account's previous row in that game (1500/350 first)."""
    database = empty_database
    engine = make_engine(database_url(database))
    assert migrate.upgrade(engine, "0010")[-1] == "0010"
    rows = [(1, "trails", "m1", 10.0, 1662.0, 290.0), (1, "trails", "m2", 20.0, 1700.0, 250.0),
            (1, "towers", "m3", 15.0, 1400.0, 300.0), (2, "trails", "m1", 10.0, 1338.0, 290.0)]
    with engine.begin() as conn:
        for row in rows:
            conn.execute(text("INSERT INTO rating_history (account_id, game, match_id, at, rating, rd)"
                              " VALUES (:a, :g, :m, :at, :r, :rd)"),
                         dict(zip(("a", "g", "m", "at", "r", "rd"), row)))
    assert migrate.upgrade(engine, "head")[0] == "0011"
    with engine.connect() as conn:
        found = {(r.account_id, r.match_id): (r.rating_before, r.rd_before) for r in conn.execute(
            select(rating_history_table))}
    engine.dispose()
    assert found == {(1, "m1"): (1500.0, 350.0), (1, "m2"): (1662.0, 290.0), (1, "m3"): (1500.0, 350.0),
                     (2, "m1"): (1500.0, 350.0)}
