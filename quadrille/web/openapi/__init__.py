"""The machine-readable API: one OpenAPI 3.1 document, merged from a piece per door (each a dict of paths,
and the schemas they name), and the Socket.IO events as an AsyncAPI 3.0 document (socketio.py).

A piece describes its blueprint's routes; tests/platform/test_openapi.py walks the app's url_map and fails
when a route under /api is missing from the document or the document names one that does not exist."""
from __future__ import annotations

import copy

import games

from . import analysis, analysis_board, challenges, learn, match_schemas, matches, moderation, players, puzzles, streams
from .common import components

PIECES = (matches, players, challenges, learn, streams, moderation, analysis, analysis_board, puzzles)
SCHEMA_PIECES = (match_schemas, players, challenges, learn, streams, puzzles)
GAME_NAME = "x-quadrille-game-name"  # marks a string that is one of the installed games' names

INFO = {
    "title": "Quadrille",
    "summary": "The JSON HTTP API of a Quadrille site: for bots, scripts and tests.",
    "description": "Every name is a contract: later releases add names, never rename or remove one. The prose, "
                   "with every rule and error word, is docs/api.md; the Socket.IO events are in "
                   "/api/asyncapi.json. Every refusal answers {\"error\", \"reason\"} and changes nothing.",
    "license": {"name": "MIT", "identifier": "MIT"},
}


def openapi_document(version: str, server_url: str | None = None) -> dict:
    """The whole document, with the installed games' names filled in (GAME_PACKAGES may add games)."""
    paths = {}
    for piece in PIECES:
        overlap = paths.keys() & piece.PATHS.keys()
        assert not overlap, f"two pieces describe {sorted(overlap)}"
        paths.update(copy.deepcopy(piece.PATHS))
    schemas = {}
    for piece in SCHEMA_PIECES:
        schemas.update(copy.deepcopy(piece.SCHEMAS))
    document = {"openapi": "3.1.0", "info": {**INFO, "version": version},
                "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
                "paths": paths, "components": components(schemas)}
    if server_url:
        document["servers"] = [{"url": server_url}]
    return fill_game_names(document, sorted(games.names()))


def fill_game_names(node, names: list[str]):
    if isinstance(node, dict):
        if node.pop(GAME_NAME, False):
            node["enum"] = names
        for value in node.values():
            fill_game_names(value, names)
    elif isinstance(node, list):
        for value in node:
            fill_game_names(value, names)
    return node
