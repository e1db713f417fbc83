"""A socket's own budget (infra/limits.py SlidingWindows) counts exactly as the `limits` library's sliding window
counter does in its memory storage, which it replaces on the hot path of every event."""
from __future__ import annotations

import random
import types

from limits import parse, strategies
from limits.storage import MemoryStorage

from quadrille.infra.limits import Budgets, SlidingWindows
from tests.support.clock import Clock


def test_every_hit_is_answered_as_the_limits_library_answers_it(monkeypatch):
    clock = Clock(1_700_000_000.0)
    monkeypatch.setattr("limits.storage.memory.time", types.SimpleNamespace(time=clock))
    library = strategies.SlidingWindowCounterRateLimiter(MemoryStorage())
    ours = SlidingWindows(clock=clock)
    items = [parse("100 per 20 seconds"), parse("60 per 20 seconds"), parse("7 per 3 seconds"),
             parse("3 per second")]
    rng = random.Random(24)
    answers = {True: 0, False: 0}
    for _ in range(40_000):
        clock.now += rng.choice([0.0, 0.001, 0.01, 0.05, 0.2, 1.0, 7.5])  # bursts, pauses, whole windows
        item, sid, cost = rng.choice(items), rng.choice(["a", "b", "c"]), rng.choice([1, 1, 1, 2, 5, 8])
        expected = library.hit(item, "socket", sid, cost=cost)
        assert ours.hit(item, sid, cost) == expected, (clock.now, item, sid, cost)
        answers[expected] += 1
    assert min(answers.values()) > 5_000  # both answers were tried often


def test_a_socket_that_disconnects_leaves_nothing_and_sockets_never_forgotten_are_swept():
    clock = Clock(1000.0)
    windows = SlidingWindows(clock=clock)
    item = parse("5 per 10 seconds")
    assert all(windows.hit(item, "gone") for _ in range(5)) and not windows.hit(item, "gone")
    windows.forget("gone")
    assert "gone" not in windows._counts
    windows = SlidingWindows(clock=clock)
    windows.SWEEP_EVERY = 10
    for n in range(9):
        windows.hit(item, f"s{n}")
    clock.now += 25  # every count above expired (twice the window after its first hit)
    windows.hit(item, "late")
    assert set(windows._counts) == {"late"}


def test_an_addresss_budget_in_one_process_is_counted_the_same_way_over_its_sockets():
    budgets = Budgets(player_events="10 per day", spectator_events="10 per day", address_events="12 per day",
                      connections_per_address=5, connection_rate="10 per day", refusals_before_close=50)
    assert all(budgets.event(f"s{n % 3}", "10.0.0.2", False) for n in range(12))
    assert not budgets.event("s4", "10.0.0.2", False)  # a fresh socket, but its address spent its 12
    assert budgets.event("s4", "10.0.0.3", False)  # another address has its own


def test_budgets_forget_a_socket_when_it_disconnects():
    budgets = Budgets(player_events="3 per day", spectator_events="2 per day", address_events="100 per day",
                      connections_per_address=5, connection_rate="10 per day", refusals_before_close=5)
    assert budgets.event("s1", "10.0.0.1", False) and budgets.event("s1", "10.0.0.1", False)
    assert not budgets.event("s1", "10.0.0.1", False)  # a spectator's 2
    assert budgets.event("s1", "10.0.0.1", True)  # a player's budget is another count, as before
    budgets.forget("s1")
    assert "s1" not in budgets.sockets._counts
