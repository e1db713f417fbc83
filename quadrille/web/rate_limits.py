"""HTTP budgets, by Flask-Limiter: every route but the static files has a budget per address, the
routes that create a match (by link, by name, by import, or a new embedded game) share a tighter one, and so do
the pictures and the tutorial's steps and tries, and signing up, logging in and making API tokens (a tight one:
password guessing).
The Socket.IO budgets are in quadrille/infra/limits.py, on the same kind of storage."""
from __future__ import annotations

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

import games

from ..infra.limits import counter_storage_uri

MATCH_CREATING_ENDPOINTS = ("api.create_match", "api.join_by_name", "api.import_match", "pages.embed_new")
# Pictures and a tutorial's steps and tries: each replays a short game through the engine.
LEARN_ENDPOINTS = ("learn.preview_svg", "learn.lesson_step", "learn.lesson_try")
# Guessing passwords and making accounts: signing up, logging in and making API tokens share a tight budget.
ACCOUNT_ENDPOINTS = ("players_api.sign_up", "players_api.log_in_", "players_api.create_token")


def install(app: Flask, storage_options: dict | None = None) -> Limiter:
    """Call after the blueprints are registered: the match-creating views are wrapped in place.
    `storage_options`: for the counters' storage (the factory's shared Redis connection pool)."""
    config = app.config
    limiter = Limiter(get_remote_address, app=app, storage_uri=counter_storage_uri(config["RATELIMIT_STORAGE_URI"]),
                      storage_options=storage_options or {},
                      strategy="sliding-window-counter", default_limits=[config["HTTP_RATE"]],
                      default_limits_exempt_when=lambda: request.endpoint in ("static", "api.health"),
                      enabled=config["RATELIMIT_ENABLED"], headers_enabled=True)
    creating = limiter.shared_limit(config["MATCH_CREATION_RATE"], scope="create-match")
    for endpoint in MATCH_CREATING_ENDPOINTS:
        app.view_functions[endpoint] = creating(app.view_functions[endpoint])
    learning = limiter.shared_limit(config["LEARN_RATE"], scope="learn")
    for endpoint in LEARN_ENDPOINTS:
        app.view_functions[endpoint] = learning(app.view_functions[endpoint])
    accounts = limiter.shared_limit(config["ACCOUNT_RATE"], scope="account")
    for endpoint in ACCOUNT_ENDPOINTS:
        app.view_functions[endpoint] = accounts(app.view_functions[endpoint])
    # Guesses at one account's password from many addresses: a budget per name tried, the same whether or not
    # the name exists (so it tells nothing about the name).
    per_name = limiter.shared_limit(config["LOGIN_NAME_RATE"], scope="login-name", key_func=name_tried)
    for endpoint in ("players_api.log_in_", "players_api.create_token"):
        app.view_functions[endpoint] = per_name(app.view_functions[endpoint])
    install_import_budget(app, limiter)
    return limiter


# -- the work of imports: moves, not requests ---------------------------------------------------------------
# An import replays every move of its record through the engine and stores each, so a request's cost is its
# moves: the budget per address (IMPORT_MOVES_RATE) counts them, before anything is replayed (a refusal costs
# nothing). A JSON record counts its list of moves; a save file (.twr, .ltc) is counted by its size before it
# is read, one move per SAVE_BYTES_PER_MOVE bytes (a Towers action takes 17 bytes or less in a real save).
SAVE_BYTES_PER_MOVE = 16


def install_import_budget(app: Flask, limiter: Limiter) -> None:
    moves = limiter.shared_limit(app.config["IMPORT_MOVES_RATE"], scope="import-moves", cost=imported_moves)
    app.view_functions["api.import_match"] = moves(app.view_functions["api.import_match"])


def imported_moves() -> int:
    """What an import request will cost, in moves (at least 1). A record longer than its game's move limit is
    refused before any move is replayed (the match service checks its length first): it costs 1."""
    if request.args.get("format", "json") != "json":
        return max(1, (request.content_length or 0) // SAVE_BYTES_PER_MOVE)
    try:
        body = request.get_json(silent=True) if request.is_json else None
    except RecursionError:  # refused by the view as it is: nothing to replay
        body = None
    moves = body.get("moves") if isinstance(body, dict) else None
    if not isinstance(moves, list):
        return 1
    try:
        options = body.get("options") or {}
        limit = games.get(body.get("game")).move_limit(options if isinstance(options, dict) else {})
    except (KeyError, TypeError, ValueError):  # no such game, or bad options: refused before any replay
        return 1
    return 1 if len(moves) > limit else max(1, len(moves))


def name_tried() -> str:
    body = request.get_json(silent=True) if request.is_json else None
    name = body.get("name") if isinstance(body, dict) else None
    return name.lower()[:40] if isinstance(name, str) else "?"
