"""Background tasks for services the tests build by hand: a thread each, where a server uses its async mode's
start_background_task."""
from __future__ import annotations

import os
import signal
import subprocess
import threading


def start_task(target, *args):
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def stop_if_running(process, timeout: float = 60) -> None:
    """A script that stops what it started on SIGTERM (scripts/cluster.sh: PostgreSQL, Redis, nginx and the app
    processes, by PID) ends with the test however the test ended: asked first, so nothing it started outlives
    it; killed with its process group only if it does not stop in time."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


def kill_if_running(process, timeout: float = 5) -> None:
    """A subprocess the test started (a bot, a server by its script) ends with the test, however the test ended."""
    if process.poll() is None:
        process.kill()
        process.wait(timeout)
