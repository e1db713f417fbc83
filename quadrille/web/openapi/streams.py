"""The bots' NDJSON streams (quadrille/bots/): one JSON object a line, an empty line as a keep-alive, for as
long as the client reads. Both need an API token."""
from __future__ import annotations

from .common import STRING, obj, path_param, ref, refused

NDJSON = "application/x-ndjson"
EVENT = {"oneOf": [
    obj(("type", "challenge"), type={"enum": ["challenge", "challengeCanceled", "challengeDeclined"]},
        challenge=ref("Challenge")),
    obj(("type", "game"), type={"enum": ["gameStart", "gameFinish"]}, game=ref("MyGame"))],
    "description": "one line of the stream"}


def stream(description: str, line: dict) -> dict:
    return {"200": {"description": description + " One JSON object a line; an empty line now and then keeps the "
                                                  "connection alive.",
                    "content": {NDJSON: {"schema": line}}}}


PATHS = {
    "/api/stream/event": {"get": {
        "operationId": "streamEvents", "summary": "the account's events as they happen (lichess's stream/event)",
        "security": [{"bearer": []}],
        "responses": {**stream("Challenges made to the account or by it, answered; its games starting and ending.",
                               EVENT), **refused(401, 403, 429)}}},
    "/api/bot/game/stream/{match_id}": {"get": {
        "operationId": "streamGame", "summary": "a match's STATEs as they change (lichess's bot/game/stream)",
        "security": [{"bearer": []}], "parameters": [path_param("match_id", STRING)],
        "responses": {**stream("The match's STATE now, then each new one.", {"type": "object"}),
                      **refused(401, 403, 404, 429)}}},
}
