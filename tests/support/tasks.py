"""Background tasks for services the tests build by hand: a thread each, where a server uses its async mode's
start_background_task."""
from __future__ import annotations

import threading


def start_task(target, *args):
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def kill_if_running(process, timeout: float = 5) -> None:
    """A subprocess the test started (a bot, a server by its script) ends with the test, however the test ended."""
    if process.poll() is None:
        process.kill()
        process.wait(timeout)
