"""Nobody monopolises the computer: the scheduling order, demos that rest unwatched, the cap per address.

The order tests drive the real scheduler with stand-in workers that answer when the test says so; the
others use the match service with real worker processes (threads for tasks, as in test_computer.py).
"""
from __future__ import annotations


import pytest

from quadrille import create_app
from quadrille.computer.quota import MatchQuota
from quadrille.errors import ServiceError
from tests.support.clock import past_the_grace
from tests.support.databases import stored_matches
from tests.support.waiting import wait_until
from tests.support.stand_ins import ask_move as ask, end_search, stand_in_pool


# -- the order, with stand-in workers ------------------------------------------------------------
@pytest.fixture
def scheduler():
    players = stand_in_pool()
    yield players
    players.test_worker.finish_all()


def finish(players, match: str) -> None:
    """Let the search under way (the worker's last request, which must be `match`'s) end normally."""
    end_search(players, match)
    wait_until(lambda: not players.thinking(match), 5, f"{match}'s move")


def test_people_go_first_and_owners_take_turns(scheduler):
    ask(scheduler, "busy", "A")  # holds the one worker while the others queue
    for match, owner, demo in [("demoA1", "A", True), ("demoA2", "A", True), ("demoB1", "B", True),
                               ("personA1", "A", False), ("personA2", "A", False), ("personC1", "C", False)]:
        ask(scheduler, match, owner, demo)
    assert scheduler.test_worker.log == ["busy"]
    order = ["busy", "personC1", "personA1", "personA2", "demoB1", "demoA1", "demoA2"]
    for match in order:
        finish(scheduler, match)
    assert scheduler.test_worker.log == order
    assert [match for match, _ in scheduler.test_service.played] == order


def test_many_requests_of_one_address_do_not_delay_another_address(scheduler):
    ask(scheduler, "busy", "attacker", demo=True)
    for i in range(6):
        ask(scheduler, f"attack{i}", "attacker", demo=True)
    ask(scheduler, "visitor", "visitor", demo=True)
    finish(scheduler, "busy")
    finish(scheduler, "visitor")  # next, ahead of the five demos of the address served last
    assert scheduler.test_worker.log[:3] == ["busy", "visitor", "attack0"]


def test_a_persons_request_cuts_a_demos_search_short_and_the_demo_asks_again(scheduler):
    ask(scheduler, "demo", "A", demo=True)
    wait_until(lambda: scheduler.test_worker.log == ["demo"], 5, "the demo's search")
    ask(scheduler, "person", "B")
    finish(scheduler, "person")
    finish(scheduler, "demo")
    assert scheduler.test_worker.log == ["demo", "person", "demo"]
    assert scheduler.test_service.played == [("person", "best"), ("demo", "best")]  # never the cut-short move


def test_a_demo_starved_too_long_is_not_cut_short(scheduler):
    scheduler.demo_guard = -1.0  # as if the owner's demos had waited longer than the guard
    ask(scheduler, "demo", "A", demo=True)
    wait_until(lambda: scheduler.test_worker.log == ["demo"], 5, "the demo's search")
    ask(scheduler, "person", "B")  # queued: whether to cut a search short is decided as it is queued
    assert not scheduler.test_worker.cancelled
    finish(scheduler, "demo")
    finish(scheduler, "person")
    assert scheduler.test_worker.log == ["demo", "person"]


def test_a_queued_request_that_is_cancelled_leaves_the_queue(scheduler):
    ask(scheduler, "busy", "A")
    ask(scheduler, "taken-back", "B")
    scheduler.notify("taken-back", 1, False)  # a take-back: the computer is no longer to move
    finish(scheduler, "busy")
    wait_until(scheduler.idle, 5, "the scheduler to go quiet")
    assert scheduler.test_worker.log == ["busy"] and not scheduler.thinking("taken-back")


def test_a_queued_demo_nobody_watches_any_more_is_left_resting(scheduler):
    watched = {"busy", "demo"}
    scheduler.watched = lambda match: match in watched
    ask(scheduler, "busy", "A")
    ask(scheduler, "demo", "B", demo=True)
    watched.discard("demo")  # its watcher left while it waited
    finish(scheduler, "busy")
    wait_until(lambda: not scheduler.thinking("demo"), 5, "the demo to rest")
    assert scheduler.test_worker.log == ["busy"]
    watched.add("demo")
    scheduler.notify("demo", 0, True)  # what MatchService.wake_computer does when someone watches
    finish(scheduler, "demo")


# -- the service, with real workers --------------------------------------------------------------
@pytest.fixture
def watchers():
    return set()


@pytest.fixture
def database(sqlite_database):
    return sqlite_database  # the scheduler's fairness does not depend on the database: SQLite alone


@pytest.fixture
def service(make_service, watchers):
    return make_service(computer={"size": 1, "demo_delay": 0.01, "watched": lambda match: match in watchers,
                                  "per_address": 2})


def version(service, match) -> int:
    return service.state(match)["version"]


def test_a_demo_nobody_watches_is_not_searched_and_resumes_when_watched(service, watchers):
    demo = service.create("trails", {"size": 9}, "ai", ai={"seats": [1, 2], "level": 1})["match"]
    wait_until(service.computer.idle, 5, "the demo to rest")
    assert version(service, demo) == 0 and not service.computer.thinking(demo)
    watchers.add(demo)
    service.wake_computer(demo)  # the watch event
    wait_until(lambda: version(service, demo) >= 3, 10, "the demo to play")
    watchers.discard(demo)
    wait_until(lambda: not service.computer.thinking(demo), 5, "the demo to rest")
    rested = version(service, demo)
    wait_until(service.computer.idle, 5, "the computer to go quiet")
    assert version(service, demo) == rested
    service.wake_computer(demo)  # nobody watches: waking changes nothing
    wait_until(service.computer.idle, 5, "the computer to go quiet")
    assert version(service, demo) == rested


def test_against_a_person_the_computer_plays_on_while_nobody_watches(service):
    created = service.create("trails", None, "ai", ai={"seats": [2], "level": 1})  # the page is reloading
    service.play(created["match"], created["token"], "right")
    wait_until(lambda: version(service, created["match"]) == 2, 10, "the computer's reply")


def test_a_persons_reply_does_not_wait_for_a_demos_level_3_search(service, watchers):
    demo = service.create("trails", None, "ai", ai={"seats": [1, 2], "level": 3})["match"]
    watchers.add(demo)
    service.wake_computer(demo)
    # its request is on the worker's socket: the search is under way (or about to be, which is the same to it)
    wait_until(lambda: (service.computer._thinking.get(demo) or {}).get("worker") is not None, 30, "its search")
    created = service.create("trails", None, "ai", ai={"seats": [2], "level": 1})
    service.play(created["match"], created["token"], "right")
    wait_until(lambda: version(service, created["match"]) == 2, 10, "the computer's reply")
    # Level 3 thinks for 1.5 s on Trails' open board, on the one worker: had the reply waited for that search,
    # the demo would have moved first. Its search was cut short instead, and is asked again below.
    assert version(service, demo) == 0
    wait_until(lambda: version(service, demo) >= 1, 10, "the demo's move, asked again")


def test_the_cap_refuses_a_match_over_it_and_creates_nothing(service):
    for _ in range(2):
        service.create("trails", None, "ai", ai={"seats": [2], "level": 1}, owner="10.0.0.1")
    before = stored_matches(service.storage)
    with pytest.raises(ServiceError) as refused:
        service.create("trails", None, "ai", ai={"seats": [1, 2], "level": 1}, owner="10.0.0.1")
    assert refused.value.status == 429 and refused.value.error == "rate-limited"
    assert "2 games against the computer" in refused.value.reason
    assert stored_matches(service.storage) == before
    service.create("trails", None, "ai", ai={"seats": [2], "level": 1}, owner="10.0.0.2")  # another address
    service.create("trails", None, "online", owner="10.0.0.1")  # no computer: not counted
    service.create("trails", None, "ai", ai={"seats": [2], "level": 1})  # no owner (the service's own callers)


def test_starting_and_handing_over_count_against_the_cap(service):
    for _ in range(2):
        service.create("trails", None, "ai", ai={"seats": [2], "level": 1}, owner="10.0.0.1")
    waiting = service.create("gamma", None, "online", owner="10.0.0.1")
    with pytest.raises(ServiceError) as refused:
        service.start(waiting["match"], waiting["token"], computer_level=1, owner="10.0.0.1")
    assert refused.value.error == "rate-limited"
    assert service.state(waiting["match"])["started"] is False
    online = service.create("trails", None, "online", owner="10.0.0.1")
    service.claim_seat(online["match"], invite=online["invite_secret"])
    past_the_grace(service.presence)  # the friend who claimed seat 2 has been gone for longer than the grace
    with pytest.raises(ServiceError) as refused:
        service.hand_to_computer(online["match"], online["token"], 2, 1, owner="10.0.0.1")
    assert refused.value.error == "rate-limited"
    assert service.state(online["match"])["seats"][1]["kind"] == "human"
    state = service.hand_to_computer(online["match"], online["token"], 2, 1, owner="10.0.0.3")
    assert state["seats"][1]["kind"] == "ai"


def test_a_match_that_ends_leaves_the_count(service, watchers):
    first = service.create("trails", None, "ai", ai={"seats": [2], "level": 1}, owner="10.0.0.1")
    demo = service.create("trails", {"size": 5}, "ai", ai={"seats": [1, 2], "level": 1}, owner="10.0.0.1")
    assert len(service.computer.quota.going("10.0.0.1")) == 2
    service.resign(first["match"], first["token"])
    assert service.computer.quota.going("10.0.0.1") == [demo["match"]]
    watchers.add(demo["match"])
    service.wake_computer(demo["match"])
    wait_until(lambda: service.state(demo["match"])["outcome"] is not None, 30, "the demo's end")
    assert service.computer.quota.going("10.0.0.1") == []
    for _ in range(2):
        service.create("trails", None, "ai", ai={"seats": [2], "level": 1}, owner="10.0.0.1")


# -- the quota's own rules ---------------------------------------------------------------------------
def test_a_match_that_rests_stops_counting_and_counts_again_when_it_comes_back():
    now, live = [0.0], set()
    quota = MatchQuota(2, live=lambda match: match in live, idle=60, clock=lambda: now[0])
    quota.admit("a", "10.0.0.1")
    quota.admit("b", "10.0.0.1")
    with pytest.raises(ServiceError):
        quota.admit("c", "10.0.0.1")
    live.add("a")  # someone watches a; b has rested for over a minute
    now[0] = 61.0
    quota.admit("c", "10.0.0.1")
    assert sorted(quota.going("10.0.0.1")) == ["a", "c"]
    with pytest.raises(ServiceError):
        quota.admit("b", "10.0.0.1")  # b comes back, but its owner is at the cap again
    quota.touch("c")
    quota.release("a")  # a is over
    quota.admit("b", "10.0.0.1")
    assert quota.owner("b") == "10.0.0.1" and sorted(quota.going("10.0.0.1")) == ["b", "c"]


# -- the doors pass the client's address ---------------------------------------------------------
def test_the_http_door_counts_matches_per_client_address(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "doors.db"), "COMPUTER_MATCHES_PER_ADDRESS": 1})
    try:
        client = app.test_client()
        body = {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 1}}
        first = client.post("/api/matches", json=body, environ_base={"REMOTE_ADDR": "10.0.0.1"})
        assert first.status_code == 201
        refused = client.post("/api/matches", json=body, environ_base={"REMOTE_ADDR": "10.0.0.1"})
        assert refused.status_code == 429 and refused.get_json()["error"] == "rate-limited"
        assert refused.get_json()["reason"].startswith("You already have a game against")
        assert client.post("/api/matches", json=body, environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 201
    finally:
        app.extensions["quadrille"].computer.close()
        app.extensions["quadrille.storage"].close()
