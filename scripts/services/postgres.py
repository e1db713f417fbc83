"""A PostgreSQL server of the cluster's own: its two roles and their passwords, made at the first start (which
also converts a data directory an older scripts/cluster.py made, passwordless, with the app's role as its
superuser), and the app's databases."""
from __future__ import annotations

import json
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from quadrille.admin.pg_tools import ToolError, tool
from scripts.services.process import Service, answers, fits_a_socket_path
from scripts.services.users import new_secret, popen_as, private_directory, system_user, write_private


def postgres_bindir() -> Path:
    """The newest installed server's programs, found as the backup command finds its client tools."""
    try:
        return Path(tool("initdb")).parent
    except ToolError:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)") from None


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
    HBA = ("# scripts/services/postgres.py: a password for every role, on the Unix socket and on 127.0.0.1\n"
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
