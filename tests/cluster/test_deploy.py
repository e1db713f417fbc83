"""What an operator runs: scripts/cluster.sh end to end, and deploy/'s files (nginx.conf checked by
`nginx -t`; docker-compose.yml cannot run here, as no container engine does, so its names are checked against
nginx.conf and app.py)."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess

import pytest
import requests

from scripts.cluster import ROOT, Nginx, free_port
from tests.conftest import service_directory, wait_until

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


def test_the_clusters_own_nginx_conf_passes_nginx_t(tmp_path):
    checked = Nginx(tmp_path, ["127.0.0.1:5001", "127.0.0.1:5002", "127.0.0.1:5003"]).test()
    assert checked.returncode == 0, checked.stderr
    written = (tmp_path / "nginx.conf").read_text()
    assert written.count("server 127.0.0.1:5003 ") == 4 and "app1" not in written.split("http {", 1)[1]


def test_docker_compose_names_what_nginx_conf_and_app_py_expect():
    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    services = set(re.findall(r"^  (\w+):$", compose, re.M))
    assert {"postgres", "redis", "nginx"} <= services
    assert set(re.findall(r"server (app\d+):5000", nginx)) == {s for s in services if s.startswith("app")}
    app_py = (ROOT / "app.py").read_text()
    for variable in set(re.findall(r"(QUADRILLE_[A-Z_]+):", compose)):
        name = variable[len("QUADRILLE_"):]
        assert variable in app_py or f'"{name}"' in (ROOT / "quadrille" / "settings.py").read_text(), variable
    assert "./nginx.conf:/etc/nginx/nginx.conf" in compose


def test_cluster_sh_starts_everything_and_stops_it_on_sigterm():
    data = service_directory("quadrille-cluster-")
    proc = subprocess.Popen(["bash", "scripts/cluster.sh", "--processes", "2", "--port", "0", "--data", str(data)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        line = proc.stdout.readline().strip()
        assert re.fullmatch(r"Quadrille cluster ready on http://127\.0\.0\.1:\d+/ \(2 processes, postgresql, redis\)",
                            line), line
        described = json.loads((data / "cluster.json").read_text())
        assert described["url"] == line.split(" on ")[1].split(" ")[0]
        assert described["database"].startswith("postgresql+psycopg://") and described["queue"].startswith("redis://")
        pids = {requests.get(f"{p['url']}/api/health").json()["process"] for p in described["processes"]}
        assert pids == {p["pid"] for p in described["processes"]}
        for pid in pids:  # on one machine the app processes reach PostgreSQL and Redis through Unix sockets
            argv = open(f"/proc/{pid}/cmdline").read().split("\0")
            database, queue = argv[argv.index("--db") + 1], argv[argv.index("--message-queue") + 1]
            assert f"host={data.resolve()}" in database and queue.startswith(f"unix://{data.resolve()}"), argv
        through_nginx = requests.get(described["url"] + "api/health").json()
        assert through_nginx["ok"] and through_nginx["process"] in pids
        created = requests.post(described["url"] + "api/matches", json={"game": "gamma", "mode": "local"})
        assert created.status_code == 201
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        assert "Quadrille cluster stopped" in proc.stdout.read()
        for pid in pids:
            assert not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split()[2]
        for url in [described["url"], described["database"], described["queue"]]:
            port = int(re.search(r":(\d+)/", url).group(1))
            wait_until(lambda: not answering(port), 10, f"port {port} to close")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(data, ignore_errors=True)


def answering(port: int) -> bool:
    import socket
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
