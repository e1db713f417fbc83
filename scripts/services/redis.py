"""A Redis server of the cluster's own: one ACL user with a password made at each start, its configuration."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from scripts.services.process import Service, answers, fits_a_socket_path
from scripts.services.users import new_secret, private_directory, system_user, write_private


class Redis(Service):
    """A Redis server of its own on 127.0.0.1:port and a Unix socket in `directory`, without persistence: it
    holds broadcasts in flight, presence, leases, timers and budgets, which live processes keep rewriting.

    One user, `quadrille`, with a password made anew at each start (nothing persists to need the old one):
    Redis's `default` user is off, so a client that does not log in can run no command, and `quadrille` may
    not run the administrative ones (CONFIG, SAVE, DEBUG, MODULE...: what turns a Redis into a way to write
    files). The configuration, with the password's hash, is `directory`/redis.conf (mode 0600). As root it
    runs as the `redis` system user (else `nobody`), which then owns `directory` (mode 0700)."""

    name = "redis"
    USER = "quadrille"

    def __init__(self, directory: Path, port: int | None = None):
        super().__init__(directory, port)
        self.run_as = system_user("redis", "nobody")
        self.password = new_secret()

    def url(self, db: int = 0) -> str:
        return f"redis://{self.USER}:{self.password}@127.0.0.1:{self.port}/{db}"

    @property
    def socket(self) -> Path:
        return self.directory / "redis.sock"

    def socket_url(self, db: int = 0) -> str:
        """The same server through its Unix socket: for processes on this machine (see Cluster.start)."""
        if not fits_a_socket_path(self.socket):
            return self.url(db)
        return f"unix://{self.USER}:{self.password}@{self.socket}?db={db}"

    def config(self) -> str:
        def quoted(path: Path) -> str:
            return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'
        unix = (f"unixsocket {quoted(self.socket)}\nunixsocketperm 700\n" if fits_a_socket_path(self.socket) else "")
        digest = hashlib.sha256(self.password.encode()).hexdigest()
        return (f"port {self.port}\nbind 127.0.0.1\nprotected-mode yes\ndir {quoted(self.directory)}\n{unix}"
                'save ""\nappendonly no\ndaemonize no\nmaxclients 4000\n'
                "user default off\n"
                f"user {self.USER} on #{digest} ~* &* +@all -@admin\n")

    def start(self) -> "Redis":
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        private_directory(self.directory, self.run_as)
        conf = write_private(self.directory / "redis.conf", self.config(), owner=self.run_as)
        self._spawn([server, str(conf)], self.run_as)
        self.wait_ready()
        return self

    def ready(self) -> bool:
        if not answers(self.port):
            return False
        import redis
        try:
            client = redis.Redis.from_url(self.url(), socket_timeout=2)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.RedisError:
            return False
