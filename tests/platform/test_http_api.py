"""The JSON HTTP door: the shapes of docs/api.md, and a clear error for every bad request."""
from __future__ import annotations

import json
import os

import pytest

import quadrille
from quadrille import create_app
from tests.support.databases import stored_matches


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def new_match(client, **body):
    response = client.post("/api/matches", json={"game": "trails", **body})
    assert response.status_code == 201, response.json
    return response.json


def test_games_lists_names_titles_seats_and_options(client):
    games = {g["name"]: g for g in client.get("/api/games").get_json()}
    trails = games["trails"]
    assert trails["title"] == "Trails and Towers" and trails["seats"] == [2, 2]
    assert trails["options"]["size"] == {**trails["options"]["size"], "default": 11, "kind": "int", "range": [3, 25]}


def test_create_returns_match_seat_token_url_and_invite(client):
    created = new_match(client, options={"size": 9})
    assert set(created) >= {"match", "seat", "token", "url", "invite", "invite_secret", "visibility"}
    assert created["url"].endswith(f"/m/{created['match']}") and created["token"] not in created["invite"]
    assert created["invite"] == f"{created['url']}#join={created['invite_secret']}"
    state = client.get(f"/api/matches/{created['match']}").get_json()
    assert set(state) >= {"match", "game", "options", "version", "turn", "legal", "view", "moves", "outcome", "seats",
                          "seat_names", "draws", "visibility", "started", "away", "abortable", "declined"}
    assert state["outcome"] is None and state["legal"] == [] and state["started"] is False  # waiting for a friend
    assert created["invite_secret"] not in json.dumps(state)
    assert new_match(client, mode="local")["invite"] is None


def test_a_whole_exchange_over_http(client):
    created = new_match(client)
    match = created["match"]
    stranger = client.post(f"/api/matches/{match}/seats", json={"invite": "guessed"})
    assert stranger.status_code == 403 and stranger.json["error"] == "invite-required" and stranger.json["reason"]
    assert client.post(f"/api/matches/{match}/seats").status_code == 403
    seat = client.post(f"/api/matches/{match}/seats", json={"invite": created["invite_secret"]})
    assert seat.status_code == 201 and seat.json["seat"] == 2
    assert client.post(f"/api/matches/{match}/seats", json={"invite": created["invite_secret"]}).status_code == 409
    ok = client.post(f"/api/matches/{match}/moves", json={"move": "down", "version": 0}, headers=auth(created["token"]))
    assert ok.status_code == 200 and ok.json["version"] == 1 and ok.json["turn"] == 2
    checks = [
        ({"move": "up"}, created["token"], 403, "not-your-turn"),
        ({"move": "right"}, seat.json["token"], 400, "illegal-move"),
        ({"move": "up", "version": 0}, seat.json["token"], 409, "stale-version"),
        ({"move": "up"}, "forged", 401, "unauthorized"),
        ({"move": "up"}, None, 401, "unauthorized"),
    ]
    for body, token, status, word in checks:
        response = client.post(f"/api/matches/{match}/moves", json=body, headers=auth(token) if token else {})
        assert (response.status_code, response.json["error"]) == (status, word), body
        assert response.json["reason"]
    record = client.get(f"/api/matches/{match}/record?download=1")
    assert record.json["moves"] == ["down"] and "attachment" in record.headers["Content-Disposition"]
    imported = client.post("/api/matches/import", json=record.json)
    assert imported.status_code == 201 and imported.json["token"]
    assert client.get(f"/api/matches/{imported.json['match']}").json["moves"] == ["down"]


def test_the_state_names_each_move_for_people_the_same_for_every_viewer(client):
    """STATE's move_names (docs/api.md): cell names read off the board's coordinates, whoever asks."""
    created = new_match(client, mode="local")
    match = created["match"]
    for move in ("down", "left", "down"):
        assert client.post(f"/api/matches/{match}/moves", json={"move": move},
                           headers=auth(created["token"])).status_code == 200
    mine = client.get(f"/api/matches/{match}", headers=auth(created["token"])).json
    anyone = client.get(f"/api/matches/{match}").json
    assert mine["moves"] == ["down", "left", "down"]
    assert mine["move_names"] == anyone["move_names"] == ["a10", "j1", "a8"]


@pytest.mark.parametrize("path, body", [
    ("/api/matches", "not json"),
    ("/api/matches", "[1, 2]"),
    ("/api/matches", json.dumps({"game": ["trails"]})),
    ("/api/matches", json.dumps({"game": "trails", "options": {"size": "eleven"}})),
    ("/api/matches", json.dumps({"game": "trails", "options": {"size": True}})),
    ("/api/matches", json.dumps({"game": "trails", "mode": None})),
    ("/api/matches", json.dumps({"game": "trails", "seats": "all"})),
    ("/api/matches/by-name", json.dumps({"game": "trails", "name": 5})),
    ("/api/matches/import", json.dumps({"game": "trails", "moves": [1, 2]})),
    ("/api/games/trails/check", json.dumps({"options": {"towers": 13}})),
])
def test_bad_bodies_get_a_clear_400(app, client, path, body):
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json) >= {"error", "reason"} and response.json["reason"]
    assert stored_matches(app.extensions["quadrille.storage"]) == 0


def test_bad_moves_payloads_change_nothing(client):
    created = new_match(client)
    url = f"/api/matches/{created['match']}/moves"
    for body in ("{", "null", json.dumps({"move": None}), json.dumps({"move": ["up"]}),
                 json.dumps({"move": "x" * 5000}), json.dumps({"move": "right", "version": 1.5})):
        response = client.post(url, data=body, content_type="application/json", headers=auth(created["token"]))
        assert 400 <= response.status_code < 500 and response.json["error"], body
    assert client.get(f"/api/matches/{created['match']}").json["version"] == 0


def test_not_found_and_method_errors_are_json(client):
    assert client.get("/api/matches/nothere").json["error"] == "not-found"
    assert client.get("/api/nowhere").status_code == 404
    assert client.get("/api/nowhere").json["error"] == "not-found"
    assert client.delete("/api/games").json["error"] == "method-not-allowed"
    assert client.post("/api/matches/x/nonsense").json["error"] == "not-found"


def test_a_method_the_path_does_not_take_is_answered_with_the_methods_it_does(client):
    """RFC 9110: a 405 lists the methods in `Allow` (Schemathesis found the JSON answer had dropped it)."""
    for method in ("delete", "put", "patch", "trace"):
        refused = client.open("/api/health", method=method.upper())
        assert refused.status_code == 405 and refused.json["error"] == "method-not-allowed"
        assert set(refused.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert set(client.put("/m/x").headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}


def test_huge_bodies_are_refused(client):
    response = client.post("/api/matches/import", data="[" + "1," * 600_000 + "1]", content_type="application/json")
    assert response.status_code == 413 and response.json["error"] == "payload-too-large"


def test_option_check_returns_warnings_for_the_new_game_form(client):
    ok = client.post("/api/games/trails/check", json={"options": {"size": 3, "towers": 3}}).json
    assert ok["ok"] and ok["options"]["size"] == 3 and ok["warnings"]
    assert client.post("/api/games/trails/check", json={"options": {}}).json["warnings"] == []


@pytest.mark.parametrize("options", [False, 0, "", [], "size=7", [["size", 7]]])
def test_option_check_refuses_options_that_are_no_object(client, options):
    """Found by Schemathesis: `false`, `0`, `""` and `[]` were taken for "no options" and answered 200."""
    refused = client.post("/api/games/trails/check", json={"options": options})
    assert refused.status_code == 400 and refused.json["error"] == "bad-options"
    assert client.post("/api/games/trails/check", json={"options": None}).json["options"]["size"] == 11


def test_local_decisions_over_http(client):
    created = new_match(client, mode="local")
    url = f"/api/matches/{created['match']}"
    for move in ("right", "up"):
        client.post(f"{url}/moves", json={"move": move}, headers=auth(created["token"]))
    assert client.post(f"{url}/takeback", headers=auth(created["token"])).json["moves"] == ["right"]
    assert client.post(f"{url}/rewind", json={"to": 0}, headers=auth(created["token"])).json["moves"] == []
    assert client.post(f"{url}/rewind", json={"to": "0"}, headers=auth(created["token"])).status_code == 400
    assert client.get(f"{url}/positions/0").json["ply"] == 0
    assert client.get(f"{url}/positions/5").status_code == 400


def test_pages_render(client):
    created = new_match(client)
    lobby = client.get("/").get_data(as_text=True)
    assert "Trails and Towers" in lobby and "Play on this screen" in lobby
    page = client.get(f"/m/{created['match']}").get_data(as_text=True)
    assert 'class="trails-board"' in page and created["token"] not in page
    assert client.get(f"/embed/{created['match']}").status_code == 200
    assert client.get("/m/missing").status_code == 404
    fresh = client.get("/embed/new/trails?size=5&towers=1").get_data(as_text=True)
    assert 'id="embed-launch"' in fresh and '"size": 5' in fresh  # the frame's script opens or makes the game
    assert stored_matches(client.application.extensions["quadrille.storage"]) == 1  # a page view makes none
    assert client.get("/embed/new/trails?size=99").status_code == 400
    assert client.get("/embed/new/towers?size=20").status_code == 400  # beyond what the server offers
    assert client.get("/embed/new/chess").status_code == 404


def test_boards_name_their_cells_as_the_move_list_does(client):
    """Server-rendered boards: each Trails cell has an accessible name (its coordinates, then what is on it) and the
    coordinates are drawn along the edges; Gamma's fields are named one-based, "a10", never "0,9"."""
    import html
    import re
    trails = client.get(f"/m/{new_match(client, mode='local', options={'size': 7})['match']}").get_data(as_text=True)
    names = [html.unescape(name) for name in re.findall(r'role="gridcell"[^>]*aria-label="([^"]*)"', trails, re.S)]
    assert len(names) == 49 and names[0] == "a7: Blue's head" and names[-1] == "g1: Red's head", names[:3]
    assert trails.count('class="coord rank"') == 7 and trails.count('class="coord file"') == 7
    gamma = client.get(f"/m/{new_match(client, game='gamma', mode='local')['match']}").get_data(as_text=True)
    assert 'data-x="0" data-y="9" title="a10"' in gamma and 'aria-label="a10: empty"' in gamma
    assert 'title="0,9"' not in gamma


def test_a_games_own_save_file_imports_and_exports(client):
    created = new_match(client, game="lattice", mode="local")
    url = f"/api/matches/{created['match']}"
    state = client.get(url).json
    client.post(f"{url}/moves", json={"move": state["legal"][0]}, headers=auth(created["token"]))
    ltc = client.get(f"{url}/export/ltc")
    assert ltc.status_code == 200 and "attachment" in ltc.headers["Content-Disposition"]
    imported = client.post("/api/matches/import?format=ltc", data=ltc.data, content_type="text/plain")
    assert imported.status_code == 201, imported.json
    again = client.get(f"/api/matches/{imported.json['match']}").json
    assert again["view"]["nodes"] == client.get(url).json["view"]["nodes"]
    assert again["turn"] == 1  # an .ltc file keeps no side to move: the first mover resumes, as in the original
    for body, fmt in (("garbage", "ltc"), ("", "ltc"), ("x", "pgn")):
        refused = client.post(f"/api/matches/import?format={fmt}", data=body, content_type="text/plain")
        assert refused.status_code == 400 and refused.json["error"] == "bad-record" and refused.json["reason"]
    assert client.get(f"{url}/export/pgn").status_code == 404
    assert client.get("/api/matches/nothere/export/ltc").status_code == 404


def test_invites_visibility_and_offers_over_http(client):
    created = new_match(client, visibility="open")
    match = created["match"]
    assert [m["id"] for m in client.get("/api/matches/recent").json] == [match]
    friend = client.post(f"/api/matches/{match}/seats", json={"player": "Bo"})  # an open seek: no secret
    assert friend.status_code == 201
    url = f"/api/matches/{match}"
    client.post(f"{url}/moves", json={"move": "right"}, headers=auth(created["token"]))
    offered = client.post(f"{url}/offer", json={"offer": "takeback"}, headers=auth(created["token"]))
    assert offered.status_code == 200 and offered.json["offers"] == {"takeback": [1]}
    own = client.post(f"{url}/accept", json={"offer": "takeback"}, headers=auth(created["token"]))
    assert own.status_code == 409 and own.json["error"] == "own-offer"
    accepted = client.post(f"{url}/accept", json={"offer": "takeback"}, headers=auth(friend.json["token"]))
    assert accepted.json["moves"] == [] and accepted.json["turn"] == 1
    early = client.post(f"{url}/timeout", json={"result": "win"}, headers=auth(created["token"]))
    assert early.status_code == 409 and early.json["error"] in ("player-present", "too-early")
    aborted = client.post(f"{url}/abort", headers=auth(friend.json["token"]))
    assert aborted.json["outcome"]["reason"] == "aborted"
    assert client.get("/api/matches/recent").json == []  # aborted: no longer a live game
    private = new_match(client)
    assert client.get("/api/matches/recent").json == []  # private: never listed
    refused = client.post("/api/matches", json={"game": "trails", "mode": "local", "visibility": "public"})
    assert refused.status_code == 400 and refused.json["error"] == "bad-visibility"
    assert client.get(f"/api/matches/{private['match']}", headers=auth(private["token"])).status_code == 200


def test_health_says_which_process_database_and_queue(client, database):
    answer = client.get("/api/health")
    assert answer.status_code == 200
    assert answer.get_json() == {"ok": True, "process": os.getpid(),
                                 "database": "postgresql" if "://" in database else "sqlite", "queue": None,
                                 "sockets": 0, "version": quadrille.__version__}


def test_health_is_503_when_the_queue_or_the_database_does_not_answer(postgres_server, tmp_path):
    """A Redis server and a PostgreSQL database of the test's own, taken away under a running app."""
    from scripts.services.redis import Redis
    from tests.support.databases import drop_database
    from tests.support.servers import service_directory
    redis_server = Redis(service_directory("quadrille-health-")).start()
    name = "t_health"
    app = create_app({"DATABASE": postgres_server.create_database(name), "MESSAGE_QUEUE": redis_server.url()})
    client = app.test_client()
    try:
        answer = client.get("/api/health")
        assert answer.status_code == 200 and answer.get_json()["queue"] == "redis"
        redis_server.stop()
        answer = client.get("/api/health")
        assert answer.status_code == 503
        assert answer.get_json()["ok"] is False and answer.get_json()["unreachable"] == ["queue"]
        drop_database(postgres_server, name)
        answer = client.get("/api/health")
        assert answer.status_code == 503 and answer.get_json()["unreachable"] == ["database", "queue"]
    finally:
        redis_server.stop()
        for backend in app.extensions["quadrille.backends"]:
            try:
                backend.close()  # stops its background task
            except Exception:
                pass
        app.extensions["quadrille.storage"].close()
        drop_database(postgres_server, name)
