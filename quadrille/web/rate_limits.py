"""HTTP budgets, by Flask-Limiter: every route but the static files has a budget per address, the
routes that create a match (by link, by name, by import, or a new embedded game) share a tighter one, and so do
the pictures and the tutorial's steps and tries; so do the analysis board's positions.
The Socket.IO budgets are in quadrille/infra/limits.py, on the same kind of storage.

An address is counted as infra/addresses.py says: an IPv4 address, or an IPv6 address's /64 (a client holds a
whole /64 and could take a fresh address, and a fresh budget, at every request).

Accounts' budgets (each password check is an Argon2 verification, in a bounded pool: accounts/password_pool.py):
- per address, every request that checks a password or makes an account (sign-up, login, API token, password
  change, deletion) shares ACCOUNT_RATE, and sign-ups that made an account count against SIGNUP_RATE, a day's;
- per account, password changes and deletions (which need the session or a token of the account) share
  PASSWORD_CHECK_RATE;
- per name, logins and API tokens made by name and password count failed attempts only, and never lock out a
  device that logged into that account before (accounts/login_budget.py, installed here, used by players_api).
"""
from __future__ import annotations

from flask import Flask, request
from flask_limiter import Limiter
from limits.storage import MemoryStorage

import games

from ..accounts.login_budget import LoginBudget
from ..infra.limits import counter_storage_uri
from .clients import client_address
from .sessions import current_account

MATCH_CREATING_ENDPOINTS = ("api.create_match", "api.join_by_name", "api.import_match", "pages.embed_new")
# Pictures and a tutorial's steps and tries: each replays a short game through the engine.
LEARN_ENDPOINTS = ("rules.preview_svg", "tutorials.tutorial_step", "tutorials.tutorial_try")
# A position searched on a worker for the analysis board (quadrille/analysis/).
ANALYSIS_ENDPOINTS = ("analysis_api.analyse_position",)
# The puzzles' pages and JSON: each replays a puzzle's position (an attempt its solution) through the engine.
PUZZLE_ENDPOINTS = ("puzzle_pages.next_puzzle", "puzzle_pages.daily_puzzle", "puzzle_pages.one_puzzle",
                    "puzzle_pages.attempt", "puzzle_pages.mixed_page", "puzzle_pages.daily_page",
                    "puzzle_pages.game_page")
# Every request that costs an Argon2 hash (or makes an account): one budget per address.
ACCOUNT_ENDPOINTS = ("players_api.sign_up", "players_api.log_in_", "players_api.create_token",
                     "players_api.change_password", "players_api.delete_account")
# Password checks of an account that is logged in (or sends its API token): one budget per account.
OWN_PASSWORD_ENDPOINTS = ("players_api.change_password", "players_api.delete_account")


def install(app: Flask, storage_options: dict | None = None) -> Limiter:
    """Call after the blueprints are registered: the budgeted views are wrapped in place.
    `storage_options`: for the counters' storage (the factory's shared Redis connection pool)."""
    config = app.config
    limiter = Limiter(client_address, app=app, storage_uri=counter_storage_uri(config["RATELIMIT_STORAGE_URI"]),
                      storage_options=storage_options or {},
                      strategy="sliding-window-counter", default_limits=[config["HTTP_RATE"]],
                      default_limits_exempt_when=lambda: request.endpoint in ("static", "api.health"),
                      enabled=config["RATELIMIT_ENABLED"], headers_enabled=True)
    wrap(app, limiter.shared_limit(config["MATCH_CREATION_RATE"], scope="create-match"), MATCH_CREATING_ENDPOINTS)
    wrap(app, limiter.shared_limit(config["LEARN_RATE"], scope="learn"), LEARN_ENDPOINTS)
    wrap(app, limiter.limit(config["ANALYSIS_POSITION_RATE"], scope="analysis-position"), ANALYSIS_ENDPOINTS)
    wrap(app, limiter.shared_limit(config["PUZZLE_RATE"], scope="puzzles"), PUZZLE_ENDPOINTS)
    install_account_budgets(app, limiter)
    install_import_budget(app, limiter)
    install_analysis_board_budget(app, limiter)
    return limiter


def wrap(app: Flask, limit, endpoints) -> None:
    for endpoint in endpoints:
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])


def install_account_budgets(app: Flask, limiter: Limiter) -> None:
    config = app.config
    wrap(app, limiter.shared_limit(config["ACCOUNT_RATE"], scope="account"), ACCOUNT_ENDPOINTS)
    made_one = lambda response: response.status_code == 201  # noqa: E731 - only sign-ups that made an account
    wrap(app, limiter.limit(config["SIGNUP_RATE"], scope="sign-up", deduct_when=made_one), ("players_api.sign_up",))
    wrap(app, limiter.shared_limit(config["PASSWORD_CHECK_RATE"], scope="own-password", key_func=account_acting,
                                   exempt_when=lambda: current_account(required=False) is None),
         OWN_PASSWORD_ENDPOINTS)
    # (with the budgets off, Flask-Limiter makes no storage, and the login budget admits every attempt)
    app.extensions["quadrille.login_budget"] = LoginBudget(
        limiter.storage if config["RATELIMIT_ENABLED"] else MemoryStorage(), per_name=config["LOGIN_NAME_RATE"], per_device=config["LOGIN_DEVICE_RATE"],
        slow=config["LOGIN_SLOW_RATE"], enabled=config["RATELIMIT_ENABLED"])


def account_acting() -> str:
    account = current_account(required=False)
    return f"account:{account.id}" if account is not None else "none"


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


# -- the analysis board: moves replayed, not requests -------------------------------------------------------
# Each request replays its whole line through the engine (the page sends the line every time: nothing is kept),
# so its cost is its line's length, counted before anything is replayed (quadrille/analysis_board.py caps it).
ANALYSIS_BOARD_ENDPOINTS = ("analysis_board.board_page", "analysis_board.board_from_match",
                            "analysis_board.board_state", "analysis_board.board_export")


def install_analysis_board_budget(app: Flask, limiter: Limiter) -> None:
    budget = limiter.shared_limit(app.config["ANALYSIS_BOARD_RATE"], scope="analysis-board", cost=board_moves)
    wrap(app, budget, ANALYSIS_BOARD_ENDPOINTS)


def board_moves() -> int:
    """What an analysis board request will cost, in moves (at least 1; a line past its cap is refused unplayed)."""
    if request.method == "POST":
        try:
            body = request.get_json(silent=True) if request.is_json else None
        except RecursionError:
            body = None
        moves = body.get("moves") if isinstance(body, dict) else None
        return max(1, len(moves)) if isinstance(moves, list) else 1
    return max(1, len(request.args.get("moves", "").split()))
