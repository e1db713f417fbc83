"""The JSON HTTP door (for bots, scripts and tests): parses, authenticates, calls the match service."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

import games
from games.reasons import reason_of

from ..catalog import describe, installed_games
from ..errors import ServiceError, bad_request
from ..i18n import _l
from ..accounts.service import is_api_token
from ..matches.invites import invite_link
from ..matches.sides import seats_for_side
from .clients import client_address
from .links import public_url
from .sessions import bearer

bp = Blueprint("api", __name__, url_prefix="/api")


def service():
    return current_app.extensions["quadrille"]


def json_body(optional: bool = False) -> dict:
    """The request's JSON object. Only a JSON content type is read as JSON: browsers send `text/plain` and
    forms cross-site without asking, so those are never taken for a request of this API. `optional`: an
    empty body counts as {}."""
    if optional and not request.content_length and not request.is_json:
        return {}
    if not request.is_json:
        raise ServiceError(415, "unsupported-media-type", _l("Send the body as JSON with Content-Type: "
                                                             "application/json."))
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # JSON nested deeper than Python will parse
        body = None
    if not isinstance(body, dict):
        raise bad_request(_l("The request body must be a JSON object."))
    return body


def bearer_token() -> str | None:
    """The seat token of the request. An account's API token stands for the account's seat key, which holds
    every seat of its matches (accounts/): a bot acts for its own seats and no one else's."""
    token = bearer()
    if is_api_token(token):
        account = current_app.extensions["quadrille.accounts"].by_api_token(token)
        return account.seat_key if account else None
    return token


def with_links(created: dict) -> dict:
    """Add the match's page address (`url`: whoever opens it watches) and, to the creator of an online match,
    its invite link (`invite`: the page with the invite secret in its fragment, which takes a free seat)."""
    if created.get("match") and "created" in created:  # a new match, not a STATE
        url = public_url("pages.match_page", match_id=created["match"])
        created = {**created, "url": url, "invite": invite_link(url, created.get("invite_secret"))}
    return created


@bp.get("/health")
def health():
    """{"ok", "process", "database", "queue"}: 200 when the database and the queue answer, else 503."""
    answer, ok = current_app.extensions["quadrille.health"]()
    return jsonify(answer), 200 if ok else 503


@bp.get("/games")
def list_games():
    return jsonify([describe(game) for game in installed_games()])


@bp.post("/games/<name>/check")
def check_options(name):
    """Validate new-game options without creating anything: {"ok", "options", "warnings"} or an error."""
    body = json_body()
    try:
        game = games.get(name)
    except KeyError:
        raise ServiceError(404, "not-found", _l("There is no such game."))
    options = body.get("options")
    options = {} if options is None else options  # absent or null: the defaults; false or [] is no object
    if not isinstance(options, dict):
        raise bad_request(_l("options must be an object."), "bad-options")
    try:
        options = game.normalise(options)
    except ValueError as exc:
        raise bad_request(reason_of(exc), "bad-options")
    return jsonify({"ok": True, "options": options, "warnings": game.warnings(options)})


@bp.post("/matches")
def create_match():
    body = json_body()
    mode = body.get("mode", "online")
    seats = seats_for_side(body.get("game"), body.get("options"), mode, body.get("side"),
                           body.get("seats", body.get("seat")))
    created = service().create(body.get("game"), body.get("options"), mode, seats=seats, ai=body.get("ai"),
                               player=body.get("player"), owner=client_address(),
                               visibility=body.get("visibility"), clock=body.get("clock"))
    return jsonify(with_links(created)), 201


@bp.post("/matches/by-name")
def join_by_name():
    body = json_body()
    joined = service().join_by_name(body.get("name"), body.get("game"), body.get("options"),
                                    player=body.get("player"), clock=body.get("clock"))
    return jsonify(with_links(joined)), 201 if joined.get("token") else 200


@bp.post("/matches/import")
def import_match():
    """A Quadrille record (JSON), or with ?format=<extension> a game's own save file as the raw body. Its moves
    count against the address's budget of imported moves (web/rate_limits.py); an import nobody opens is deleted
    after IMPORT_RETENTION."""
    mode, player = request.args.get("mode", "local"), request.args.get("player")
    if request.args.get("format", "json") != "json":
        text = request.get_data(as_text=True)
        created = service().import_file(request.args["format"], text, mode=mode, player=player)
    else:
        try:
            record = json_body()
        except ServiceError as exc:
            if exc.status != 400:
                raise
            raise bad_request(_l("This file is not a Quadrille record: it is not a JSON object such as an exported "
                                 "record. Saves of the original games are .ltc (Lattice) and .twr (Towers) files."),
                              "bad-record")
        created = service().import_record(record, mode=mode, player=player)
    current_app.extensions["quadrille.retention"].imported()  # deleted unless opened (matches/retention.py)
    return jsonify(with_links(created)), 201


@bp.get("/matches/recent")
def recent_matches():
    return jsonify(service().recent())


@bp.get("/matches/<match_id>")
def get_match(match_id):
    """The STATE. A player's bot that polls sends its token (Bearer) to count as present."""
    token = bearer_token()
    if token:
        service().seats_of(match_id, token, seen=True)
    return jsonify(service().state(match_id))


@bp.post("/matches/<match_id>/seats")
def claim_seat(match_id):
    """Take a free seat with the match's invite secret ({"invite": secret}; an open match needs none)."""
    body = json_body(optional=True)
    return jsonify(service().claim_seat(match_id, body.get("seat"), body.get("player"), body.get("invite"))), 201


@bp.post("/matches/<match_id>/moves")
def play_move(match_id):
    body = json_body()
    return jsonify(service().play(match_id, bearer_token(), body.get("move"), body.get("version")))


@bp.post("/matches/<match_id>/<action>")
def match_action(match_id, action):
    """Match decisions: takeback, rewind {"to"}, resign, start {"computer_level"?}, rematch, pause {"paused"},
    computer {"seat", "level"} (hand an absent player's seat to the computer), reclaim (take it back),
    offer {"offer"} (takeback, draw, rematch), accept {"offer"}, decline {"offer"} (another player's offer),
    abort (before every player has moved), timeout {"result": "win" | "draw"} (a player left)."""
    body = json_body(optional=True)
    svc, token = service(), bearer_token()
    actions = {
        "takeback": lambda: svc.takeback(match_id, token),
        "rewind": lambda: svc.rewind(match_id, token, body.get("to")),
        "resign": lambda: svc.resign(match_id, token),
        "start": lambda: svc.start(match_id, token, body.get("computer_level"), owner=client_address()),
        "pause": lambda: svc.pause(match_id, token, body.get("paused")),
        "reclaim": lambda: svc.reclaim_seat(match_id, token),
        "computer": lambda: svc.hand_to_computer(match_id, token, body.get("seat"), body.get("level", 1),
                                                 owner=client_address()),
        "rematch": lambda: with_links(svc.rematch(match_id, token, owner=client_address())),
        "decline": lambda: svc.decline(match_id, token, body.get("offer", "rematch")),
        "offer": lambda: with_links(svc.offer(match_id, token, body.get("offer"), owner=client_address())),
        "accept": lambda: with_links(svc.accept(match_id, token, body.get("offer"), owner=client_address())),
        "abort": lambda: svc.abort(match_id, token),
        "timeout": lambda: svc.claim_win(match_id, token, body.get("result", "win")),
    }
    if action not in actions:
        raise ServiceError(404, "not-found", _l("There is no such action."))
    answer = actions[action]()
    if bearer() != token and isinstance(answer, dict) and answer.get("token") == token:
        answer = {**answer, "token": None}  # an API token's rematch: never its account's seat key (it plays it)
    return jsonify(answer)


@bp.get("/matches/<match_id>/record")
def match_record(match_id):
    record = service().record(match_id)
    response = jsonify(record)
    if request.args.get("download"):
        response.headers["Content-Disposition"] = (
            f'attachment; filename="quadrille-{record["game"]}-{record["match"]}.json"')
    return response


@bp.get("/matches/<match_id>/export/<extension>")
def export_file(match_id, extension):
    """The match in its game's own save format (e.g. .twr for Towers), as a download."""
    text = service().export_file(match_id, extension)
    response = current_app.response_class(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="quadrille-{match_id}.{extension}"'
    return response


@bp.get("/matches/<match_id>/positions/<int:ply>")
def match_position(match_id, ply):
    return jsonify(service().position(match_id, ply))
