#!/usr/bin/env python3
"""A Quadrille cluster on one machine: a PostgreSQL server and a Redis server of its own, N app processes and
nginx in front. `bash scripts/cluster.sh` installs what is missing and runs this; the tests
(tests/cluster/) and bench/cluster.py start the same pieces through the classes below.

    python scripts/cluster.py [--processes N] [--port P] [--data DIR] [--async-mode gevent|eventlet]

Everything lives under DIR (default ./cluster): the database cluster (DIR/postgres), Redis's working folder,
nginx's configuration and logs, each app process's log, and DIR/cluster.json (mode 0600: its URLs carry the
passwords):

    {"url": nginx's address, "processes": [{"pid", "url"}, ...], "database": URL, "queue": URL}

Nothing is open to the machine's other users: PostgreSQL and Redis ask for a password on TCP and on their
Unix sockets (made at the first start, mode 0600: DIR/postgres/secrets.json; Redis makes a new one at each
start), the app's database role is not a superuser, and each server's directory is its own (mode 0700).
Started by root, PostgreSQL runs as `postgres`, Redis as `redis` and nginx as `www-data`, each with its own
group and no other (scripts/services/users.py); the app processes run as the user who started the cluster
(README, "Running several processes", says why).

It prints `Quadrille cluster ready on http://127.0.0.1:P/ (N processes, postgresql, redis)` once every piece
answers, and stops everything it started, by PID, on SIGTERM or Ctrl-C. It never touches a system-wide
PostgreSQL, Redis or nginx.
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
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
if str(ROOT) not in sys.path:  # run as a script, scripts/ alone is on the path
    sys.path.insert(0, str(ROOT))

from scripts.services.users import (RunAs, is_root, new_secret, popen_as, private_directory,  # noqa: E402
                                   private_log, system_user, write_private)


# Where nginx's connections to the app processes come from: the one address whose X-Forwarded-For they trust.
NGINX_SOURCE_ADDRESS = "127.0.0.1"


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

    def _spawn(self, argv: list[str], run_as: RunAs | None = None, env: dict | None = None,
               cwd: Path | None = None) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        log = private_log(self.log_path)
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     env=env, cwd=cwd, start_new_session=True, **popen_as(run_as))
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
    socket in `directory`, both asking for a password (SCRAM-SHA-256). Two roles: `postgres`, the superuser,
    for administration (creating and dropping databases, here and in the tests), and `quadrille`, an ordinary
    role that owns the app's databases: the app can read and write its tables, and nothing of the machine
    (`COPY ... TO PROGRAM`, reading server files) is open to it. Their passwords are made at the first start
    and kept in `directory`/secrets.json (mode 0600). As root it runs as the `postgres` system user, which
    then owns `directory` (mode 0700: no other user reaches the socket).

    `durable=False` (tests) turns fsync off: the tests kill app processes, never the database server."""

    name = "postgres"
    stop_signal = signal.SIGINT  # PostgreSQL's fast shutdown
    ADMIN = "postgres"
    USER = "quadrille"
    HBA = ("# scripts/cluster.py: a password for every role, on the Unix socket and on 127.0.0.1\n"
           "local all all scram-sha-256\n"
           "host  all all 127.0.0.1/32 scram-sha-256\n")

    def __init__(self, directory: Path, port: int | None = None, durable: bool = True):
        super().__init__(directory, port)
        self.durable = durable
        self.data = self.directory / "data"
        self.secrets_path = self.directory / "secrets.json"
        self.run_as = system_user("postgres")
        self.passwords: dict[str, str] = {}

    def url(self, database: str = "quadrille") -> str:
        """The app role's URL (with its password) for `database`, over TCP."""
        return f"postgresql+psycopg://{self.USER}:{self.passwords[self.USER]}@127.0.0.1:{self.port}/{database}"

    def socket_url(self, database: str = "quadrille") -> str:
        """The same database through the Unix socket: for processes on this machine (see Cluster.start)."""
        if not fits_a_socket_path(self.directory / f".s.PGSQL.{self.port}"):
            return self.url(database)
        return (f"postgresql+psycopg://{self.USER}:{self.passwords[self.USER]}@/{database}"
                f"?host={self.directory}&port={self.port}")

    def admin(self, database: str = "postgres", **options):
        """A psycopg connection as the superuser (autocommit), for administration."""
        import psycopg
        return psycopg.connect(host="127.0.0.1", port=self.port, user=self.ADMIN, password=self.passwords[self.ADMIN],
                               dbname=database, autocommit=True, **options)

    def start(self) -> "Postgres":
        bindir = postgres_bindir()
        private_directory(self.directory, self.run_as)
        if not (self.data / "PG_VERSION").exists():
            # initdb's own authentication lines are replaced below, before the server first starts.
            subprocess.run([str(bindir / "initdb"), "-D", str(self.data), "-U", self.ADMIN, "--auth=trust",
                            "-E", "UTF8", "--locale=C", *([] if self.durable else ["--no-sync"])],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen_as(self.run_as))
        write_private(self.data / "pg_hba.conf", self.HBA, owner=self.run_as)
        self.log_path = self.directory / "postgres.log"
        if not self.secrets_path.exists():
            self._make_roles(bindir)
        self.passwords = json.loads(self.secrets_path.read_text())
        self._spawn(self._argv(bindir, {"listen_addresses": "127.0.0.1", "unix_socket_directories": str(self.directory)}),
                    self.run_as)
        self.wait_ready()
        self.create_database("quadrille")
        return self

    def _argv(self, bindir: Path, listening: dict) -> list[str]:
        settings = {
            **listening, "port": str(self.port), "unix_socket_permissions": "0700",
            "password_encryption": "scram-sha-256",
            "max_connections": "300", "shared_buffers": "128MB",
            # As SQLite's synchronous=NORMAL: a commit is durable when an app process dies (the server has
            # it); only a crash of the database server's machine could lose the last fraction of a second.
            "synchronous_commit": "off",
            **({} if self.durable else {"fsync": "off", "full_page_writes": "off"}),
        }
        argv = [str(bindir / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            argv += ["-c", f"{key}={value}"]
        return argv

    def _make_roles(self, bindir: Path) -> None:
        """Give the superuser and the app role their passwords (and make the app role an ordinary one: a
        cluster made by an older cluster.py had `quadrille` as its passwordless superuser). The server runs
        for this alone, without TCP, trusting only its Unix socket in a fresh directory of mode 0700."""
        passwords = {self.ADMIN: new_secret(), self.USER: new_secret()}
        with tempfile.TemporaryDirectory(prefix="qpg-") as sockets:
            hba = write_private(Path(sockets) / "pg_hba.conf", "local all all trust\n", owner=self.run_as)
            private_directory(Path(sockets), self.run_as)
            self._spawn(self._argv(bindir, {"listen_addresses": "", "unix_socket_directories": sockets,
                                            "hba_file": str(hba)}), self.run_as)
            try:
                superuser = self._first_superuser(sockets)
                with self._socket_connection(sockets, superuser) as conn:
                    set_roles(conn, passwords)
            finally:
                self.stop()
        write_private(self.secrets_path, json.dumps(passwords) + "\n")

    def _socket_connection(self, sockets: str, user: str):
        import psycopg
        return psycopg.connect(host=sockets, port=self.port, user=user, dbname="postgres", autocommit=True)

    def _superuser(self, sockets: str) -> str:
        """`postgres`, or `quadrille` in a cluster an older cluster.py made."""
        import psycopg
        for user in (self.ADMIN, self.USER):
            try:
                with self._socket_connection(sockets, user) as conn:
                    if conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]:
                        return user
            except psycopg.OperationalError:
                continue
        raise RuntimeError(f"no superuser to set the passwords with in {self.data}")

    def _first_superuser(self, sockets: str, timeout: float = 60.0) -> str:
        """The superuser, once the server started for `_make_roles` takes connections."""
        deadline = time.time() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n{self.log()}")
            try:
                return self._superuser(sockets)
            except RuntimeError:
                if time.time() > deadline:
                    raise
            time.sleep(0.05)

    def ready(self) -> bool:
        if not answers(self.port):
            return False
        try:
            with self.admin(connect_timeout=2):
                return True
        except Exception:
            return False

    def create_database(self, name: str) -> str:
        """A database owned by the app role (made if missing); answers its URL."""
        from psycopg import sql
        with self.admin() as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                conn.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(self.USER)))
        return self.url(name)

    def drop_database(self, name: str) -> None:
        from psycopg import sql
        with self.admin() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def set_roles(conn, passwords: dict[str, str]) -> None:
    """The superuser `postgres` and the ordinary app role `quadrille`, each with its password, sent already
    hashed (libpq's SCRAM-SHA-256 verifier): the plain text never reaches the server or its log."""
    from psycopg import sql
    admin, app = Postgres.ADMIN, Postgres.USER
    for role in (admin, app):
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            conn.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(role)))
    # The superuser first: connected as an older cluster's superuser (the app role), the app role's own
    # demotion must come last.
    for role, attributes in ((admin, "SUPERUSER LOGIN"),
                             (app, "NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS LOGIN")):
        verifier = conn.pgconn.encrypt_password(passwords[role].encode(), role.encode(), b"scram-sha-256").decode()
        conn.execute(sql.SQL("ALTER ROLE {} WITH " + attributes + " PASSWORD {}").format(
            sql.Identifier(role), sql.Literal(verifier)))


# -- Redis ------------------------------------------------------------------------------------------
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
    """nginx in front of the app processes. As root it runs, master and workers, as `www-data` (else
    `nobody`), which then owns `directory` (mode 0700); it listens on an unprivileged port anyway."""

    name = "nginx"
    stop_signal = signal.SIGTERM

    def __init__(self, directory: Path, upstreams: list[str], port: int | None = None,
                 template: Path = NGINX_TEMPLATE):
        super().__init__(directory, port)
        self.upstreams, self.template = upstreams, template
        self.conf = self.directory / "nginx.conf"
        self.run_as = system_user("www-data", "nobody")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def write_config(self) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.directory / "tmp" / name).mkdir(parents=True, exist_ok=True)
        self.conf.write_text(nginx_config(self.template.read_text(), self.port, self.upstreams, self.directory))
        private_directory(self.directory, self.run_as, recursive=True)
        return self.conf

    def argv(self, *extra: str) -> list[str]:
        return [nginx_binary(), "-p", str(self.directory), "-c", str(self.conf), "-e", str(self.directory / "error.log"),
                "-g", f"daemon off; pid {self.directory / 'nginx.pid'}; error_log {self.directory / 'error.log'} warn;",
                *extra]

    def test(self) -> subprocess.CompletedProcess:
        """`nginx -t` on the configuration written, as the user nginx will run as."""
        self.write_config()
        return subprocess.run(self.argv("-t"), capture_output=True, text=True, **popen_as(self.run_as))

    def start(self) -> "Nginx":
        checked = self.test()
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{checked.stderr}")
        self._spawn(self.argv(), self.run_as)
        self.wait_ready()
        return self

    def reload(self) -> None:
        self.proc.send_signal(signal.SIGHUP)


# -- the app ----------------------------------------------------------------------------------------
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
            # Behind nginx, one proxy hop: the players' addresses are read from its X-Forwarded-For, and only
            # from nginx's (it reaches the app processes from 127.0.0.1): a client that sends a request straight
            # to an app process's port is counted as its own address, whatever it forwards.
            self.port = self.port or free_port()
            settings = {"PROXY_HOPS": 1, "TRUSTED_PROXIES": [NGINX_SOURCE_ADDRESS], **self.settings}
            self.apps = [App(self.data / "apps", i + 1, self.apps_database_url or self.database_url,
                             self.apps_queue_url or self.queue_url, async_mode=self.async_mode,
                             settings=settings, public_url=f"http://127.0.0.1:{self.port}")
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
        url = self.database_url if "://" in self.database_url else f"sqlite:///{self.database_url}"
        # The URL (and its password) in the environment, not on the command line (see App.start).
        subprocess.run([sys.executable, "-c", "import os; from quadrille.infra.migrate import main; "
                                              "main(['--url', os.environ['QUADRILLE_MIGRATE_URL'], 'upgrade'])"],
                       env={**os.environ, "QUADRILLE_MIGRATE_URL": url}, cwd=ROOT, check=True, capture_output=True)

    @property
    def url(self) -> str:
        return self.nginx.url

    def description(self) -> dict:
        return {"url": self.url + "/", "processes": [{"pid": app.pid, "url": app.url} for app in self.apps],
                "database": self.database_url, "queue": self.queue_url}

    def write_description(self) -> None:
        """DIR/cluster.json, mode 0600: its URLs carry the passwords."""
        write_private(self.data / "cluster.json", json.dumps(self.description(), indent=2) + "\n")

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
    if is_root():
        print("(the app processes run as root, as this script does: start it as an ordinary user to run them "
              "unprivileged; README.md, \"Running several processes\")", file=sys.stderr, flush=True)
    try:
        while not stopping:
            time.sleep(0.2)
    finally:
        cluster.stop()
    print("Quadrille cluster stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
