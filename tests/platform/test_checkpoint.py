"""The match service applies an event before writing it (so that the write carries the list summary after it):
when the write fails, the copy of the match is put back exactly as it was (matches/checkpoint.py), and the
summary stored is always the one of the stored events."""
from __future__ import annotations

import json

import pytest

from quadrille.errors import ServiceError
from quadrille.matches.store import EventRow, Storage
from quadrille.matches import MatchService
from quadrille.matches.checkpoint import Checkpoint


def fingerprint(match) -> dict:
    return {"moves": match.board.moves, "view": match.board.view(), "turn": match.turn(),
            "outcome": match.outcome(), "move_seats": list(match.move_seats), "started": match.creator_started,
            "computer": dict(match.computer), "offers": (match.offers.to_dict(), match.offers.declined_dict(),
                                                         match.offers.rematch),
            "clock": None if match.clock is None else (list(match.clock.left), match.clock.at, match.clock.flagged),
            "options": dict(match.row.options), "seats": [s.seat for s in match.row.seats],
            "names": list(match.seat_names), "limit": match.move_limit, "line": match.line,
            "began_at": match.began_at}


@pytest.fixture
def database(sqlite_database):
    return sqlite_database


@pytest.fixture
def service(make_service):
    return make_service()


def online(service, game="trails", options=None, clock=None):
    created = service.create(game, options or {}, "online", clock=clock)
    friend = service.claim_seat(created["match"], invite=created["invite_secret"])
    return created["match"], {1: created["token"], 2: friend["token"]}


def play_some(service, match_id, tokens, count):
    for _ in range(count):
        state = service.state(match_id)
        service.play(match_id, tokens[state["turn"]], state["legal"][0], state["version"])


@pytest.mark.parametrize("kind, data, seat", [
    ("move", None, None), ("rewind", {"to": 1}, None), ("resign", {"seat": 1}, 1), ("abort", {"seat": 1}, 1),
    ("draw", {"seats": [1, 2]}, 1), ("offer", {"offer": "draw", "seat": 1}, 1),
    ("computer", {"seat": 2, "level": 1}, 1), ("flag", {"seat": 1}, None),
    ("timeout", {"seat": 1, "away": [2], "result": "win"}, 1)])
def test_every_kind_of_event_is_put_back_exactly(service, kind, data, seat):
    match_id, tokens = online(service, clock={"kind": "realtime", "minutes": 5, "increment": 3})
    play_some(service, match_id, tokens, 3)
    match = service.load(match_id)
    if kind == "move":
        data, seat = {"move": match.board.legal_moves()[0], "clock": {"at": 1.0e9, "left": [10.0, 20.0]}}, match.turn()
    before = fingerprint(match)
    saved = Checkpoint(match, kind)
    service.apply(match, EventRow(match.version + 1, kind, data, seat, 1.0e9))
    assert fingerprint(match) != before
    saved.restore(match)
    assert fingerprint(match) == before


def test_a_gamma_start_that_changes_the_options_is_put_back(service):
    created = service.create("gamma", {"players": 4}, "online")
    match = service.load(created["match"])
    before = fingerprint(match)
    saved = Checkpoint(match, "start")
    service.apply(match, EventRow(1, "start", {"options": {"players": 2}}, 1, 1.0e9))
    assert fingerprint(match)["options"]["players"] == 2
    saved.restore(match)
    assert fingerprint(match) == before


def test_a_write_lost_to_another_process_leaves_the_copy_and_the_summary_as_stored(tmp_path):
    storage = Storage.sqlite(str(tmp_path / "two.db"))
    one, two = MatchService(storage), MatchService(storage)  # two processes' copies of one database
    match_id, tokens = online(one)
    two.state(match_id)  # the second has it cached too
    state = one.state(match_id)
    one.play(match_id, tokens[1], state["legal"][0], 0)
    stale = two.load(match_id)
    before = fingerprint(stale)
    with pytest.raises(ServiceError) as refused:
        two.play(match_id, tokens[1], state["legal"][-1], 0)  # its copy still says version 0
    assert refused.value.error == "stale-version"
    assert fingerprint(stale) == before  # put back as it was
    assert two.state(match_id)["moves"] == [state["legal"][0]]  # and read again from storage
    stored = json.loads(storage.listed([match_id])[match_id].summary)
    assert stored["turn"] == one.state(match_id)["turn"] == 2  # the summary of the move that was stored
    storage.close()
