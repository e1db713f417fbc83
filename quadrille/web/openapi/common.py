"""The small words every piece of the OpenAPI document is written in: JSON Schemas for objects, lists and
nullable values, the site's error shape, the security schemes, and an operation's usual refusals.

Each piece (matches.py, players.py, ...) is a dict of paths written with these, beside the blueprint it
describes; __init__.py merges them into one OpenAPI 3.1 document (JSON Schema 2020-12 inside)."""
from __future__ import annotations

JSON = "application/json"


def obj(required: tuple | list = (), **properties) -> dict:
    """An object with these properties (more are allowed: the API adds names, never removes one)."""
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


def strict(required: tuple | list = (), **properties) -> dict:
    """A request body that takes these properties and no others."""
    return {**obj(required, **properties), "additionalProperties": False}


def array(items: dict, **more) -> dict:
    return {"type": "array", "items": items, **more}


def nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


GAME = {"type": "string", "x-quadrille-game-name": True}  # one of the installed games (__init__ fills them in)
STRING, INTEGER, NUMBER, BOOLEAN = {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}
SEAT = {"type": "integer", "minimum": 1}
SEATS = array(SEAT)
TIME = {"type": "number", "description": "seconds since the epoch"}

ERROR = obj(("error", "reason"), error={"type": "string", "description": "a machine word: docs/api.md, *Errors*"},
            reason={"type": "string", "description": "one sentence for a person"})

# Refusals every operation of its kind may meet, described once (components/responses).
REFUSALS = {
    "400": "Bad input: the body, a field or a parameter (`bad-request`, or a word of docs/api.md's *Errors*)",
    "401": "No credentials, or credentials that do not hold what the call needs (`unauthorized`, "
           "`login-required`, `bad-credentials`)",
    "403": "Refused to these credentials (`not-allowed`, `not-your-turn`, `csrf`, `cross-origin`, ...)",
    "404": "No such match, game, player, challenge, step or action (`not-found`, `unknown-player`)",
    "405": "The path exists, the method does not (`method-not-allowed`)",
    "409": "The match or the account is not in a state that allows it (`stale-version`, `game-over`, ...)",
    "413": "A body over 1 MiB (`payload-too-large`)",
    "415": "A body sent without `Content-Type: application/json` (`unsupported-media-type`)",
    "429": "Over a budget (`rate-limited`, with `Retry-After`; `busy` when the password workers are full)",
}


def refused(*statuses: int) -> dict:
    """The responses of these refusals, each the site's error shape."""
    return {str(status): {"$ref": f"#/components/responses/Refused{status}"} for status in statuses}


def ok(schema: dict, description: str = "Done", status: int = 200) -> dict:
    return {str(status): {"description": description, "content": {JSON: {"schema": schema}}}}


def body(schema: dict, required: bool = True) -> dict:
    return {"required": required, "content": {JSON: {"schema": schema}}}


def path_param(name: str, schema: dict | None = None, description: str = "") -> dict:
    return {"name": name, "in": "path", "required": True, "schema": schema or STRING, "description": description}


def query_param(name: str, schema: dict | None = None, description: str = "") -> dict:
    return {"name": name, "in": "query", "required": False, "schema": schema or STRING, "description": description}


# Who may call: a seat's token (a seat token, an account's `qsk_` seat key or its `qbt_` API token), or the
# session cookie, whose writes carry the session's CSRF token.
SEAT_TOKEN = [{"bearer": []}]
OPTIONAL_TOKEN = [{"bearer": []}, {}]
ACCOUNT_READ = [{"bearer": []}, {"session": []}]
ACCOUNT_WRITE = [{"bearer": []}, {"session": [], "csrf": []}]
ANYONE = [{}]

SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer",
               "description": "A seat token (from creating or joining a match), an account's seat key (`qsk_…`) "
                              "or an account's API token (`qbt_…`, POST /api/account/tokens): the API token "
                              "stands for the account's seat key in every match call, and for the account in "
                              "the players' calls. Never in a cookie, a URL or a log line."},
    "session": {"type": "apiKey", "in": "cookie", "name": "quadrille_session",
                "description": "The pages' signed session cookie, set by sign-up and login."},
    "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRFToken",
             "description": "The session's CSRF token (`csrf` of sign-up, login and GET /api/account): every "
                            "POST that carries the cookie and no Authorization header needs it (else 403 `csrf`)."},
}


def components(schemas: dict) -> dict:
    responses = {f"Refused{status}": {"description": words, "content": {JSON: {"schema": ref("Error")}}}
                 for status, words in REFUSALS.items()}
    responses["Refused429"]["headers"] = {"Retry-After": {"schema": STRING, "description": "seconds to wait"}}
    return {"schemas": {"Error": ERROR, **schemas}, "responses": responses, "securitySchemes": SECURITY_SCHEMES}
