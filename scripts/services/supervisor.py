"""The cluster's supervisor: an app process that dies (a crash, the out-of-memory killer, a SIGKILL) is started
again, after a pause that doubles while it keeps dying (1 s, 2 s, 4 s, ... up to 30 s), so that a process that
cannot start does not spin; once it has served for a while (60 s) the pause is back to 1 s. Each death and
each restart is logged. scripts/cluster.py calls `check()` from its main loop, a few times a second, in the
one thread that also stops everything (no race with `Cluster.stop`).

Outside this one-machine cluster, systemd does the same (deploy/systemd/, Restart=on-failure)."""
from __future__ import annotations

import logging
import signal
import time
from dataclasses import dataclass
from typing import Callable

from scripts.services.app import App

log = logging.getLogger("quadrille.supervisor")


def ended(returncode: int) -> str:
    """`exited with status 1`, `was killed by SIGKILL`: how a process ended, in words."""
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


@dataclass
class Watch:
    """What the supervisor knows of one app process."""
    started: float
    pause: float
    due: float | None = None      # when it is to be started again (it is dead meanwhile)
    serving_since: float | None = None  # when it was seen ready (None: not yet, since its last start)


class Supervisor:
    def __init__(self, apps: list[App], restarted: Callable[[], None] = lambda: None, first: float = 1.0,
                 longest: float = 30.0, steady: float = 60.0, clock: Callable[[], float] = time.monotonic):
        """`restarted`: called after each restart (cluster.py rewrites cluster.json with the new PID)."""
        self.apps, self.restarted, self.clock = apps, restarted, clock
        self.first, self.longest, self.steady = first, longest, steady
        now = clock()
        self.watches = {id(app): Watch(started=now, pause=first, serving_since=now) for app in apps}
        self.restarts = 0

    def check(self) -> None:
        now = self.clock()
        for app in self.apps:
            watch = self.watches[id(app)]
            if watch.due is not None:
                if now >= watch.due:
                    self.start_again(app, watch, now)
            elif app.alive():
                self.note_alive(app, watch, now)
            else:
                self.schedule(app, watch, now)

    def note_alive(self, app: App, watch: Watch, now: float) -> None:
        if watch.serving_since is None:
            if app.ready():
                watch.serving_since = now
                log.warning("app process %d (pid %d) serves again", app.index, app.pid)
        elif now - watch.serving_since >= self.steady:
            watch.pause = self.first  # it served a while: the next death is treated as a first one

    def schedule(self, app: App, watch: Watch, now: float) -> None:
        watch.due = now + watch.pause
        log.warning("app process %d (pid %d) %s after %.0f s up; starting it again in %g s (its log: %s)",
                    app.index, app.pid, ended(app.proc.returncode), now - watch.started, watch.pause, app.log_path)
        watch.pause = min(watch.pause * 2, self.longest)

    def start_again(self, app: App, watch: Watch, now: float) -> None:
        watch.due, watch.started, watch.serving_since = None, now, None
        try:
            app.start(wait=False)
        except OSError as exc:  # e.g. no more processes: try again after the next pause
            log.error("app process %d could not be started again: %s", app.index, exc)
            self.schedule(app, watch, now)
            return
        self.restarts += 1
        log.warning("app process %d started again (pid %d)", app.index, app.pid)
        self.restarted()
