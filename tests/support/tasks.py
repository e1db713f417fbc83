"""Background tasks for services the tests build by hand: a thread each, where a server uses its async mode's
start_background_task."""
from __future__ import annotations

import threading


def start_task(target, *args):
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread
