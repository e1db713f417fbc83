"""The puzzles' doors (web/puzzle_pages.py): the JSON for pages and bots, its refusals and budgets, the pages
and the lobby's daily tile; on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest

from quadrille.puzzles import library
from tests.support.puzzles import longest_puzzle, solver_moves, wrong_first_move


def test_next_serves_a_puzzle_without_its_solution_and_with_the_position_to_draw(client):
    for game in library.games_with_puzzles():
        answer = client.get(f"/api/puzzles/next?game={game}")
        assert answer.status_code == 200, answer.json
        served = answer.json
        assert served["game"] == game and "solution" not in served
        assert {"id", "options", "moves", "turn", "rating", "themes", "state", "you"} <= served.keys()
        assert served["state"]["turn"] == served["turn"] and served["state"]["legal"]
        assert served["state"]["moves"] == served["moves"]
    assert client.get("/api/puzzles/next").json["game"] in library.games_with_puzzles()
    assert client.get("/api/puzzles/next?game=chess").json["error"] == "unknown-game"
    assert client.get("/api/puzzles/next?rating=strong").json["error"] == "bad-rating"
    # a guest's rating in the query: the puzzle is chosen near it, and it is answered back as "you"
    assert client.get("/api/puzzles/next?rating=2100&rd=80").json["you"]["rating"] == 2100


def test_a_guest_solves_a_puzzle_move_by_move_and_gets_its_rating_back(client):
    puzzle = longest_puzzle()
    mine, guest = [], {"rating": 1600, "rd": 120, "volatility": 0.06}
    for move in solver_moves(puzzle):
        mine.append(move)
        answer = client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"moves": mine, "rating": guest})
        assert answer.status_code == 200 and answer.json["correct"] is True
    result = answer.json
    assert result["done"] and result["rated"] and result["solution"] == puzzle["solution"]
    assert result["rating"]["rating"] > 1600 and result["puzzle_rating"]["plays"] == 1
    again = client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"moves": mine, "rating": result["rating"]})
    assert again.json["rated"] is False and again.json["rating"]["rating"] == result["rating"]["rating"]


def test_an_account_fails_a_puzzle_and_its_rating_is_kept_on_the_server(ann):
    puzzle, wrong = wrong_first_move()
    answer = ann.post(f"/api/puzzles/{puzzle['id']}/attempt", {"moves": [wrong]})
    assert answer.status_code == 200, answer.json
    assert answer.json["correct"] is False and answer.json["rated"] and answer.json["change"] < 0
    assert [s["moves"][-1] for s in answer.json["states"]] == puzzle["solution"]
    served = ann.get(f"/api/puzzles/next?game={puzzle['game']}").json
    assert served["you"]["rating"] == answer.json["rating"]["rating"] and served["you"]["plays"] == 1
    assert served["id"] != puzzle["id"] or len(library.puzzles(puzzle["game"])) == 1
    # the session's writes need its CSRF token
    refused = ann.client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"moves": [wrong]})
    assert refused.status_code == 403 and refused.json["error"] == "csrf"


def test_bad_attempts_are_refused_and_change_nothing(client, app):
    puzzle = longest_puzzle()
    path = f"/api/puzzles/{puzzle['id']}/attempt"
    for body in ({}, {"moves": []}, {"moves": "right"}, {"moves": [1]}, {"moves": ["x" * 201]},
                 {"moves": ["a"] * 65}, {"moves": ["no-such-move"]}):
        answer = client.post(path, json=body)
        assert answer.status_code == 400 and answer.json["error"] == "bad-moves", (body, answer.json)
    assert client.post(path, json={"moves": solver_moves(puzzle)[:1], "rating": {"rating": "high"}}).json["error"] == "bad-rating"
    assert client.post("/api/puzzles/nope-123/attempt", json={"moves": ["up"]}).status_code == 404
    assert client.get("/api/puzzles/nope-123").json["error"] == "unknown-puzzle"
    assert client.post(path, data="moves", content_type="text/plain").status_code == 415
    assert app.extensions["quadrille.puzzles"].store.puzzle_ratings() == {}


def test_the_daily_puzzle_and_one_puzzle_by_id(client):
    daily = client.get("/api/puzzles/daily").json
    assert daily["date"] and daily["id"] == client.get("/api/puzzles/daily").json["id"]
    assert client.get(f"/api/puzzles/{daily['id']}").json["state"] == daily["state"]


@pytest.mark.app_settings(PUZZLE_RATE="3 per day")
def test_the_puzzles_json_is_budgeted_per_address(client):
    puzzle = longest_puzzle()
    codes = [client.get(f"/api/puzzles/{puzzle['id']}").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"moves": ["up"]}).status_code == 429


def test_the_pages_and_the_lobbys_daily_tile(client):
    game = library.games_with_puzzles()[0]
    for path in ("/puzzles", f"/puzzles/{game}", "/puzzles/daily"):
        page = client.get(path)
        assert page.status_code == 200 and b'id="puzzle-data"' in page.data and b"csrf-token" in page.data
    puzzle = library.puzzles(game)[0]
    assert puzzle["id"].encode() in client.get(f"/puzzles?id={puzzle['id']}").data
    assert client.get("/puzzles/chess").status_code == 404
    assert client.get("/puzzles?id=nope").status_code == 404
    lobby = client.get("/").data.decode()
    assert 'id="daily-puzzle"' in lobby and 'href="/puzzles/daily"' in lobby and f'href="/puzzles/{game}"' in lobby
