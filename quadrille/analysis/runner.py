"""The analyses, run step by step on the computer's worker processes (computer/pool.py's lowest lane).

An analysis of a match of n moves is n + 2 steps, each one request to a worker (computer/analysis_requests.py):
the n + 1 positions evaluated one at a time (the start, then after each move), then the moves classed from those
evaluations. Each step waits in the pool's queue behind every person's move and every demo, owners (addresses)
taking turns; a step under way is cut short for a person's move and asked again. So a person's move never waits
behind a whole analysis, at most behind the end of one step (a position's node budget), and usually not at all.

After each step the row says how far it is and keeps the evaluations so far: after a restart, `resume` picks up
every analysis queued or running from the step it had reached. With several server processes, one process
runs an analysis at a time (the lease `analysis:<match>`).
"""
from __future__ import annotations

import itertools
import logging
import threading
import time
from typing import Callable

from ..computer.worker_process import WorkerCrashed
from ..i18n.words import Words
from .store import WAITING, AnalysisRow, AnalysisStore

log = logging.getLogger("quadrille.analysis")

ATTEMPTS = 3       # a step is asked this many times when its worker dies
STEP_TIMEOUT = 120.0  # seconds a worker may take over one step before it counts as hung
LEASE_TTL = 30.0
PROGRESS_EVERY = 0.5  # seconds between two writes of an analysis's progress


class StepRefused(Exception):
    """The engine refused a step's position (an unknown game, bad options, an illegal move): `code`, `reason`."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code, self.reason = code, reason


class AnalysisRunner:
    def __init__(self, store: AnalysisStore, pool, spawn: Callable, nodes: int, nice: int = 0,
                 clock: Callable[[], float] = time.time):
        """`pool`: the ComputerPlayers whose workers run the steps; `nodes`: a position's node budget; `nice`:
        how much nicer than the worker a step runs (computer/analysis_requests.py)."""
        self.store, self.pool, self.spawn, self.nodes, self.clock = store, pool, spawn, nodes, clock
        self.nice = nice
        self._running: set[tuple[str, int]] = set()  # (match, version) analysed by this process now
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def start(self, match_id: str, version: int) -> None:
        """Run the stored analysis of that match and version in the background (once per process)."""
        with self._lock:
            if (match_id, version) in self._running:
                return
            self._running.add((match_id, version))
        self.spawn(self._run, match_id, version)

    def resume(self) -> int:
        """At start-up: every analysis a stop interrupted goes on where it was. How many."""
        rows = self.store.unfinished()
        for row in rows:
            self.start(row.match_id, row.version)
        return len(rows)

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    # -- one step on a worker ------------------------------------------------------------------------------
    def step(self, owner: str, request: dict, nice: int | None = None) -> dict:
        """Ask one step of a worker, in the pool's lowest lane; asked again when cut short for a person's move
        or when its worker died (at most ATTEMPTS deaths). StepRefused when the engine refuses the position.
        `nice`: how much nicer than the worker it runs (default: the runner's)."""
        request = {**request, "id": f"analysis:{next(self._ids)}", "nice": self.nice if nice is None else nice}
        failures, seq = 0, None
        while True:
            job = self.pool.enqueue_background(owner, seq)
            seq = job.seq
            job.ready.wait()
            try:
                answer = self.pool.search_with(job, request, STEP_TIMEOUT)
            except WorkerCrashed as exc:
                failures += 1
                log.warning("analysis step failed on its worker (attempt %d of %d): %s", failures, ATTEMPTS, exc)
                if failures >= ATTEMPTS:
                    raise
                continue
            if answer is None:
                continue  # cut short for a person's move: asked again
            if "refused" in answer:
                words = answer.get("words")  # the reason's template and values: said in the person's language
                raise StepRefused(answer["refused"], Words.from_dict(words) if words else answer["reason"])
            if "error" in answer:
                raise RuntimeError(answer["error"])
            return answer

    def evaluate(self, owner: str, game: str, options: dict, moves: list, nodes: int,
                 nice: int | None = None) -> dict:
        """The evaluation of one position on a worker (`nice` 0: at the worker's own priority, for a person
        who waits for it at the analysis board)."""
        return self.step(owner, {"kind": "evaluate", "game": game, "options": options, "moves": moves,
                                 "max_nodes": nodes}, nice)

    # -- a match's analysis ------------------------------------------------------------------------------------
    def _run(self, match_id: str, version: int) -> None:
        lease = f"analysis:{match_id}"
        try:
            if not self.pool.leases.acquire(lease, LEASE_TTL):
                return  # another process runs it
            row = self.store.get(match_id)
            if row is None or row.version != version or row.status not in WAITING:
                return
            self._analyse(row)
        except StepRefused as exc:
            self.store.fail(match_id, version, exc.reason, self.clock())
        except Exception as exc:
            log.exception("the analysis of match %s failed", match_id)
            self.store.fail(match_id, version, f"The computer could not analyse this game ({type(exc).__name__}).",
                            self.clock())
        finally:
            self.pool.leases.release(lease)
            with self._lock:
                self._running.discard((match_id, version))

    def _analyse(self, row: AnalysisRow) -> None:
        evaluations = list((row.result or {}).get("evaluations", [])) if row.status == "running" else []
        positions, subject = row.plies + 1, {"game": row.game, "options": row.options}
        written = None  # when the progress was last written: at most every PROGRESS_EVERY seconds (a write
        #                 on SQLite holds the event loop), so a restart may ask those few steps again
        for count in range(len(evaluations), positions):
            evaluations.append(self.evaluate(row.owner, row.game, row.options, row.moves[:count], self.nodes))
            if written is not None and self.clock() - written < PROGRESS_EVERY:
                continue
            written = self.clock()
            progress = len(evaluations) / (positions + 1)
            if not self.store.progress(row.match_id, row.version, progress, {"evaluations": evaluations}):
                return  # a newer request replaced this one
        answer = self.step(row.owner, {"kind": "assemble", **subject, "moves": row.moves,
                                       "evaluations": evaluations})
        self.store.finish(row.match_id, row.version, answer["analysis"], self.clock())
        log.info("match %s analysed: %d moves", row.match_id, row.plies)
