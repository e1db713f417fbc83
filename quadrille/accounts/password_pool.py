"""Password hashing beside the event loop, in a small bounded pool.

An Argon2 verification (argon2-cffi's defaults: 64 MiB, 4 lanes) costs 100-200 ms of CPU. On the event loop
it froze every client for that long, once per login, sign-up, token or password check. Here it runs in a few
real threads instead: argon2-cffi's call into C releases the GIL (cffi releases it around every C call; a
test measures the loop's Python running on beside a hash), so the loop serves everyone else meanwhile, and the
caller (a greenlet, or a thread) waits for its answer.

The pool is bounded twice: `workers` threads hash at once (each holds 64 MiB while it does), and at most
`queue` more callers wait for one; past that a call is refused at once with 429 `busy`, before any work, so
a flood of password checks costs the server a refusal each, never a growing queue. The worker threads run at
a lower CPU priority (`nice`, Linux; the hashing threads Argon2 starts inherit it), so that on a machine
with few cores the event loop's thread still gets a core when it needs one.

Which pool is the async mode's: gevent's own ThreadPool (its hub wakes the waiting greenlet), eventlet's
tpool (its worker threads, with a green semaphore for the bound), or under threading a plain
ThreadPoolExecutor. `for_async_mode` is the one place that knows; the rest of the code calls `run`.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from ..errors import ServiceError
from ..i18n import _l


def busy() -> ServiceError:
    return ServiceError(429, "busy", _l("The server is checking many passwords right now; try again in a moment."))


class PasswordPool:
    def __init__(self, submit: Callable[[Callable], object], workers: int, queue: int, nice: int = 0):
        """`submit(job)`: runs `job()` on one of the mode's threads and answers its result, the caller
        waiting as its async mode waits; `workers`: how many run at once; `queue`: how many more may wait."""
        self._submit = submit
        self.workers, self.queue = workers, queue
        self._admitted = 0                  # running or waiting now
        self._lock = threading.Lock()       # held for a count only: never across a wait
        self._worker_nice = worker_nice(nice)

    @property
    def admitted(self) -> int:
        return self._admitted

    def run(self, fn: Callable, *args):
        """`fn(*args)` on a worker thread; 429 `busy` at once when `workers + queue` calls are in already."""
        with self._lock:
            if self._admitted >= self.workers + self.queue:
                raise busy()
            self._admitted += 1
        try:
            return self._submit(lambda: self._in_worker(fn, args))
        finally:
            with self._lock:
                self._admitted -= 1

    def _in_worker(self, fn: Callable, args: tuple):
        if self._worker_nice is not None:
            lower_this_threads_priority(self._worker_nice)
        return fn(*args)


def worker_nice(steps: int) -> int | None:
    """The nice value of the worker threads: the process's, `steps` nicer (None: leave them as they are)."""
    if not steps or not hasattr(os, "getpriority"):
        return None
    return min(19, os.getpriority(os.PRIO_PROCESS, 0) + steps)


def lower_this_threads_priority(nice: int) -> None:
    """Give the calling thread this nice value if it is not that nice already (Linux keeps a nice value per
    thread, and the threads it starts, Argon2's lanes, inherit it); elsewhere, or when refused, nothing."""
    try:
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) < nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError:
        pass


def for_async_mode(mode: str, workers: int = 1, queue: int = 8, nice: int = 10) -> PasswordPool:
    """The pool of an async mode: `gevent`, `eventlet` or `threading` (Flask-SocketIO's names)."""
    workers = max(1, int(workers))
    if mode == "gevent":
        from gevent.threadpool import ThreadPool
        pool = ThreadPool(workers)
        return PasswordPool(lambda job: pool.apply(job), workers, queue, nice)
    if mode == "eventlet":
        from eventlet import tpool
        from eventlet.semaphore import Semaphore
        running = Semaphore(workers)  # tpool has 20 threads of its own: at most `workers` of them hash

        def submit(job):
            with running:
                return tpool.execute(job)
        return PasswordPool(submit, workers, queue, nice)
    executor = ThreadPoolExecutor(workers, thread_name_prefix="passwords")
    return PasswordPool(lambda job: executor.submit(job).result(), workers, queue, nice)
