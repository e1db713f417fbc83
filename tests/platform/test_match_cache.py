"""The cache of live matches: bounded by weight (events plus moves) and by count, least recently used out
first; a match heavier than the whole budget is served but not kept."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from quadrille.matches.store import Storage
from quadrille.matches import MatchService
from quadrille.matches.cache import MatchCache, match_weight


def item(weight: int) -> list:
    return [None] * weight  # weighed by len below


def cache(max_weight=100, max_count=10) -> MatchCache:
    return MatchCache(max_weight=max_weight, max_count=max_count, weigh=len)


def test_the_least_recently_used_leave_first_to_keep_the_weight_under_the_budget():
    c = cache()
    for name in "abcd":
        c.put(name, item(30))
    assert len(c) == 3 and c.weight == 90 and "a" not in c  # d pushed the oldest out
    assert c.get("b") is not None  # b is now the most recently used
    c.put("e", item(30))
    assert [k for k in "abcde" if k in c] == ["b", "d", "e"]  # c was the least recently used
    c.put("f", item(70))
    assert [k for k in "abcdef" if k in c] == ["e", "f"] and c.weight == 100


def test_the_count_is_bounded_too():
    c = cache(max_weight=1000, max_count=3)
    for name in "abcde":
        c.put(name, item(1))
    assert [k for k in "abcde" if k in c] == ["c", "d", "e"] and c.weight == 3


def test_a_match_heavier_than_the_budget_is_not_kept_and_pushes_nothing_out():
    c = cache()
    c.put("a", item(50))
    c.put("huge", item(101))
    assert "huge" not in c and "a" in c and c.weight == 50
    assert c.get("huge") is None


def test_a_match_is_weighed_again_as_it_grows():
    c = cache()
    a, b = item(40), item(40)
    c.put("a", a)
    c.put("b", b)
    b.extend(item(30))  # b was played on
    assert c.get("b") is b and c.weight == 70 + 40 - 40 and "a" not in c  # a, the older, made room
    c.put("a", a)
    assert c.weight == 110 - 70 and "b" not in c  # putting a back pushes b out: 70 + 40 > 100
    a.extend(item(100))  # a grew past the whole budget: still served, no longer kept, nothing else pushed out
    c.put("c", item(10))
    assert c.get("a") is a and "a" not in c and "c" in c and c.weight == 10


def test_pop_forgets_a_match():
    c = cache()
    x = item(20)
    c.put("x", x)
    c.put("x", x)  # putting again replaces, and does not count twice
    assert c.weight == 20
    assert c.pop("x") is x and c.pop("x") is None and c.pop("x", "gone") == "gone"
    assert len(c) == 0 and c.weight == 0


def test_a_match_weighs_its_events_and_its_moves():
    match = SimpleNamespace(row=SimpleNamespace(events=[1, 2, 3]), board=SimpleNamespace(moves=["a", "b"]))
    assert match_weight(match) == 5


@pytest.fixture
def small(tmp_path):
    service = MatchService(Storage.sqlite(str(tmp_path / "cache.db")), cache=MatchCache(max_weight=40))
    yield service
    service.storage.close()


def play(service, created, moves: int) -> dict:
    state = service.state(created["match"])
    for _ in range(moves):
        state = service.play(created["match"], created["token"], state["legal"][0])
    return state


def test_the_service_serves_a_match_heavier_than_its_cache(small):
    light = small.create("trails", None, "local")
    heavy = small.create("trails", None, "local")
    play(small, light, 4)                 # weight 8: 4 events, 4 moves
    for _ in range(9):                    # 36 events: moves and rewinds
        play(small, heavy, 3)
        small.rewind(heavy["match"], heavy["token"], 0)
    state = play(small, heavy, 3)         # weight 39 events + 3 moves > 40: played on, but no longer kept
    assert state["version"] == 39 and len(state["moves"]) == 3
    assert light["match"] not in small._cache  # pushed out on the way, as the heavy match grew past 32
    assert small.state(light["match"])["version"] == 4
    assert light["match"] in small._cache and heavy["match"] not in small._cache
    again = small.state(heavy["match"])   # rebuilt from storage, the same match
    assert again["moves"] == state["moves"] and again["version"] == 39
    assert heavy["match"] not in small._cache and small._cache.weight == 8
    assert play(small, heavy, 1)["version"] == 40


def test_the_application_takes_the_budget_from_its_settings(tmp_path):
    from quadrille import DEFAULTS, create_app
    app = create_app({"DATABASE": str(tmp_path / "app.db"), "CACHE_MAX_EVENTS": 1234})
    try:
        assert app.extensions["quadrille"]._cache.max_weight == 1234
        assert DEFAULTS["CACHE_MAX_EVENTS"] == 250_000
    finally:
        app.extensions["quadrille.storage"].close()
