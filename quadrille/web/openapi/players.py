"""The players' door (web/players_api.py, web/blocks_api.py): accounts, API tokens and blocks."""
from __future__ import annotations

from ...i18n.languages import LANGUAGES
from .common import (ACCOUNT_READ, ACCOUNT_WRITE, ANYONE, BOOLEAN, INTEGER, STRING, TIME, array, body, nullable,
                     obj, ok, path_param, ref, refused)

ACCOUNT = obj(("id", "name"), id=INTEGER, name=STRING)
LANGUAGE = {"type": "string", "enum": list(LANGUAGES), "description": "a shipped language (docs/translating.md)"}
TOKENS_IN = {"type": "object", "additionalProperties": STRING,
             "description": "this browser's seat tokens, match id → token: their seats go to the account"}
CLAIMED = array(obj(("match", "seats"), match=STRING, seats=array(INTEGER)))
SIGNED_IN = obj(("account", "seat_key", "csrf", "claimed"), account=ACCOUNT, seat_key=STRING, csrf=STRING,
                claimed=CLAIMED)
NAME_AND_PASSWORD = obj(("name", "password"), name=STRING, password=STRING, tokens=TOKENS_IN)
TOKEN_LIST = obj(("tokens",), tokens=array(obj(("id", "label", "created", "last_used"), id=STRING,
                                               label=nullable(STRING), created=TIME, last_used=nullable(TIME))))
BLOCKS = obj(("blocks",), blocks=array(obj(("name", "since"), name=STRING, since=TIME)))
OK = obj(("ok",), ok={"const": True})
WRITE_REFUSALS = (400, 401, 403, 413, 415, 429)


def account_write(op_id: str, summary: str, request: dict | None, answer: dict, *more: int) -> dict:
    operation = {"operationId": op_id, "summary": summary, "security": ACCOUNT_WRITE,
                 "responses": {**ok(answer), **refused(*sorted({*WRITE_REFUSALS, *more}))}}
    if request is not None:
        operation["requestBody"] = body(request)
    return {"post": operation}


PATHS = {
    "/api/account": {
        "post": {"operationId": "signUp", "summary": "sign up and log in (sets the session cookie)",
                 "security": ANYONE, "requestBody": body(NAME_AND_PASSWORD),
                 "responses": {**ok(ref("SignedIn"), "the new account, logged in", 201),
                               **refused(400, 403, 409, 413, 415, 429)}},
        "get": {"operationId": "whoAmI", "summary": "who is logged in (with an API token: the account alone)",
                "security": [*ACCOUNT_READ, {}],
                "responses": {**ok(obj(("account",), account=nullable(ACCOUNT), seat_key=STRING, csrf=STRING,
                                           language=nullable(LANGUAGE))),
                              **refused(401, 429)}}},
    "/api/account/language": account_write(
        "setLanguage", "the language of the account's pages and reasons (null: follow the browser)",
        obj(("language",), language=nullable(LANGUAGE)), obj(("language",), language=nullable(LANGUAGE))),
    "/api/account/login": {"post": {
        "operationId": "logIn", "summary": "log in (and take this browser's matches)", "security": ANYONE,
        "requestBody": body(NAME_AND_PASSWORD),
        "responses": {**ok(ref("SignedIn")), **refused(400, 401, 403, 413, 415, 429)}}},
    "/api/account/logout": {"post": {**account_write("logOut", "end the session, on the server", None, OK)["post"],
                                     "security": [*ACCOUNT_WRITE, {}]}},  # without a session: nothing to end
    "/api/account/password": account_write(
        "changePassword", "change the password; every other session ends",
        obj(("password", "new_password"), password=STRING, new_password=STRING, sign_out_everywhere=BOOLEAN),
        obj(("ok",), ok=BOOLEAN, csrf=STRING, seat_key=STRING)),
    "/api/account/delete": account_write("deleteAccount", "delete the account", obj(("password",), password=STRING),
                                         OK),
    "/api/account/claim": account_write("claimMatches", "hand the seats of these tokens to the account",
                                        obj(("tokens",), tokens=TOKENS_IN), obj(("claimed",), claimed=CLAIMED)),
    "/api/account/tokens": {
        "post": {"operationId": "createToken", "summary": "a new API token (`qbt_…`), shown once",
                 "security": ANYONE,
                 "requestBody": body(obj(("name", "password"), name=STRING, password=STRING,
                                         label=nullable(STRING))),
                 "responses": {**ok(obj(("token", "account"), token={"type": "string", "pattern": "^qbt_"},
                                        account=ACCOUNT), "the token", 201),
                               **refused(400, 401, 403, 409, 413, 415, 429)}},
        "get": {"operationId": "listTokens", "summary": "the account's API tokens (never the tokens themselves)",
                "security": ACCOUNT_READ, "responses": {**ok(TOKEN_LIST), **refused(401, 429)}}},
    "/api/account/tokens/{token_id}/revoke": {"post": {
        **account_write("revokeToken", "revoke one of the account's tokens", None,
                        obj(("ok", "tokens"), ok=BOOLEAN, tokens=TOKEN_LIST["properties"]["tokens"]), 404)["post"],
        "parameters": [path_param("token_id")]}},
    "/api/account/blocks": {
        "get": {"operationId": "listBlocks", "summary": "the players this account blocks, the latest first",
                "security": ACCOUNT_READ, "responses": {**ok(BLOCKS), **refused(401, 429)}},
        **account_write("block", "block a player", obj(("name",), name=STRING), BLOCKS, 404, 409)},
    "/api/account/blocks/remove": account_write("unblock", "unblock a player", obj(("name",), name=STRING), BLOCKS,
                                                404),
}

SCHEMAS = {"Account": ACCOUNT, "SignedIn": SIGNED_IN}
