"""A cluster of scripts/cluster.py, attacked from this machine by another local user (`nobody`, through
setpriv: the tests run as root), as the second security review did (issue 22, finding 5): its PostgreSQL and
Redis refuse that user on TCP and on their Unix sockets, the app's database role is no superuser, no server
of the cluster runs as root or in root's group, its secrets are private, the app processes cannot be reached but
through nginx (no TCP port; their Unix sockets closed to that user), a forged X-Forwarded-For counts for
nothing past nginx's own hop, and nginx does not say its version.

One cluster for the module's attacks, with a PostgreSQL and a Redis server of its own, as `scripts/cluster.sh`
starts them; and a database cluster made by an older cluster.py (trust, the app's role a superuser) is
converted when it starts again."""
from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import socket
import stat
import subprocess
from pathlib import Path

import psycopg
import pytest
import redis
import requests
from sqlalchemy.engine import make_url

import quadrille
from scripts.cluster import Cluster
from scripts.services.postgres import Postgres, postgres_bindir
from scripts.services.process import descendants
from scripts.services.users import popen_as, private_directory
from tests.cluster.conftest import SETTINGS
from tests.support.servers import service_directory
from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster

ANOTHER_USER = "nobody"


@pytest.fixture(scope="module")
def cluster():
    where = service_directory("quadrille-attacked-")
    made = Cluster(where / "cluster", 2, settings={**SETTINGS, "HTTP_RATE": "100 per minute"}, durable=False)
    try:
        yield made.start()
    finally:
        made.stop()
        shutil.rmtree(where, ignore_errors=True)


def as_another_user(*argv: str) -> subprocess.CompletedProcess:
    """`argv` run by an unprivileged local user of this machine, in none of root's groups, with a clean
    environment (no password handed down)."""
    return subprocess.run(["setpriv", f"--reuid={ANOTHER_USER}", "--regid=nogroup", "--clear-groups", "--reset-env",
                           *argv], capture_output=True, text=True, timeout=30)


def said(answer: subprocess.CompletedProcess) -> str:
    return answer.stdout + answer.stderr


def psql(connection: str) -> list[str]:
    return ["psql", "-w", "-X", "-At", connection, "-c", "SELECT current_user, rolsuper FROM pg_roles "
                                                          "WHERE rolname = current_user"]


def postgres_tries(postgres) -> list[tuple[str, subprocess.CompletedProcess]]:
    """The attack of finding 5 on PostgreSQL (bench/attacks.py replays it): another local user asks for the
    superuser and the app's role over TCP, with no password and guessed ones, and through the Unix socket.
    Each try ("tcp" or "socket") with what psql answered."""
    tries = []
    for user in ("postgres", "quadrille"):
        for guess in ("", "password=", f"password={user}", "password=quadrille"):
            tries.append(("tcp", as_another_user(*psql(f"host=127.0.0.1 port={postgres.port} user={user} "
                                                       f"dbname=postgres {guess}"))))
        tries.append(("socket", as_another_user(*psql(f"host={postgres.directory} port={postgres.port} user={user} "
                                                       f"dbname=postgres"))))
    return tries


def test_another_local_user_cannot_reach_the_clusters_postgresql(cluster):
    for way, answer in postgres_tries(cluster.postgres):
        assert answer.returncode != 0 and "|" not in answer.stdout, said(answer)
        if way == "tcp":
            assert re.search(r"password authentication failed|no password supplied", said(answer)), said(answer)
        else:
            assert "Permission denied" in said(answer), said(answer)
    # What the user running the cluster does with the password (so the refusals above are not a broken psql).
    postgres, app_role = cluster.postgres, make_url(cluster.database_url)
    assert subprocess.run(psql(f"host=127.0.0.1 port={postgres.port} user={app_role.username} dbname=quadrille "
                               f"password={app_role.password}"), capture_output=True, text=True
                          ).stdout.strip() == "quadrille|f"


def test_the_apps_database_role_is_no_superuser_and_cannot_reach_the_machine(cluster):
    url = make_url(cluster.database_url)
    with psycopg.connect(host=url.host, port=url.port, user=url.username, password=url.password,
                         dbname=url.database, autocommit=True) as conn:
        assert conn.execute("SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user"
                            ).fetchone() == (False, False, False)
        for attack in ("COPY (SELECT 1) TO PROGRAM 'id'", "SELECT pg_read_file('/etc/passwd')",
                       "CREATE ROLE intruder SUPERUSER LOGIN"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(attack)
        # ... and what the app needs it still may: its own tables, in the database it owns.
        assert conn.execute("SELECT count(*) FROM accounts").fetchone()[0] >= 0
        assert conn.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()"
                            ).fetchone()[0] == url.username


def redis_tries(redis_server) -> list[tuple[list[str], subprocess.CompletedProcess]]:
    """The attack of finding 5 on Redis: another local user pings, publishes a forged challenge and edits a
    budget over TCP (with no password and guessed ones), and pings through the Unix socket."""
    port, sock = redis_server.port, redis_server.socket
    forged = '{"challenge": "forged"}'
    tries = [["redis-cli", "-p", str(port), "PING"],
             ["redis-cli", "-p", str(port), "PUBLISH", "quadrille:socketio", forged],   # the forged challenge
             ["redis-cli", "-p", str(port), "SET", "quadrille:budget", "0"],
             ["redis-cli", "-p", str(port), "--user", "default", "--pass", "", "PING"],
             ["redis-cli", "-p", str(port), "--user", "quadrille", "--pass", "quadrille", "PING"],
             ["redis-cli", "-s", str(sock), "PING"]]
    return [(argv, as_another_user(*argv)) for argv in tries]


def test_another_local_user_cannot_reach_the_clusters_redis(cluster):
    for argv, refused in redis_tries(cluster.redis):
        assert "PONG" not in refused.stdout, (argv, said(refused))
        if "-s" in argv:
            assert "Permission denied" in said(refused), (argv, said(refused))
        else:
            assert re.search(r"NOAUTH|WRONGPASS", said(refused)), (argv, said(refused))
    # With the password, the app's user may do what the app does, and nothing that writes files or reconfigures.
    client = redis.Redis.from_url(cluster.queue_url)
    try:
        assert client.ping() and client.publish("quadrille:test", "x") >= 0
        for admin in (("CONFIG", "SET", "dir", "/tmp"), ("SAVE",), ("MODULE", "LIST"), ("ACL", "SETUSER", "x", "on"),
                      ("SHUTDOWN",)):
            with pytest.raises(redis.exceptions.NoPermissionError):
                client.execute_command(*admin)
    finally:
        client.close()


def identity(pid: int) -> dict[str, list[int]]:
    """The Uid, Gid (real, effective, saved, filesystem) and Groups lines of /proc/<pid>/status."""
    lines = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {key: [int(n) for n in lines[key].split()] for key in ("Uid", "Gid", "Groups")}


def test_no_server_of_the_cluster_runs_as_root_or_in_roots_group(cluster):
    """PostgreSQL (every backend), Redis and nginx (master and workers), each as its own system user, in its
    own group and no other. The app processes run as the user who started the cluster (the README says why:
    they need this machine's Python, which only root may reach here)."""
    expected = {"postgres": "postgres", "redis": "redis", "nginx": "www-data"}
    for service, user in expected.items():
        entry = pwd.getpwnam(user)
        root = getattr(cluster, service).pid
        tree = [root, *descendants(root)]
        assert len(tree) >= (3 if service != "redis" else 1), (service, tree)  # PostgreSQL's and nginx's children too
        for pid in tree:
            found = identity(pid)
            assert found["Uid"] == [entry.pw_uid] * 4, (service, pid, found)
            assert found["Gid"] == [entry.pw_gid] * 4, (service, pid, found)
            assert found["Groups"] == [], (service, pid, found)
            assert 0 not in found["Uid"] + found["Gid"] + found["Groups"]
    for app in cluster.apps:
        assert identity(app.pid)["Uid"][0] == os.geteuid()


def test_the_clusters_secrets_and_logs_are_its_own(cluster):
    data = cluster.data
    private = [data / "cluster.json", data / "postgres" / "secrets.json", data / "postgres" / "postgres.log",
               data / "redis" / "redis.conf", data / "redis" / "redis.log", data / "nginx" / "nginx.log",
               *sorted((data / "apps").glob("app*.log"))]
    for path in private:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        read = as_another_user("cat", str(path))
        assert read.returncode != 0 and "Permission denied" in read.stderr, path
    for directory in (data / "postgres", data / "redis", data / "nginx"):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory
    url = make_url(cluster.database_url)
    assert url.password and url.password in (data / "cluster.json").read_text()
    for app in cluster.apps:  # the passwords are in the app processes' environment, not on their command lines
        assert url.password not in Path(f"/proc/{app.pid}/cmdline").read_text()
        assert cluster.redis.password not in Path(f"/proc/{app.pid}/cmdline").read_text()


def listening_tcp_ports(pid: int) -> list[int]:
    """The TCP ports a process listens on (IPv4 and IPv6): its sockets (/proc/<pid>/fd) found in the kernel's
    tables of listening sockets (/proc/net/tcp, tcp6: state 0A)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:
                ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def app_process_tries(cluster) -> list[tuple[str, subprocess.CompletedProcess]]:
    """The attack of finding 5 on the app processes (bench/attacks.py replays it): another local user tries each
    app's socket with curl (forging X-Forwarded-For) and with a plain connect(), and lists their directory."""
    tries = []
    for app in cluster.apps:
        tries.append((f"app{app.index} curl", as_another_user(
            "curl", "-sS", "--max-time", "5", "--unix-socket", str(app.unix_socket),
            "-H", "X-Forwarded-For: 198.51.100.7", "http://localhost/api/health")))
        tries.append((f"app{app.index} connect", as_another_user(
            "/usr/bin/python3", "-c", "import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])",
            str(app.unix_socket))))
    tries.append(("ls sockets", as_another_user("ls", str(cluster.data / "sockets"))))
    return tries


def test_another_local_user_cannot_reach_an_app_process(cluster):
    """On one machine a TCP port on 127.0.0.1 is open to every local user, who could send a request straight to
    an app process and forge its X-Forwarded-For. The app processes listen on no TCP port (nor do their computer
    workers): each on a Unix socket (mode 0660) in a directory only the cluster's user and nginx's may enter."""
    for app in cluster.apps:
        for pid in (app.pid, *descendants(app.pid)):
            assert listening_tcp_ports(pid) == [], (app.index, pid, "listens on TCP")
    sockets = cluster.data / "sockets"
    assert stat.S_IMODE(sockets.stat().st_mode) & 0o007 == 0, oct(sockets.stat().st_mode)
    for app in cluster.apps:
        assert stat.S_ISSOCK(app.unix_socket.stat().st_mode) and app.unix_socket.parent == sockets
        assert stat.S_IMODE(app.unix_socket.stat().st_mode) == 0o660
        assert app.get("/api/health") == (200, {"ok": True, "process": app.pid, "database": "postgresql",
                                                "queue": "redis", "sockets": 0,
                                                "version": quadrille.__version__})
    for what, answer in app_process_tries(cluster):
        if what.endswith("curl"):
            assert answer.returncode == 7 and answer.stdout == "", said(answer)  # curl: could not connect
        elif what.endswith("connect"):
            assert answer.returncode != 0 and "PermissionError" in answer.stderr, said(answer)
        else:
            assert answer.returncode != 0 and "Permission denied" in said(answer), said(answer)
    # The directory and the sockets are this user's, in nginx's group (its workers connect, through nginx in
    # every other test), and nobody else's.
    nginx_group = pwd.getpwnam("www-data").pw_gid
    assert (sockets.stat().st_uid, sockets.stat().st_gid) == (os.geteuid(), nginx_group)
    assert {(app.unix_socket.stat().st_uid, app.unix_socket.stat().st_gid) for app in cluster.apps} == {
        (os.geteuid(), nginx_group)}


def remaining_of(answer: subprocess.CompletedProcess) -> int:
    """X-RateLimit-Remaining of an answer curl printed with its headers (-i)."""
    assert answer.returncode == 0 and " 200 " in answer.stdout.splitlines()[0], said(answer)
    return int(re.search(r"(?im)^x-ratelimit-remaining: *(\d+)", answer.stdout).group(1))


def forged_through_nginx(cluster, source: str, forged: str) -> int:
    """Another local user's request through nginx from `source`, forging X-Forwarded-For: the HTTP budget left
    (bench/attacks.py replays it)."""
    return remaining_of(as_another_user("curl", "-sS", "-i", "--max-time", "10", "--interface", source, "-H",
                                        f"X-Forwarded-For: {forged}", "-H", "X-Forwarded-Proto: https",
                                        f"{cluster.url}/api/games"))


def test_a_forged_x_forwarded_for_through_nginx_counts_as_nginx_saw_the_client(cluster):
    """Another local user's only way in is nginx: whatever X-Forwarded-For it sends, the app processes count the
    address nginx saw (the last hop, nginx's own), so it gets no fresh budget by naming a new address each time,
    nor spends another client's."""
    def through_nginx(source: str, forged: str) -> int:
        return forged_through_nginx(cluster, source, forged)
    left = [through_nginx("127.0.0.5", f"198.51.100.{i}") for i in range(1, 6)]
    assert left == list(range(left[0], left[0] - 5, -1)), left   # one budget, counted down
    posing = [through_nginx("127.0.0.6", "127.0.0.5") for _ in range(2)]  # posing as the first client
    assert posing[0] > left[-1] and posing[1] == posing[0] - 1
    assert through_nginx("127.0.0.5", "127.0.0.6") == left[-1] - 1


def test_nginx_does_not_say_its_version(cluster):
    assert requests.get(f"{cluster.url}/api/health", timeout=10).headers["Server"] == "nginx"
    with socket.create_connection(("127.0.0.1", cluster.nginx.port), timeout=10) as raw:
        raw.sendall(b"NOT HTTP\r\n\r\n")  # answered by nginx itself, with its own error page
        page = raw.recv(65536).decode(errors="replace")
    assert page.startswith("HTTP/1.1 400") and "\r\nServer: nginx\r\n" in page
    assert not re.search(r"nginx/\d", page), page


def test_a_database_cluster_made_without_passwords_by_an_older_cluster_py_is_converted(tmp_path):
    """Before issue 22, cluster.py ran `initdb --auth=trust -U quadrille`: the app's role was the superuser.
    Started again, that data keeps its tables and rows, and gets the same two roles and passwords as a new one."""
    where = service_directory("quadrille-old-pg-")
    postgres = Postgres(where / "postgres", durable=False)
    try:
        private_directory(postgres.directory, postgres.run_as)
        subprocess.run([str(postgres_bindir() / "initdb"), "-D", str(postgres.data), "-U", "quadrille", "--auth=trust",
                        "--no-sync"], check=True, capture_output=True, **popen_as(postgres.run_as))
        old = subprocess.Popen([str(postgres_bindir() / "postgres"), "-D", str(postgres.data), "-c",
                                f"port={postgres.port}", "-c", "listen_addresses=127.0.0.1", "-c",
                                f"unix_socket_directories={postgres.directory}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen_as(postgres.run_as))
        try:
            wait_until(lambda: connects(host="127.0.0.1", port=postgres.port, user="quadrille", dbname="postgres"), 30)
            with psycopg.connect(host="127.0.0.1", port=postgres.port, user="quadrille", dbname="postgres",
                                 autocommit=True) as conn:
                conn.execute("CREATE DATABASE quadrille")
            with psycopg.connect(host="127.0.0.1", port=postgres.port, user="quadrille", dbname="quadrille",
                                 autocommit=True) as conn:
                conn.execute("CREATE TABLE kept (x int)")
                conn.execute("INSERT INTO kept VALUES (42)")
        finally:
            old.send_signal(signal.SIGINT)
            old.wait(30)
        postgres.start()
        try:
            assert not connects(host="127.0.0.1", port=postgres.port, user="quadrille", dbname="quadrille")
            url = make_url(postgres.url())
            with psycopg.connect(host=url.host, port=url.port, user=url.username, password=url.password,
                                 dbname="quadrille") as conn:
                assert conn.execute("SELECT x FROM kept").fetchall() == [(42,)]
                assert conn.execute("SELECT rolname, rolsuper FROM pg_roles WHERE rolname IN ('postgres', 'quadrille') "
                                    "ORDER BY rolname").fetchall() == [("postgres", True), ("quadrille", False)]
            with postgres.admin() as conn:
                assert conn.execute("SELECT current_user").fetchone()[0] == "postgres"
        finally:
            postgres.stop()
    finally:
        shutil.rmtree(where, ignore_errors=True)


def connects(**options) -> bool:
    try:
        with psycopg.connect(connect_timeout=2, **options):
            return True
    except psycopg.OperationalError:
        return False
