#!/usr/bin/env python3
"""A Quadrille cluster on one machine: a PostgreSQL server and a Redis server of its own, N app processes and
nginx in front. `bash scripts/cluster.sh` installs what is missing and runs this; the tests
(tests/cluster/) and bench/cluster.py start the same Cluster, or its servers alone (scripts/services/).

    python scripts/cluster.py [--processes N] [--port P] [--data DIR] [--async-mode gevent|eventlet]

Everything lives under DIR (default ./cluster): the database cluster (DIR/postgres), Redis's working folder,
nginx's configuration and logs, each app process's log (DIR/apps) and Unix socket (DIR/sockets), and
DIR/cluster.json (mode 0600: its URLs carry the passwords):

    {"url": nginx's address, "processes": [{"pid", "socket"}, ...], "database": URL, "queue": URL}

Nothing is open to the machine's other users: PostgreSQL and Redis ask for a password on TCP and on their
Unix sockets (made at the first start, mode 0600: DIR/postgres/secrets.json; Redis makes a new one at each
start), the app's database role is not a superuser, and each server's directory is its own (mode 0700). The
app processes listen on no TCP port: each on a Unix socket in DIR/sockets, which only the cluster's user and
nginx's may enter, and they believe X-Forwarded-For from that socket's peer alone, nginx (the one way to them).
Started by root, PostgreSQL runs as `postgres`, Redis as `redis` and nginx as `www-data`, each with its own
group and no other (scripts/services/users.py); the app processes run as the user who started the cluster
(README, "Running several processes", says why).

It prints `Quadrille cluster ready on http://127.0.0.1:P/ (N processes, postgresql, redis)` once every piece
answers, and stops everything it started, by PID, on SIGTERM or Ctrl-C. It never touches a system-wide
PostgreSQL, Redis or nginx. Meanwhile it supervises the app processes: one that dies is started again after a
pause that doubles while it keeps dying, from 1 s to 30 s (scripts/services/supervisor.py), each death and
restart logged on standard error, and cluster.json rewritten with the new PID.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script, scripts/ alone is on the path
    sys.path.insert(0, str(ROOT))

from scripts.services.app import App  # noqa: E402
from scripts.services.nginx import Nginx  # noqa: E402
from scripts.services.postgres import Postgres  # noqa: E402
from scripts.services.process import fits_a_socket_path  # noqa: E402
from scripts.services.redis import Redis  # noqa: E402
from scripts.services.supervisor import Supervisor  # noqa: E402
from scripts.services.users import is_root, shared_with, write_private  # noqa: E402


class Cluster:
    """PostgreSQL (or a SQLite file), Redis (or none), `processes` app processes and nginx, under `data`."""

    def __init__(self, data: Path, processes: int = 2, port: int | None = None, database: str = "postgresql",
                 queue: bool = True, async_mode: str = "gevent", settings: dict | None = None,
                 durable: bool = True, database_url: str | None = None, queue_url: str | None = None,
                 app_ports: bool = False):
        """`database_url`, `queue_url`: use these (a test's own database on a PostgreSQL server it shares)
        instead of starting a PostgreSQL or a Redis server of the cluster's own. `app_ports`: each app process
        listens on a loopback TCP port as well as its Unix socket, for tests that must reach one process
        directly with ordinary clients (App.url); a client there is counted as its own address like any
        client that is not nginx (TRUSTED_PROXIES is empty: only the Unix socket's peer is believed)."""
        self.data = Path(data).resolve()
        self.count, self.port, self.kind, self.with_queue = processes, port, database, queue
        self.app_ports = app_ports
        self.async_mode, self.settings, self.durable = async_mode, settings or {}, durable
        self.postgres = self.redis = None
        self._given = (database_url, queue_url)
        self._own = []      # what this cluster started, stopped in reverse order
        self.apps: list[App] = []
        self.nginx: Nginx | None = None
        self.database_url = self.queue_url = None
        self.apps_database_url = self.apps_queue_url = None  # the same services as the app processes reach them

    def start(self) -> "Cluster":
        self.data.mkdir(parents=True, exist_ok=True)
        try:
            given_database, given_queue = self._given
            if given_database:
                self.database_url = given_database
            elif self.kind == "postgresql":
                self.postgres = Postgres(self.data / "postgres", durable=self.durable).start()
                self._own.append(self.postgres)
                self.database_url = self.postgres.url()
                # The app processes are on this machine: through the Unix socket, a round trip skips the TCP
                # stack (about 5% less server CPU a move in bench/cluster.py's two-process cluster).
                self.apps_database_url = self.postgres.socket_url()
            else:
                self.database_url = str(self.data / "quadrille.db")
            if given_queue:
                self.queue_url = given_queue
            elif self.with_queue:
                self.redis = Redis(self.data / "redis").start()
                self._own.append(self.redis)
                self.queue_url = self.redis.url()
                self.apps_queue_url = self.redis.socket_url()
            self.migrate()
            # nginx's address is the site's: the links the app processes make (invites, a match's url) must
            # lead players through it, never to one process's own port. So nginx starts first, on the port it
            # will keep; until the app processes answer, it has nothing to pass on and nobody asks it.
            sockets = [self.sockets / f"app{i + 1}.sock" for i in range(self.count)]
            self.nginx = self.start_nginx([f"unix:{path}" for path in sockets])
            self.port = self.nginx.port
            # The app processes listen on Unix sockets that only this user and nginx's may reach, and nowhere
            # else: a TCP port on 127.0.0.1 would be open to every local user. Behind nginx, one proxy hop, and
            # the one peer believed is the socket's (TRUSTED_PROXIES empty: no TCP peer is a proxy).
            self.prepare_sockets(sockets)
            settings = {"PROXY_HOPS": 1, "TRUSTED_PROXIES": [], **self.settings}
            self.apps = [App(self.data / "apps", i + 1, self.apps_database_url or self.database_url,
                             self.apps_queue_url or self.queue_url, port=self.app_ports, async_mode=self.async_mode,
                             settings=settings, public_url=f"http://127.0.0.1:{self.port}", unix_socket=path)
                         for i, path in enumerate(sockets)]
            for app in self.apps:  # all at once: each imports its engines for a second or two
                app.start(wait=False)
            for app in self.apps:
                app.wait_ready(90)
            self.write_description()
        except BaseException:
            self.stop()
            raise
        return self

    def start_nginx(self, upstreams: list[str], attempts: int = 5) -> Nginx:
        """nginx on the port asked for, or else on a free one: a port found free may be taken by another
        program before nginx binds it, and another is then chosen."""
        for attempt in range(attempts):
            nginx = Nginx(self.data / "nginx", upstreams, self.port)
            try:
                return nginx.start()
            except RuntimeError as exc:
                nginx.stop()
                if self.port or attempt == attempts - 1 or "Address already in use" not in str(exc):
                    raise

    @property
    def sockets(self) -> Path:
        return self.data / "sockets"

    def prepare_sockets(self, paths: list[Path]) -> None:
        """DIR/sockets for this user and nginx's alone (scripts/services/users.py's shared_with)."""
        too_long = [path for path in paths if not fits_a_socket_path(path)]
        if too_long:
            raise RuntimeError(f"{too_long[0]} is too long for a Unix socket (107 bytes): choose a shorter --data")
        shared_with(self.sockets, self.nginx.run_as)

    def migrate(self) -> None:
        """Apply the migrations once, before the app processes start (each would wait for the others)."""
        url = self.database_url if "://" in self.database_url else f"sqlite:///{self.database_url}"
        # The URL (and its password) in the environment, not on the command line (see App.start).
        subprocess.run([sys.executable, "-c", "import os; from quadrille.infra.migrate import main; "
                                              "main(['--url', os.environ['QUADRILLE_MIGRATE_URL'], 'upgrade'])"],
                       env={**os.environ, "QUADRILLE_MIGRATE_URL": url}, cwd=ROOT, check=True, capture_output=True)

    @property
    def url(self) -> str:
        return self.nginx.url

    def description(self) -> dict:
        processes = [{"pid": app.pid, "socket": str(app.unix_socket),
                      **({"url": app.url} if app.port is not None else {})} for app in self.apps]
        return {"url": self.url + "/", "processes": processes, "database": self.database_url, "queue": self.queue_url}

    def write_description(self) -> None:
        """DIR/cluster.json, mode 0600: its URLs carry the passwords."""
        write_private(self.data / "cluster.json", json.dumps(self.description(), indent=2) + "\n")

    def ready_line(self) -> str:
        database = "sqlite" if "://" not in self.database_url else self.database_url.split(":")[0].split("+")[0]
        queue = ", redis" if self.queue_url else ""
        return f"Quadrille cluster ready on {self.url}/ ({len(self.apps)} processes, {database}{queue})"

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for app in self.apps:
            app.stop()
        for service in reversed(self._own):
            service.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A Quadrille cluster on this machine: PostgreSQL, Redis, "
                                                 "N app processes and nginx in front.")
    parser.add_argument("--processes", type=int, default=2, help="app processes (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port (default 8080; 0: a free one)")
    parser.add_argument("--data", default="cluster", help="where everything lives (default ./cluster)")
    parser.add_argument("--async-mode", choices=("gevent", "eventlet"), default="gevent")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stopping = []

    def stop(*_):
        stopping.append(True)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    cluster = Cluster(Path(args.data), args.processes, args.port or None, async_mode=args.async_mode)
    try:
        cluster.start()
    except Exception as exc:
        print(f"the cluster did not start: {exc}", file=sys.stderr, flush=True)
        return 1
    print(cluster.ready_line(), flush=True)
    if is_root():
        print("(the app processes run as root, as this script does: start it as an ordinary user to run them "
              "unprivileged; README.md, \"Running several processes\")", file=sys.stderr, flush=True)
    supervisor = Supervisor(cluster.apps, restarted=cluster.write_description)
    try:
        while not stopping:
            supervisor.check()
            time.sleep(0.2)
    finally:
        cluster.stop()
    print("Quadrille cluster stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
