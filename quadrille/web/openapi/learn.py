"""The lessons and pictures (web/tutorial_pages.py, web/rules_pages.py), and the machine-readable documents
themselves (web/api_documents.py)."""
from __future__ import annotations

from .common import ANYONE, GAME, BOOLEAN, INTEGER, STRING, array, body, obj, ok, path_param, ref, refused
from .match_schemas import STATE

GAME_NAME = path_param("name", GAME, "a game's name")
STEP = path_param("index", {"type": "integer", "minimum": 0}, "the step, from 0")
LESSON = {**STATE, "description": "a STATE of the step's position (`match` null, `mode` lesson)",
          "required": ["match", "game", "title", "options", "mode", "version", "turn", "legal", "view", "moves",
                       "outcome", "started", "players", "seats"]}
LESSON_STATE = ref("LessonState")
STEP_ANSWER = obj(("game", "index", "count", "title", "text", "state"), game=STRING, index=INTEGER, count=INTEGER,
                  id=STRING, title=STRING, text=STRING, marks={}, you={}, state=LESSON_STATE)
TRY_ANSWER = {"oneOf": [
    obj(("verdict", "done", "last", "states", "state"), verdict={"const": "right"}, done=BOOLEAN, last=BOOLEAN,
        states=array(LESSON_STATE), state=LESSON_STATE),
    obj(("verdict", "reason"), verdict={"enum": ["other", "illegal"]}, reason=STRING, hint=STRING)]}

SCHEMAS = {"LessonState": LESSON}

PATHS = {
    "/api/learn/{name}/steps/{index}": {
        "get": {"operationId": "lessonStep", "summary": "a step of the game's lesson", "security": ANYONE,
                "parameters": [GAME_NAME, STEP], "responses": {**ok(STEP_ANSWER), **refused(404, 429)}},
        "post": {"operationId": "lessonTry", "summary": "a learner's try, checked; nothing is stored",
                 "security": ANYONE, "parameters": [GAME_NAME, STEP],
                 "requestBody": body(obj(("move",), move={"type": "string", "minLength": 1, "maxLength": 200})),
                 "responses": {**ok(TRY_ANSWER), **refused(400, 404, 413, 415, 429)}}},
    "/api/games/{name}/preview.svg": {"get": {
        "operationId": "previewPicture", "security": ANYONE, "parameters": [GAME_NAME],
        "summary": "the starting position with the query string's options (`?size=7&…`), as SVG",
        "responses": {"200": {"description": "the picture", "content": {"image/svg+xml": {"schema": STRING}}},
                      **refused(400, 404, 429)}}},
    "/api/openapi.json": {"get": {
        "operationId": "openapi", "summary": "this document", "security": ANYONE,
        "responses": ok({"type": "object", "required": ["openapi", "paths"]}, "the OpenAPI 3.1 document")}},
    "/api/asyncapi.json": {"get": {
        "operationId": "asyncapi", "summary": "the Socket.IO events: an AsyncAPI 3.0 document", "security": ANYONE,
        "responses": ok({"type": "object", "required": ["asyncapi", "operations"]}, "the AsyncAPI document")}},
}
