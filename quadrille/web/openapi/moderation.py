"""The moderation door (web/moderation_api.py): players' reports, and the moderators' API, which answers 404
to anyone who is not a moderator, as if it were not there (docs/moderation.md)."""
from __future__ import annotations

from .common import (ACCOUNT_READ, ACCOUNT_WRITE, BOOLEAN, INTEGER, STRING, TIME, array, body, nullable, obj, ok,
                     path_param, query_param, refused)

NOTE = obj(note={"type": ["string", "null"], "maxLength": 200, "description": "why, for the moderation log"})
DONE = obj(("ok",), ok={"const": True}, action=STRING, log={})
READ_REFUSALS = (401, 404, 429)
WRITE_REFUSALS = (400, 401, 403, 404, 409, 413, 415, 429)


def moderators_read(op_id: str, summary: str, answer: dict, parameters=()) -> dict:
    return {"get": {"operationId": op_id, "summary": summary + " (moderators only)", "security": ACCOUNT_READ,
                    "parameters": list(parameters), "responses": {**ok(answer), **refused(*READ_REFUSALS)}}}


def moderators_act(op_id: str, summary: str, request: dict | None, parameters=(), required=False) -> dict:
    operation = {"operationId": op_id, "summary": summary + " (moderators only)", "security": ACCOUNT_WRITE,
                 "parameters": list(parameters), "responses": {**ok(DONE), **refused(*WRITE_REFUSALS)}}
    if request is not None:
        operation["requestBody"] = body(request, required=required)
    return {"post": operation}


MATCH_ID, NAME = path_param("match_id"), path_param("name", description="an account's name")

PATHS = {
    "/api/reports": {"post": {
        "operationId": "report", "summary": "report a player, a match, or a player in a match",
        "security": ACCOUNT_WRITE,
        "requestBody": body(obj(("reason",), account=STRING, match=STRING, reason=STRING,
                                text={"type": ["string", "null"], "maxLength": 500})),
        "responses": {**ok(obj(("ok", "report"), ok={"const": True}, report=INTEGER), "the report", 201),
                      **refused(400, 401, 403, 404, 413, 415, 429)}}},
    "/api/reports/reasons": {"get": {
        "operationId": "reportReasons", "summary": "the reasons a report may give, with their words",
        "security": [{}], "responses": {**ok(obj(("reasons",), reasons={"type": "object",
                                                                         "additionalProperties": STRING})),
                                         **refused(429)}}},
    "/api/moderation/matches": moderators_read(
        "moderationMatches", "the online matches under way or waiting",
        obj(("matches",), matches=array(obj(("id", "game"), id=STRING, game=STRING, name=nullable(STRING),
                                            created=TIME, updated=TIME, version=INTEGER, started=BOOLEAN,
                                            players=array(nullable(STRING))))),
        [query_param("limit", {"type": "integer", "minimum": 1}, "at most this many (500 at most)")]),
    "/api/moderation/reports": moderators_read("moderationReports", "reported players, and the open reports",
                                               obj(("players", "reports"), players=array({"type": "object"}),
                                                   reports=array({"type": "object"}))),
    "/api/moderation/accounts": moderators_read("moderationAccounts", "the accounts banned, muted or moderators",
                                                obj(("accounts",), accounts=array({"type": "object"}))),
    "/api/moderation/log": moderators_read("moderationLog", "the last 100 actions, newest first",
                                           obj(("log",), log=array({"type": "object"}))),
    "/api/moderation/matches/{match_id}/close": moderators_act("closeMatch", "end a match as aborted by the site",
                                                               NOTE, [MATCH_ID]),
    "/api/moderation/matches/{match_id}/delete": moderators_act("deleteMatch", "delete a match", NOTE, [MATCH_ID]),
    **{f"/api/moderation/accounts/{{name}}/{action}": moderators_act(f"{action}Account", f"{action} an account",
                                                                    NOTE, [NAME])
       for action in ("ban", "unban", "mute", "unmute")},
    "/api/moderation/accounts/{name}/reset-rating": moderators_act(
        "resetRating", "the account's rating of a game starts again", obj(("game",), game=STRING), [NAME], True),
    "/api/moderation/names/free": moderators_act("freeName", "a by-name match's name is free again",
                                                 obj(("name",), name=STRING), required=True),
    "/api/moderation/reports/{report_id}/dismiss": moderators_act(
        "dismissReport", "close a report", None, [path_param("report_id", {"type": "integer", "minimum": 0})]),
}
