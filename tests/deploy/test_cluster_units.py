"""deploy/systemd/quadrille@.service for real: two instances, `quadrille@1` and `quadrille@2` (systemd's %i
filled in as systemd would), each the unit's command and environment in as much of its sandbox as can be made
without systemd (tests/deploy/units.py), on a real PostgreSQL database and Redis from the environment file the
unit names, behind the cluster's nginx (deploy/nginx.conf with the instances' sockets as its upstreams)."""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import uuid
from pathlib import Path

import pytest
import requests

from scripts.services.nginx import Nginx
from scripts.services.process import free_port, request_over_unix
from scripts.services.users import private_log, shared_with
from tests.deploy.units import UNITS, environment, for_this_machine, read_unit, sandboxed, value
from tests.support.databases import drop_database
from tests.support.servers import service_directory
from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster


def instance(index: int, run: Path, where: Path) -> list:
    path = where / f"quadrille@{index}.service"
    text = for_this_machine((UNITS / "quadrille@.service").read_text(), run=run)
    path.write_text(text.replace("%i", str(index)))
    return read_unit(path)


def test_two_instances_of_the_template_serve_one_site_behind_nginx(postgres_server, redis_url):
    where = service_directory("quadrille-units-")
    name = f"u_{uuid.uuid4().hex[:12]}"
    port = free_port()
    nginx = Nginx(where / "nginx", [f"unix:{where}/run/app{i}.sock" for i in (1, 2)], port)
    shared_with(where / "run", nginx.run_as)  # the RuntimeDirectory: the app's user and nginx's group
    # what /etc/quadrille/cluster.env holds (root's, mode 0600: the passwords are there, not in the unit)
    cluster_env = {"QUADRILLE_DB": postgres_server.create_database(name), "QUADRILLE_MESSAGE_QUEUE": redis_url,
                   "QUADRILLE_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    apps = {}
    try:
        for index in (1, 2):
            unit = instance(index, where / "run", where)
            assert value(unit, "EnvironmentFile") == "/etc/quadrille/cluster.env"
            env = {key: val for key, val in os.environ.items() if not key.startswith("QUADRILLE_")}
            env.update(environment(unit))
            env.update(cluster_env)
            assert env["QUADRILLE_UNIX_SOCKET"] == f"{where}/run/app{index}.sock"
            log = private_log(where / f"app{index}.log")
            apps[index] = subprocess.Popen(sandboxed(shlex.split(value(unit, "ExecStart")), unit),
                                           cwd=value(unit, "WorkingDirectory"), env=env, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
        for index, app in apps.items():
            wait_until(lambda: app.poll() is not None or "Quadrille ready" in (where / f"app{index}.log").read_text(),
                       90, f"quadrille@{index}")
            assert app.poll() is None, (where / f"app{index}.log").read_text()
            said = (where / f"app{index}.log").read_text()
            assert f"unix:{where}/run/app{index}.sock" in said and "message queue redis://" in said
            assert cluster_env["QUADRILLE_DB"].split("@")[0].split(":")[-1] not in said  # no password in the log
        nginx.start()
        for index, app in apps.items():
            status, _, _ = request_over_unix(where / "run" / f"app{index}.sock", "GET", "/api/health")
            assert status == 200
        url = f"http://127.0.0.1:{port}"
        seen = wait_until(lambda: {requests.get(url + "/api/health", timeout=5).json()["process"] for _ in range(10)}
                          == {app.pid for app in apps.values()}, 30, "nginx to reach both instances", interval=0.2)
        assert seen
        health = requests.get(url + "/api/health", timeout=5).json()
        assert health["database"] == "postgresql" and health["queue"] == "redis"
        created = requests.post(url + "/api/matches", json={"game": "trails", "mode": "local"}, timeout=10)
        assert created.status_code == 201
        match = created.json()["match"]
        assert created.json()["url"].startswith(f"{url}/m/")  # links made from the public URL, nginx's

        # `systemctl stop quadrille@1`: SIGTERM, a clean stop, its socket gone, the site still served
        apps[1].send_signal(signal.SIGTERM)
        assert apps[1].wait(30) == 0
        assert not (where / "run" / "app1.sock").exists() and (where / "run" / "app2.sock").exists()
        for _ in range(5):
            answer = requests.get(f"{url}/api/matches/{match}", timeout=10)
            assert answer.status_code == 200 and answer.json()["match"] == match
    finally:
        nginx.stop()
        for app in apps.values():
            if app.poll() is None:
                app.send_signal(signal.SIGTERM)
                app.wait(30)
        drop_database(postgres_server, name)
        shutil.rmtree(where, ignore_errors=True)
