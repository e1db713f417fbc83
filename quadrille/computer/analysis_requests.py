"""The analysis's requests to a worker process (worker.py hands them here), one small step each, so that the pool
can put a person's move between two steps:

    {"kind": "evaluate", "game", "options", "moves", "max_nodes"}
        -> {"score", "scores", "best", "line", "nodes"}     (ai.analysis.evaluate of the position after `moves`)
    {"kind": "assemble", "game", "options", "moves", "evaluations": [one per position, the start first]}
        -> {"analysis": {"start", "plies", "summary"}}       (the moves classed from those evaluations)

A position the engine refuses (unknown game, bad options, an illegal move) answers {"refused": code, "reason"},
the engine's own words, which the door passes on as a 400. Runs inside the worker process: no I/O here.
"""
from __future__ import annotations

from typing import Callable

import games
from ai import analysis

KINDS = ("evaluate", "assemble")


def answer(request: dict, stop: Callable[[], bool]) -> dict:
    try:
        board = games.from_dict({"game": request["game"], "options": request.get("options") or {},
                                 "moves": request.get("moves") or []})
    except KeyError:
        return {"refused": "unknown-game", "reason": f"There is no game called {request.get('game')!r}."}
    except games.IllegalMove as exc:
        return {"refused": "bad-move", "reason": str(exc)}
    except (TypeError, ValueError) as exc:
        return {"refused": "bad-options", "reason": str(exc)}
    if request["kind"] == "evaluate":
        return evaluate(board, request.get("max_nodes"))
    return {"analysis": assemble(request, board)}


def evaluate(board, max_nodes: int | None) -> dict:
    found = analysis.evaluate(board, max_nodes=max_nodes)
    return {"score": found.score, "scores": {str(seat): score for seat, score in found.scores.items()},
            "best": found.best, "line": list(found.line), "nodes": found.nodes}


def assemble(request: dict, board) -> dict:
    raise NotImplementedError  # written against ai/analysis.py once it lands
