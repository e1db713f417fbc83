"""The JSON door of moderation (quadrille/moderation/): players' reports, and the moderators' API.

- `POST /api/reports` {"account"?: name, "match"?: id, "reason", "text"?}: any logged-in player (session with its
  CSRF token, or an API token) reports a player, a match, or a player in a match. Budgets: REPORT_RATE per
  account (the site's budgets, as challenges'), REPORTS_PER_DAY, and the address's HTTP budget (Flask-Limiter).
- `GET /api/reports/reasons`: the reasons a report may give, with their words.
- `/api/moderation/...`: what the moderators' page does, for an account marked as a moderator; anyone else is
  answered 404, as if it were not there.

It also keeps muted accounts from naming what others see (`refuse_muted`): a by-name match's name and a seat's
name, the only words a player shows others (Quadrille has no chat).
"""
from __future__ import annotations

from flask import Blueprint, Flask, current_app, jsonify, request

from ..errors import ServiceError
from ..i18n import _l
from ..moderation import REASONS
from .http_api import json_body
from .sessions import current_account

bp = Blueprint("moderation_api", __name__, url_prefix="/api")

# The match API's requests that carry words others see: a match's name (by-name play) or a seat's ("player").
NAMING_ENDPOINTS = ("api.create_match", "api.join_by_name", "api.claim_seat", "api.import_match")


def moderation():
    return current_app.extensions["quadrille.moderation"]


def moderator():
    """The moderator asking, or 404 for anyone else (the moderators' API is not there for them)."""
    account = current_account(required=False)
    if account is None or not account.moderator:
        raise ServiceError(404, "not-found", _l("There is no such page."))
    return account


# -- players ---------------------------------------------------------------------------------------------
@bp.post("/reports")
def report():
    body = json_body()
    answer = moderation().report(current_account(), body.get("account"), body.get("match"), body.get("reason"),
                                 body.get("text"))
    return jsonify(answer), 201


@bp.get("/reports/reasons")
def reasons():
    return jsonify({"reasons": REASONS})


# -- moderators -----------------------------------------------------------------------------------------
@bp.get("/moderation/matches")
def matches_under_way():
    moderator()
    limit = request.args.get("limit", 100, type=int)
    return jsonify({"matches": moderation().under_way(max(1, min(limit, 500)))})


@bp.get("/moderation/reports")
def reports():
    moderator()
    return jsonify({"players": moderation().reported_players(), "reports": moderation().open_reports()})


@bp.get("/moderation/log")
def journal():
    moderator()
    return jsonify({"log": moderation().journal()})


@bp.get("/moderation/accounts")
def sanctioned():
    moderator()
    return jsonify({"accounts": moderation().sanctioned()})


MATCH_ACTIONS = {"close": "close", "delete": "delete"}
ACCOUNT_ACTIONS = {"ban": "ban", "unban": "unban", "mute": "mute", "unmute": "unmute"}


@bp.post("/moderation/matches/<match_id>/<action>")
def act_on_match(match_id, action):
    actor = moderator()
    if action not in MATCH_ACTIONS:
        raise ServiceError(404, "not-found", _l("There is no such action: close or delete."))
    body = json_body(optional=True)
    return jsonify(getattr(moderation(), MATCH_ACTIONS[action])(actor.name, match_id, body.get("note")))


@bp.post("/moderation/accounts/<name>/<action>")
def act_on_account(name, action):
    actor = moderator()
    body = json_body(optional=True)
    if action == "reset-rating":
        return jsonify(moderation().reset_rating(actor.name, name, body.get("game")))
    if action not in ACCOUNT_ACTIONS:
        raise ServiceError(404, "not-found", _l("There is no such action: ban, unban, mute, unmute or reset-rating."))
    return jsonify(getattr(moderation(), ACCOUNT_ACTIONS[action])(actor.name, name, body.get("note")))


@bp.post("/moderation/names/free")
def free_name():
    actor = moderator()
    return jsonify(moderation().free_name(actor.name, json_body().get("name")))


@bp.post("/moderation/reports/<int:report_id>/dismiss")
def dismiss(report_id):
    return jsonify(moderation().dismiss(moderator().name, report_id))


# -- mute: at the match API's door ------------------------------------------------------------------------
def install(app: Flask) -> None:
    """The muted accounts' refusal at the match API's door."""

    @app.before_request
    def refuse_muted():
        if request.endpoint not in NAMING_ENDPOINTS or not names_something():
            return None
        account = current_account(required=False)
        if account is not None and account.muted:
            raise ServiceError(403, "muted", _l("Your account is muted: it cannot name matches or seats that others "
                                                "see. Play without a name, or ask the site's moderators."))
        return None


def names_something() -> bool:
    """Whether this match API request carries words others would see (a match name, a seat's `player` name)."""
    if request.args.get("player"):
        return True
    try:
        body = request.get_json(silent=True) if request.is_json else None
    except RecursionError:  # JSON nested deeper than Python parses: the view refuses it (json_body)
        return False
    return isinstance(body, dict) and bool(body.get("player") or (request.endpoint == "api.join_by_name"))
