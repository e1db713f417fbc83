"""Lists of games against long matches (issue 22, High #2): a list never replays a match.

The review imported 150 Towers records of 2,999 actions each, then named their ids with bogus tokens in one
anonymous `POST /api/me/games`: 22 s a request, another client's round trips 24.7 s. A public profile of an
account that claimed 120 such matches cost about 5 s of CPU per anonymous `GET /api/players/<name>`. Here 60
such records (more than the match cache holds at once, as 150 were) play the same part, on a real server under
each async mode, while a victim measures its Socket.IO round trips."""
from __future__ import annotations

import time

import pytest

from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support import clients
from tests.support.clients import ATTACKER, SETUP, Victim
from tests.security.conftest import SETTINGS, WORST_ROUND_TRIP_MS, run_attack
from tests.security.long_records import towers_record

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = pytest.mark.alone

RECORDS = 60
# The attacker's records must all be imported for the lists to be long: the import budgets (per address, by
# moves; test_costly.py attacks them) are lifted here.
LISTS_SETTINGS = {**SETTINGS, "MATCH_CREATION_RATE": "1000 per minute", "IMPORT_MOVES_RATE": "10000000 per hour"}


@pytest.fixture(scope="module", params=ASYNC_MODES)
def long_matches(request, tmp_path_factory):
    """A server holding RECORDS imported Towers matches of 2,999 actions: (server, {match id: token})."""
    mode = request.param
    server = ServerProcess(tmp_path_factory.mktemp("lists") / "lists.db", mode, settings=LISTS_SETTINGS).start()
    record = towers_record()
    held = {}
    for _ in range(RECORDS):
        status, _, created = clients.request(server.url, "POST", "/api/matches/import", record, address=ATTACKER)
        assert status == 201, created
        held[created["match"]] = created["token"]
    yield server, held
    server.stop()


@pytest.fixture
def victim(long_matches):
    person = Victim(long_matches[0].url)
    yield person
    person.close()


def bogus_lists(url: str, match_ids: list[str], times: int) -> list[tuple[int, float, int]]:
    """The attack: `times` anonymous lists naming every long match with a token that holds nothing."""
    tokens = {match_id: "x" * 32 for match_id in match_ids}
    answers = []
    for _ in range(times):
        started = time.perf_counter()
        status, _, body = clients.request(url, "POST", "/api/me/games", {"tokens": tokens}, address=ATTACKER)
        answers.append((status, time.perf_counter() - started, len(body.get("games", [])) if status == 200 else -1))
    return answers


def own_lists(url: str, tokens: dict, times: int) -> list[int]:
    return [clients.request(url, "POST", "/api/me/games", {"tokens": tokens}, address=ATTACKER)[0]
            for _ in range(times)]


def profiles(url: str, name: str, times: int) -> list[tuple[int, float]]:
    """The attack: anonymous reads of the profile of an account that holds many long matches."""
    answers = []
    for _ in range(times):
        started = time.perf_counter()
        status, _, _ = clients.request(url, "GET", f"/api/players/{name}", address=ATTACKER)
        answers.append((status, time.perf_counter() - started))
    return answers


def test_bogus_tokens_naming_long_matches_cost_a_hash_each(long_matches, victim):
    server, held = long_matches
    answers = run_attack(victim, bogus_lists, server.url, list(held), 10)
    assert [(status, games) for status, _, games in answers] == [(200, 0)] * 10  # nothing is anyone's
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, (victim.worst_ms, [round(s, 3) for _, s, _ in answers])


def test_a_browsers_own_long_matches_are_listed_as_their_states_say_and_cheaply(long_matches, victim):
    server, held = long_matches
    status, _, body = clients.request(server.url, "POST", "/api/me/games", {"tokens": held}, address=SETUP)
    assert status == 200 and sorted(g["match"] for g in body["games"]) == sorted(held)
    for line in body["games"][:5]:  # what the list says is what the match's STATE says
        state = clients.request(server.url, "GET", f"/api/matches/{line['match']}", address=SETUP)[2]
        assert (line["turn"], line["finished"], line["options"]) == (state["turn"], False, state["options"])
        assert line["seats"] == [1, 2] and line["sides"] == state["seat_names"] and line["opponents"] == []
    answers = run_attack(victim, own_lists, server.url, held, 10)
    assert answers == [200] * 10
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.worst_ms


def test_too_many_ids_are_refused_before_anything_is_read(long_matches):
    server, _ = long_matches
    tokens = {f"m{i}": "x" * 32 for i in range(501)}  # more than a page sends (static/js/players.js: 500)
    status, _, body = clients.request(server.url, "POST", "/api/me/games", {"tokens": tokens}, address=SETUP)
    assert status == 400 and body["error"] == "bad-request", body


def test_the_profile_of_an_account_holding_many_long_matches_is_cheap(long_matches, victim):
    server, held = long_matches
    name = f"hoarder{len(held)}{server.async_mode[0]}"
    status, _, body = clients.request(server.url, "POST", "/api/account",
                              {"name": name, "password": "correct horse", "tokens": held}, address=SETUP)
    assert status == 201 and len(body["claimed"]) == RECORDS, body
    answers = run_attack(victim, profiles, server.url, name, 10)
    assert [status for status, _ in answers] == [200] * 10
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, (victim.worst_ms, [round(s, 3) for _, s in answers])
    profile = clients.request(server.url, "GET", f"/api/players/{name}", address=SETUP)[2]
    assert profile["recent"] == []  # none of them finished: a profile lists finished games
