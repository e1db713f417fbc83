"""A stand-in worker and match service for tests that drive the computer's worker pool's scheduler
(tests/platform/test_computer_fairness.py, test_analysis_queue.py), and asking it for moves: ordering, never
timing."""
from __future__ import annotations

import threading
import time

from quadrille.computer import ComputerPlayers
from quadrille.computer.worker_process import WorkerCrashed
from tests.support.tasks import start_task
from tests.support.waiting import wait_until


class StandInWorker:
    """Logs each request's tag (a person's or a demo's match, an analysis step's `tag`) and answers when the test
    finishes it, or at once when cancelled (a move's answer is then "cut-short", never to be played);
    `crash_next` makes the next answer a dead worker, `answer_with` adds to an analysis step's answer."""

    def __init__(self):
        self.log: list[str] = []
        self.done = threading.Event()
        self.cancelled = False
        self.request = None
        self.crash_next = False
        self.answer_with: dict = {}
        self.finishing_all = False  # at the end of a test: every search ends at once

    def finish_all(self) -> None:
        self.answer_with, self.crash_next, self.finishing_all = {}, False, True
        self.done.set()

    def send(self, request: dict) -> None:
        self.request, self.cancelled = request, False
        if not self.finishing_all:
            self.done.clear()
        self.log.append(request.get("tag") or request["id"].split(":")[0])

    def receive(self, request_id: str, timeout: float) -> dict:
        assert self.done.wait(timeout)
        if self.crash_next:
            self.crash_next = False
            raise WorkerCrashed("the stand-in died")
        if "kind" in self.request:  # an analysis step
            return {"id": request_id, "score": 0, "scores": {"1": 0, "2": 0}, "best": None, "line": [], "nodes": 1,
                    "cancelled": self.cancelled, **self.answer_with}
        return {"id": request_id, "move": "cut-short" if self.cancelled else "best", "cancelled": self.cancelled}

    def cancel(self) -> None:
        self.cancelled = True
        self.done.set()

    def close(self) -> None:
        pass


class StandInService:
    """Just what ComputerPlayers asks of the match service; `played` records (match, move) in order."""

    def __init__(self):
        self.demos: set[str] = set()
        self.played: list[tuple[str, str]] = []

    def computer_request(self, match_id, version):
        return {"game": "trails", "options": {}, "moves": [], "seat": 1, "level": 1, "seed": version,
                "demo": match_id in self.demos}

    def play_computer(self, match_id, version, seat, move):
        self.played.append((match_id, move))


def stand_in_pool():
    """A one-worker pool over a StandInService and a StandInWorker (`pool.test_worker`, `pool.test_service`);
    `pool.test_worker.finish_all()` when the test is over."""
    service, worker = StandInService(), StandInWorker()
    pool = ComputerPlayers(service, start_task, time.sleep, size=1, demo_delay=0)
    pool._take_worker = lambda: worker
    pool.test_worker, pool.test_service = worker, service
    return pool


def ask_move(pool, match: str, owner: str, demo: bool = False) -> None:
    """A request for a move in `match` (a demo's if `demo`); returns once it is queued or holds the worker. The
    pool's service is a stand-in with a `demos` set, its worker a stand-in with a `log` and a `done` event."""
    if demo:
        pool.service.demos.add(match)
    pool.admit(match, owner)
    pool.notify(match, 0, True)
    wait_until(lambda: pool._thinking.get(match, {}).get("job") is not None, 5, f"{match} queued")


def end_search(pool, tag: str) -> None:
    """Let the search under way end normally; it must be `tag`'s (the stand-in worker's last request)."""
    worker = pool.test_worker
    wait_until(lambda: worker.log and worker.log[-1] == tag and not worker.done.is_set(), 5, f"{tag}'s search")
    worker.done.set()
