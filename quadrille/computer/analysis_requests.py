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
        found = analysis.evaluate(board, max_nodes=request.get("max_nodes"), stop=stop)
        return {"score": found.score, "scores": {str(seat): score for seat, score in found.scores.items()},
                "best": found.best, "line": list(found.line), "nodes": found.nodes, "cancelled": stop()}
    return {"analysis": assemble(request["game"], request.get("options") or {}, board.moves,
                                 request["evaluations"])}


def assemble(game: str, options: dict, moves: list, evaluations: list) -> dict:
    """The analysis of the game from the evaluations of its positions (as ai.analysis.analyse makes it in one
    go: each move classed by ai.analysis.classify from how much it lowered its mover's score)."""
    board = games.get(game).new(**options)
    summary = {str(seat): {"inaccuracy": 0, "mistake": 0, "blunder": 0} for seat in range(1, board.players + 1)}
    plies = []
    for ply, (move, before, after) in enumerate(zip(moves, evaluations, evaluations[1:]), 1):
        mover = board.turn
        board.push(move)
        drop = before["scores"].get(str(mover), 0) - after["scores"].get(str(mover), 0)
        kind = analysis.classify(game, drop, move == before["best"])
        if kind in ("inaccuracy", "mistake", "blunder"):
            summary[str(mover)][kind] += 1
        plies.append({"ply": ply, "move": move, "seat": mover, "eval": after["score"], "evals": after["scores"],
                      "best": before["best"], "line": before["line"], "class": kind})
    return {"start": evaluations[0]["score"], "plies": plies, "summary": summary}
