"""The analysis board's doors (web/analysis_board_pages.py): a line's STATE for every seat, a clear 400 for a
bad game, options or moves, the cap on a line's length, the page and its entry from a match, and the export."""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

import games
from quadrille import position_state


def state_of(client, **body):
    return client.post("/api/analysis/board/state", json={"game": "trails", **body})


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def finished_match(client, mode="local", size=5):
    """A match of Trails played to its end (first legal move each time); online: two players, by invite."""
    created = client.post("/api/matches", json={"game": "trails", "mode": mode, "options": {"size": size}}).json
    tokens = {1: created["token"], 2: created["token"]}
    if mode == "online":
        tokens[2] = client.post(f"/api/matches/{created['match']}/seats",
                                json={"invite": created["invite_secret"]}).json["token"]
    state = client.get(f"/api/matches/{created['match']}").json
    while state["outcome"] is None:
        state = client.post(f"/api/matches/{created['match']}/moves", json={"move": state["legal"][0]},
                            headers=auth(tokens[state["turn"]])).json
    return created["match"], state


def test_a_line_answers_the_state_of_its_end_with_every_seat_playable(client):
    answer = state_of(client, options={"size": 7}, moves=["down", "left", "right"])
    assert answer.status_code == 200, answer.json
    state = answer.json
    assert state["match"] is None and state["mode"] == "analysis" and state["moves"] == ["down", "left", "right"]
    assert state["turn"] == 2 and state["legal"] and state["movers"] == [1, 2, 1]
    assert len(state["move_names"]) == 3 and state["seat_names"] == ["Blue", "Red"]
    board = games.get("trails").new(size=7)
    for move in ("down", "left", "right"):
        board.push(move)
    assert state["view"] == board.view() and state["legal"] == board.legal_moves()
    start = state_of(client).json  # no moves: the start, the first seat to move, the default options
    assert start["moves"] == [] and start["turn"] == 1 and start["options"]["size"] == 11


@pytest.mark.parametrize("body, error, words", [
    ({"game": "chess"}, "unknown-game", "game must be one of"),
    ({"game": None}, "unknown-game", "game must be one of"),
    ({"options": [1]}, "bad-options", "options must be an object"),
    ({"options": {"size": 99}}, "bad-options", "size"),
    ({"options": {"colour": "green"}}, "bad-options", "colour"),
    ({"moves": "down,left"}, "bad-moves", "list"),
    ({"moves": ["down", 3]}, "bad-moves", "list"),
    ({"moves": ["down", "x" * 201]}, "bad-moves", "200"),
    ({"moves": ["down", "down"]}, "illegal-move", "Move 2 (down) is not allowed"),
])
def test_a_bad_line_is_refused_with_the_reason(client, body, error, words):
    answer = state_of(client, **body)
    assert answer.status_code == 400 and answer.json["error"] == error, answer.json
    assert words in answer.json["reason"]


def test_a_line_longer_than_any_real_game_is_refused_unplayed(client):
    limit = games.get("trails").move_limit({"size": 5})
    answer = state_of(client, options={"size": 5}, moves=["down"] * (limit + 1))
    assert answer.status_code == 400 and answer.json["error"] == "too-many-moves"
    assert f"at most {limit}" in answer.json["reason"]
    assert client.post("/api/analysis/board/state", data="{}", content_type="text/plain").status_code == 415


def test_the_shared_position_state_keeps_the_opponents_moves_out_of_a_lesson():
    line = position_state.replay("trails", games.get("trails").normalise({"size": 5}), ["down"])
    lesson = position_state.position_state("trails", line.board, (1,), movers=line.movers, mode="lesson")
    board = position_state.position_state("trails", line.board, (1, 2), movers=line.movers)
    assert lesson["turn"] == 2 and lesson["legal"] == [] and board["legal"] == line.board.legal_moves()
    assert lesson["movers"] == board["movers"] == [1]
    with pytest.raises(position_state.BadLine, match="Move 2"):
        position_state.replay("trails", games.get("trails").normalise({"size": 5}), ["down", "down"])


def test_the_page_opens_a_line_at_a_ply_from_its_address(client):
    page = client.get('/analysis/trails?options={"size":7}&moves=down+left+right&ply=1')
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    data = json.loads(html.split('id="board-data" type="application/json">')[1].split("</script>")[0])
    assert data["line"] == ["down", "left", "right"] and data["ply"] == 1 and data["state"]["moves"] == ["down"]
    assert data["line_state"]["moves"] == data["line"] and data["link_options"] == {"size": 7}
    form = client.get("/analysis/trails?size=7&moves=down")  # the new-game form's fields
    assert form.status_code == 200 and "Analysis board" in form.get_data(as_text=True)
    assert client.get("/analysis/trails?moves=down+down").status_code == 400
    assert client.get("/analysis/trails?moves=down&ply=5").status_code == 400
    assert client.get("/analysis/trails?options=nonsense").status_code == 400
    assert client.get("/analysis/trails?width=3").status_code == 400
    assert client.get("/analysis/nosuchgame").status_code == 400


def test_a_finished_match_opens_on_the_board_at_its_ply(client):
    match, finished = finished_match(client)
    answer = client.get(f"/analysis/from/{match}?ply=2")
    assert answer.status_code == 302
    url = urlsplit(answer.headers["Location"])
    query = parse_qs(url.query)
    assert url.path == "/analysis/trails" and query["moves"] == [" ".join(finished["moves"])]
    assert query["ply"] == ["2"] and json.loads(query["options"][0]) == {"size": 5}
    assert client.get(answer.headers["Location"]).status_code == 200
    assert "ply" not in parse_qs(urlsplit(client.get(f"/analysis/from/{match}").headers["Location"]).query)
    assert client.get(f"/analysis/from/{match}?ply=999").status_code == 400
    assert client.get("/analysis/from/nosuchmatch").status_code == 404


def test_an_online_game_under_way_is_refused_and_a_finished_one_opens(client):
    created = client.post("/api/matches", json={"game": "trails", "mode": "online"}).json
    refused = client.get(f"/analysis/from/{created['match']}")
    assert refused.status_code == 409 and "still being played" in refused.get_data(as_text=True)
    match, _ = finished_match(client, mode="online")
    assert client.get(f"/analysis/from/{match}").status_code == 302


def test_a_line_exports_as_the_games_own_file_or_the_json_record(client):
    towers = games.get("towers")
    board = towers.new()
    moves = [board.legal_moves()[0]]
    answer = client.get("/api/analysis/board/export", query_string={"game": "towers", "moves": " ".join(moves),
                                                                    "format": "twr"})
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    assert list(towers.formats["twr"].load(answer.get_data(as_text=True)).moves) == moves
    record = client.get("/api/analysis/board/export", query_string={"game": "trails", "moves": "down left",
                                                                    "options": '{"size":5}'})
    assert record.json["moves"] == ["down", "left"] and record.json["format"] == "quadrille-record"
    assert client.post("/api/matches/import", json=record.json).status_code == 201  # it imports as a match
    assert client.get("/api/analysis/board/export?game=trails&format=twr").status_code == 404


def test_the_budget_counts_the_moves_replayed_per_address(make_app):
    client = make_app(RATELIMIT_ENABLED=True, ANALYSIS_BOARD_RATE="5 per day").test_client()
    line = {"game": "trails", "options": {"size": 7}, "moves": ["down", "left", "right"]}
    assert client.post("/api/analysis/board/state", json=line).status_code == 200  # 3 moves of 5
    refused = client.post("/api/analysis/board/state", json=line)  # 3 more: over the budget, unplayed
    assert refused.status_code == 429 and refused.json["error"] == "rate-limited"
    assert client.post("/api/analysis/board/state", json={"game": "trails"}).status_code == 200  # 1 more fits
