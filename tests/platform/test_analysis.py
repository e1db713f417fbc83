"""The analysis of matches and positions through the app (quadrille/analysis/, web/analysis_api.py), on SQLite
and PostgreSQL, with real worker processes: the rules (who may be analysed when), the stored analysis served
to everyone, the answer identical to ai.analysis.analyse's, the budgets, and a resume after a restart."""
from __future__ import annotations

import pytest

import games
from ai import analysis
from quadrille.analysis import AnalysisStore
from tests.support.waiting import wait_until

NODES = 300
pytestmark = pytest.mark.app_settings(COMPUTER_WORKERS=1, ANALYSIS_NODES=NODES, ANALYSIS_POSITION_NODES=NODES,
                                      ANALYSIS_QUEUE_PER_ADDRESS=2, ANALYSIS_POSITION_RATE="6 per day",
                                      ANALYSIS_POSITION_MOVES=40)
OPTIONS = {"size": 7}


@pytest.fixture(autouse=True)
def workers_closed(app):
    yield
    app.extensions["quadrille"].computer.close()


def play(client, match: str, tokens: list[str], count: int) -> list[str]:
    """`count` moves, each the first legal move of the seat to move (tokens: one per seat, by seat)."""
    for _ in range(count):
        state = client.get(f"/api/matches/{match}").get_json()
        token = tokens[(state["turn"] - 1) % len(tokens)]
        answer = client.post(f"/api/matches/{match}/moves", json={"move": state["legal"][0]},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.get_json()
    return client.get(f"/api/matches/{match}/record").get_json()["moves"]


def online_game(client, moves: int) -> tuple[str, list[str], list[str]]:
    created = client.post("/api/matches", json={"game": "trails", "options": OPTIONS}).get_json()
    seat = client.post(f"/api/matches/{created['match']}/seats", json={"invite": created["invite_secret"]}).get_json()
    tokens = [created["token"], seat["token"]]
    return created["match"], tokens, play(client, created["match"], tokens, moves)


def local_game(client, moves: int) -> tuple[str, str, list[str]]:
    created = client.post("/api/matches", json={"game": "trails", "options": OPTIONS, "mode": "local"}).get_json()
    return created["match"], created["token"], play(client, created["match"], [created["token"]], moves)


def analysed(client, match: str) -> dict:
    """Poll the analysis until it is done; each progress seen never goes back."""
    seen = []

    def done():
        answer = client.get(f"/api/matches/{match}/analysis").get_json()
        seen.append(answer["progress"])
        return answer if answer["status"] == "done" else None
    answer = wait_until(done, 60, "the analysis")
    assert seen == sorted(seen) and seen[-1] == 1.0
    return answer


def test_a_finished_online_game_is_analysed_once_and_served_to_everyone(app, client):
    match, tokens, moves = online_game(client, 6)
    refused = client.post(f"/api/matches/{match}/analysis")
    assert refused.status_code == 409 and refused.get_json()["error"] == "game-in-progress"
    client.post(f"/api/matches/{match}/resign", headers={"Authorization": f"Bearer {tokens[0]}"})

    asked = client.post(f"/api/matches/{match}/analysis")
    assert asked.status_code == 202 and asked.get_json()["status"] in ("queued", "running")
    answer = analysed(client, match)
    expected = analysis.analyse("trails", games.get("trails").normalise(OPTIONS), moves, max_nodes=NODES)
    assert {key: answer[key] for key in ("start", "plies", "summary")} == expected
    assert [ply["move"] for ply in answer["plies"]] == moves and answer["ply_count"] == 6
    assert all(ply["class"] in analysis.CLASSES and -1000 <= ply["eval"] <= 1000 for ply in answer["plies"])
    assert set(answer["summary"]) == {"1", "2"}

    again = client.post(f"/api/matches/{match}/analysis")  # stored: at once, from anyone
    assert again.status_code == 200 and again.get_json() == answer
    assert app.test_client().get(f"/api/matches/{match}/analysis").get_json() == answer


def test_a_game_on_one_screen_is_analysed_under_way_and_again_once_it_went_on(client):
    match, token, moves = local_game(client, 3)
    assert client.post(f"/api/matches/{match}/analysis").status_code == 202
    assert len(analysed(client, match)["plies"]) == 3
    assert client.post(f"/api/matches/{match}/analysis").status_code == 200  # the same moves: stored
    play(client, match, [token], 2)
    again = client.post(f"/api/matches/{match}/analysis")
    assert again.status_code == 202
    assert analysed(client, match)["ply_count"] == 5


def test_unknown_matches_and_matches_never_analysed_are_404(client):
    for method in (client.get, client.post):
        answer = method("/api/matches/nosuchmatch/analysis")
        assert answer.status_code == 404 and answer.get_json()["error"] == "unknown-match"
    match, _, _ = local_game(client, 1)
    answer = client.get(f"/api/matches/{match}/analysis")
    assert answer.status_code == 404 and answer.get_json()["error"] == "no-analysis"
    assert "POST" in answer.get_json()["reason"]


def test_the_analysis_of_a_deleted_match_goes_with_it(app, client):
    match, _, _ = local_game(client, 2)
    assert client.post(f"/api/matches/{match}/analysis").status_code == 202
    analysed(client, match)
    app.extensions["quadrille.moderation"].delete("console", match)  # a moderator deletes it
    answer = client.get(f"/api/matches/{match}/analysis")
    assert answer.status_code == 404 and answer.get_json()["error"] == "unknown-match"
    assert AnalysisStore(app.extensions["quadrille.storage"]).get(match) is None


def test_an_address_with_its_queue_full_is_refused_429_and_nothing_is_queued(app, client):
    store = AnalysisStore(app.extensions["quadrille.storage"])
    for _ in range(2):  # two analyses of this address waiting (as the cap, 2, allows)
        match, _, moves = local_game(client, 1)
        store.request(match, 1, "trails", OPTIONS, moves, "127.0.0.1", 0.0)
    match, _, _ = local_game(client, 1)
    refused = client.post(f"/api/matches/{match}/analysis")
    assert refused.status_code == 429 and refused.get_json()["error"] == "rate-limited"
    assert store.get(match) is None


def test_an_analysis_a_stop_interrupted_goes_on_at_start_up_from_the_step_it_reached(app, client, make_app):
    match, _, moves = local_game(client, 4)
    options = games.get("trails").normalise(OPTIONS)
    board = games.get("trails").new(**options)
    start = analysis.evaluate(board, max_nodes=NODES)
    marked = {"score": start.score + 1, "scores": {"1": start.score + 1, "2": -start.score - 1},
              "best": start.best, "line": start.line, "nodes": start.nodes}  # so that its use can be seen
    store = AnalysisStore(app.extensions["quadrille.storage"])
    store.request(match, 4, "trails", options, moves, "127.0.0.1", 0.0)
    store.progress(match, 4, 0.2, {"evaluations": [marked]})  # as a stop left it: one position done

    restarted = make_app(COMPUTER_WORKERS=1, ANALYSIS_NODES=NODES)
    try:
        answer = analysed(restarted.test_client(), match)
    finally:
        restarted.extensions["quadrille"].computer.close()
    expected = analysis.analyse("trails", options, moves, max_nodes=NODES)
    assert answer["start"] == start.score + 1  # the stored step was kept, not asked again
    assert answer["plies"][1:] == expected["plies"][1:]


def test_a_position_is_evaluated_on_a_worker_and_bad_ones_get_the_engines_reason(client):
    board = games.get("trails").new(size=7)
    board.push(board.legal_moves()[0])
    answer = client.post("/api/analysis/position", json={"game": "trails", "options": {"size": 7},
                                                          "moves": board.moves})
    assert answer.status_code == 200
    expected = analysis.evaluate(board, max_nodes=NODES)
    assert answer.get_json() == {"eval": expected.score, "evals": {str(s): v for s, v in expected.scores.items()},
                                 "best": expected.best, "line": expected.line, "scale": 1000}
    assert expected.best in board.legal_moves()
    refusals = [({"game": "chess"}, "unknown-game"), ({"game": "trails", "options": {"size": 2}}, "bad-options"),
                ({"game": "trails", "moves": "right"}, "bad-moves"),
                ({"game": "trails", "moves": ["right"] * 41}, "too-many-moves"),
                ({"game": "trails", "options": {"size": 7}, "moves": [board.moves[0], "nowhere"]}, "illegal-move")]
    for body, error in refusals:
        refused = client.post("/api/analysis/position", json=body)
        assert refused.status_code == 400 and refused.get_json()["error"] == error, (body, refused.get_json())
    assert "move 2" in refused.get_json()["reason"]  # the engine's words name the illegal move
    # The budget per address: 6 a day, and 6 were asked above.
    over = client.post("/api/analysis/position", json={"game": "trails"})
    assert over.status_code == 429 and over.get_json()["error"] == "rate-limited"
