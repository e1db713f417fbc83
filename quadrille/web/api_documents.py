"""The machine-readable documents of the API (quadrille/web/openapi/): GET /api/openapi.json (OpenAPI 3.1, the
HTTP endpoints) and GET /api/asyncapi.json (AsyncAPI 3.0, the Socket.IO events). Built once per process, with
the installed games' names and the site's public address."""
from __future__ import annotations

from functools import cache
from importlib import metadata
from urllib.parse import urlsplit

from flask import Blueprint, jsonify

import games

from .links import public_url
from .openapi import openapi_document
from .openapi.socketio import asyncapi_document

bp = Blueprint("api_documents", __name__, url_prefix="/api")


def version() -> str:
    try:
        return metadata.version("quadrille")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0"


@cache
def _openapi(site: str, _games: tuple) -> dict:  # games: GAME_PACKAGES may add some in a later app
    return openapi_document(version(), site)


@cache
def _asyncapi(site: str) -> dict:
    return asyncapi_document(version(), urlsplit(site).netloc or site)


def site_url() -> str:
    return public_url("pages.lobby").rstrip("/")


@bp.get("/openapi.json")
def openapi():
    return jsonify(_openapi(site_url(), tuple(games.names())))


@bp.get("/asyncapi.json")
def asyncapi():
    return jsonify(_asyncapi(site_url()))
