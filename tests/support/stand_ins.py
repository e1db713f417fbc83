"""Asking the computer's worker pool for moves in tests that drive its scheduler with stand-in workers
(tests/platform/test_computer_fairness.py, test_analysis_queue.py): ordering, never timing."""
from __future__ import annotations

from tests.support.waiting import wait_until


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
