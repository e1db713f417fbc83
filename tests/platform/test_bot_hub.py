"""The bots' hub and streams (quadrille/bots/): a stream gets its topic's messages and keep-alives, gives its
budget back however it ends (even never read), ends when its client stops reading; two hubs on one real Redis
hear each other's publications."""
from __future__ import annotations

import threading
import time

import redis

from quadrille.bots.hub import QUEUE, MemoryHub, RedisHub
from quadrille.bots.streams import KEEPALIVE, Stream, StreamBudget, line
from tests.support.waiting import wait_until

KEYS = {"account": "7", "address": "10.0.0.1"}


def stream(hub, budget, allowed=lambda: True, keepalive=0.05, recheck=60.0):
    assert budget.open(KEYS)
    return Stream(hub, budget, KEYS, keepalive, recheck, allowed)


def test_a_stream_sends_its_first_lines_its_messages_and_keepalives_and_ends_when_told():
    hub, budget = MemoryHub(), StreamBudget(per_account=2, per_address=5)
    body = stream(hub, budget).body("account:7", lambda: [{"type": "hello"}],
                                    lambda m: (m, m.get("type") == "bye"))
    lines = iter(body)
    assert next(lines) == line({"type": "hello"})
    assert next(lines) == KEEPALIVE
    hub.publish("account:8", {"type": "not mine"})
    hub.publish("account:7", {"type": "news"})
    hub.publish("account:7", {"type": "bye"})
    assert [next(lines), next(lines)] == [line({"type": "news"}), line({"type": "bye"})]
    assert list(lines) == []
    assert budget.open_count("account", "7") == 0 and not hub.heard("account:7")


def test_the_budget_caps_open_streams_and_a_body_never_read_gives_its_place_back():
    hub, budget = MemoryHub(), StreamBudget(per_account=2, per_address=5)
    bodies = [stream(hub, budget).body("account:7", list, lambda m: (m, False)) for _ in range(2)]
    assert not budget.open(KEYS) and budget.open_count("account", "7") == 2
    assert budget.open({"account": "8", "address": "10.0.0.1"})  # another account, the same address
    bodies[0].close()  # as the WSGI server does when the client left before the first line
    bodies[0].close()  # twice is once
    assert budget.open_count("account", "7") == 1


def test_a_stream_whose_client_does_not_read_is_ended():
    hub, budget = MemoryHub(), StreamBudget(per_account=2, per_address=5)
    lines = iter(stream(hub, budget).body("account:7", list, lambda m: (m, False)))
    hub.publish("account:7", {"n": -1})
    assert next(lines) == line({"n": -1})  # the stream is waiting now; its client stops reading
    for n in range(QUEUE + 10):
        hub.publish("account:7", {"n": n})
    assert list(lines) == []  # it ends at once: what waited for it is dropped, not kept for ever
    assert budget.open_count("account", "7") == 0 and not hub.heard("account:7")


def test_a_stream_ends_once_its_token_no_longer_stands():
    hub, budget = MemoryHub(), StreamBudget(per_account=2, per_address=5)
    allowed = threading.Event()
    allowed.set()
    lines = iter(stream(hub, budget, allowed.is_set, recheck=0.1).body("account:7", list, lambda m: (m, False)))
    assert next(lines) == KEEPALIVE
    allowed.clear()
    started = time.monotonic()
    assert set(lines) <= {KEEPALIVE} and time.monotonic() - started < 2


def test_two_processes_hubs_hear_each_other_through_redis(redis_url):
    def spawn(function, *args):
        thread = threading.Thread(target=function, args=args, daemon=True)
        thread.start()
        return thread
    hubs = [RedisHub(redis.Redis.from_url(redis_url), "test:", spawn, time.sleep) for _ in range(2)]
    try:
        heard = hubs[1].subscribe("match:abc")
        other = hubs[0].subscribe("match:other")
        wait_until(lambda: redis.Redis.from_url(redis_url).pubsub_numsub("test:bots")[0][1] == 2, 10,
                   "both hubs to listen")
        hubs[0].publish("match:abc", {"type": "gameState", "state": {"version": 1}})
        assert heard.get(5) == {"type": "gameState", "state": {"version": 1}}
        assert other.get(0.2) is None  # a topic nobody here waits for is not delivered
        heard.close()
        assert not hubs[1].heard("match:abc")
    finally:
        for hub in hubs:
            hub.close()


def test_an_ending_is_looked_into_only_where_an_account_holds_a_seat():
    from quadrille.bots.events import BotEvents
    spawned = []
    events = BotEvents(MemoryHub(), accounts=None, ratings=None, spawn=lambda *args: spawned.append(args))
    events.on_ended("guests", {"outcome": {}, "accounts": []})  # every guest's game: no read of who played
    assert spawned == []
    events.on_ended("members", {"outcome": {}, "accounts": [1]})
    events.on_ended("unknown", {})  # a payload that does not say: looked into, as before
    assert [args[1:] for args in spawned] == [("gameFinish", "members", None), ("gameFinish", "unknown", None)]
