"""Play a friend: the creator of a two-player game online chooses to move first, second, or leaves it to chance,
drawn by the server (issue 23, item 11): POST /api/matches' `side`."""
from __future__ import annotations

import pytest

from tests.support.databases import stored_matches


def create(client, **body):
    return client.post("/api/matches", json={"game": "trails", "mode": "online", **body})


def test_first_and_second_follow_the_engines_first_mover(client):
    assert create(client, side="first").json["seats"] == [1]
    second = create(client, side="second").json
    assert second["seats"] == [2]
    # The friend takes the free seat, the first, and moves first.
    joined = client.post(f"/api/matches/{second['match']}/seats", json={"invite": second["invite_secret"]}).json
    assert joined["seats"] == [1]
    # Lattice's option makes T (seat 2) move first: moving first is holding seat 2.
    lattice = create(client, game="lattice", options={"first": 2}, side="first").json
    assert lattice["seats"] == [2]


def test_a_random_side_is_drawn_by_the_server(client):
    seats = {create(client, side="random").json["seats"][0] for _ in range(40)}
    assert seats == {1, 2}  # both come up (the chance that 40 draws agree is 2 in a trillion)


@pytest.mark.parametrize("body, error", [
    ({"side": "left"}, "bad-side"),
    ({"side": 1}, "bad-side"),
    ({"side": "first", "seats": [2]}, "bad-side"),
    ({"side": "first", "mode": "local"}, "bad-side"),
    ({"side": "second", "game": "gamma"}, "bad-side"),
])
def test_a_bad_side_is_refused_and_makes_nothing(app, client, body, error):
    storage = app.extensions["quadrille.storage"]
    before = stored_matches(storage)
    answer = create(client, **body)
    assert answer.status_code == 400 and answer.json["error"] == error and answer.json["reason"]
    assert stored_matches(storage) == before
