"""What an operator runs: scripts/cluster.sh end to end, and deploy/'s files (nginx.conf checked by
`nginx -t`; docker-compose.yml cannot run here, as no container engine does: it is parsed, its names checked
against nginx.conf and app.py, its passwords shown to come from deploy/.env, and its Redis command and
postgres-init.sh run against real servers)."""
from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import uuid
from pathlib import Path

import pytest
import requests
import yaml

from scripts.cluster import Cluster
from scripts.services import ROOT, process
from scripts.services.nginx import Nginx
from scripts.services.process import free_port, request_over_unix
from scripts.services.users import popen_as, system_user
from tests.support.servers import service_directory
from tests.support.tasks import stop_if_running
from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster


def test_deploy_nginx_conf_passes_nginx_t(tmp_path):
    """The file as it is, but for the app hostnames (app1, app2: names of the compose network, which nginx
    resolves when it reads the file), pointed at this machine, and its port."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.findall(r"server (app\d+):5000", text) == ["app1", "app2"] * 4  # home, home over HTTP, any, sticky
    local = tmp_path / "deploy-nginx.conf"
    local.write_text(re.sub(r"server app(\d+):5000", r"server 127.0.0.1:500\1", text)
                     .replace("listen 80;", f"listen 127.0.0.1:{free_port()};"))
    nginx = Nginx(tmp_path, [], template=local)
    nginx.conf = local
    checked = subprocess.run(nginx.argv("-t"), capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr and "test is successful" in checked.stderr


def test_the_clusters_own_nginx_conf_passes_nginx_t():
    where = service_directory("quadrille-nginx-")  # nginx checks it as its own system user when run as root
    try:
        checked = Nginx(where, ["127.0.0.1:5001", "127.0.0.1:5002", "127.0.0.1:5003"]).test()
        assert checked.returncode == 0, checked.stderr
        written = (where / "nginx.conf").read_text()
        assert written.count("server 127.0.0.1:5003 ") == 4 and "app1" not in written.split("http {", 1)[1]
        sockets = [f"unix:{where}/sockets/app{i}.sock" for i in (1, 2)]  # as scripts/cluster.py writes it
        checked = Nginx(where, sockets).test()
        assert checked.returncode == 0, checked.stderr
        assert (where / "nginx.conf").read_text().count(f"server {sockets[1]} ") == 4
    finally:
        shutil.rmtree(where, ignore_errors=True)


def test_nginx_is_not_taken_for_started_while_another_program_holds_its_port():
    """The port answering is no sign nginx bound it: it is ready once it wrote its PID file (which `nginx -t`
    writes too, and is removed before nginx starts)."""
    where = service_directory("quadrille-nginx-")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        nginx = Nginx(where, ["unix:/nonexistent.sock"], holder.getsockname()[1])
        try:
            with pytest.raises(RuntimeError, match="Address already in use"):
                nginx.start()
        finally:
            nginx.stop()
            shutil.rmtree(where, ignore_errors=True)


def test_the_cluster_takes_another_port_when_the_free_one_it_found_was_taken(monkeypatch):
    """Between finding a port free and nginx binding it, another program may take it: the cluster's nginx then
    starts on another port, before any app process is told its address."""
    where = service_directory("quadrille-nginx-")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        offered, really_free = iter([taken]), process.free_port
        monkeypatch.setattr(process, "free_port", lambda: next(offered, None) or really_free())
        nginx = Cluster(where).start_nginx(["unix:/nonexistent.sock"])
        try:
            assert nginx.port != taken and nginx.alive()
            assert requests.get(f"{nginx.url}/", timeout=10).status_code == 502  # nginx, with no app behind it
        finally:
            nginx.stop()
            shutil.rmtree(where, ignore_errors=True)


def compose() -> dict:
    return yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())


def app_services(spec: dict) -> dict:
    return {name: service for name, service in spec["services"].items() if re.fullmatch(r"app\d+", name)}


def test_docker_compose_names_what_nginx_conf_and_app_py_expect():
    spec, nginx = compose(), (ROOT / "deploy" / "nginx.conf").read_text()
    assert {"postgres", "redis", "nginx"} <= set(spec["services"])
    assert set(re.findall(r"server (app\d+):5000", nginx)) == set(app_services(spec))
    app_py, settings = (ROOT / "app.py").read_text(), (ROOT / "quadrille" / "settings.py").read_text()
    for service in app_services(spec).values():
        for variable in service["environment"]:
            assert variable in app_py or f'"{variable[len("QUADRILLE_"):]}"' in settings, variable
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in spec["services"]["nginx"]["volumes"]


PASSWORDS = {"POSTGRES_PASSWORD", "QUADRILLE_DB_PASSWORD", "REDIS_PASSWORD"}


def interpolated(value: str) -> set[str]:
    """The variables a Compose value takes from the environment (deploy/.env), each required (`${VAR:?...}`)."""
    found = re.findall(r"\$\{(\w+)(:\?[^}]+)?\}", value)
    assert all(required for _, required in found), value
    return {name for name, _ in found}


def test_docker_compose_takes_every_password_from_its_env_file_and_redis_needs_one_too():
    """No container engine runs here: the file is parsed and its parts checked (the Redis command and
    postgres-init.sh are run for real by the tests below)."""
    text = (ROOT / "deploy" / "docker-compose.yml").read_text()
    spec = compose()
    assert "quadrille:quadrille@" not in text and "POSTGRES_PASSWORD: quadrille" not in text
    postgres, redis_ = spec["services"]["postgres"]["environment"], spec["services"]["redis"]["environment"]
    assert interpolated(postgres["POSTGRES_PASSWORD"]) == {"POSTGRES_PASSWORD"}
    assert interpolated(postgres["QUADRILLE_DB_PASSWORD"]) == {"QUADRILLE_DB_PASSWORD"}
    assert interpolated(redis_["REDISCLI_AUTH"]) == {"REDIS_PASSWORD"}
    assert "$$REDISCLI_AUTH" in spec["services"]["redis"]["command"][2]    # requirepass, from the environment
    assert spec["services"]["redis"]["user"] == "redis"
    for service in app_services(spec).values():
        environment = service["environment"]
        assert re.fullmatch(r"postgresql\+psycopg://quadrille:\$\{QUADRILLE_DB_PASSWORD:\?[^}]+\}@postgres:5432/quadrille",
                            environment["QUADRILLE_DB"])  # the app's own role, not the superuser
        assert re.fullmatch(r"redis://:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379/0", environment["QUADRILLE_MESSAGE_QUEUE"])
    every_variable = set().union(*(interpolated(value) for value in re.findall(r"\$\{[^}]+\}", text)))
    assert every_variable == PASSWORDS
    example = (ROOT / "deploy" / ".env.example").read_text()
    assert set(re.findall(r"^(\w+)=$", example, re.M)) == PASSWORDS  # named, never filled in
    ignored = subprocess.run(["git", "check-ignore", "-q", "deploy/.env"], cwd=ROOT)
    assert ignored.returncode == 0, "deploy/.env must be ignored by git"


def test_docker_compose_apps_believe_forwarded_addresses_only_from_nginx():
    spec = compose()
    nginx_address = spec["services"]["nginx"]["networks"]["default"]["ipv4_address"]
    subnet = spec["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(nginx_address) in ipaddress.ip_network(subnet)
    for service in app_services(spec).values():
        assert service["environment"]["QUADRILLE_TRUSTED_PROXIES"] == nginx_address
        assert service["environment"]["QUADRILLE_PROXY_HOPS"] == "1" and "ports" not in service


def test_docker_compose_redis_command_asks_for_the_password_it_reads_from_the_environment():
    """The compose file's own Redis command, run here by the local redis-server on a free port, as the
    `redis` user (as `user: redis` does there) when the tests run as root."""
    script = compose()["services"]["redis"]["command"][2].replace("$$", "$")
    port = free_port()
    script = script.replace("port 6379", f"port {port}")
    where = service_directory("quadrille-compose-redis-")
    password = "0123abcd" * 8
    run_as = system_user("redis", "nobody")
    if run_as:
        os.chown(where, run_as.uid, run_as.gid)
    server = subprocess.Popen(["sh", "-c", script], cwd=where, env={"PATH": os.environ["PATH"], "REDISCLI_AUTH": password},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                              **popen_as(run_as))
    try:
        wait_until(lambda: answering(port), 10, "the compose file's Redis")
        cli = ["redis-cli", "-p", str(port), "ping"]
        without = subprocess.run(cli, capture_output=True, text=True, env={"PATH": os.environ["PATH"]})
        assert "NOAUTH" in without.stdout + without.stderr
        wrong = subprocess.run(cli, capture_output=True, text=True, env={"PATH": os.environ["PATH"], "REDISCLI_AUTH": "x"})
        assert "PONG" not in wrong.stdout
        healthcheck = subprocess.run(cli, capture_output=True, text=True,
                                     env={"PATH": os.environ["PATH"], "REDISCLI_AUTH": password})
        assert healthcheck.stdout.strip() == "PONG"
        assert password not in open(f"/proc/{server.pid}/cmdline").read()  # `sh -c` became redis-server (exec)
        assert open(f"/proc/{server.pid}/comm").read().strip() == "redis-server"
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(where, ignore_errors=True)


def test_postgres_init_sh_makes_the_apps_role_an_ordinary_owner_with_its_password(postgres_server):
    """deploy/postgres-init.sh, as the postgres image runs it (psql as the superuser), against a real
    PostgreSQL: the role logs in with its password, owns its database, and is no superuser. Twice: it may
    run again."""
    import psycopg
    suffix = uuid.uuid4().hex[:10]
    role, database, password = f"t_role_{suffix}", f"t_db_{suffix}", uuid.uuid4().hex
    env = {"PATH": os.environ["PATH"], "PGHOST": "127.0.0.1", "PGPORT": str(postgres_server.port),
           "PGPASSWORD": postgres_server.passwords[postgres_server.ADMIN], "POSTGRES_USER": postgres_server.ADMIN,
           "QUADRILLE_DB_USER": role, "QUADRILLE_DB_NAME": database, "QUADRILLE_DB_PASSWORD": password}
    try:
        for _ in range(2):
            ran = subprocess.run(["sh", str(ROOT / "deploy" / "postgres-init.sh")], env=env, capture_output=True, text=True)
            assert ran.returncode == 0, ran.stderr
            assert password not in ran.stdout + ran.stderr
        with psycopg.connect(host="127.0.0.1", port=postgres_server.port, user=role, password=password,
                             dbname=database, autocommit=True) as conn:
            conn.execute("CREATE TABLE t (x int)")
            assert conn.execute("SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user"
                                ).fetchone() == (False, False, False)
            assert conn.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()"
                                ).fetchone()[0] == role
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(host="127.0.0.1", port=postgres_server.port, user=role, password="wrong", dbname=database)
        missing = subprocess.run(["sh", str(ROOT / "deploy" / "postgres-init.sh")],
                                 env={k: v for k, v in env.items() if k != "QUADRILLE_DB_PASSWORD"}, capture_output=True, text=True)
        assert missing.returncode != 0 and "QUADRILLE_DB_PASSWORD" in missing.stderr
    finally:
        postgres_server.drop_database(database)
        with postgres_server.admin() as conn:
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_cluster_sh_starts_everything_and_stops_it_on_sigterm():
    data = service_directory("quadrille-cluster-")
    proc = subprocess.Popen(["bash", "scripts/cluster.sh", "--processes", "2", "--port", "0", "--data", str(data)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        line = ready_line(proc)
        assert re.fullmatch(r"Quadrille cluster ready on http://127\.0\.0\.1:\d+/ \(2 processes, postgresql, redis\)",
                            line), line
        described = json.loads((data / "cluster.json").read_text())
        assert described["url"] == line.split(" on ")[1].split(" ")[0]
        assert described["database"].startswith("postgresql+psycopg://") and described["queue"].startswith("redis://")
        # each app process on its Unix socket alone (no TCP port), which this user reaches
        assert all(set(p) == {"pid", "socket"} for p in described["processes"]), described["processes"]
        pids = {json.loads(request_over_unix(Path(p["socket"]), "GET", "/api/health")[2])["process"]
                for p in described["processes"]}
        assert pids == {p["pid"] for p in described["processes"]}
        for pid in pids:  # on one machine the app processes reach PostgreSQL and Redis through Unix sockets
            # (their URLs, with the passwords, in the environment, never on the command line that `ps` shows)
            environ = dict(entry.split("=", 1) for entry in open(f"/proc/{pid}/environ").read().split("\0") if entry)
            database, queue = environ["QUADRILLE_DB"], environ["QUADRILLE_MESSAGE_QUEUE"]
            assert f"host={data.resolve()}" in database and re.match(rf"unix://quadrille:[^@]+@{data.resolve()}", queue)
            assert database.split("@")[0].split(":")[-1] not in open(f"/proc/{pid}/cmdline").read()
        through_nginx = requests.get(described["url"] + "api/health").json()
        assert through_nginx["ok"] and through_nginx["process"] in pids
        created = requests.post(described["url"] + "api/matches", json={"game": "gamma", "mode": "local"})
        assert created.status_code == 201
        # nginx's access log, in the cluster's nginx folder: a line a request, which process answered it
        logged = wait_until(lambda: '"POST /api/matches HTTP/1.1" 201' in (data / "nginx" / "access.log").read_text()
                            and (data / "nginx" / "access.log").read_text(), 10, "nginx's access log")
        assert re.search(r'"GET /api/health HTTP/1\.1" 200 \d+ \d+\.\d+ unix:\S+app\d\.sock "python-requests/', logged)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        assert "Quadrille cluster stopped" in proc.stdout.read()
        for pid in pids:
            assert not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split()[2]
        for url in [described["url"], described["database"], described["queue"]]:
            port = int(re.search(r":(\d+)/", url).group(1))
            wait_until(lambda: not answering(port), 10, f"port {port} to close")
        assert not any(Path(p["socket"]).exists() for p in described["processes"])  # each app removed its own
    finally:
        stop_if_running(proc)
        shutil.rmtree(data, ignore_errors=True)


def ready_line(proc: subprocess.Popen) -> str:
    """The cluster's ready line, after what scripts/venv.sh says about the virtual environment."""
    for line in proc.stdout:
        if not line.startswith("quadrille: "):
            return line.strip()
    return ""


def answering(port: int) -> bool:
    import socket
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
