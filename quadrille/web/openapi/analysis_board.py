"""The analysis board (web/analysis_board_pages.py): a line's STATE and its export. Nothing is stored."""
from __future__ import annotations

from .common import ANYONE, GAME, STRING, array, body, obj, ok, query_param, refused
from .learn import LESSON_STATE

MOVES = array({"type": "string", "minLength": 1, "maxLength": 200},
              description="the engine's move strings from the start, at most the game's move limit")
LINE = obj(("game",), game=GAME, options={"type": "object", "description": "the game's options (defaults if absent)"},
           moves=MOVES)

PATHS = {
    "/api/analysis/board/state": {"post": {
        "operationId": "analysisBoardState", "security": ANYONE,
        "summary": "the STATE after a line of moves (`match` null, `mode` analysis): every seat's moves playable; "
                   "400 bad-moves, illegal-move (which move, the engine's reason), too-many-moves, bad-options, "
                   "unknown-game",
        "requestBody": body(LINE),
        "responses": {**ok(LESSON_STATE), **refused(400, 415, 429)}}},
    "/api/analysis/board/export": {"get": {
        "operationId": "analysisBoardExport", "security": ANYONE,
        "summary": "a line as a file to download: the game's own save format, or the Quadrille JSON record",
        "parameters": [query_param("game", GAME, "the game"),
                       query_param("options", STRING, "the options as a JSON object"),
                       query_param("moves", STRING, "the move strings separated by spaces"),
                       query_param("format", STRING, "`json` (the default) or one of the game's `formats`")],
        "responses": {"200": {"description": "the file (Content-Disposition: attachment)",
                              "content": {"application/json": {"schema": {"type": "object"}},
                                          "text/plain": {"schema": STRING}}},
                      **refused(400, 404, 429)}}},
}
