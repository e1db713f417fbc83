"""Work a process repeats while it serves: presence refreshed, leases renewed, timers polled, the clocks'
heartbeat. Each runs as one background task (gevent or eventlet, from the factory's `spawn`)."""
from __future__ import annotations

import logging
from typing import Callable

log = logging.getLogger("quadrille")


def repeat(work: Callable[[], None], every: float, *, sleep: Callable[[float], None],
           running: Callable[[], bool], failure: str) -> None:
    """Do `work` every `every` seconds while `running()`. A round that fails (Redis or the database away for
    a moment) is logged as `failure`, and the next round tries again."""
    while running():
        sleep(every)
        try:
            work()
        except Exception:
            log.warning(failure, exc_info=True)
