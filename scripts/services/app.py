"""One app process, `python app.py`, on a given database and message queue: the cluster starts N of them and
tests/support/servers.py's ServerProcess one."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from scripts.services import ROOT
from scripts.services.process import Service, answers, answers_on, request_over_unix


class App(Service):
    """`python app.py` on the given database and message queue; `public_url`: the address players use (nginx's),
    from which the pages' and the API's links are made. `settings`: quadrille/settings.py names to values, passed
    as QUADRILLE_<NAME> (JSON).

    It listens on a TCP port of its own on 127.0.0.1 (`url`), or, given `unix_socket`, on that Unix socket
    (`app.py --unix-socket`: in a cluster, nginx's only way in), and on a TCP port as well only when `port` is
    true (a port number, or True for a free one): `get()` reaches it either way.

    It runs as the user who starts it, root included: it runs this project's Python and packages wherever
    they were installed (on the test machine under /root, which no other user may enter), so no other user
    can be relied on to run them. README, "Running several processes", says how to run it unprivileged."""

    name = "app"

    def __init__(self, directory: Path, index: int, database: str, queue: str | None, port: int | bool | None = None,
                 async_mode: str = "gevent", settings: dict | None = None, public_url: str | None = None,
                 unix_socket: Path | None = None):
        tcp = unix_socket is None or bool(port)
        super().__init__(directory, port if tcp and port is not True else None)
        if not tcp:
            self.port = None
        self.index, self.database, self.queue, self.async_mode = index, database, queue, async_mode
        self.public_url, self.unix_socket = public_url, unix_socket
        self.settings = settings or {}
        self.log_path = self.directory / f"app{index}.log"

    @property
    def url(self) -> str:
        """Its own address on 127.0.0.1, for clients that must reach this process itself."""
        if self.port is None:
            raise RuntimeError(f"app process {self.index} has no TCP port: it listens on {self.unix_socket} only "
                               "(reach it with get(), or start it with a port)")
        return f"http://127.0.0.1:{self.port}"

    def get(self, target: str) -> tuple[int, dict]:
        """GET `target` (e.g. /api/health) from this process itself, through its Unix socket if it has one:
        the status and the JSON answer."""
        if self.unix_socket is not None:
            status, _, body = request_over_unix(self.unix_socket, "GET", target)
            return status, json.loads(body)
        import requests
        answer = requests.get(self.url + target, timeout=10)
        return answer.status_code, answer.json()

    def start(self, timeout: float = 60.0, wait: bool = True) -> "App":
        # The database's and the queue's URLs carry passwords: in the environment, which only this user and
        # root may read (/proc/<pid>/environ), never on the command line, which every user sees in `ps`.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "QUADRILLE_DB": self.database,
               **{f"QUADRILLE_{name}": json.dumps(value) for name, value in self.settings.items()}}
        for inherited in ("QUADRILLE_MESSAGE_QUEUE", "QUADRILLE_UNIX_SOCKET", "QUADRILLE_PORT"):
            env.pop(inherited, None)
        if self.queue:
            env["QUADRILLE_MESSAGE_QUEUE"] = self.queue
        argv = [sys.executable, "app.py", "--async-mode", self.async_mode]
        if self.unix_socket is not None:
            argv += ["--unix-socket", str(self.unix_socket)]
        if self.port is not None:
            argv += ["--port", str(self.port)]
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
        if not said:
            return False
        if self.unix_socket is not None and not answers_on(self.unix_socket):
            return False
        return self.port is None or answers(self.port)

    def restart(self) -> "App":
        self.stop()
        return self.start()
