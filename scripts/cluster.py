#!/usr/bin/env python3
"""A Quadrille cluster on one machine: a PostgreSQL server and a Redis server of its own, N app processes and
nginx in front. `bash scripts/cluster.sh` installs what is missing and runs this; the tests
(tests/cluster/) and bench/cluster.py start the same pieces through the classes below.

    python scripts/cluster.py [--processes N] [--port P] [--data DIR] [--async-mode gevent|eventlet]

Everything lives under DIR (default ./cluster): the database cluster (DIR/postgres, owned by the `postgres`
system user when run as root: PostgreSQL refuses to run as root), Redis's working folder, nginx's
configuration and logs, each app process's log, and DIR/cluster.json:

    {"url": nginx's address, "processes": [{"pid", "url"}, ...], "database": URL, "queue": URL}

It prints `Quadrille cluster ready on http://127.0.0.1:P/ (N processes, postgresql, redis)` once every piece
answers, and stops everything it started, by PID, on SIGTERM or Ctrl-C. It never touches a system-wide
PostgreSQL, Redis or nginx.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_TEMPLATE = ROOT / "deploy" / "nginx.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def fits_a_socket_path(path: Path) -> bool:
    """Whether a Unix socket can live at `path` (Linux allows 107 bytes)."""
    return len(str(path).encode()) <= 107


def is_root() -> bool:
    return os.geteuid() == 0


class Service:
    """A server process started here, stopped by its PID."""

    name = "service"
    stop_signal = signal.SIGTERM

    def __init__(self, directory: Path, port: int | None = None):
        self.directory = Path(directory)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log_path = self.directory / f"{self.name}.log"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def _spawn(self, argv: list[str], user: str | None = None, env: dict | None = None,
               cwd: Path | None = None) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        kwargs = {"user": user} if user and is_root() else {}
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     env=env, cwd=cwd, start_new_session=True, **kwargs)
        log.close()

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n{self.log()}")
            if self.ready():
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start in {timeout} s:\n{self.log()}")

    def ready(self) -> bool:
        return answers(self.port)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 20.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(self.stop_signal)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL, as in a crash."""
        if self.alive():
            self.proc.kill()
            self.proc.wait(10)


# -- PostgreSQL -------------------------------------------------------------------------------------
def postgres_bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")


class Postgres(Service):
    """A PostgreSQL server of its own: `initdb` in `directory`, listening on 127.0.0.1:port and on a Unix
    socket in `directory`, trust authentication for the local user `quadrille` (nothing else can reach it
    but this machine's users). As root it runs as the `postgres` system user, which then owns `directory`.

    `durable=False` (tests) turns fsync off: the tests kill app processes, never the database server."""

    name = "postgres"
    stop_signal = signal.SIGINT  # PostgreSQL's fast shutdown
    USER = "quadrille"

    def __init__(self, directory: Path, port: int | None = None, durable: bool = True):
        super().__init__(directory, port)
        self.durable = durable
        self.data = self.directory / "data"
        self.run_as = "postgres" if is_root() else None

    def url(self, database: str = "quadrille") -> str:
        return f"postgresql+psycopg://{self.USER}@127.0.0.1:{self.port}/{database}"

    def socket_url(self, database: str = "quadrille") -> str:
        """The same database through the Unix socket: for processes on this machine (see Cluster.start)."""
        if not fits_a_socket_path(self.directory / f".s.PGSQL.{self.port}"):
            return self.url(database)
        return f"postgresql+psycopg://{self.USER}@/{database}?host={self.directory}&port={self.port}"

    def start(self) -> "Postgres":
        bindir = postgres_bindir()
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.run_as:
            entry = pwd.getpwnam(self.run_as)
            os.chown(self.directory, entry.pw_uid, entry.pw_gid)
            self._check_reachable()
        os.chmod(self.directory, 0o700)
        if not (self.data / "PG_VERSION").exists():
            subprocess.run([str(bindir / "initdb"), "-D", str(self.data), "-U", self.USER, "--auth=trust",
                            "-E", "UTF8", "--locale=C", *([] if self.durable else ["--no-sync"])],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           **({"user": self.run_as} if self.run_as else {}))
        settings = {
            "listen_addresses": "127.0.0.1", "port": str(self.port), "unix_socket_directories": str(self.directory),
            "max_connections": "300", "shared_buffers": "128MB",
            # As SQLite's synchronous=NORMAL: a commit is durable when an app process dies (the server has
            # it); only a crash of the database server's machine could lose the last fraction of a second.
            "synchronous_commit": "off",
            **({} if self.durable else {"fsync": "off", "full_page_writes": "off"}),
        }
        argv = [str(bindir / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            argv += ["-c", f"{key}={value}"]
        self.log_path = self.directory / "postgres.log"
        self._spawn(argv, user=self.run_as)
        self.wait_ready()
        self.create_database("quadrille")
        return self

    def _check_reachable(self) -> None:
        probe = subprocess.run(["test", "-w", str(self.directory)], user=self.run_as)
        if probe.returncode != 0:
            raise RuntimeError(f"the postgres system user cannot reach {self.directory}: give the folders above "
                               f"it o+x, or choose another --data")

    def ready(self) -> bool:
        if not answers(self.port):
            return False
        try:
            import psycopg
            with psycopg.connect(host="127.0.0.1", port=self.port, user=self.USER, dbname="postgres",
                                 connect_timeout=2):
                return True
        except Exception:
            return False

    def create_database(self, name: str) -> str:
        import psycopg
        with psycopg.connect(host="127.0.0.1", port=self.port, user=self.USER, dbname="postgres",
                             autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


# -- Redis ------------------------------------------------------------------------------------------
class Redis(Service):
    """A Redis server of its own on 127.0.0.1:port, working in `directory`, without persistence: it holds
    broadcasts in flight, presence, leases, timers and budgets, which live processes keep rewriting."""

    name = "redis"

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    @property
    def socket(self) -> Path:
        return self.directory / "redis.sock"

    def socket_url(self, db: int = 0) -> str:
        """The same server through its Unix socket: for processes on this machine (see Cluster.start)."""
        return f"unix://{self.socket}?db={db}" if fits_a_socket_path(self.socket) else self.url(db)

    def start(self) -> "Redis":
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.directory.mkdir(parents=True, exist_ok=True)
        unix = ["--unixsocket", str(self.socket), "--unixsocketperm", "700"] if fits_a_socket_path(self.socket) else []
        self._spawn([server, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
                     *unix, "--save", "", "--appendonly", "no", "--daemonize", "no", "--maxclients", "4000"])
        self.wait_ready()
        return self


# -- nginx ------------------------------------------------------------------------------------------
def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not found:
        raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
    return found


def nginx_config(template: str, port: int, upstreams: list[str], directory: Path) -> str:
    """deploy/nginx.conf for this machine: its upstream servers, its listening port and its paths."""
    def servers(match: re.Match) -> str:
        return "".join(f"{match.group(1)}server {address} max_fails=1 fail_timeout=5s;\n" for address in upstreams)

    text = re.sub(r"^( +)server app\d+:5000[^\n]*\n(?:\1server app\d+:5000[^\n]*\n)*", servers, template, flags=re.M)
    text = re.sub(r"^(\s+)listen 80;", rf"\1listen 127.0.0.1:{port};", text, flags=re.M)
    temp = directory / "tmp"
    paths = "".join(f"    {name}_temp_path {temp / name};\n"
                    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = text.replace("http {\n", f"http {{\n{paths}", 1)
    return text


class Nginx(Service):
    name = "nginx"
    stop_signal = signal.SIGTERM

    def __init__(self, directory: Path, upstreams: list[str], port: int | None = None,
                 template: Path = NGINX_TEMPLATE):
        super().__init__(directory, port)
        self.upstreams, self.template = upstreams, template
        self.conf = self.directory / "nginx.conf"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def write_config(self) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.directory / "tmp" / name).mkdir(parents=True, exist_ok=True)
        self.conf.write_text(nginx_config(self.template.read_text(), self.port, self.upstreams, self.directory))
        return self.conf

    def argv(self, *extra: str) -> list[str]:
        return [nginx_binary(), "-p", str(self.directory), "-c", str(self.conf), "-e", str(self.directory / "error.log"),
                "-g", f"daemon off; pid {self.directory / 'nginx.pid'}; error_log {self.directory / 'error.log'} warn;",
                *extra]

    def test(self) -> subprocess.CompletedProcess:
        """`nginx -t` on the configuration written."""
        self.write_config()
        return subprocess.run(self.argv("-t"), capture_output=True, text=True)

    def start(self) -> "Nginx":
        checked = self.test()
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{checked.stderr}")
        self._spawn(self.argv())
        self.wait_ready()
        return self

    def reload(self) -> None:
        self.proc.send_signal(signal.SIGHUP)


# -- the app ----------------------------------------------------------------------------------------
class App(Service):
    """`python app.py` on its own port, on the given database and message queue; `public_url`: the address
    players use (nginx's), from which the pages' and the API's links are made. `settings`: quadrille/settings.py
    names to values, passed as QUADRILLE_<NAME> (JSON)."""

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
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               **{f"QUADRILLE_{name}": json.dumps(value) for name, value in self.settings.items()}}
        argv = [sys.executable, "app.py", "--port", str(self.port), "--db", self.database,
                "--async-mode", self.async_mode]
        if self.queue:
            argv += ["--message-queue", self.queue]
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


# -- the cluster ------------------------------------------------------------------------------------
class Cluster:
    """PostgreSQL (or a SQLite file), Redis (or none), `processes` app processes and nginx, under `data`."""

    def __init__(self, data: Path, processes: int = 2, port: int | None = None, database: str = "postgresql",
                 queue: bool = True, async_mode: str = "gevent", settings: dict | None = None,
                 durable: bool = True, database_url: str | None = None, queue_url: str | None = None):
        """`database_url`, `queue_url`: use these (a test's own database on a PostgreSQL server it shares)
        instead of starting a PostgreSQL or a Redis server of the cluster's own."""
        self.data = Path(data).resolve()
        self.count, self.port, self.kind, self.with_queue = processes, port, database, queue
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
            # lead players through it, never to one process's own port.
            # Behind nginx, one proxy hop: the players' addresses are read from its X-Forwarded-For.
            self.port = self.port or free_port()
            self.apps = [App(self.data / "apps", i + 1, self.apps_database_url or self.database_url,
                             self.apps_queue_url or self.queue_url, async_mode=self.async_mode,
                             settings={"PROXY_HOPS": 1, **self.settings}, public_url=f"http://127.0.0.1:{self.port}")
                         for i in range(self.count)]
            for app in self.apps:  # all at once: each imports its engines for a second or two
                app.start(wait=False)
            for app in self.apps:
                app.wait_ready(90)
            self.nginx = Nginx(self.data / "nginx", [f"127.0.0.1:{app.port}" for app in self.apps], self.port)
            self.nginx.start()
            self.port = self.nginx.port
            self.write_description()
        except BaseException:
            self.stop()
            raise
        return self

    def migrate(self) -> None:
        """Apply the migrations once, before the app processes start (each would wait for the others)."""
        subprocess.run([sys.executable, "-m", "quadrille.infra.migrate", "--url",
                        self.database_url if "://" in self.database_url else f"sqlite:///{self.database_url}",
                        "upgrade"], cwd=ROOT, check=True, capture_output=True)

    @property
    def url(self) -> str:
        return self.nginx.url

    def description(self) -> dict:
        return {"url": self.url + "/", "processes": [{"pid": app.pid, "url": app.url} for app in self.apps],
                "database": self.database_url, "queue": self.queue_url}

    def write_description(self) -> None:
        (self.data / "cluster.json").write_text(json.dumps(self.description(), indent=2) + "\n")

    def ready_line(self) -> str:
        database = "sqlite" if "://" not in self.database_url else self.database_url.split(":")[0].split("+")[0]
        queue = ", redis" if self.queue_url else ""
        return f"Quadrille cluster ready on {self.url}/ ({len(self.apps)} processes, {database}{queue})"

    def _services(self) -> list[Service]:
        return [s for s in (self.nginx, self.postgres, self.redis) if s is not None]

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for app in self.apps:
            app.stop()
        for service in reversed(self._own):
            service.stop()


def descendants(pid: int) -> list[int]:
    """The processes under `pid` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


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
    try:
        while not stopping:
            time.sleep(0.2)
    finally:
        cluster.stop()
    print("Quadrille cluster stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
