"""Challenges, my games and ratings through the HTTP API, on SQLite and PostgreSQL: every rule and every bad
request a clear error that changes nothing."""
from __future__ import annotations


import pytest
from sqlalchemy import func, select

from quadrille.infra.schema import challenges_table, rated_matches_table, ratings_table
from quadrille.ratings.glicko2 import Rating, rate
from tests.support.databases import stored_matches
from tests.support.players import Player, play_to_the_end


pytestmark = pytest.mark.app_settings(ACCOUNT_RATE="1000 per minute")  # the app of tests/platform/conftest.py


def challenges_in(app) -> int:
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(challenges_table)).scalar_one()


def test_a_challenge_reaches_the_inbox_and_its_acceptance_makes_a_match_in_both_lists(app, ann, bob):
    made = ann.challenge("Bob", "towers", options={"size": 8}, first="challenger", rated=True)
    assert made["status"] == "pending" and made["from"] == "ann" and made["to"] == [{"name": "bob", "status": "pending"}]
    assert made["options"]["size"] == 8 and made["rated"] is True and made["clock"] is None and made["match"] is None
    assert [c["challenge"] for c in bob.get("/api/challenges").json["incoming"]] == [made["challenge"]]
    assert [c["challenge"] for c in ann.get("/api/challenges").json["outgoing"]] == [made["challenge"]]
    accepted = bob.post(f"/api/challenges/{made['challenge']}/accept")
    assert accepted.status_code == 200 and accepted.json["status"] == "accepted" and accepted.json["match"]
    match = accepted.json["match"]
    state = ann.get(f"/api/matches/{match}").json
    assert state["started"] and state["options"]["size"] == 8 and state["mode"] == "online"
    assert [s["name"] for s in state["seats"]] == ["ann", "bob"]
    ann_games, bob_games = ann.get("/api/me/games").json, bob.get("/api/me/games").json
    assert [g["match"] for g in ann_games["games"]] == [g["match"] for g in bob_games["games"]] == [match]
    assert ann_games["games"][0]["your_turn"] and not bob_games["games"][0]["your_turn"]
    assert ann_games["games"][0]["opponents"][0]["name"] == "bob" and ann_games["games"][0]["rated"]
    assert bob.get("/api/challenges").json["incoming"] == []
    assert ann.get("/api/challenges").json["outgoing"][0]["status"] == "accepted"


def test_who_moves_first(app, ann, bob):
    for first, ann_seat in (("challenger", 1), ("opponent", 2)):
        made = ann.challenge("bob", first=first)
        match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
        seats = {s["name"]: s["seat"] for s in ann.get(f"/api/matches/{match}").json["seats"]}
        assert seats["ann"] == ann_seat
    made = ann.challenge("bob")
    assert made["first"] == "random"
    # Lattice's own option may make its second seat move first: "I move first" still means it
    made = ann.challenge("bob", "lattice", options={"first": 2}, first="challenger")
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    state = ann.get(f"/api/matches/{match}").json
    assert state["seats"][state["turn"] - 1]["name"] == "ann"


def test_bad_challenges_are_refused_and_store_nothing(app, ann, bob):
    cases = [
        ({"to": "ann", "game": "trails"}, 400, "self-challenge"),
        ({"to": "ANN", "game": "trails"}, 400, "self-challenge"),
        ({"to": "nobody", "game": "trails"}, 404, "unknown-player"),
        ({"to": None, "game": "trails"}, 400, "bad-player"),
        ({"to": ["bob", "bob"], "game": "gamma"}, 400, "bad-player"),
        ({"to": ["bob", "ann"], "game": "trails"}, 400, "bad-player"),
        ({"to": "bob", "game": "chess"}, 400, "unknown-game"),
        ({"to": "bob", "game": "trails", "options": {"size": 999}}, 400, "bad-options"),
        ({"to": "bob", "game": "trails", "options": "big"}, 400, "bad-options"),
        ({"to": "bob", "game": "trails", "rated": "yes"}, 400, "bad-rated"),
        ({"to": "bob", "game": "trails", "first": "me"}, 400, "bad-first"),
        ({"to": "bob", "game": "trails", "clock": "5+3"}, 400, "bad-clock"),
    ]
    for body, status, error in cases:
        answer = ann.post("/api/challenges", body)
        assert (answer.status_code, answer.json["error"]) == (status, error), (body, answer.json)
    anonymous = app.test_client().post("/api/challenges", json={"to": "bob", "game": "trails"})
    assert anonymous.status_code == 401 and anonymous.json["error"] == "login-required"
    assert challenges_in(app) == 0 and stored_matches(app.extensions["quadrille.storage"]) == 0


def test_accepting_someone_elses_challenge_and_answering_a_closed_one(app, ann, bob):
    cid = ann.challenge("bob")["challenge"]
    cat = Player(app, "cat")
    stranger = cat.post(f"/api/challenges/{cid}/accept")
    assert stranger.status_code == 404 and stranger.json["error"] == "not-found"
    own = ann.post(f"/api/challenges/{cid}/accept")
    assert own.status_code == 403 and own.json["error"] == "not-yours"
    not_mine_to_cancel = bob.post(f"/api/challenges/{cid}/cancel")
    assert not_mine_to_cancel.status_code == 403 and not_mine_to_cancel.json["error"] == "not-yours"
    assert cat.get(f"/api/challenges/{cid}").status_code == 404
    assert bob.post(f"/api/challenges/{cid}/decline").json["status"] == "declined"
    for action in ("accept", "decline"):
        late = bob.post(f"/api/challenges/{cid}/{action}")
        assert late.status_code == 409 and late.json["error"] == "challenge-closed", late.json
    late_cancel = ann.post(f"/api/challenges/{cid}/cancel")
    assert late_cancel.status_code == 409 and late_cancel.json["error"] == "challenge-closed"
    cancelled = ann.challenge("bob")["challenge"]
    assert ann.post(f"/api/challenges/{cancelled}/cancel").json["status"] == "cancelled"
    played = bob.post(f"/api/challenges/{cancelled}/accept")
    assert played.status_code == 409 and played.json["error"] == "challenge-closed"
    assert bob.post("/api/challenges/nosuch/accept").status_code == 404
    assert bob.post(f"/api/challenges/{cid}/explode").status_code == 404
    assert stored_matches(app.extensions["quadrille.storage"]) == 0
    assert ann.get(f"/api/challenges/{cid}").json["to"][0]["status"] == "declined"
    statuses = [c["status"] for c in ann.get("/api/challenges").json["outgoing"]]
    assert sorted(statuses) == ["cancelled", "declined"]


def test_a_gamma_challenge_of_several_starts_when_all_accept_or_when_its_creator_starts_it(app, ann, bob):
    cat, dan = Player(app, "cat"), Player(app, "dan")
    made = ann.challenge(["bob", "cat"], "gamma")
    assert made["options"]["players"] == 3
    rated = ann.post("/api/challenges", {"to": ["bob", "cat"], "game": "gamma", "rated": True})
    assert rated.status_code == 400 and rated.json["error"] == "bad-rated"
    first = bob.post(f"/api/challenges/{made['challenge']}/accept").json
    assert first["status"] == "pending" and first["match"] is None
    match = cat.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    state = ann.get(f"/api/matches/{match}").json
    assert state["started"] and [s["name"] for s in state["seats"]] == ["ann", "bob", "cat"]
    # the creator starts with those who accepted: three invited, one declines, one accepts
    other = ann.challenge(["bob", "cat", "dan"], "gamma")["challenge"]
    early = ann.post(f"/api/challenges/{other}/start")
    assert early.status_code == 409 and early.json["error"] == "not-enough-players"
    dan.post(f"/api/challenges/{other}/decline")
    bob.post(f"/api/challenges/{other}/accept")
    started = ann.post(f"/api/challenges/{other}/start").json
    state = ann.get(f"/api/matches/{started['match']}").json
    assert state["started"] and state["options"]["players"] == 2 and [s["name"] for s in state["seats"]] == ["ann", "bob"]
    late = cat.post(f"/api/challenges/{other}/accept")
    assert late.status_code == 409 and late.json["error"] == "challenge-closed"


def test_a_rated_game_updates_both_ratings_once_and_the_profile_shows_it_provisional_and_unranked(app, ann, bob):
    made = ann.challenge("bob", "trails", options={"size": 5}, first="challenger", rated=True)
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    final = play_to_the_end(match, {1: ann, 2: bob}, app)
    winner = final["outcome"]["winners"]
    ann_profile, bob_profile = ann.get("/api/players/ann").json, ann.get("/api/players/BOB").json
    expected = rate(Rating(), [(Rating(), 1.0 if winner == [1] else 0.0 if winner == [2] else 0.5)], tau=0.75)
    trails = ann_profile["ratings"]["trails"]
    assert {key: trails[key] for key in ("rating", "rd", "games", "provisional", "opponents", "ranked", "missing")} == {
        "rating": round(expected.rating), "rd": round(expected.rd), "games": 1, "provisional": True, "opponents": 1,
        "ranked": False, "missing": {"games": 19, "opponents": 4, "established": True}}
    assert trails["last_played"] == ann_profile["history"]["trails"][0]["at"]
    assert bob_profile["ratings"]["trails"]["games"] == 1
    assert ann_profile["ratings"]["trails"]["rating"] + bob_profile["ratings"]["trails"]["rating"] == 3000
    assert len(ann_profile["history"]["trails"]) == 1 and ann_profile["recent"][0]["match"] == match
    # the same outcome told again (a timer, another process) rates nothing twice
    assert app.extensions["quadrille.ratings"].apply(match, final["outcome"]) is False
    # one game makes nobody ranked (ratings/standing.py): the leaderboard is empty and says what it asks
    assert ann.get("/api/leaderboard/trails").json == {
        "game": "trails", "players": [], "rule": {"rd": 110, "games": 20, "opponents": 5, "days": 30.0}}
    assert ann.get("/api/leaderboard/chess").status_code == 404
    assert ann.get("/api/players/nobody").json["error"] == "unknown-player"
    # my games: finished games only with ?finished=1, with their result
    assert ann.get("/api/me/games").json["games"] == []
    line = ann.get("/api/me/games?finished=1").json["games"][0]
    assert line["finished"] and line["result"] in ("win", "loss", "draw") and line["rated"]


def test_an_unrated_game_and_an_aborted_one_change_no_rating(app, ann, bob):
    unrated = ann.challenge("bob", "trails", options={"size": 5}, first="challenger")
    play_to_the_end(bob.post(f"/api/challenges/{unrated['challenge']}/accept").json["match"], {1: ann, 2: bob}, app)
    rated = ann.challenge("bob", "trails", first="challenger", rated=True)
    match = bob.post(f"/api/challenges/{rated['challenge']}/accept").json["match"]
    aborted = ann.client.post(f"/api/matches/{match}/abort", headers={"Authorization": f"Bearer {ann.key}"})
    assert aborted.status_code == 200 and aborted.json["outcome"]["reason"] == "aborted"
    assert ann.get("/api/players/ann").json["ratings"] == {}
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        assert conn.execute(select(rated_matches_table.c.applied)).scalars().all() == [True]


def test_my_games_puts_your_turn_first_and_lists_a_browsers_anonymous_matches(app, ann, bob):
    a = bob.post(f"/api/challenges/{ann.challenge('bob', first='opponent')['challenge']}/accept").json["match"]
    b = bob.post(f"/api/challenges/{ann.challenge('bob', first='challenger')['challenge']}/accept").json["match"]
    listed = ann.get("/api/me/games").json
    assert [g["match"] for g in listed["games"]] == [b, a] and [g["your_turn"] for g in listed["games"]] == [True, False]
    assert listed["games"][1]["turn_name"] and listed["challenges"] == {"incoming": [], "outgoing": listed["challenges"]["outgoing"]}
    anonymous = app.test_client()
    created = anonymous.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    answer = anonymous.post("/api/me/games", json={"tokens": {created["match"]: created["token"], a: "forged"}})
    assert [g["match"] for g in answer.json["games"]] == [created["match"]] and answer.json["games"][0]["your_turn"]
    bad = anonymous.post("/api/me/games", json={"tokens": ["x"]})
    assert bad.status_code == 400 and bad.json["error"] == "bad-request"


def test_a_rematch_of_a_challenge_is_in_both_lists(app, ann, bob):
    made = ann.challenge("bob", "trails", options={"size": 5}, first="challenger", rated=True)
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    play_to_the_end(match, {1: ann, 2: bob}, app)
    for player in (ann, bob):
        player.client.post(f"/api/matches/{match}/rematch", headers={"Authorization": f"Bearer {player.key}"})
    games = ann.get("/api/me/games").json["games"]
    assert len(games) == 1 and games[0]["match"] != match and games[0]["seats"] == [2] and games[0]["rated"]
    assert bob.get("/api/me/games").json["games"][0]["seats"] == [1]


def test_a_challenges_clock_is_checked_kept_and_given_to_its_match(app, ann, bob):
    """A challenge's `clock` is checked by the clocks' one check when it is made (a bad one stores nothing),
    kept as sent, and the accepted challenge's match runs that time control."""
    for bad in ({"kind": "correspondence", "days": 99}, {"kind": "realtime", "minutes": 0}, {"kind": "blitz"}):
        refused = ann.post("/api/challenges", {"to": "bob", "game": "trails", "clock": bad})
        assert refused.status_code == 400 and refused.json["error"] == "bad-clock" and challenges_in(app) == 0
    clock = {"kind": "realtime", "minutes": 5, "increment": 3}
    made = ann.challenge("bob", clock=clock)
    assert made["clock"] == clock and bob.get("/api/challenges").json["incoming"][0]["clock"] == clock
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    state = app.extensions["quadrille"].state(match)
    assert state["clock"]["kind"] == "realtime" and state["clock"]["minutes"] == 5
    assert state["clock"]["increment"] == 3 and state["clock"]["left"] == [300.0, 300.0]
    plain = ann.challenge("bob")
    match = bob.post(f"/api/challenges/{plain['challenge']}/accept").json["match"]
    assert app.extensions["quadrille"].state(match).get("clock") is None


def test_a_correspondence_game_reminds_the_player_to_move_in_my_games(app, ann, bob):
    """A slow game's line in "my games" says whose turn it is and, once its clock runs, how long is left."""
    made = ann.challenge("bob", first="challenger", clock={"kind": "correspondence", "days": 3})
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    assert ann.get("/api/me/games").json["games"][0]["clock"] == {"kind": "correspondence", "seconds_left": None}
    state = app.extensions["quadrille"].state(match)
    assert ann.move(match, state["legal"][0]).status_code == 200  # the first move starts the clocks
    line = bob.get("/api/me/games").json["games"][0]
    assert line["your_turn"] and line["clock"]["kind"] == "correspondence"
    assert 3 * 86400 - 60 < line["clock"]["seconds_left"] <= 3 * 86400
    assert ann.get("/api/me/games").json["games"][0]["your_turn"] is False


def test_deleting_an_account_closes_its_pending_challenges_and_forgets_its_ratings(app, ann, bob):
    """Account deletion asks the challenges and the ratings to forget the account, in its own transaction:
    the challenges it made are cancelled; one it was invited to alone is declined; one that others may still
    accept waits for them; its ratings go, its opponent's stay."""
    Player(app, "cat")  # an account that a challenge of several invites below
    rated = ann.challenge("bob", "trails", options={"size": 5}, first="challenger", rated=True)
    play_to_the_end(bob.post(f"/api/challenges/{rated['challenge']}/accept").json["match"], {1: ann, 2: bob}, app)
    made = ann.challenge("bob", "towers")["challenge"]
    alone = bob.challenge("ann", "towers")["challenge"]
    several = bob.challenge(["ann", "cat"], "gamma")["challenge"]
    assert ann.post("/api/account/delete", {"password": "correct horse"}).status_code == 200
    assert [bob.get(f"/api/challenges/{c}").json["status"] for c in (made, alone, several)] == [
        "cancelled", "declined", "pending"]
    invited = bob.get(f"/api/challenges/{several}").json["to"]
    assert sorted(i["status"] for i in invited) == ["declined", "pending"]
    assert [i["status"] for i in invited if i["name"] == "cat"] == ["pending"]
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        rated_accounts = conn.execute(select(ratings_table.c.account_id)).scalars().all()
    assert len(rated_accounts) == 1 and bob.get("/api/players/bob").json["ratings"]["trails"]["games"] == 1


def test_a_profile_shows_only_the_newest_finished_games(app, ann, bob, monkeypatch):
    """A profile keeps the newest finished games (RECENT_ON_PROFILE of them), and stops looking there."""
    from quadrille.web import players_api
    monkeypatch.setattr(players_api, "RECENT_ON_PROFILE", 2)
    played = []
    for _ in range(3):
        made = ann.challenge("bob", "trails", options={"size": 5}, first="challenger")
        played.append(bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"])
        play_to_the_end(played[-1], {1: ann, 2: bob}, app)
    going = ann.challenge("bob", "trails", first="challenger")
    bob.post(f"/api/challenges/{going['challenge']}/accept")
    recent = ann.get("/api/players/ann").json["recent"]
    assert [g["match"] for g in recent] == [played[2], played[1]] and all(g["finished"] for g in recent)
