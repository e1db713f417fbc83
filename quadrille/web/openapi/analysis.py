"""The analysis door (web/analysis_api.py): a match's analysis asked for and read, one position evaluated."""
from __future__ import annotations

from .common import ANYONE, GAME, INTEGER, NUMBER, STRING, array, body, nullable, obj, ok, path_param, refused

MATCH_ID = path_param("match_id", description="the match id")
EVAL = {"type": "integer", "minimum": -1000, "maximum": 1000,
        "description": "from seat 1's side: +1000 seat 1 wins by force, -1000 it loses by force, 0 level"}
EVALS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": -1000, "maximum": 1000},
         "description": "each seat's evaluation from its own side (one line per player for Gamma)"}
CLASS = {"enum": ["best", "good", "inaccuracy", "mistake", "blunder"]}
PLY = obj(("ply", "eval", "best", "class"), ply={"type": "integer", "minimum": 1}, eval=EVAL,
          best=nullable(STRING), **{"class": CLASS}, move=STRING, seat=INTEGER, evals=EVALS, line=array(STRING))
COUNTS = obj(("inaccuracy", "mistake", "blunder"), inaccuracy=INTEGER, mistake=INTEGER, blunder=INTEGER)
STATUS = {"enum": ["queued", "running", "done", "failed"]}
PROGRESS = {**NUMBER, "minimum": 0, "maximum": 1}
ANALYSIS = obj(("status", "progress", "plies", "summary"), match=STRING, status=STATUS, progress=PROGRESS,
               version=INTEGER, ply_count=INTEGER, scale=INTEGER, start=EVAL, plies=array(PLY),
               summary={"type": "object", "additionalProperties": COUNTS,
                        "description": "per seat (its number as a string): its inaccuracies, mistakes, blunders"},
               reason=STRING)
WAITING = obj(("status", "progress"), match=STRING, status=STATUS, progress=PROGRESS)
POSITION = obj(("game",), game=GAME, options=nullable({"type": "object"}), moves=nullable(array(STRING)))
EVALUATION = obj(("eval", "best", "line"), eval=EVAL, evals=EVALS, best=nullable(STRING), line=array(STRING),
                 scale=INTEGER)

PATHS = {
    "/api/matches/{match_id}/analysis": {
        "post": {"operationId": "requestAnalysis", "security": ANYONE, "parameters": [MATCH_ID],
                 "summary": "ask the computer to analyse a match (never an online game under way)",
                 "responses": {**ok(ANALYSIS, "the analysis, already done"),
                               **ok(WAITING, "queued or running: poll GET", 202), **refused(404, 409, 429)}},
        "get": {"operationId": "readAnalysis", "security": ANYONE, "parameters": [MATCH_ID],
                "summary": "the match's stored analysis: status, progress, and once done each move classed",
                "responses": {**ok(ANALYSIS), **refused(404, 429)}}},
    "/api/analysis/position": {"post": {
        "operationId": "analysePosition", "security": ANYONE,
        "summary": "the computer's evaluation and best line of one position (the analysis board)",
        "requestBody": body(POSITION),
        "responses": {**ok(EVALUATION), **refused(400, 413, 415, 429)}}},
}
