"""The bots' NDJSON streams (web/bot_streams.py, quadrille/bots/): one JSON object a line, an empty line now
and then as a keep-alive, for as long as the client reads. An account's API token or its session."""
from __future__ import annotations

from .common import ACCOUNT_READ, SEATS, STRING, obj, path_param, ref, refused

NDJSON = "application/x-ndjson"
EVENT = {"oneOf": [
    obj(("type", "challenge"), type={"enum": ["challenge", "challengeCanceled", "challengeDeclined"]},
        challenge=ref("Challenge")),
    obj(("type", "game"), type={"enum": ["gameStart", "gameFinish"]},
        game={**ref("MyGame"), "description": "a line of my games, with `id` (the match id) besides `match`"})],
    "description": "one line of the stream"}
GAME_LINE = {"oneOf": [
    obj(("type", "state", "you"), type={"const": "gameFull"}, state=ref("State"), you=obj(("seats",), seats=SEATS)),
    obj(("type", "state"), type={"const": "gameState"}, state=ref("State"))],
    "description": "one line of the stream: gameFull first, then a gameState for each new STATE"}


def stream(description: str, line: dict) -> dict:
    return {"200": {"description": description + " One JSON object a line; an empty line now and then keeps the "
                                                  "connection alive.",
                    "content": {NDJSON: {"schema": line}}}}  # (the schema of each line)


PATHS = {
    "/api/stream/event": {"get": {
        "operationId": "streamEvents", "summary": "the account's events as they happen (lichess's stream/event)",
        "security": ACCOUNT_READ,
        "responses": {**stream("A gameStart for each game under way and a challenge for each one waiting, then "
                               "each event as it happens; it never ends by itself.", EVENT),
                      **refused(401, 429)}}},
    "/api/bot/game/stream/{match_id}": {"get": {
        "operationId": "streamGame", "summary": "a match the account plays, its STATEs as they change "
                                                "(lichess's bot/game/stream)",
        "security": ACCOUNT_READ, "parameters": [path_param("match_id", STRING)],
        "responses": {**stream("The match's STATE now, then each new one; it ends after the STATE with an "
                               "outcome.", GAME_LINE), **refused(401, 404, 429)}}},
}

SCHEMAS = {"StreamEvent": EVENT, "GameStreamLine": GAME_LINE}
