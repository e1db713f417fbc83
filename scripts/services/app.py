"""One app process, `python app.py`, on a given database and message queue: the cluster starts N of them and
tests/conftest.py's ServerProcess one."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from scripts.services import ROOT
from scripts.services.process import Service, answers


class App(Service):
    """`python app.py` on its own port, on the given database and message queue; `public_url`: the address
    players use (nginx's), from which the pages' and the API's links are made. `settings`: quadrille/settings.py
    names to values, passed as QUADRILLE_<NAME> (JSON).

    It runs as the user who starts it, root included: it runs this project's Python and packages wherever
    they were installed (on the test machine under /root, which no other user may enter), so no other user
    can be relied on to run them. README, "Running several processes", says how to run it unprivileged."""

    name = "app"

    def __init__(self, directory: Path, index: int, database: str, queue: str | None, port: int | None = None,
                 async_mode: str = "gevent", settings: dict | None = None, public_url: str | None = None):
        super().__init__(directory, port)
        self.index, self.database, self.queue, self.async_mode = index, database, queue, async_mode
        self.public_url = public_url
        self.settings = settings or {}
        self.log_path = self.directory / f"app{index}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0, wait: bool = True) -> "App":
        # The database's and the queue's URLs carry passwords: in the environment, which only this user and
        # root may read (/proc/<pid>/environ), never on the command line, which every user sees in `ps`.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "QUADRILLE_DB": self.database,
               **{f"QUADRILLE_{name}": json.dumps(value) for name, value in self.settings.items()}}
        env.pop("QUADRILLE_MESSAGE_QUEUE", None)
        if self.queue:
            env["QUADRILLE_MESSAGE_QUEUE"] = self.queue
        argv = [sys.executable, "app.py", "--port", str(self.port), "--async-mode", self.async_mode]
        if self.public_url:
            argv += ["--public-url", self.public_url]
        self.directory.mkdir(parents=True, exist_ok=True)
        self._offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._spawn(argv, env=env, cwd=ROOT)
        if wait:
            self.wait_ready(timeout)
        return self

    def ready(self) -> bool:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self._offset)
                said = b"Quadrille ready" in f.read()
        except OSError:
            return False
        return said and answers(self.port)

    def restart(self) -> "App":
        self.stop()
        return self.start()
