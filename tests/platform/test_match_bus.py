"""The match bus (quadrille/matches/bus.py): listeners hear the kinds they subscribed to, once per event; a
listener's failure leaves the move and the other listeners alone; the ratings hear a match's end once, not
every STATE of a finished match."""
from __future__ import annotations

import logging

import pytest

from quadrille.matches.store import Storage
from quadrille.matches import ENDED, REMATCH, MatchBus, MatchService

from tests.platform.test_challenges import Player, play_to_the_end


@pytest.fixture
def service(tmp_path):
    svc = MatchService(Storage.sqlite(str(tmp_path / "bus.db")))
    yield svc
    svc.storage.close()


def heard(bus: MatchBus, kind: str) -> list:
    calls = []
    bus.subscribe(kind, lambda match_id, payload: calls.append((match_id, payload)))
    return calls


def two_players(service) -> tuple[str, str, str]:
    created = service.create("trails", {"size": 5}, "online")
    friend = service.claim_seat(created["match"], invite=created["invite_secret"])
    return created["match"], created["token"], friend["token"]


def test_a_listener_hears_only_its_kind_in_the_order_subscribed():
    bus, calls = MatchBus(), []
    bus.subscribe(ENDED, lambda match_id, payload: calls.append(("first", match_id, payload)))
    bus.subscribe(ENDED, lambda match_id, payload: calls.append(("second", match_id, payload)))
    bus.subscribe(REMATCH, lambda match_id, payload: calls.append(("rematch", match_id, payload)))
    bus.publish(ENDED, "m1", {"outcome": {"winners": [1]}})
    assert calls == [("first", "m1", {"outcome": {"winners": [1]}}), ("second", "m1", {"outcome": {"winners": [1]}})]
    with pytest.raises(ValueError):
        bus.subscribe("state", lambda match_id, payload: None)  # no bus for every STATE: that is the room's


def test_a_failing_listener_breaks_neither_the_move_nor_the_others(service, caplog):
    def broken(match_id, payload):
        raise RuntimeError("the ratings' database is away")
    service.bus.subscribe(ENDED, broken)
    after = heard(service.bus, ENDED)
    match, first, second = two_players(service)
    service.play(match, first, service.state(match)["legal"][0])
    with caplog.at_level(logging.ERROR, logger="quadrille"):
        state = service.resign(match, second)
    assert state["outcome"]["reason"] == "resigned" and state["outcome"]["winners"] == [1]
    assert service.state(match)["outcome"] == state["outcome"]  # recorded: the failure undid nothing
    assert after == [(match, {"outcome": state["outcome"], "movers": [1], "online": True,
                                "accounts": []})]  # the next listener still heard
    assert "failed on ended" in caplog.text


def test_an_ending_is_heard_once_however_many_states_follow_and_a_rematch_once(service):
    ended, rematches = heard(service.bus, ENDED), heard(service.bus, REMATCH)
    match, first, second = two_players(service)
    tokens, state = {1: first, 2: second}, service.state(match)
    while state["outcome"] is None:
        assert ended == []  # no ending before the end
        state = service.play(match, tokens[state["turn"]], state["legal"][0])
    assert ended == [(match, {"outcome": state["outcome"], "movers": state["movers"],
                                "online": True, "accounts": []})]
    service.rematch(match, first)          # an offer: a STATE with the outcome again
    service.decline(match, second)         # and another
    assert service.state(match)["declined"] and len(ended) == 1
    assert rematches == []
    again = MatchService(service.storage)  # a process that loads the finished match publishes no ending
    again.bus.subscribe(ENDED, lambda match_id, payload: ended.append(("again", match_id)))
    assert again.state(match)["outcome"] == state["outcome"] and len(ended) == 1


def test_a_rematch_is_published_with_the_seats_turned(service):
    rematches = heard(service.bus, REMATCH)
    match, first, second = two_players(service)
    service.play(match, first, service.state(match)["legal"][0])
    service.resign(match, second)
    service.rematch(match, first)
    new = service.rematch(match, second)["match"]
    assert rematches == [(match, {"match": new, "from": match, "seats": [2, 1]})]


def test_a_rewound_ending_ends_again_and_is_heard_again(service):
    """On one screen a finished game may be rewound and finished anew: each ending is heard."""
    ended = heard(service.bus, ENDED)
    created = service.create("trails", {"size": 5}, "local")
    match, token = created["match"], created["token"]
    state = service.state(match)
    while state["outcome"] is None:
        state = service.play(match, token, state["legal"][0])
    service.rewind(match, token, 0)
    assert len(ended) == 1
    state = service.state(match)
    while state["outcome"] is None:
        state = service.play(match, token, state["legal"][-1])
    assert len(ended) == 2 and ended[1][1]["outcome"] == state["outcome"]


@pytest.fixture
def app(tmp_path):
    from quadrille import create_app
    app = create_app({"DATABASE": str(tmp_path / "rated.db"), "ACCOUNT_RATE": "1000 per minute"})
    yield app
    app.extensions["quadrille.storage"].close()


def test_the_ratings_hear_a_rated_match_end_once_not_every_state_after_it(app, monkeypatch):
    ratings, service = app.extensions["quadrille.ratings"], app.extensions["quadrille"]
    asked = []
    real_apply = ratings.apply
    monkeypatch.setattr(ratings, "apply", lambda *args, **kwargs: asked.append(args[0]) or real_apply(*args, **kwargs))
    ended = heard(service.bus, ENDED)
    ann, bob = Player(app, "ann"), Player(app, "bob")
    made = ann.challenge("bob", "trails", options={"size": 5}, first="challenger", rated=True)
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    assert asked == []  # a move asks the ratings nothing
    play_to_the_end(match, {1: ann, 2: bob}, app)
    assert len(ended) == 1 and ended[0][0] == match
    # Asked by the ending's STATE (its rating change, ratings/match_ratings.py) and by the bus's ENDED: never again.
    assert asked == [match, match]
    offered = ann.client.post(f"/api/matches/{match}/rematch", headers={"Authorization": f"Bearer {ann.key}"})
    assert offered.status_code == 200 and offered.json["offers"] == {"rematch": [1]}  # a STATE of a finished match
    app.test_client().get(f"/api/matches/{match}")
    assert asked == [match, match] and len(ended) == 1
    assert ann.get("/api/players/ann").json["ratings"]["trails"]["games"] == 1  # rated, once
