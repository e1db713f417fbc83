"""Computer players in the match service: real worker processes, real SQLite, threads for tasks."""
from __future__ import annotations

import os
import signal
import time

import pytest

from quadrille.computer import ComputerPlayers
from quadrille.errors import ServiceError
from quadrille.matches import MatchService
from quadrille.matches.store import Storage
from tests.support.clock import past_the_grace
from tests.support.databases import stored_matches
from tests.support.tasks import start_task
from tests.support.waiting import wait_until


def test_the_computer_answers_each_human_move_until_the_end(service):
    created = service.create("trails", {"size": 7}, "ai", ai={"seats": [2], "level": 1})
    match, token = created["match"], created["token"]
    assert created["seats"] == [1]
    state = service.state(match)
    assert state["seats"][1] == {"seat": 2, "taken": True, "name": "ai", "kind": "ai", "level": 1, "level_name": "Easy"}
    while state["outcome"] is None:
        if state["turn"] == 1:
            state = service.play(match, token, state["legal"][0])
        else:
            version = state["version"]
            wait_until(lambda: service.state(match)["version"] > version)
            state = service.state(match)
            assert state["moves"] and len(state["moves"]) == version + 1
    record = service.record(match)
    assert [e["seat"] for e in record["events"]] == [1, 2] * (len(record["events"]) // 2) + [1] * (
        len(record["events"]) % 2)


def test_the_computer_moves_first_when_it_holds_seat_one(service):
    created = service.create("trails", None, "ai", ai={"seats": [1], "level": 2})
    assert created["seats"] == [2]
    wait_until(lambda: service.state(created["match"])["version"] == 1)
    state = service.state(created["match"])
    assert state["turn"] == 2
    assert service.play(created["match"], created["token"], state["legal"][0])["version"] == 2


def test_a_human_cannot_move_for_the_computer(service):
    created = service.create("trails", None, "ai", ai={"seats": [1], "level": 1})
    service.computer.close()
    with pytest.raises(ServiceError) as refused:
        service.play(created["match"], created["token"], "down", version=0)
    assert refused.value.error in ("not-your-turn", "stale-version")


def test_take_back_against_the_computer_undoes_its_reply_too(service):
    created = service.create("trails", None, "ai", ai={"seats": [2], "level": 1})
    match, token = created["match"], created["token"]
    service.play(match, token, "right")
    wait_until(lambda: service.state(match)["version"] == 2)
    service.play(match, token, service.state(match)["legal"][0])
    wait_until(lambda: service.state(match)["version"] == 4)
    state = service.takeback(match, token)
    assert len(state["moves"]) == 2 and state["turn"] == 1
    wait_until(service.computer.idle, what="the computer to go quiet")
    assert service.state(match)["version"] == state["version"]  # the computer does not move for seat 1


def test_a_demo_plays_itself_to_the_end(service):
    created = service.create("trails", {"size": 5}, "ai", ai={"seats": [1, 2], "level": 1})
    assert created["seats"] == [] and created["token"]
    wait_until(lambda: service.state(created["match"])["outcome"] is not None)


def test_pausing_a_demo_stops_the_computer(service):
    created = service.create("trails", {"size": 9}, "ai", ai={"seats": [1, 2], "level": 1})
    service.pause(created["match"], created["token"], True)  # the search under way is cancelled too
    paused_at = service.state(created["match"])["version"]
    wait_until(service.computer.idle, what="the cancelled search to end")
    assert service.state(created["match"])["version"] == paused_at
    assert service.state(created["match"])["paused"] is True
    service.pause(created["match"], created["token"], False)
    wait_until(lambda: service.state(created["match"])["version"] > paused_at)


def test_a_crashed_worker_is_replaced_and_the_move_retried(service):
    created = service.create("trails", None, "ai", ai={"seats": [2], "level": 1})
    match, token = created["match"], created["token"]
    service.play(match, token, "right")
    wait_until(lambda: service.state(match)["version"] == 2)
    for worker in service.computer.workers():
        os.kill(worker.proc.pid, signal.SIGKILL)  # the idle worker dies between two moves
    service.play(match, token, service.state(match)["legal"][0])
    wait_until(lambda: service.state(match)["version"] == 4)


def test_a_worker_killed_while_thinking_is_replaced(service):
    created = service.create("trails", None, "ai", ai={"seats": [2], "level": 3})
    match, token = created["match"], created["token"]
    service.play(match, token, "right")
    wait_until(lambda: service.computer.thinking(match) and service.computer._thinking[match]["worker"] is not None)
    os.kill(service.computer._thinking[match]["worker"].proc.pid, signal.SIGKILL)
    wait_until(lambda: service.state(match)["version"] == 2, timeout=60)


def test_handing_an_absent_players_seat_to_the_computer_and_back(service):
    created = service.create("trails", None, "online")
    match = created["match"]
    other = service.claim_seat(match, invite=created["invite_secret"])
    with pytest.raises(ServiceError) as present:  # seat 2 was claimed a moment ago: its player is here
        service.hand_to_computer(match, created["token"], 2, 1)
    assert present.value.error == "player-present"
    past_the_grace(service.presence)  # ... and then gone for longer than the grace period
    with pytest.raises(ServiceError) as own:
        service.hand_to_computer(match, created["token"], 1, 1)
    assert own.value.error == "bad-ai"
    state = service.hand_to_computer(match, created["token"], 2, 1)
    assert state["seats"][1]["kind"] == "ai"
    service.play(match, created["token"], "right")
    wait_until(lambda: service.state(match)["version"] == 3)  # the takeover is a decision, then 2 moves
    state = service.reclaim_seat(match, other["token"])
    assert state["seats"][1]["kind"] == "human"
    service.play(match, created["token"], service.state(match)["legal"][0])
    wait_until(service.computer.idle, what="the computer to go quiet")
    assert service.state(match)["turn"] == 2  # seat 2 is the person's again: the computer waits


@pytest.mark.parametrize("spec", [None, "hard", {"seats": [3]}, {"seats": [2], "level": 9}, {"seats": []},
                                  {"seats": {"2": "best"}}])
def test_bad_computer_requests_are_refused(service, spec):
    with pytest.raises(ServiceError) as refused:
        service.create("trails", None, "ai", ai=spec)
    assert refused.value.error == "bad-ai" and refused.value.reason
    assert stored_matches(service.storage) == 0


def test_computer_seats_survive_a_restart(database):
    db = database
    first = MatchService(Storage.open(db))
    created = first.create("trails", None, "ai", ai={"seats": [2], "level": 2})
    first.storage.close()
    second = MatchService(Storage.open(db))
    second.computer = ComputerPlayers(second, start_task, time.sleep, size=1)
    try:
        assert second.state(created["match"])["seats"][1]["level"] == 2
        second.play(created["match"], created["token"], "right")
        wait_until(lambda: second.state(created["match"])["version"] == 2)
    finally:
        second.computer.close()
        second.storage.close()
