"""The analysis's requests to a worker process (worker.py hands them here), one small step each, so that the pool
can put a person's move between two steps:

    {"kind": "evaluate", "game", "options", "moves", "max_nodes"}
        -> {"score", "scores", "best", "line", "nodes"}     (ai.analysis.evaluate of the position after `moves`)
    {"kind": "assemble", "game", "options", "moves", "evaluations": [one per position, the start first]}
        -> {"analysis": {"start", "plies", "summary"}}       (the moves classed from those evaluations)

A position the engine refuses (unknown game, bad options, an illegal move) answers {"refused": code, "reason",
"words"}, the engine's own words, in English and as their template and values (games/reasons.py), which the
door passes on as a 400 in the person's language. Runs inside the worker process.

A match's analysis runs its steps in a thread of the worker's own, `nice` steps (ANALYSIS_NICE, the request's
"nice") nicer than the worker (the analysis board's position, which a person waits for, does not): Linux keeps
a nice value per thread, so the operating system gives a core to the server and to people's searches (on the
worker's main thread, at its own priority) before an analysis. The main thread waits for the step, so one
search runs at a time in a worker, as before.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Callable

import games
from ai import analysis
from games.reasons import as_reason, reason_of

from ..i18n.words import _l

KINDS = ("evaluate", "assemble")


class NicerThread:
    """One thread that runs the steps handed to it, at a lower CPU priority than the worker's main thread."""

    def __init__(self):
        self._steps: queue.Queue = queue.Queue()
        self._answers: queue.Queue = queue.Queue()
        threading.Thread(target=self._serve, daemon=True, name="analysis").start()

    def run(self, nice: int, step: Callable, *args):
        self._steps.put((nice, step, args))
        ok, value = self._answers.get()
        if not ok:
            raise value
        return value

    def _serve(self) -> None:
        while True:
            nice, step, args = self._steps.get()
            lower_this_threads_priority(nice)
            try:
                self._answers.put((True, step(*args)))
            except Exception as exc:  # handed to the worker's main thread, which reports it
                self._answers.put((False, exc))


def lower_this_threads_priority(steps: int) -> None:
    """This thread `steps` nicer than the process (only ever lower: raising it back needs a privilege)."""
    if not steps or not hasattr(os, "getpriority"):
        return
    try:
        tid = threading.get_native_id()
        wanted = min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + steps)
        if os.getpriority(os.PRIO_PROCESS, tid) < wanted:
            os.setpriority(os.PRIO_PROCESS, tid, wanted)
    except OSError:
        pass


_LANE: NicerThread | None = None


def answer(request: dict, stop: Callable[[], bool]) -> dict:
    """Answer the step in the worker's nicer thread (on its main thread, at its own priority, with "nice" 0)."""
    global _LANE
    if not request.get("nice"):
        return step(request, stop)
    if _LANE is None:
        _LANE = NicerThread()
    return _LANE.run(int(request.get("nice") or 0), step, request, stop)


def step(request: dict, stop: Callable[[], bool]) -> dict:
    try:
        board = games.from_dict({"game": request["game"], "options": request.get("options") or {},
                                 "moves": request.get("moves") or []})
    except KeyError:
        return refused("unknown-game", _l("There is no game called %(name)s.", name=repr(request.get("game"))))
    except games.IllegalMove as exc:
        return refused("illegal-move", exc.reason)
    except (TypeError, ValueError) as exc:
        return refused("bad-options", reason_of(exc))
    if request["kind"] == "evaluate":
        found = analysis.evaluate(board, max_nodes=request.get("max_nodes"), stop=stop)
        return {"score": found.score, "scores": {str(seat): score for seat, score in found.scores.items()},
                "best": found.best, "line": list(found.line), "nodes": found.nodes, "cancelled": stop()}
    return {"analysis": assemble(request["game"], request.get("options") or {}, board.moves,
                                 request["evaluations"])}


def refused(code: str, reason: str) -> dict:
    """A refusal as the worker sends it (JSON): the English reason, and its template and values (`words`) for the
    door to say it in the person's language (analysis/runner.py rebuilds it)."""
    return {"refused": code, "reason": str(reason), "words": as_reason(reason).to_dict()}


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
