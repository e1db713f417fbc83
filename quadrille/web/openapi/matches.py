"""The match door (web/http_api.py): games, matches, moves, decisions, records, positions, the live list."""
from __future__ import annotations

from .common import (ANYONE, GAME, BOOLEAN, INTEGER, JSON, OPTIONAL_TOKEN, SEAT, SEAT_TOKEN, STRING, array, body,
                     nullable, obj, ok, path_param, query_param, ref, refused)
from .match_schemas import CREATED_REF, RECORD_IN, RECORD_REF, STATE_REF

MATCH_ID = path_param("match_id", description="the match id")
CLOCK_IN = nullable(obj(("kind",), kind={"enum": ["realtime", "correspondence"]}, minutes={"type": "number"},
                        increment=INTEGER, days=INTEGER))
OPTIONS_IN = {"type": ["object", "null"], "description": "option name → value (GET /api/games lists them); "
                                                    "null or absent: the defaults"}
PLAYER = {"type": ["string", "null"], "description": "a display name (docs/api.md, *Names*); null: the default"}
OFFER = {"enum": ["takeback", "draw", "rematch"]}
STATE_OR_NEW = {"anyOf": [STATE_REF, CREATED_REF]}

NEW_MATCH = obj(("game",), game=GAME, options=OPTIONS_IN, mode={"enum": ["online", "local", "ai"]},
                seats=array(SEAT), side={"enum": ["first", "second", "random"]},
                ai={"description": "read with mode ai only (any other mode leaves it unread): "
                                   "{\"seats\": [2], \"level\": 1}, or {\"seats\": {\"2\": 3}} for a level per seat"},
                player=PLAYER, visibility={"enum": ["private", "public", "open", None], "description": "null: private"},
                clock=CLOCK_IN)

# What a new match leads to (OpenAPI links: Schemathesis's stateful runs follow them). The creator's `token`
# goes in the Authorization header, which a link cannot set: a client keeps it from this answer.
NEXT = ("getMatch", "getRecord", "playMove", "claimSeat", "takeback", "resign", "abort", "offer", "rematch")
TO_GET_MATCH = {**{name: {"operationId": name, "parameters": {"match_id": "$response.body#/match"}} for name in NEXT},
                "getPosition": {"operationId": "getPosition",
                                "parameters": {"match_id": "$response.body#/match", "ply": "0"}}}


def created(description: str) -> dict:
    return {"201": {"description": description, "content": {JSON: {"schema": CREATED_REF}}, "links": TO_GET_MATCH}}


def decision(op_id: str, summary: str, request: dict | None = None, answer: dict = STATE_REF,
             statuses=(400, 401, 403, 404, 409, 413, 415, 429)) -> dict:
    """A match decision: POST /api/matches/{match_id}/<action> with a seat's token."""
    operation = {"operationId": op_id, "summary": summary, "security": SEAT_TOKEN, "parameters": [MATCH_ID],
                 "responses": {**ok(answer), **refused(*statuses)}}
    if request is not None:
        operation["requestBody"] = body(request, required=False)
    return {"post": operation}


PATHS = {
    "/api/health": {"get": {
        "operationId": "health", "summary": "this process, and whether its database and message queue answer",
        "security": ANYONE, "responses": {**ok(ref("Health")),
                                          "503": {"description": "the database or the queue does not answer",
                                                  "content": {JSON: {"schema": ref("Health")}}}}}},
    "/api/games": {"get": {"operationId": "listGames", "summary": "the games, their options, formats and levels",
                           "security": ANYONE, "responses": ok(array(ref("GameInfo")))}},
    "/api/games/{name}/check": {"post": {
        "operationId": "checkOptions", "summary": "validate new-game options without creating anything",
        "security": ANYONE, "parameters": [path_param("name", GAME, "a game's name")],
        "requestBody": body(obj(options=OPTIONS_IN)),
        "responses": {**ok(obj(("ok", "options", "warnings"), ok=BOOLEAN, options={"type": "object"},
                                warnings=array(STRING))), **refused(400, 404, 413, 415, 429)}}},
    "/api/matches": {"post": {
        "operationId": "createMatch", "summary": "a new match (online, local or against the computer)",
        "security": ANYONE, "requestBody": body(NEW_MATCH),
        "responses": {**created("the match; `token` holds the creator's seats"), **refused(400, 403, 413, 415, 429)}}},
    "/api/matches/by-name": {"post": {
        "operationId": "joinByName", "summary": "by-name play: create, join or watch the match of a name",
        "security": ANYONE,
        "requestBody": body(obj(("name", "game"), name=STRING, game=GAME, options=OPTIONS_IN, player=PLAYER,
                                clock=CLOCK_IN)),
        "responses": {**created("a seat was taken"),
                      **ok(CREATED_REF, "every seat is taken: watch (`seat` and `token` null)"),
                      **refused(400, 403, 409, 413, 415, 429)}}},
    "/api/matches/import": {"post": {
        "operationId": "importMatch", "summary": "a new match from a RECORD, or from a game's own save file",
        "security": ANYONE,
        "parameters": [query_param("mode", {"enum": ["local", "online"]}),
                       query_param("format", STRING, "a save file's extension (GET /api/games `formats`), "
                                                     "sent as the raw body; json (the default): a RECORD"),
                       query_param("player", STRING, "a display name")],
        "requestBody": {"required": True, "content": {JSON: {"schema": RECORD_IN},
                                                      "text/plain": {"schema": STRING}}},
        "responses": {**created("the imported match"), **refused(400, 403, 413, 415, 429)}}},
    "/api/matches/recent": {"get": {"operationId": "recentMatches", "summary": "the live listed games",
                                    "security": ANYONE, "responses": ok(ref("RecentMatches"))}},
    "/api/matches/{match_id}": {"get": {
        "operationId": "getMatch", "summary": "the STATE (a player's token counts its bot as present)",
        "security": OPTIONAL_TOKEN, "parameters": [MATCH_ID],
        "responses": {**ok(STATE_REF), **refused(401, 404, 429)}}},
    "/api/matches/{match_id}/seats": {"post": {
        "operationId": "claimSeat", "summary": "take a free seat with the match's invite secret",
        "security": ANYONE, "parameters": [MATCH_ID],
        "requestBody": body(obj(invite=STRING, seat=SEAT, player=PLAYER), required=False),
        "responses": {**ok(ref("Seated"), "the seat", 201), **refused(400, 403, 404, 409, 413, 415, 429)}}},
    "/api/matches/{match_id}/moves": decision(
        "playMove", "play a move for the seat to act",
        obj(("move",), move={"type": "string", "description": "in the game's notation (STATE `legal`)"},
            version={"type": "integer", "description": "the STATE version the move answers (409 otherwise)"})),
    "/api/matches/{match_id}/takeback": decision("takeback", "take back the last move (local, computer, own turn)"),
    "/api/matches/{match_id}/rewind": decision("rewind", "local games: back to the position after `to` moves",
                                               obj(("to",), to={"type": "integer", "minimum": 0})),
    "/api/matches/{match_id}/resign": decision("resign", "the token's seat resigns"),
    "/api/matches/{match_id}/abort": decision("abort", "end the online game with no result, before both moved"),
    "/api/matches/{match_id}/offer": decision("offer", "offer a take-back, a draw or a rematch",
                                              obj(("offer",), offer=OFFER), STATE_OR_NEW),
    "/api/matches/{match_id}/accept": decision("accept", "accept another player's offer",
                                               obj(("offer",), offer=OFFER), STATE_OR_NEW),
    "/api/matches/{match_id}/decline": decision("decline", "decline another player's pending offer",
                                                obj(offer=OFFER)),
    "/api/matches/{match_id}/timeout": decision("claimTimeout", "claim a win or a draw once the other player left",
                                                obj(result={"enum": ["win", "draw"]})),
    "/api/matches/{match_id}/start": decision("start", "start an online match waiting for players",
                                              obj(computer_level={"type": ["integer", "string", "null"]})),
    "/api/matches/{match_id}/pause": decision("pause", "pause or resume the computer",
                                              obj(("paused",), paused=BOOLEAN)),
    "/api/matches/{match_id}/computer": decision("handToComputer", "hand an absent player's seat to the computer",
                                                 obj(("seat",), seat=SEAT, level={"type": ["integer", "string"]}),
                                                 ref("State")),
    "/api/matches/{match_id}/reclaim": decision("reclaim", "take one's seat back from the computer"),
    "/api/matches/{match_id}/rematch": decision("rematch", "offer or accept a rematch once the game is over",
                                                answer=STATE_OR_NEW),
    "/api/matches/{match_id}/positions/{ply}": {"get": {
        "operationId": "getPosition", "summary": "the position after `ply` moves of the current line",
        "security": ANYONE, "parameters": [MATCH_ID, path_param("ply", {"type": "integer", "minimum": 0})],
        "responses": {**ok(ref("Position")), **refused(400, 404, 429)}}},
    "/api/matches/{match_id}/record": {"get": {
        "operationId": "getRecord", "summary": "the match's RECORD", "security": ANYONE,
        "parameters": [MATCH_ID, query_param("download", STRING, "any value: as a file (Content-Disposition)")],
        "responses": {**ok(RECORD_REF), **refused(404, 429)}}},
    "/api/matches/{match_id}/export/{extension}": {"get": {
        "operationId": "exportFile", "summary": "the match in its game's own save format, as a download",
        "security": ANYONE, "parameters": [MATCH_ID, path_param("extension", description="twr, ltc, ...")],
        "responses": {"200": {"description": "the save file", "content": {"text/plain": {"schema": STRING}}},
                      **refused(400, 404, 429)}}},
}
