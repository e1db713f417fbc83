"""Absence follows the clock, on a real server process (HTTP and Socket.IO): what a player who stays may do
against one who left depends on the time control (quadrille/matches/absence.py).

Red plays over HTTP and then stops: she counts as away PRESENCE_GRACE after her last request. Blue stays (his
requests keep him present)."""
from __future__ import annotations


import pytest
import requests
import socketio

from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

GRACE, TIMEOUT, REALTIME = 0.5, 3.0, 6.0
BLITZ = {"kind": "realtime", "minutes": 5, "increment": 0}          # 300 s estimated: REALTIME
CORRESPONDENCE = {"kind": "correspondence", "days": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("absence") / "absence.db", "gevent",
                         settings={"PRESENCE_GRACE": GRACE, "DISCONNECT_TIMEOUT": TIMEOUT,
                                   "REALTIME_ABSENCE": REALTIME}).start()
    yield proc
    proc.stop()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def move(url, match, token):
    state = requests.get(f"{url}/api/matches/{match}").json()
    moved = requests.post(f"{url}/api/matches/{match}/moves", json={"move": state["legal"][0]}, headers=bearer(token))
    assert moved.status_code == 200, moved.json()


def begin(url, clock):
    """An online Trails match, Blue (seat 1) and Red (seat 2) seated, both moved: Blue's turn, Red gone quiet."""
    created = requests.post(f"{url}/api/matches", json={"game": "trails", "mode": "online", "options": {"size": 7},
                                                        "clock": clock}).json()
    match = created["match"]
    red = requests.post(f"{url}/api/matches/{match}/seats", json={"invite": created["invite_secret"]}).json()
    move(url, match, created["token"])
    move(url, match, red["token"])
    return match, created["token"], red["token"]


def seen_by_blue(url, match, blue):
    """The STATE as Blue's polling reads it (his token keeps him present)."""
    return requests.get(f"{url}/api/matches/{match}", headers=bearer(blue)).json()


def red_away(url, match, blue) -> dict:
    found = []
    wait_until(lambda: found.append(seen_by_blue(url, match, blue)["away"]) or found[-1], 10, "Red to be away")
    [entry] = found[-1]
    assert entry["seat"] == 2
    return entry


def away_for(url, match, blue, seconds: float) -> dict:
    """The STATE once the server itself counts Red away for `seconds`: its own clock decides what a claim may
    do, so the test waits on the server's count rather than on a sleep of its own."""
    def long_enough():
        state = seen_by_blue(url, match, blue)
        return state if state["away"] and state["away"][0]["seconds"] >= seconds else None
    return wait_until(long_enough, seconds + 30, f"Red away for {seconds} s", interval=0.1)


def claim(url, match, blue, result="win"):
    return requests.post(f"{url}/api/matches/{match}/timeout", json={"result": result}, headers=bearer(blue))


def test_without_a_clock_a_claim_waits_for_the_disconnect_timeout(server):
    match, blue, _ = begin(server.url, None)
    entry = red_away(server.url, match, blue)
    assert entry["rule"] == "disconnect" and entry["timeout"] == TIMEOUT and 0 < entry["claimable_in"] <= TIMEOUT
    early = claim(server.url, match, blue)
    assert early.status_code == 409 and early.json()["error"] == "too-early", early.json()
    wait_until(lambda: seen_by_blue(server.url, match, blue)["away"][0]["claimable_in"] == 0, 10, "the timeout")
    won = claim(server.url, match, blue)
    assert won.status_code == 200 and won.json()["outcome"]["reason"] == "abandoned"
    assert won.json()["outcome"]["winners"] == [1]


def test_in_correspondence_being_away_allows_nothing(server):
    match, blue, _ = begin(server.url, CORRESPONDENCE)
    red_away(server.url, match, blue)
    before = away_for(server.url, match, blue, TIMEOUT + REALTIME)  # longer than any other rule would make Blue wait
    assert before["away"] == [{"seat": 2, "seconds": before["away"][0]["seconds"], "claimable_in": None,
                               "rule": "correspondence", "timeout": None}]
    refused = claim(server.url, match, blue)
    assert refused.status_code == 403 and refused.json()["error"] == "not-allowed"
    assert "days per move" in refused.json()["reason"] and "only their clock decides" in refused.json()["reason"]
    handed = requests.post(f"{server.url}/api/matches/{match}/computer", json={"seat": 2}, headers=bearer(blue))
    assert handed.status_code == 403 and handed.json()["error"] == "not-allowed", handed.json()
    # the same over Socket.IO: a clear refusal, and nothing changed
    client = socketio.Client(reconnection=False)
    client.connect(server.url, transports=["websocket"], wait_timeout=10)
    try:
        answer = client.call("timeout", {"match": match, "token": blue, "result": "win"}, timeout=10)
    finally:
        client.disconnect()
    assert answer["error"] == "not-allowed" and "days per move" in answer["reason"]
    after = seen_by_blue(server.url, match, blue)
    assert after["version"] == before["version"] and after["outcome"] is None
    assert after["seats"][1]["kind"] == "human"


def test_in_real_time_the_claim_waits_for_the_grace_of_the_clocks_speed(server):
    match, blue, _ = begin(server.url, BLITZ)
    entry = red_away(server.url, match, blue)
    assert entry["rule"] == "realtime" and entry["timeout"] == REALTIME
    # past the disconnect timeout of a game without a clock: still too early
    away_for(server.url, match, blue, TIMEOUT + GRACE)
    early = claim(server.url, match, blue)
    assert early.status_code == 409 and early.json()["error"] == "too-early", early.json()
    assert "the clocks do not stop" in early.json()["reason"] and 0 < early.json()["claimable_in"] < REALTIME
    handed = requests.post(f"{server.url}/api/matches/{match}/computer", json={"seat": 2}, headers=bearer(blue))
    assert handed.status_code == 409 and handed.json()["error"] == "too-early", handed.json()
    assert seen_by_blue(server.url, match, blue)["outcome"] is None
    wait_until(lambda: seen_by_blue(server.url, match, blue)["away"][0]["claimable_in"] == 0, 10, "the grace")
    won = claim(server.url, match, blue)
    assert won.status_code == 200 and won.json()["outcome"]["winners"] == [1]


@pytest.mark.parametrize("minutes, increment, factor", [(10, 0, 2), (20, 10, 3), (2, 2, 1)])
def test_the_real_time_grace_grows_with_the_estimated_length_of_the_game(server, minutes, increment, factor):
    match, blue, _ = begin(server.url, {"kind": "realtime", "minutes": minutes, "increment": increment})
    entry = red_away(server.url, match, blue)
    assert entry["rule"] == "realtime" and entry["timeout"] == factor * REALTIME


def account(url, name):
    session = requests.Session()
    answer = session.post(f"{url}/api/account", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    return session, answer.json()


def rated_match(url, challenger, challenged) -> str:
    (session, answer), (other, other_answer) = challenger, challenged
    made = session.post(f"{url}/api/challenges", headers={"X-CSRFToken": answer["csrf"]},
                        json={"to": other_answer["account"]["name"], "game": "trails", "options": {"size": 7},
                              "rated": True, "first": "challenger", "clock": BLITZ})
    assert made.status_code == 201, made.text
    accepted = other.post(f"{url}/api/challenges/{made.json()['challenge']}/accept",
                          headers={"X-CSRFToken": other_answer["csrf"]})
    assert accepted.status_code == 200, accepted.text
    return accepted.json()["match"]


def test_a_rated_game_before_both_moved_is_aborted_never_claimed(server):
    carol, dave = account(server.url, "carol"), account(server.url, "dave")
    match, carols, daves = rated_match(server.url, carol, dave), carol[1]["seat_key"], dave[1]["seat_key"]
    move(server.url, match, carols)      # Carol moved; Dave never comes
    entry = red_away(server.url, match, carols)
    assert entry["rule"] == "rated-start" and entry["claimable_in"] is None and entry["timeout"] is None
    assert away_for(server.url, match, carols, REALTIME + GRACE)["away"][0]["rule"] == "rated-start"
    refused = claim(server.url, match, carols)
    assert refused.status_code == 403 and refused.json()["error"] == "not-allowed"
    assert "Abort it instead" in refused.json()["reason"]
    handed = requests.post(f"{server.url}/api/matches/{match}/computer", json={"seat": 2}, headers=bearer(carols))
    assert handed.status_code == 403 and handed.json()["error"] == "not-allowed", handed.json()
    aborted = requests.post(f"{server.url}/api/matches/{match}/abort", headers=bearer(carols))
    assert aborted.status_code == 200 and aborted.json()["outcome"]["reason"] == "aborted"
    # once both have moved, a rated game follows its clock's rule
    match = rated_match(server.url, carol, dave)
    move(server.url, match, carols)
    move(server.url, match, daves)
    assert red_away(server.url, match, carols)["rule"] == "realtime"
