"""Costly requests inside the budgets (issue 22, Medium #7), and by-name squatting (Low), on a real server under
each async mode while a victim measures its Socket.IO round trips.

The review: a 40x40, 16-player Gamma allows 25,972 moves, and its record imported in 385 ms and stored 1.8 MB
for ever (40 imports from one address: 12.3 s of CPU); `GET .../positions/<ply>` replayed the line at every
call; imports nobody opened were kept for ever; MATCH_CREATION_RATE (3,000/min) and HTTP_RATE (6,000/min) let
one address keep a core busy; common match names could be held by matches nobody played."""
from __future__ import annotations

import os
import random
import threading

import pytest

import games
from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.waiting import real_time_passes, wait_until
from tests.support.clients import SETUP, RawSocket, Victim, request
from tests.security.conftest import SETTINGS, WORST_ROUND_TRIP_MS, run_attack
from tests.security.long_records import gamma_record, towers_record

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = pytest.mark.alone

GAMMA = gamma_record()  # 25,585 moves, 206 KB: about the longest Gamma there is


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def imports(url: str, address: str, record: dict, times: int) -> list[tuple[int, str | None]]:
    answers = []
    for _ in range(times):
        status, _, body = request(url, "POST", "/api/matches/import", record, address=address)
        answers.append((status, body.get("error")))
    return answers


def test_imports_are_budgeted_by_their_moves(target, victim):
    """The review's 40 imports of the longest Gamma: an hour's budget (IMPORT_MOVES_RATE, 60,000 moves) takes
    two, and the others are refused before anything is replayed."""
    answers = run_attack(victim, imports, target.url, "127.0.0.21", GAMMA, 12)
    assert answers[:2] == [(201, None)] * 2 and answers[2:] == [(429, "rate-limited")] * 10, answers
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.worst_ms
    # the budget counts moves, not requests: a short record still fits in what is left; another address is served
    assert request(target.url, "POST", "/api/matches/import", {"game": "trails", "moves": ["right"]},
                   address="127.0.0.21")[0] == 201
    assert request(target.url, "POST", "/api/matches/import", GAMMA, address="127.0.0.22")[0] == 201


def test_a_save_file_is_counted_by_its_size_before_it_is_read(target):
    """A .twr at its cap (128 KB) counts 8,192 moves whether it reads or not: seven an hour from one address."""
    junk = "(" + " " * (120 * 1024) + ")"  # 120 KB that is no Towers game: 7,680 moves of the budget
    answers = [request(target.url, "POST", "/api/matches/import?format=twr", raw=junk, address="127.0.0.23",
                       headers={"Content-Type": "text/plain"})[0] for _ in range(8)]
    assert answers == [400] * 7 + [429], answers


def positions(url: str, address: str, match: str, plies: list[int]) -> list[int]:
    """The attack: 4 clients at once step through a long match at random plies."""
    statuses, lock = [], threading.Lock()

    def client(mine):
        for ply in mine:
            status = request(url, "GET", f"/api/matches/{match}/positions/{ply}", address=address)[0]
            with lock:
                statuses.append(status)
    threads = [threading.Thread(target=client, args=(plies[k::4],)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), from /proc."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_positions_of_a_long_match_do_not_replay_it_from_the_start(target, victim):
    """A replay of a Towers game of 2,999 actions from its start costs 10-15 ms of a core: 160 positions asked at
    random plies of its last fifth by 4 clients at once cost, from boards kept along the line, a part of that
    each (most of what is left is the HTTP request's own)."""
    record = towers_record()
    created = request(target.url, "POST", "/api/matches/import", record, address="127.0.0.24")[2]
    match, plies = created["match"], len(record["moves"])
    request(target.url, "GET", f"/api/matches/{match}", address=SETUP)  # opened: loaded in the server's cache
    rng = random.Random(7)
    asked = [rng.randrange(plies * 4 // 5, plies + 1) for _ in range(160)]
    before = cpu_seconds(target.pid)
    statuses = run_attack(victim, positions, target.url, "127.0.0.24", match, asked)
    per_position = (cpu_seconds(target.pid) - before) / len(asked)
    assert statuses == [200] * len(asked)
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.worst_ms
    assert per_position < 0.006, per_position  # the line replayed from its start at each: 0.01 s and more
    for ply in (0, 1, asked[0], asked[-1], plies - 1, plies):  # each the engine's own position at that ply
        board = games.get("towers").new(**record["options"])
        for move in record["moves"][:ply]:
            board.push(move)
        answer = request(target.url, "GET", f"/api/matches/{match}/positions/{ply}", address=SETUP)[2]
        assert (answer["view"], answer["turn"], answer["plies"]) == (board.view(), board.turn, plies), ply


# -- a server of short retention and name idling ----------------------------------------------------------
SHORT = {**SETTINGS, "IMPORT_RETENTION": 2.0, "NAME_IDLE": 2.0}


@pytest.fixture(scope="module", params=ASYNC_MODES)
def short_lived(request, tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("short") / "short.db", request.param, settings=SHORT).start()
    yield server
    server.stop()


def test_imports_nobody_opened_expire_and_the_others_stay(short_lived):
    url, record = short_lived.url, towers_record(40)
    unopened, opened, played, claimed = (
        request(url, "POST", "/api/matches/import", record, address="127.0.0.25")[2] for _ in range(4))
    sock = RawSocket(url, SETUP)
    assert sock.call("watch", {"match": opened["match"], "token": opened["token"]})["ok"]  # its page, opened
    sock.close()
    state = request(url, "GET", f"/api/matches/{played['match']}")[2]
    assert request(url, "POST", f"/api/matches/{played['match']}/moves", {"move": state["legal"][0]},
                   headers=bearer(played["token"]))[0] == 200
    assert request(url, "POST", "/api/account", {"name": f"keeper{short_lived.async_mode[0]}",
                                                 "password": "correct horse",
                                                 "tokens": {claimed["match"]: claimed["token"]}})[0] == 201
    made = request(url, "POST", "/api/matches", {"game": "trails", "mode": "local"})[2]  # not an import
    gone = lambda: request(url, "GET", f"/api/matches/{unopened['match']}")[0] == 404  # noqa: E731
    wait_until(gone, 10, "the unopened import to expire")
    for kept in (opened, played, claimed, made):
        assert request(url, "GET", f"/api/matches/{kept['match']}")[0] == 200, kept


def name_idles_on_the_server(seconds: float) -> None:
    """Real time passes: a name's idle time runs on a real server process's clock, which a test cannot move, and
    asking the server whether the name is free would be taking it."""
    real_time_passes(seconds, "a name's idle time on the server's clock")


def test_a_name_held_by_a_match_nobody_plays_is_free_again(short_lived):
    url = short_lived.url
    squatted = [f"friday {short_lived.async_mode} {k}" for k in range(5)]
    for name in squatted:  # the squatter takes both seats of each name
        for _ in range(2):
            assert request(url, "POST", "/api/matches/by-name", {"name": name, "game": "trails"},
                           address="127.0.0.26")[2]["token"]
    joined = request(url, "POST", "/api/matches/by-name", {"name": squatted[0], "game": "trails"})[2]
    assert joined["token"] is None and joined["created"] is False  # while it is fresh: watch it
    name_idles_on_the_server(SHORT["NAME_IDLE"] + 0.5)
    for name in squatted:  # idle: the name makes a new match, whose first seat is the newcomer's
        fresh = request(url, "POST", "/api/matches/by-name", {"name": name, "game": "trails"})[2]
        assert fresh["created"] is True and fresh["token"] and fresh["seat"] == 1, fresh
        second = request(url, "POST", "/api/matches/by-name", {"name": name, "game": "trails"})[2]
        assert second["match"] == fresh["match"] and second["seat"] == 2  # and a friend joins that one


# -- the default budgets ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def defaults(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("defaults") / "defaults.db", "gevent").start()
    yield server
    server.stop()


def creations(url: str, address: str, times: int) -> dict:
    counted = {}
    for _ in range(times):
        status = request(url, "POST", "/api/matches", {"game": "trails"}, address=address)[0]
        counted[status] = counted.get(status, 0) + 1
    return counted


def test_the_default_budgets_are_what_a_core_serves_beside_everyone_else(defaults):
    victim = Victim(defaults.url)
    try:
        counted = run_attack(victim, creations, defaults.url, "127.0.0.27", 340)
        # MATCH_CREATION_RATE: 300 a minute (a sliding window: a few more as the seconds pass)
        assert set(counted) == {201, 429} and 300 <= counted[201] <= 310, counted
        assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.worst_ms
    finally:
        victim.close()
    statuses = [request(defaults.url, "GET", "/api/games", address="127.0.0.28")[0] for _ in range(1250)]
    assert 1200 <= statuses.count(200) <= 1230 and statuses.count(429) >= 20  # HTTP_RATE: 1,200 a minute
