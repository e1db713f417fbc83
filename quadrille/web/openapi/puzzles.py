"""The puzzles (web/puzzle_pages.py, quadrille/puzzles/service.py): the next puzzle, the daily one, a puzzle by
id, and an attempt. docs/api.md, *Puzzles*, says every rule."""
from __future__ import annotations

from .common import (ACCOUNT_READ, ACCOUNT_WRITE, BOOLEAN, GAME, INTEGER, NUMBER, STRING, array, body, obj, ok,
                     path_param, query_param, refused, ref)
from .learn import LESSON

PUZZLE_ID = path_param("puzzle_id", STRING, "a puzzle's id (`<game>-<hash>`)")
MOVE = {"type": "string", "minLength": 1, "maxLength": 200}
RATING = obj(("rating", "rd", "volatility", "provisional"), rating=NUMBER, rd=NUMBER, volatility=NUMBER,
             provisional=BOOLEAN, plays=INTEGER)
SENT_RATING = obj((), rating=NUMBER, rd=NUMBER, volatility=NUMBER)
PUZZLE_STATE = ref("PuzzleState")
PUZZLE = obj(("id", "game", "options", "moves", "turn", "rating", "themes", "state"),
             id=STRING, game=GAME, options={"type": "object"}, moves=array(STRING),
             turn={"type": "integer", "minimum": 1, "description": "the solver's seat"},
             rating={**RATING, "description": "the puzzle's Glicko-2 rating now"}, themes=array(STRING),
             state={**PUZZLE_STATE, "description": "the position to draw (a STATE with no match behind it)"},
             you={**RATING, "description": "the asker's puzzle rating (an account's, or the guest's as sent)"},
             date={"type": "string", "format": "date", "description": "the daily puzzle's UTC date"})
ATTEMPT = obj(("correct", "done"),
              correct=BOOLEAN, done={"type": "boolean", "description": "solved, or a wrong move: the result"},
              reply={**array(STRING), "description": "right so far: the opponent's reply, played"},
              states={**array(PUZZLE_STATE), "description": "right: after the move, then after each move of the "
                                                            "reply; wrong: along the solution from `at`"},
              at={"type": "integer", "description": "wrong: the solution's move the solver missed"},
              played={**PUZZLE_STATE, "description": "wrong: the position after the solver's move"},
              solution={**array(STRING), "description": "on a result: the whole solution"},
              rated={"type": "boolean", "description": "whether this result moved the ratings (a solver's first)"},
              rating={**RATING, "description": "on a result: the solver's rating after it"},
              change={"type": "number"}, puzzle_rating=RATING)
GUEST_QUERY = [query_param(name, NUMBER, f"a guest's {name}, kept by its browser") for name in ("rating", "rd", "volatility")]
READERS = [*ACCOUNT_READ, {}]

SCHEMAS = {"PuzzleState": {**LESSON, "description": "a STATE of the puzzle's position (`match` null, `mode` puzzle)"}}

PATHS = {
    "/api/puzzles/next": {"get": {
        "operationId": "nextPuzzle", "summary": "a puzzle near the asker's rating, not one it had lately",
        "security": READERS,
        "parameters": [query_param("game", GAME, "the game; none: any game's"), *GUEST_QUERY],
        "responses": {**ok(PUZZLE), **refused(400, 404, 429)}}},
    "/api/puzzles/daily": {"get": {
        "operationId": "dailyPuzzle", "summary": "the daily puzzle (the same for everyone on a UTC date)",
        "security": READERS, "responses": {**ok(PUZZLE), **refused(404, 429)}}},
    "/api/puzzles/{puzzle_id}": {"get": {
        "operationId": "puzzle", "summary": "a puzzle by its id", "security": READERS, "parameters": [PUZZLE_ID],
        "responses": {**ok(PUZZLE), **refused(404, 429)}}},
    "/api/puzzles/{puzzle_id}/attempt": {"post": {
        "operationId": "puzzleAttempt", "parameters": [PUZZLE_ID], "security": [*ACCOUNT_WRITE, {}],
        "summary": "the solver's moves so far, checked; the reply, or the result and the ratings",
        "requestBody": body(obj(("moves",), moves={**array(MOVE), "minItems": 1, "maxItems": 64},
                                rating={**SENT_RATING, "description": "a guest's rating, kept by its browser"})),
        "responses": {**ok(ATTEMPT), **refused(400, 403, 404, 413, 415, 429)}}},
}
