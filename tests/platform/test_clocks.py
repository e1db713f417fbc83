"""Clocks, kept by the server (quadrille/clocks/): time from an injected clock, never a sleep. Real time with
its increment (per turn in Towers), correspondence deadlines, a flag that falls with nobody connected, once
with two services on one database (Redis timers, and two in-memory timers racing to storage), a restart that
does not steal time, who wins on time, and every bad time control refused with nothing changed."""
from __future__ import annotations

import pytest
import redis

import games
from quadrille.clocks import Bounds, Clocks
from quadrille.errors import ServiceError
from quadrille.infra.presence import Presence
from quadrille.matches.store import Storage
from quadrille.infra.timers import MemoryTimers, RedisTimers
from quadrille.matches import MatchService
from tests.support.databases import stored_matches

DAY = 86400.0


def make_service(storage, clock, timers=None, checked=False, events=None):
    """A match service whose clocks run on `clock` (their heartbeat's task is only noted: tests beat by hand)."""
    events = [] if events is None else events
    clocks = Clocks(storage, clock=clock, timers=timers if timers is not None else MemoryTimers(clock),
                    spawn=lambda task: None, sleep=lambda seconds: None)
    svc = MatchService(storage, lambda match, event, payload: events.append((match, event, payload)),
                       presence=Presence(grace=5, clock=clock), clock=clock, clocks=clocks, checked=checked)
    svc.events = events
    return svc


@pytest.fixture
def service(database, clock):
    svc = make_service(Storage.open(database), clock)
    yield svc
    svc.storage.close()


def online(service, game="trails", options=None, clock=None):
    """A two-player online match with a clock, both seats taken: (match id, creator's token, friend's token)."""
    created = service.create(game, options or {"size": 7}, "online", clock=clock)
    friend = service.claim_seat(created["match"], invite=created["invite_secret"])
    return created["match"], created["token"], friend["token"]


def play_any(service, match_id, token, prefer=None):
    state = service.state(match_id)
    moves = state["legal"]
    move = next((m for m in moves if prefer and m.startswith(prefer)), moves[0])
    return service.play(match_id, token, move)


def error_of(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call(*args, **kwargs)
    assert info.value.reason
    return info.value


# -- real time ------------------------------------------------------------------------------------------
def test_only_the_side_to_move_runs_and_each_move_adds_the_increment(service, clock):
    match, one, two = online(service, clock={"kind": "realtime", "minutes": 1, "increment": 2})
    state = service.state(match)
    assert state["clock"] == {"kind": "realtime", "minutes": 1, "increment": 2, "left": [60.0, 60.0],
                              "running": None, "started": False, "flagged": None}
    clock.advance(30)  # before the first move no clock runs
    assert service.state(match)["clock"]["left"] == [60.0, 60.0]
    play_any(service, match, one)           # the first move starts the clocks, and earns its increment
    assert service.state(match)["clock"]["left"] == [62.0, 60.0]
    clock.advance(10.5)
    state = service.state(match)
    assert state["clock"]["left"] == [62.0, 49.5] and state["clock"]["running"] == 2 and state["clock"]["started"]
    play_any(service, match, two)
    clock.advance(4)
    assert service.state(match)["clock"]["left"] == [58.0, 51.5]
    play_any(service, match, one)
    assert service.state(match)["clock"]["left"] == [60.0, 51.5]
    # the clocks live in the log: a service that reads the match from storage finds the same
    other = make_service(service.storage, clock)
    assert other.state(match)["clock"] == service.state(match)["clock"]


def test_towers_adds_the_increment_per_turn_not_per_action(service, clock):
    match, one, two = online(service, "towers", {}, clock={"kind": "realtime", "minutes": 2, "increment": 5})
    play_any(service, match, one, prefer="m")    # Blue's first turn is one action: it starts the clocks, ends
    assert service.state(match)["clock"]["left"] == [125.0, 120.0]
    clock.advance(3)
    play_any(service, match, two, prefer="m")    # the first action of Red's turn of two
    state = service.state(match)
    assert state["turn"] == 2 and state["clock"]["left"] == [125.0, 117.0] and state["clock"]["running"] == 2
    clock.advance(2)
    service.play(match, two, "end")              # the turn ends: now the increment, and Blue runs
    state = service.state(match)
    assert state["turn"] == 1 and state["clock"]["left"] == [125.0, 120.0] and state["clock"]["running"] == 1
    clock.advance(7)
    assert service.state(match)["clock"]["left"] == [118.0, 120.0]


def test_a_flag_falls_on_the_server_with_nobody_connected(service, clock):
    match, one, two = online(service, clock={"kind": "realtime", "minutes": 0.5, "increment": 0})
    play_any(service, match, one)
    clock.advance(29.9)
    assert service.clocks.fire_due() == [] and service.state(match)["outcome"] is None
    assert service.clocks.time_to_move([match, "nothing"]) == {
        match: {"clock": {"kind": "realtime", "minutes": 0.5, "increment": 0}, "seat": 2, "seconds_left": 0.1,
                "deadline": pytest.approx(clock.now + 0.1)}}
    clock.advance(0.1)
    before = len(service.events)
    service.clocks.fire_due()          # the timer, as its background task would fire it: nobody asked
    state = service.state(match)
    assert state["outcome"] == {"reason": "time", "flagged": 2, "scores": [], "winners": [1]}
    assert state["clock"]["left"] == [30.0, 0.0] and state["clock"]["running"] is None
    assert state["clock"]["flagged"] == 2 and state["turn"] is None
    assert [e for _, e, p in service.events[before:] if p.get("outcome")] == ["state"]  # the room heard it
    assert service.clocks.time_to_move([match])[match]["seat"] is None
    assert error_of(service.play, match, two, "down").error == "game-over"
    assert service.clocks.fire_due() == []


def test_a_move_that_comes_too_late_is_refused_and_the_flag_falls(service, clock):
    match, one, two = online(service, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    play_any(service, match, one)
    clock.advance(61)
    version = service.state(match)["version"]
    exc = error_of(service.play, match, two, service.state(match)["legal"][0])
    assert exc.error == "game-over" and "time ran out" in exc.reason
    state = service.state(match)
    assert state["version"] == version + 1 and state["outcome"]["reason"] == "time"  # the flag, not the move
    assert len(state["moves"]) == 1


def test_a_flag_with_an_early_timer_waits_for_the_real_deadline(service, clock):
    """A stale timer (the clock's deadline moved on with a move) fires, finds time left, and waits again."""
    match, one, two = online(service, clock={"kind": "realtime", "minutes": 1, "increment": 30})
    play_any(service, match, one)
    clock.advance(50)
    play_any(service, match, two)       # Red moved in time: 40 s left
    clock.advance(20)
    play_any(service, match, one)       # Blue's first deadline (t + 60 + 30) comes and goes
    clock.advance(25)
    service.clocks.fire_due()
    assert service.state(match)["outcome"] is None
    clock.advance(50)                   # Red's 40 + 30 s, long gone
    service.clocks.fire_due()
    assert service.state(match)["outcome"]["flagged"] == 2


def test_the_clock_runs_against_the_computer_and_on_one_screen(service, clock):
    local = service.create("trails", {"size": 7}, "local", clock={"kind": "realtime", "minutes": 1, "increment": 1})
    play_any(service, local["match"], local["token"])
    clock.advance(5)
    assert service.state(local["match"])["clock"]["left"] == [61.0, 55.0]
    refused = error_of(service.create, "trails", {}, "local", clock={"kind": "correspondence", "days": 1})
    assert refused.error == "bad-clock" and "online" in refused.reason
    ai = service.create("trails", {"size": 7}, "ai", ai={"seats": [2], "level": 1},
                        clock={"kind": "realtime", "minutes": 1, "increment": 0})
    assert service.state(ai["match"])["clock"]["left"] == [60.0, 60.0]
    paused = error_of(service.pause, ai["match"], ai["token"], True)   # the computer would lose on time
    assert paused.error == "not-allowed" and "clock" in paused.reason
    assert service.state(ai["match"])["paused"] is False


def test_a_rematch_keeps_the_time_control_and_a_resignation_stops_the_clocks(service, clock):
    match, one, two = online(service, clock={"kind": "realtime", "minutes": 3, "increment": 2})
    play_any(service, match, one)
    clock.advance(7)
    service.resign(match, two)
    clock.advance(100)
    state = service.state(match)
    assert state["outcome"]["reason"] == "resigned" and state["clock"]["left"] == [182.0, 173.0]
    assert state["clock"]["running"] is None and service.clocks.time_to_move([match])[match]["seat"] is None
    service.rematch(match, one)
    new = service.rematch(match, two)["match"]
    assert service.state(new)["clock"] == {"kind": "realtime", "minutes": 3, "increment": 2, "left": [180.0, 180.0],
                                           "running": None, "started": False, "flagged": None}
    assert service.state(service.create("trails", {}, "online")["match"])["clock"] is None


# -- who wins on time -------------------------------------------------------------------------------------
def test_gamma_with_several_players_ends_and_the_others_with_most_fields_win(service, clock):
    created = service.create("gamma", {"players": 3}, "online", clock={"kind": "realtime", "minutes": 1,
                                                                          "increment": 0})
    tokens = [created["token"]] + [service.claim_seat(created["match"], invite=created["invite_secret"])["token"]
                                   for _ in range(2)]
    service.start(created["match"], tokens[0])
    state = service.state(created["match"])
    assert state["players"] == 3 and state["clock"]["left"] == [60.0, 60.0, 60.0]
    service.play(created["match"], tokens[0], "0,0")
    service.play(created["match"], tokens[1], "1,1")
    clock.advance(61)                   # Player 3 never moves
    service.clocks.fire_due()
    outcome = service.state(created["match"])["outcome"]
    assert outcome["flagged"] == 3 and outcome["reason"] == "time"
    assert outcome["scores"] == [1, 1, 0] and outcome["winners"] == [1, 2]


def test_lattice_is_drawn_when_the_opponent_has_no_piece_left():
    """The engine says whether a side can still win (Board.can_still_win): real Lattice positions, Blue flagged."""
    from quadrille.clocks.results import flag_result
    lattice = games.get("lattice")

    def red_with(bench):  # Blue has two pieces; Red none on the board, `bench` on its bench
        return lattice.new(start=f"B:Aa1,Ac1;T:;benchB:0;benchT:{bench}")
    assert flag_result("lattice", red_with(0), 1)["winners"] == []       # Red cannot score: a draw
    assert flag_result("lattice", red_with(1), 1)["winners"] == [2]      # a piece on its bench can
    assert flag_result("trails", games.get("trails").new(), 1)["winners"] == [2]


# -- correspondence ---------------------------------------------------------------------------------------
def test_correspondence_gives_each_move_its_days(service, clock):
    match, one, two = online(service, clock={"kind": "correspondence", "days": 2})
    play_any(service, match, one)
    clock.advance(DAY + 3600)
    state = service.state(match)
    assert state["clock"]["kind"] == "correspondence" and state["clock"]["days"] == 2
    assert state["clock"]["left"][1] == 2 * DAY - DAY - 3600 and state["clock"]["running"] == 2
    assert service.clocks.time_to_move([match])[match]["seconds_left"] == DAY - 3600
    play_any(service, match, two)          # a new move: Blue has two whole days again
    assert service.state(match)["clock"]["left"][0] == 2 * DAY
    clock.advance(2 * DAY - 1)
    service.clocks.fire_due()
    assert service.state(match)["outcome"] is None
    clock.advance(1)
    service.clocks.fire_due()
    assert service.state(match)["outcome"]["flagged"] == 1


# -- restarts ---------------------------------------------------------------------------------------------
def test_a_restart_does_not_steal_time_and_re_arms_the_flag(database, clock):
    storage = Storage.open(database)
    first = make_service(storage, clock)
    first.clocks.resume(first.credit_clock)
    match, one, two = online(first, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    play_any(first, match, one)
    clock.advance(10)
    first.clocks.beat()                    # its heartbeat, 10 s into Red's turn; then it dies (no close)
    clock.advance(600)                     # ten minutes with no server
    second = make_service(Storage.open(database), clock)
    assert second.clocks.resume(second.credit_clock) == 600
    state = second.state(match)
    assert state["clock"]["left"] == [60.0, 50.0] and state["outcome"] is None  # charged only while served
    clock.advance(49)
    assert second.clocks.fire_due() == [] and second.state(match)["outcome"] is None
    clock.advance(1)
    second.clocks.fire_due()               # the flag re-armed at start-up falls on time
    assert second.state(match)["outcome"]["flagged"] == 2
    # a third server starting while one is alive (a recent beat) credits nothing
    second.clocks.beat()
    clock.advance(1)
    third = make_service(Storage.open(database), clock)
    assert third.clocks.resume(third.credit_clock) == 0
    for svc in (first, second, third):
        svc.storage.close()


def test_a_quick_restart_after_a_clean_stop_credits_the_stop(database, clock):
    storage = Storage.open(database)
    first = make_service(storage, clock)
    first.clocks.resume(first.credit_clock)
    match, one, two = online(first, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    play_any(first, match, one)
    clock.advance(5)
    first.clocks.start()
    first.clocks.close()                   # a deploy: the last beat at the stop
    clock.advance(20)
    second = make_service(Storage.open(database), clock)
    assert second.clocks.resume(second.credit_clock) == 20
    assert second.state(match)["clock"]["left"] == [60.0, 55.0]
    storage.close(), second.storage.close()


# -- several processes ------------------------------------------------------------------------------------
def flags_in(storage, match) -> int:
    return sum(1 for e in storage.load_match(match).events if e.kind == "flag")


def test_a_flag_fires_once_with_two_services_on_redis_timers(database, clock, redis_url):
    client = redis.Redis.from_url(redis_url)
    heard = []
    services = [make_service(Storage.open(database), clock, RedisTimers(client, prefix="clocks-test:", clock=clock),
                             checked=True, events=heard) for _ in range(2)]
    a, b = services
    match, one, two = online(a, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    play_any(a, match, one)
    assert b.state(match)["clock"]["running"] == 2   # the other process reads the clocks from the log
    clock.advance(61)
    fired = a.clocks.fire_due() + b.clocks.fire_due()
    assert len(fired) == 1                          # one process took the timer from the shared set
    assert flags_in(a.storage, match) == 1
    assert a.state(match)["outcome"]["flagged"] == b.state(match)["outcome"]["flagged"] == 2
    for svc in services:
        svc.storage.close()
    client.close()


def test_the_next_event_removes_the_timer_a_restart_set(database, clock, redis_url):
    """A start-up re-arms every running clock under `flag:<match>:resume`; the match's next event schedules its
    own deadline, and takes the start-up's timer away with the last event's (a correspondence game's would
    otherwise wait in the shared set for days)."""
    client = redis.Redis.from_url(redis_url)
    timers = RedisTimers(client, prefix="resume-test:", clock=clock)
    first = make_service(Storage.open(database), clock, timers)
    match, one, two = online(first, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    version = play_any(first, match, one)["version"]
    second = make_service(Storage.open(database), clock, timers)
    second.clocks.resume(second.credit_clock)
    scheduled = {key.decode() for key in client.zrange(timers.key, 0, -1)}
    assert scheduled == {f"flag:{match}:{version}", f"flag:{match}:resume"}
    play_any(second, match, two)
    assert {key.decode() for key in client.zrange(timers.key, 0, -1)} == {f"flag:{match}:{version + 1}"}
    clock.advance(61)
    assert second.clocks.fire_due() == [f"flag:{match}:{version + 1}"]
    assert second.state(match)["outcome"]["flagged"] == 1
    first.storage.close(), second.storage.close()
    client.delete(timers.key)
    client.close()


def test_two_services_whose_timers_both_fire_record_one_flag(database, clock):
    a = make_service(Storage.open(database), clock, checked=True)
    b = make_service(Storage.open(database), clock, checked=True)
    match, one, two = online(a, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    play_any(a, match, one)
    b.clocks.arm(b.load(match))                    # b has its own timer for it too
    clock.advance(60)
    a.clocks.fire_due(), b.clocks.fire_due()
    assert flags_in(a.storage, match) == 1
    assert b.state(match)["outcome"] == a.state(match)["outcome"]
    a.storage.close(), b.storage.close()


# -- bad time controls ------------------------------------------------------------------------------------
BAD_CLOCKS = [
    ("fast", "clock must be null"),
    ([5, 3], "clock must be null"),
    ({}, "clock.kind"),
    ({"kind": "blitz", "minutes": 3}, "clock.kind"),
    ({"kind": "realtime"}, "needs minutes"),
    ({"kind": "realtime", "minutes": "5"}, "clock.minutes must be a number"),
    ({"kind": "realtime", "minutes": True}, "clock.minutes must be a number"),
    ({"kind": "realtime", "minutes": 0}, "from 0.25 to 180"),
    ({"kind": "realtime", "minutes": 181}, "from 0.25 to 180"),
    ({"kind": "realtime", "minutes": float("nan")}, "clock.minutes must be a number"),
    ({"kind": "realtime", "minutes": 5, "increment": -1}, "clock.increment"),
    ({"kind": "realtime", "minutes": 5, "increment": 2.5}, "whole number"),
    ({"kind": "realtime", "minutes": 5, "increment": 181}, "from 0 to 180"),
    ({"kind": "realtime", "minutes": 5, "days": 2}, "not days"),
    ({"kind": "correspondence"}, "needs days"),
    ({"kind": "correspondence", "days": 0}, "from 1 to 14"),
    ({"kind": "correspondence", "days": 15}, "from 1 to 14"),
    ({"kind": "correspondence", "days": 1.5}, "whole number"),
    ({"kind": "correspondence", "days": 3, "minutes": 5}, "not minutes"),
]


@pytest.mark.parametrize("bad, words", BAD_CLOCKS)
def test_a_bad_time_control_is_a_clear_error_and_changes_nothing(service, bad, words):
    before = stored_matches(service.storage)
    for call in (lambda: service.create("trails", {}, "online", clock=bad),
                 lambda: service.join_by_name("clocked", "trails", {}, clock=bad)):
        exc = error_of(call)
        assert exc.status == 400 and exc.error == "bad-clock" and words in exc.reason, exc.reason
    assert stored_matches(service.storage) == before


def test_the_bounds_are_settings(database, clock):
    clocks = Clocks(Storage.open(database), clock=clock, bounds=Bounds.from_settings({"CLOCK_MINUTES_MIN": 0.05}))
    assert clocks.parse({"kind": "realtime", "minutes": 0.05}).initial == pytest.approx(3.0)
    assert clocks.parse(None) is None
