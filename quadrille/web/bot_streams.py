"""The bots' NDJSON streams over HTTP, as lichess's Bot API has them (docs/api.md, *Bots*):

- `GET /api/stream/event`: the account's events, one JSON object a line (bots/events.py): first a `gameStart`
  for each of its games under way and a `challenge` for each challenge waiting for its answer, then each
  event as it happens; an empty line every STREAM_KEEPALIVE seconds. It never ends by itself.
- `GET /api/bot/game/stream/<id>`: a match the account plays: first `{"type": "gameFull", "state": STATE,
  "you": {"seats"}}`, then `{"type": "gameState", "state": STATE}` for each new STATE; it ends after the
  STATE that has an outcome. While it is open its player counts as present (as a bot that polls would).

Both take the account's API token (`Authorization: Bearer qbt_…`) or its session. Each open stream counts
against STREAMS_PER_ACCOUNT and STREAMS_PER_ADDRESS (in this process); over them the answer is 429. A stream
ends within STREAM_RECHECK seconds of its token's revocation or its session's end.
"""
from __future__ import annotations

from flask import Blueprint, current_app, session

from ..bots.events import account_topic, match_topic
from ..bots.streams import Stream
from ..errors import ServiceError
from ..i18n import _l
from ..accounts import my_games
from .clients import client_address
from .sessions import bearer, current_account

bp = Blueprint("bot_streams", __name__, url_prefix="/api")

NDJSON = "application/x-ndjson"


def bots():
    return current_app.extensions["quadrille.bots"]


def stream_for(account) -> Stream:
    """A Stream counted against the account's and the address's budgets (429 when one is full), that ends when
    the credential it was opened with stops standing."""
    kit, accounts = bots(), current_app.extensions["quadrille.accounts"]
    keys = {"account": str(account.id), "address": client_address()}
    if not kit.budget.open(keys):
        raise ServiceError(429, "rate-limited", _l("Too many streams are open for this account or address; close one "
                                                   "first (each bot needs one event stream and one stream per game)."))
    token, session_id = bearer(), session.get("sid")
    if token is not None:
        def still_allowed() -> bool:
            found = accounts.by_api_token(token)
            return found is not None and found.id == account.id
    else:
        def still_allowed() -> bool:
            found = accounts.by_session(session_id) if isinstance(session_id, str) else None
            return found is not None and found.id == account.id
    return Stream(kit.hub, kit.budget, keys, kit.keepalive, kit.recheck, still_allowed)


def ndjson(body):
    response = current_app.response_class(body, mimetype=NDJSON)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx passes each line on at once
    return response


@bp.get("/stream/event")
def event_stream():
    account = current_account()
    accounts, ratings = current_app.extensions["quadrille.accounts"], current_app.extensions["quadrille.ratings"]
    challenges = current_app.extensions["quadrille.challenges"]
    stream = stream_for(account)

    def first():
        for game in my_games.account_games(accounts, ratings.rated, account, finished=False):
            yield {"type": "gameStart", "game": {"id": game["match"], **game}}
        for challenge in challenges.listing(account)["incoming"]:
            yield {"type": "challenge", "challenge": challenge}

    return ndjson(stream.body(account_topic(account.id), first, lambda message: (message, False)))


@bp.get("/bot/game/stream/<match_id>")
def game_stream(match_id):
    account = current_account()
    service = current_app.extensions["quadrille"]
    seats = service.seats_of(match_id, account.seat_key, seen=True)
    if not seats:
        raise ServiceError(401, "unauthorized", _l("This account holds no seat of this match."))
    presence = service.presence
    stream = stream_for(account)
    last: dict = {}

    def first():
        state = service.state(match_id)
        return [{"type": "gameFull", "state": state, "you": {"seats": seats}}]

    def each(message):
        state = message["state"]
        if last and (state["version"] < last["version"] or state == last):
            return None, False  # an older STATE than one sent (they may cross), or the same again
        last.clear()
        last.update(state)
        return message, state["outcome"] is not None

    def idle():
        presence.seen(match_id, seats)  # a bot that listens is here, as one that polls

    return ndjson(stream.body(match_topic(match_id), first, each, idle))
