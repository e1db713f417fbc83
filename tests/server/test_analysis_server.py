"""The analysis in a real server process (gevent): a game played to its end over HTTP is analysed on the
worker processes, its progress rising, and served to another client; the refusals (an online game under way,
an unknown match, a full queue); the analysis board's position; and a person's move against the computer is
answered while analyses wait in the queue (ordering: the reply comes while they are still waiting)."""
from __future__ import annotations

import pytest
import requests

from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

SETTINGS = {"COMPUTER_WORKERS": 1, "ANALYSIS_NODES": 3000, "ANALYSIS_QUEUE_PER_ADDRESS": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("analysis") / "analysis.db", "gevent", settings=SETTINGS).start()
    yield proc
    proc.stop()


def post(server, path, body=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(f"{server.url}{path}", json=body or {}, headers=headers, timeout=30)


def get(server, path, session=requests):
    return session.get(f"{server.url}{path}", timeout=30)


def play_first_moves(server, match: str, tokens: list[str], count: int | None = None) -> dict:
    """Each seat plays its first legal move, `count` times or to the end; the last STATE."""
    state = get(server, f"/api/matches/{match}").json()
    while state["outcome"] is None and count != 0:
        token = tokens[(state["turn"] - 1) % len(tokens)]
        state = post(server, f"/api/matches/{match}/moves", {"move": state["legal"][0]}, token).json()
        count = None if count is None else count - 1
    return state


def online_game(server, size: int) -> tuple[str, list[str]]:
    created = post(server, "/api/matches", {"game": "trails", "options": {"size": size}}).json()
    seat = post(server, f"/api/matches/{created['match']}/seats", {"invite": created["invite_secret"]}).json()
    return created["match"], [created["token"], seat["token"]]


def test_a_game_played_to_its_end_is_analysed_and_served_to_another_client(server):
    match, tokens = online_game(server, 5)
    under_way, other_tokens = online_game(server, 5)
    play_first_moves(server, under_way, other_tokens, 1)
    refused = post(server, f"/api/matches/{under_way}/analysis")
    assert refused.status_code == 409 and refused.json()["error"] == "game-in-progress"

    final = play_first_moves(server, match, tokens)
    assert final["outcome"] is not None and len(final["moves"]) >= 3
    asked = post(server, f"/api/matches/{match}/analysis")
    assert asked.status_code == 202 and set(asked.json()) >= {"status", "progress"}
    seen = []

    def done():
        answer = get(server, f"/api/matches/{match}/analysis").json()
        seen.append(answer["progress"])
        return answer if answer["status"] == "done" else None
    analysis = wait_until(done, 120, "the analysis", interval=0.05)
    assert seen == sorted(seen) and len(set(seen)) >= 2 and seen[-1] == 1.0  # it rose, step by step
    assert [ply["move"] for ply in analysis["plies"]] == final["moves"]
    assert all({"ply", "eval", "best", "class"} <= set(ply) for ply in analysis["plies"])
    assert set(analysis["summary"]) == {"1", "2"}
    with requests.Session() as another:
        assert get(server, f"/api/matches/{match}/analysis", another).json() == analysis
    again = post(server, f"/api/matches/{match}/analysis")
    assert again.status_code == 200 and again.json() == analysis

    unknown = get(server, "/api/matches/nosuchmatch/analysis")
    assert unknown.status_code == 404 and unknown.json()["error"] == "unknown-match"
    never = get(server, f"/api/matches/{under_way}/analysis")
    assert never.status_code == 404 and never.json()["error"] == "no-analysis"


def test_a_persons_move_against_the_computer_is_answered_while_analyses_wait(server):
    waiting = []
    for _ in range(2):  # two long analyses: this address's whole queue
        created = post(server, "/api/matches", {"game": "trails", "options": {"size": 15}, "mode": "local"}).json()
        play_first_moves(server, created["match"], [created["token"]], 24)
        assert post(server, f"/api/matches/{created['match']}/analysis").status_code == 202
        waiting.append(created["match"])
    extra = post(server, "/api/matches", {"game": "trails", "options": {"size": 5}, "mode": "local"}).json()
    refused = post(server, f"/api/matches/{extra['match']}/analysis")
    assert refused.status_code == 429 and refused.json()["error"] == "rate-limited"

    game = post(server, "/api/matches", {"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 2}}).json()
    first = get(server, f"/api/matches/{game['match']}").json()
    post(server, f"/api/matches/{game['match']}/moves", {"move": first["legal"][0]}, game["token"])
    wait_until(lambda: get(server, f"/api/matches/{game['match']}").json()["turn"] == 1, 60, "the computer's reply")
    statuses = [get(server, f"/api/matches/{match}/analysis").json()["status"] for match in waiting]
    assert "done" not in statuses[1:]  # the reply did not wait for the analyses queued before it

    position = post(server, "/api/analysis/position", {"game": "trails", "options": {"size": 5},
                                                        "moves": [first["legal"][0]]})
    assert position.status_code == 200, position.json()
    assert set(position.json()) >= {"eval", "best", "line"} and position.json()["line"][0] == position.json()["best"]
    bad = post(server, "/api/analysis/position", {"game": "trails", "moves": ["sideways"]})
    assert bad.status_code == 400 and bad.json()["error"] == "illegal-move"
