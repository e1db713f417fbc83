"""The JSON door of players: accounts, API tokens, challenges, my games, profiles and leaderboards.

Authenticated by the session cookie (pages; writes need the CSRF token, see sessions.py) or an API token
(`Authorization: Bearer qbt_…`, bots). Errors are the API's usual {"error", "reason"}."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from flask_wtf.csrf import generate_csrf

import games

from ..accounts.api_tokens import check_label
from ..accounts.my_games import account_games, token_games
from ..accounts.service import checked_tokens
from ..errors import ServiceError
from ..i18n import _l
from . import known_devices
from .http_api import json_body
from .clients import client_address
from .sessions import by_bearer, current_account, log_in, log_out
from ..i18n.languages import COOKIE as LANGUAGE_COOKIE
from ..i18n.web import remember as remember_language, save_account_language

bp = Blueprint("players_api", __name__, url_prefix="/api")


def accounts():
    return current_app.extensions["quadrille.accounts"]


def challenges():
    return current_app.extensions["quadrille.challenges"]


def ratings():
    return current_app.extensions["quadrille.ratings"]


def tokens_sent(body: dict) -> dict:
    """The browser's tokens sent with a sign-up or login ({match id: token}), checked before anything changes."""
    return checked_tokens(body.get("tokens") or {})


def signed_in(account, body: dict, status: int = 200):
    """Open a session for the account; hand the matches of the browser's tokens over to it when the page
    sends them (`tokens`: {match id: token}). The answer carries the account's seat key, which the page
    keeps as its token for the account's matches, and the new session's CSRF token. The browser becomes a
    known device of the account (known_devices.py)."""
    log_in(account)
    known_devices.remember(account.id)
    tokens = tokens_sent(body)
    claimed = accounts().claim_matches(account, tokens) if tokens else []
    return jsonify({"account": account.public(), "seat_key": account.seat_key, "csrf": generate_csrf(),
                    "claimed": claimed}), status


def by_password(body: dict):
    """The account of the body's name and password, within the login budgets (login_budget.py): only failures
    count, and a device that logged into the account before has a budget of its own."""
    name, password = body.get("name"), body.get("password")
    budget = current_app.extensions["quadrille.login_budget"]
    attempt = budget.admit(name, client_address(), known_devices.device_for(accounts().id_of(name)))
    try:
        return accounts().log_in(name, password)
    except ServiceError as refused:
        if refused.status == 401:
            budget.failed(attempt)
        raise


# -- accounts -------------------------------------------------------------------------------------------
@bp.post("/account")
def sign_up():
    body = json_body()
    tokens_sent(body)
    account = accounts().sign_up(body.get("name"), body.get("password"))
    return signed_in(account, body, 201)


@bp.get("/account")
def who_am_i():
    """{"account": {"id", "name"} | null, "seat_key"?, "csrf"?}: the pages ask who is logged in. An API token
    is answered with the account alone: the seat key would outlive the token's revocation."""
    account = current_account(required=False)
    if account is None:
        return jsonify({"account": None})
    if by_bearer():
        return jsonify({"account": account.public(), "language": account.language})
    return jsonify({"account": account.public(), "seat_key": account.seat_key, "csrf": generate_csrf(),
                    "language": account.language})


@bp.post("/account/language")
def set_language():
    """{"language": "pl" | null}: the language of the member's pages and of the API's reasons for them
    (docs/translating.md); null: follow the browser. This browser's `lang` cookie follows."""
    body = json_body()
    language = save_account_language(current_account(), body.get("language"))
    response = jsonify({"language": language})
    if language is None:
        response.delete_cookie(LANGUAGE_COOKIE)
    else:
        remember_language(response, language)
    return response


@bp.post("/account/login")
def log_in_():
    body = json_body()
    tokens_sent(body)
    return signed_in(by_password(body), body)


@bp.post("/account/logout")
def log_out_():
    """End this browser's session on the server (a copy of its cookie opens nothing afterwards)."""
    log_out()
    return jsonify({"ok": True})


@bp.post("/account/password")
def change_password():
    """{"password", "new_password", "sign_out_everywhere"?}: every session of the account ends, and the
    browser that asked gets a new one; with sign_out_everywhere its API tokens are revoked too and its seat
    key changes (answered as `seat_key`, which the page keeps in place of the old one)."""
    body = json_body()
    account = accounts().change_password(current_account(), body.get("password"), body.get("new_password"),
                                         body.get("sign_out_everywhere", False))
    if by_bearer():
        return jsonify({"ok": True})
    log_in(account)
    return jsonify({"ok": True, "csrf": generate_csrf(), "seat_key": account.seat_key})


@bp.post("/account/delete")
def delete_account():
    body = json_body()
    accounts().delete(current_account(), body.get("password"))
    log_out()
    return jsonify({"ok": True})


@bp.post("/account/claim")
def claim_matches():
    """Hand the seats of this browser's tokens over to the logged-in account: {"tokens": {match: token}}."""
    body = json_body()
    return jsonify({"claimed": accounts().claim_matches(current_account(), body.get("tokens"))})


@bp.post("/account/tokens")
def create_token():
    """{"name", "password", "label"?} → 201 {"token"}: shown once, only its hash is kept. No cookie needed."""
    body = json_body()
    label = check_label(body.get("label"))
    account = by_password(body)
    token = accounts().tokens.create(account.id, label)
    return jsonify({"token": token, "account": account.public()}), 201


@bp.get("/account/tokens")
def list_tokens():
    """The account's API tokens: [{"id", "label", "created", "last_used"}], the newest first."""
    return jsonify({"tokens": accounts().tokens.listing(current_account().id)})


@bp.post("/account/tokens/<token_id>/revoke")
def revoke_token(token_id):
    json_body(optional=True)
    account = current_account()
    accounts().tokens.revoke(account.id, token_id)
    return jsonify({"ok": True, "tokens": accounts().tokens.listing(account.id)})


# -- players ----------------------------------------------------------------------------------------
@bp.get("/players")
def search_players():
    return jsonify({"players": accounts().search(request.args.get("search", ""))})


@bp.get("/players/<name>")
def profile(name):
    account = accounts().by_name(name)
    if account is None:
        raise ServiceError(404, "unknown-player", _l("There is no player called '%(name)s'.", name=name))
    return jsonify(profile_of(account))


RECENT_ON_PROFILE = 20  # the finished games a profile shows, the newest


def profile_of(account) -> dict:
    return {"name": account.name, "ratings": ratings().ratings_of(account.id),
            "history": ratings().history_of(account.id),
            "recent": account_games(accounts(), ratings().rated, account, finished=True, most=RECENT_ON_PROFILE,
                                    changes_of=ratings().changes_of)}


@bp.get("/leaderboard/<game>")
def leaderboard(game):
    if game not in games.names():
        raise ServiceError(404, "not-found", _l("There is no such game."))
    return jsonify({"game": game, "players": ratings().leaderboard(game), "rule": ratings().rule.as_json()})


# -- my games -------------------------------------------------------------------------------------------
def finished_flag() -> bool:
    return request.args.get("finished", "0") not in ("0", "", "false")


@bp.get("/me/games")
def my_games():
    """The account's games: ongoing ones ("your turn" first), and with ?finished=1 the finished ones too."""
    account = current_account()
    return jsonify({"games": account_games(accounts(), ratings().rated, account, finished_flag(),
                                           changes_of=ratings().changes_of),
                    "challenges": challenges().listing(account)})


@bp.post("/me/games")
def my_token_games():
    """The same list for a browser without an account: {"tokens": {match id: token}} (never kept)."""
    body = json_body()
    return jsonify({"games": token_games(accounts(), body.get("tokens"), finished_flag())})


# -- challenges --------------------------------------------------------------------------------------
@bp.post("/challenges")
def create_challenge():
    body = json_body()
    found = challenges().create(current_account(), body.get("to"), body.get("game"), body.get("options"),
                                body.get("rated", False), body.get("clock"), body.get("first", "random"))
    return jsonify(found), 201


@bp.get("/challenges")
def list_challenges():
    return jsonify(challenges().listing(current_account()))


@bp.get("/challenges/<challenge_id>")
def get_challenge(challenge_id):
    account = current_account()
    found = challenges().get(challenge_id)
    if found["from"] != account.name and account.name not in [t["name"] for t in found["to"]]:
        raise ServiceError(404, "not-found", _l("There is no such challenge."))
    return jsonify(found)


@bp.post("/challenges/<challenge_id>/<action>")
def answer_challenge(challenge_id, action):
    """accept (200 {"challenge", ..., "match"}), decline, cancel (the challenger), start (Gamma's creator)."""
    actions = {"accept": challenges().accept, "decline": challenges().decline, "cancel": challenges().cancel,
               "start": challenges().start}
    if action not in actions:
        raise ServiceError(404, "not-found", _l("There is no such action."))
    json_body(optional=True)
    return jsonify(actions[action](current_account(), challenge_id))

