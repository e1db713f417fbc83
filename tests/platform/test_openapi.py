"""GET /api/openapi.json and /api/asyncapi.json, checked against the code: every route under /api is in the
OpenAPI document and every path of the document is a route (walking the app's url_map), every Socket.IO event
the server handles is in the AsyncAPI document and the other way round, and every $ref resolves.

PENDING: paths of the document whose routes a branch not merged yet adds. They are tolerated only while listed
there, and a listed path that has become a route fails, so that the set is emptied at the merge."""
from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate
from werkzeug.exceptions import MethodNotAllowed, NotFound

PENDING: set[str] = set()  # empty: every branch of issue 25 is merged
METHODS = {"get", "post", "put", "patch", "delete"}
UNKNOWN_ACTION = "There is no such action."


@pytest.fixture
def document(client):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    return answer.json


def api_routes(app) -> set[tuple[str, str]]:
    return {(rule.rule, method.lower()) for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def sample_url(path: str, operation: dict) -> str:
    """The path with each parameter given a value of its type (an integer's 0, else a word)."""
    kinds = {p["name"]: p["schema"].get("type") for p in operation.get("parameters", ()) if p["in"] == "path"}
    return re.sub(r"\{(\w+)\}", lambda m: "0" if kinds.get(m.group(1)) == "integer" else "x1", path)


def documented(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_the_document_is_valid_openapi_3_1(document):
    assert document["openapi"] == "3.1.0"
    validate(document)  # against the OpenAPI 3.1 specification's own schema, JSON Schema 2020-12 inside


def test_every_route_under_api_is_documented_and_every_documented_path_is_a_route(app, document):
    adapter = app.url_map.bind("quadrille.test")
    covered, ghosts = set(), []
    for path, method, operation in documented(document):
        try:
            rule, _args = adapter.match(sample_url(path, operation), method.upper(), return_rule=True)
        except (NotFound, MethodNotAllowed):
            if path not in PENDING:
                ghosts.append(f"{method.upper()} {path}")
            continue
        assert path not in PENDING, f"{path} is a route now: take it out of PENDING"
        covered.add((rule.rule, method))
    assert not ghosts, f"the document names routes that do not exist: {ghosts}"
    missing = sorted(api_routes(app) - covered)
    assert not missing, f"routes missing from /api/openapi.json: {missing}"


def test_every_documented_action_is_one_the_door_knows(client, document):
    """Two routes take their last segment as an action (POST /api/matches/<id>/<action>, and the challenges'):
    each documented action must be one their handler knows, and the probe must tell an unknown one."""
    probes = [(path, op) for path, method, op in documented(document) if method == "post"
              and re.fullmatch(r"/api/(matches/\{match_id\}|challenges/\{challenge_id\})/[a-z]+", path)]
    assert len(probes) > 15
    for path, operation in probes:
        answer = client.post(sample_url(path, operation), json={})
        assert answer.json.get("reason") != UNKNOWN_ACTION, path
    assert client.post("/api/matches/x1/fly", json={}).json == {"error": "not-found", "reason": UNKNOWN_ACTION}
    assert client.post("/api/challenges/x1/fly", json={}).json["reason"] == UNKNOWN_ACTION


def test_every_operation_has_an_id_a_summary_security_and_documented_answers(document):
    ids = [op["operationId"] for _path, _method, op in documented(document)]
    assert len(ids) == len(set(ids))
    for path, method, operation in documented(document):
        assert operation["summary"] and "security" in operation and operation["responses"], (method, path)
        if "requestBody" in operation and "application/json" in operation["requestBody"]["content"]:
            assert {"400", "415"} <= operation["responses"].keys(), (method, path)
    assert set(document["components"]["securitySchemes"]) == {"bearer", "session", "csrf"}


def refs(node):
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def resolve(document, pointer: str):
    node = document
    for part in pointer.removeprefix("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


@pytest.mark.parametrize("name", ["openapi", "asyncapi"])
def test_every_reference_resolves(client, name):
    document = client.get(f"/api/{name}.json").json
    found = set(refs(document))
    assert found
    for pointer in found:
        resolve(document, pointer)


def test_the_games_are_the_installed_ones(document):
    import games
    create = document["paths"]["/api/matches"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert create["properties"]["game"]["enum"] == sorted(games.names())
    assert "x-quadrille-game-name" not in str(document)


def test_every_socket_event_is_in_the_asyncapi_document_and_only_those(app, client):
    document = client.get("/api/asyncapi.json").json
    assert document["asyncapi"].startswith("3.") and "socket.io-client 3.x and 4.x" in document["info"]["description"]
    handled = set(app.extensions["socketio"].server.handlers["/"]) - {"connect", "disconnect"}
    received = {name for name, op in document["operations"].items() if op["action"] == "receive"}
    assert handled == received
    messages = document["channels"]["socket"]["messages"]
    for name in received:
        assert f"emit.{name}.ack" in messages and messages[f"emit.{name}"]["name"] == name
    assert {"hear.state", "hear.presence", "hear.rematch", "hear.challenge"} <= set(messages)
