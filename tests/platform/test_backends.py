"""The backends of several processes, each against a real Redis (and the database on SQLite and PostgreSQL):
two instances stand for two processes. Presence across processes and a dead one's sockets; leases; timers
fired once; the computer's quota and the budgets shared; match services on one database that see each other's
writes at once (the revision check), race to one success, and catch up on seats and pauses."""
from __future__ import annotations

import threading
import time

import pytest
import redis

from quadrille.computer.quota import RedisMatchQuota
from quadrille.errors import ServiceError
from quadrille.infra.leases import MemoryLeases, RedisLeases
from quadrille.infra.limits import Budgets
from quadrille.infra.redis_presence import RedisPresence
from quadrille.infra.timers import MemoryTimers, RedisTimers
from tests.support.clock import Clock
from tests.support.waiting import real_time_passes


@pytest.fixture
def client(redis_url):
    c = redis.Redis.from_url(redis_url)
    yield c
    c.close()


def two_presences(client, ttl=10.0, grace=5.0, clock=time.time):
    return (RedisPresence(client, grace=grace, ttl=ttl, node="a", clock=clock),
            RedisPresence(client, grace=grace, ttl=ttl, node="b", clock=clock))


@pytest.fixture
def clock():
    """A clock moved by hand, starting at the wall clock's now: the times these backends write to the shared
    Redis are wall-clock seconds, and other tests' entries there must not look ancient or from the future."""
    return Clock(time.time())


def redis_expiry_passes(seconds: float) -> None:
    """Real time passes: a lease lives on Redis's own key expiry (SET PX, PEXPIRE), a clock in another process
    that a test cannot move. (Everything that compares times it wrote to Redis with its own clock gets a Clock
    instead.)"""
    real_time_passes(seconds, "a lease's expiry is Redis's own")


# -- presence -------------------------------------------------------------------------------------------
def test_presence_is_shared_between_processes(client):
    a, b = two_presences(client)
    a.enter("s1", "m", [1])
    b.enter("s2", "m", [2])
    b.enter("s3", "m", [])
    for view in (a, b):
        assert view.online("m") == [1, 2]
        assert view.summary("m") == {"match": "m", "online": [1, 2], "spectators": 1}
        assert view.watching("m") and view.present("m", 1) and view.absences("m", [1, 2]) == {1: None, 2: None}
    assert a.seats_of("s1") == [1] and a.seats_of("s2") == [] and b.seats_of("s2") == [2]  # sockets stay local
    before = time.time()
    assert a.leave("s1") == "m"
    since = b.absent_since("m", 1)
    assert since is not None and before <= since <= time.time()  # away at once, as one process says it
    assert b.present("m", 1)  # within the grace period
    assert b.online("m") == [2] and a.summary("m")["spectators"] == 1
    b.leave("s2"), b.leave("s3")
    assert not a.watching("m") and not b.watching("m")


def hgetall_calls(client) -> int:
    return client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)


def test_a_presence_message_reads_the_matchs_view_once(client):
    """A room's presence message names who is connected (the summary, always read now) and who is away: the
    away seats come from the view the summary just read, not from a second read."""
    a, b = two_presences(client)
    b.enter("s2", "view-once", [2])
    a.seen("view-once", [1])
    before = hgetall_calls(client)
    assert a.summary("view-once") == {"match": "view-once", "online": [2], "spectators": 0}
    assert a.absences("view-once", [1, 2]) == {1: None, 2: None}
    assert hgetall_calls(client) - before == 2  # one view: the entries and the sightings
    b.enter("s3", "view-once", [])
    assert a.summary("view-once")["spectators"] == 1  # another process's arrival, seen by the next summary
    b.leave("s2"), b.leave("s3")


def test_a_dead_processs_sockets_vanish_within_its_ttl(client, clock):
    dead, alive = (RedisPresence(client, grace=5, ttl=0.5, node=node, clock=clock) for node in ("dead", "alive"))
    dead.enter("s1", "m", [1])   # nobody refreshes it (no background task): as a process killed now
    alive.enter("s2", "m", [2])
    refreshed = clock()
    assert alive.online("m") == [1, 2]
    clock.advance(0.7)
    alive._publish(["m"])  # the live process refreshes its own entries
    assert alive.online("m") == [2]
    assert abs(alive.absent_since("m", 1) - refreshed) < 1e-6  # left when its process last refreshed it
    assert alive.summary("m") == {"match": "m", "online": [2], "spectators": 0}


def test_a_process_whose_entry_lapsed_while_it_kept_sockets_is_told_when_it_writes_it_again(client, clock):
    """Another process reaps an entry past its time (its refreshes failed: it looked dead), and broadcasts skip
    a process that presence does not name (infra/message_queue.py): when it writes its entry again, it is told,
    once, so that its sockets get the STATE again. A first entry, or one written after its last socket left,
    is no lapse."""
    import uuid
    match = f"lapse-{uuid.uuid4().hex[:8]}"
    stalled = RedisPresence(client, grace=5, ttl=0.5, node="stalled", clock=clock)
    other = RedisPresence(client, grace=5, ttl=0.5, node="other", clock=clock)
    restored, new = [], []
    stalled.on_restored = restored.append
    stalled.on_new_entry = new.append  # every new field, a first one too: the others may think they are alone
    stalled.enter("s1", match, [1])
    assert new == [match]
    stalled.enter("s2", match, [])  # the same field written again
    other.enter("s3", match, [2])
    clock.advance(0.7)
    other.refresh()  # reaps the stalled process's entry
    assert client.hkeys(stalled.entries_key(match)) == [b"other"] and restored == [] and new == [match]
    stalled.refresh()
    assert restored == [match] and set(client.hkeys(stalled.entries_key(match))) == {b"other", b"stalled"}
    assert new == [match, match]
    stalled.refresh()
    assert restored == [match] and new == [match, match]
    stalled.leave("s1"), stalled.leave("s2")
    stalled.enter("s4", match, [])  # back after leaving: a first entry
    assert restored == [match] and new == [match, match, match]
    stalled.leave("s4"), other.leave("s3")


def test_an_http_player_is_present_for_the_grace_period_in_every_process(client, clock):
    a, b = two_presences(client, grace=3.0, clock=clock)
    a.seen("m", [1])
    assert b.present("m", 1) and b.absent_since("m", 1) is None
    clock.advance(2.9)
    assert b.present("m", 1)
    clock.advance(0.3)
    assert not b.present("m", 1) and b.absent_since("m", 1) is not None


def test_a_clean_stop_withdraws_the_processs_sockets(client):
    a, b = two_presences(client)
    a.enter("s1", "m", [1])
    a.close()
    assert b.online("m") == [] and b.absent_since("m", 1) is not None


# -- leases ---------------------------------------------------------------------------------------------
def test_one_process_holds_a_lease_and_another_takes_it_when_it_lapses(client):
    a, b = RedisLeases(client, node="a"), RedisLeases(client, node="b")
    assert a.acquire("computer:m:3", 1.0) and a.acquire("computer:m:3", 1.0)  # again: still its own
    assert not b.acquire("computer:m:3", 1.0) and a.held("computer:m:3") and not b.held("computer:m:3")
    a.renew()
    redis_expiry_passes(0.6)
    a.renew()  # renewed while alive
    redis_expiry_passes(0.6)
    assert not b.acquire("computer:m:3", 1.0)
    redis_expiry_passes(1.1)  # a stopped renewing, as a dead process does
    assert b.acquire("computer:m:3", 1.0)
    a.release("computer:m:3")  # not a's any more: changes nothing
    assert b.held("computer:m:3")
    b.release("computer:m:3")
    assert a.acquire("computer:m:3", 1.0)


def test_memory_leases_are_one_processs():
    leases = MemoryLeases()
    assert leases.acquire("k", 1) and leases.acquire("k", 1) and leases.held("k")
    leases.release("k")
    assert not leases.held("k")


# -- timers ---------------------------------------------------------------------------------------------
def test_a_timer_scheduled_in_two_processes_fires_once(client, clock):
    fired = []
    a, b = RedisTimers(client, clock=clock), RedisTimers(client, clock=clock)
    a.handle("away:", lambda keys: fired.extend(("a", k) for k in keys))
    b.handle("away:", lambda keys: fired.extend(("b", k) for k in keys))
    when = clock() + 0.2
    a.schedule("away:m:2:123.000", when)
    b.schedule("away:m:2:123.000", when)
    assert a.fire_due() == [] and b.fire_due() == []
    assert 0 < b.next_wait() <= 0.2 + 1e-6  # (a score in Redis: a double, about 1e-7 s off at this size)
    clock.advance(0.25)
    assert len(a.fire_due() + b.fire_due()) == 1 and len(fired) == 1 and fired[0][1] == "away:m:2:123.000"
    assert a.fire_due() == b.fire_due() == []


def test_a_timer_outlives_the_process_that_scheduled_it(client, clock):
    fired = []
    RedisTimers(client, clock=clock).schedule("flag:m:7", clock() + 0.1)  # that process is gone
    other = RedisTimers(client, clock=clock)
    other.handle("flag:", fired.extend)
    assert other.fire_due() == []
    clock.advance(0.15)
    other.fire_due()
    assert fired == ["flag:m:7"]


def test_memory_timers_fire_once_and_can_be_cancelled():
    now = [0.0]
    timers, fired = MemoryTimers(lambda: now[0]), []
    timers.handle("x:", fired.extend)
    timers.schedule("x:1", 5.0)
    timers.schedule("x:1", 6.0)  # the earliest stands
    timers.schedule("x:2", 5.0)
    timers.cancel("x:2")
    now[0] = 5.0
    assert timers.fire_due() == ["x:1"] and fired == ["x:1"] and timers.fire_due() == []


# -- the computer's quota and the budgets ---------------------------------------------------------------
def test_the_computer_quota_counts_an_address_across_processes(client, clock):
    live = set()
    a = RedisMatchQuota(2, lambda m: m in live, client, idle=1.0, clock=clock)
    b = RedisMatchQuota(2, lambda m: m in live, client, idle=1.0, clock=clock)
    a.admit("m1", "10.0.0.1")
    b.admit("m2", "10.0.0.1")
    with pytest.raises(ServiceError) as refused:
        a.admit("m3", "10.0.0.1")
    assert refused.value.status == 429 and refused.value.error == "rate-limited"
    b.admit("m1", None)  # already counted: its owner is known everywhere
    assert b.owner("m1") == "10.0.0.1" and sorted(a.going("10.0.0.1")) == ["m1", "m2"]
    b.release("m1")
    a.admit("m3", "10.0.0.1")
    live.add("m3")
    clock.advance(0.6)
    b.touch("m2")  # something happened in m2, through the other process
    clock.advance(0.6)
    assert sorted(a.going("10.0.0.1")) == ["m2", "m3"]  # m2's last activity was 0.6 s ago: not resting
    clock.advance(0.5)  # m2 rested (nobody watches it); m3 is watched
    assert a.going("10.0.0.1") == ["m3"]
    b.touch("unowned"), b.release("unowned")  # a match nobody owns: nothing to do
    assert b.owner("unowned") is None and a.going("10.0.0.1") == ["m3"]
    b.admit("m4", "10.0.0.1")


def test_the_budget_of_an_address_is_shared_and_a_sockets_is_its_own(redis_url):
    def budgets():
        return Budgets(redis_url, player_events="5 per day", spectator_events="5 per day",
                       address_events="8 per day", connections_per_address=10, connection_rate="100 per day",
                       refusals_before_close=50)
    a, b = budgets(), budgets()
    assert all(a.event("s1", "10.0.0.9", False) for _ in range(5))
    assert not a.event("s1", "10.0.0.9", False)  # the socket's own budget, in a's memory
    assert all(b.event("s2", "10.0.0.9", False) for _ in range(3))
    assert not b.event("s3", "10.0.0.9", False)  # the address's 8, over both processes


def test_an_addresss_events_reach_redis_a_batch_at_a_time_and_overshoot_by_a_batch_per_process_at_most(redis_url):
    def budgets():
        counted = Budgets(redis_url, player_events="5000 per day", spectator_events="5000 per day",
                          address_events="1000 per day", connections_per_address=10,
                          connection_rate="100 per day", refusals_before_close=10_000)
        hit, counted.round_trips = counted.limiter.hit, []
        counted.limiter.hit = lambda *args, **kwargs: counted.round_trips.append(kwargs["cost"]) or hit(*args, **kwargs)
        return counted
    a, b = budgets(), budgets()
    assert a.address_batch == 10
    let_through = 0
    for n in range(1200):  # two processes share one address's stream of events
        let_through += (a if n % 2 else b).event(f"s{n % 7}", "10.0.0.10", True)
    assert 1000 - 2 * 10 <= let_through <= 1000 + 2 * 10
    asked = len(a.round_trips) + len(b.round_trips)
    assert asked <= 1000 // 10 + 4  # one round trip a batch, and one more each time a process was refused
    for n in range(200):  # a flood from the address over budget: refused without asking Redis each time
        assert not a.event("s1", "10.0.0.10", True)
    assert len(a.round_trips) + len(b.round_trips) == asked
    assert all(a.event("s1", "10.0.0.11", True) for _ in range(20))  # another address has its own budget


# -- match services on one database ---------------------------------------------------------------------
@pytest.fixture
def services(make_service):
    return make_service(checked=True), make_service(checked=True)


def test_no_process_serves_a_state_older_than_a_move_another_acknowledged(services):
    a, b = services
    created = a.create("trails", None, "online")
    claimed = b.claim_seat(created["match"], invite=created["invite_secret"])  # b writes a seat a has cached
    match = created["match"]
    assert b.state(match)["version"] == 0 and a.state(match)["started"]  # a caught up with b's claim
    tokens = {1: created["token"], 2: claimed["token"]}
    for i in range(6):
        here, there = (a, b) if i % 2 == 0 else (b, a)
        state = here.state(match)
        acknowledged = here.play(match, tokens[state["turn"]], state["legal"][0], state["version"])
        seen = there.state(match)
        assert seen.pop("away") is not None and acknowledged.pop("away") is not None  # (each its own presence here)
        assert seen == acknowledged  # at once, through the other process
    assert b.record(match)["events"] == a.record(match)["events"]


def test_two_processes_racing_on_one_match_give_one_success(services):
    a, b = services
    created = a.create("trails", None, "local")
    match, token = created["match"], created["token"]
    b.state(match)
    results = []

    def play(service):
        try:
            service.play(match, token, "right", 0)
            results.append("ok")
        except ServiceError as exc:
            results.append(exc.error)
    threads = [threading.Thread(target=play, args=(s,)) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "stale-version"]
    assert a.state(match)["version"] == b.state(match)["version"] == 1


def test_rewinds_pauses_and_computer_seats_reach_the_other_process(services):
    a, b = services
    created = a.create("trails", {"size": 7}, "local")
    match, token = created["match"], created["token"]
    for move in ("right", "left", "right"):
        a.play(match, token, move)
    b.state(match)
    a.rewind(match, token, 1)
    assert b.state(match)["moves"] == ["right"]
    demo = a.create("trails", {"size": 7}, "ai", ai={"seats": [1, 2], "level": 1})
    assert not b.state(demo["match"])["paused"]
    a.pause(demo["match"], demo["token"], True)
    assert b.state(demo["match"])["paused"]


def test_a_copy_whose_revision_lags_never_hides_a_move(services):
    """The revision check trusts a copy whose revision equals storage's. Every write another process makes that
    is not an event (a seat handed over, a pause) puts a copy behind by more than the events; the fast path then
    plays on that copy unchecked and counts its own write; a refused append (stale-version) marks the copy
    unknown. After each of these, both copies serve exactly what storage holds: no acknowledged move hidden."""
    a, b = services
    created = a.create("trails", {"size": 7}, "online")
    claimed = b.claim_seat(created["match"], invite=created["invite_secret"])
    match, tokens = created["match"], {1: created["token"], 2: claimed["token"]}
    acknowledged = {}

    def stored():
        return [(e.seq, e.data["move"]) for e in a.storage.load_match(match).events if e.kind == "move"]

    for i in range(12):
        here, there = (a, b) if i % 2 == 0 else (b, a)
        if i % 3 == 1:  # a write that is no event, through the other process
            new = f"key-{i}"
            seat = 1 if i % 2 else 2
            there.hand_over(match, tokens[seat], new)
            tokens[seat] = new
        state = there.state(match) if i % 4 == 0 else here.state(match)
        if state["outcome"] is not None:
            break
        turn, version = state["turn"], state["version"]
        if i % 5 == 2:  # the other process plays the version first: this one's fast path is refused
            there.play(match, tokens[turn], state["legal"][0], version)
            acknowledged[version + 1] = state["legal"][0]
            with pytest.raises(ServiceError) as refused:
                here.play(match, tokens[turn], state["legal"][-1], version)
            assert refused.value.error in ("stale-version", "not-your-turn")
            continue
        answer = here.play(match, tokens[turn], state["legal"][-1], version)  # the unchecked fast path
        acknowledged[answer["version"]] = state["legal"][-1]
        for service in (a, b):
            record = service.record(match)
            assert [(e["seq"], e["move"]) for e in record["events"] if e["kind"] == "move"] == stored()
        assert all(dict(stored()).get(v) == m for v, m in acknowledged.items())


def test_a_seat_handed_over_through_one_process_cannot_be_played_by_its_retired_token_through_another(services):
    a, b = services
    created = a.create("trails", None, "online")
    claimed = b.claim_seat(created["match"], invite=created["invite_secret"])
    match = created["match"]
    state = a.state(match)
    b.state(match)  # both hold a copy at the same version
    tokens = {1: created["token"], 2: claimed["token"]}
    retired, new_key = tokens[state["turn"]], "a-new-seat-key-0123456789abcdef"
    b.hand_over(match, retired, new_key)  # a seat change, no event: a's copy is behind without knowing it
    with pytest.raises(ServiceError) as refused:
        a.play(match, retired, state["legal"][0], state["version"])  # the version a holds: the fast path
    assert refused.value.error == "unauthorized"
    assert b.state(match)["version"] == state["version"]  # nothing was written
    played = a.play(match, new_key, state["legal"][0], state["version"])
    assert played["version"] == state["version"] + 1 and b.state(match)["moves"] == [state["legal"][0]]
