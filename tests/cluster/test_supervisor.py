"""The cluster's supervisor (scripts/services/supervisor.py): an app process that dies is started again after a
pause that doubles while it keeps dying and is back to its first length once the process served a while; each death
and restart is logged."""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from scripts.services import ROOT
from scripts.services.process import request_over_unix
from scripts.services.supervisor import Supervisor
from tests.cluster.test_deploy import ready_line
from tests.support.servers import ServerProcess, service_directory
from tests.support.tasks import stop_if_running
from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster


def described(data: Path) -> dict:
    return json.loads((data / "cluster.json").read_text())


def health_over_socket(process: dict) -> dict | None:
    try:
        status, _, body = request_over_unix(Path(process["socket"]), "GET", "/api/health")
    except OSError:
        return None
    return json.loads(body) if status == 200 else None


def test_cluster_sh_starts_a_killed_app_process_again_and_logs_it():
    data = service_directory("quadrille-supervised-")
    log_path = data.parent / f"{data.name}.stderr"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(["bash", "scripts/cluster.sh", "--processes", "2", "--port", "0", "--data", str(data)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True)
    try:
        line = ready_line(proc)
        assert line.startswith("Quadrille cluster ready on "), line + log_path.read_text()
        url = described(data)["url"]
        first = described(data)["processes"][0]
        killed_at = time.monotonic()
        os.kill(first["pid"], signal.SIGKILL)

        def came_back():
            now = described(data)["processes"][0]
            answer = now["pid"] != first["pid"] and health_over_socket(now)
            return answer and answer["process"] == now["pid"] and now
        again = wait_until(came_back, 60, "the killed app process to serve again", interval=0.1)
        print(f"a SIGKILLed app process served again {time.monotonic() - killed_at:.1f} s later")
        logged = log_path.read_text()
        assert re.search(rf"app process 1 \(pid {first['pid']}\) was killed by SIGKILL after \d+ s up; "
                         rf"starting it again in 1 s", logged), logged
        assert f"app process 1 started again (pid {again['pid']})" in logged
        wait_until(lambda: f"app process 1 (pid {again['pid']}) serves again" in log_path.read_text(), 30,
                   "the supervisor to see it serve")
        # through nginx, both processes serve (nginx tries the restarted one again after fail_timeout)
        seen = wait_until(lambda: {requests.get(url + "api/health", timeout=5).json()["process"] for _ in range(20)}
                          >= {again["pid"], described(data)["processes"][1]["pid"]} or None, 30,
                          "nginx to reach both processes", interval=0.5)
        assert seen
        created = requests.post(url + "api/matches", json={"game": "gamma", "mode": "local"}, timeout=10)
        assert created.status_code == 201

        # dying again at once: the pause doubles
        os.kill(again["pid"], signal.SIGKILL)
        wait_until(lambda: re.search(rf"app process 1 \(pid {again['pid']}\) was killed by SIGKILL after \d+ s up; "
                                     rf"starting it again in 2 s", log_path.read_text()), 30, "the second death")
        wait_until(lambda: (health_over_socket(described(data)["processes"][0]) or {}).get("process")
                   == described(data)["processes"][0]["pid"] != again["pid"], 60, "the second restart")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        assert "Quadrille cluster stopped" in proc.stdout.read()
        for process in described(data)["processes"]:
            assert not os.path.exists(f"/proc/{process['pid']}") or \
                "Z" in open(f"/proc/{process['pid']}/stat").read().split()[2]
    finally:
        stop_if_running(proc)
        shutil.rmtree(data, ignore_errors=True)
        log_path.unlink(missing_ok=True)


def test_the_pause_doubles_up_to_its_cap_and_is_reset_once_the_process_stayed_up(tmp_path, caplog):
    """A real app process (one, on SQLite) under a Supervisor with short times: 0.5 s doubling to 2 s, reset
    after 3 s up."""
    caplog.set_level(logging.INFO, logger="quadrille.supervisor")
    server = ServerProcess(tmp_path / "server.db").start()
    restarts = []
    supervisor = Supervisor([server], restarted=lambda: restarts.append(server.pid), first=0.5, longest=2.0,
                            steady=3.0)

    def supervise_until(predicate, what: str, timeout: float = 60.0):
        def step():
            supervisor.check()
            return predicate()
        return wait_until(step, timeout, what, interval=0.05)

    def kill_and_see_it_back(expected_pause: str) -> None:
        killed = server.pid
        server.kill()
        supervise_until(lambda: server.pid != killed and server.ready(), f"a restart after {expected_pause}")
        supervise_until(lambda: f"app process 1 (pid {server.pid}) serves again" in caplog.text, "its readiness")
        assert re.search(rf"app process 1 \(pid {killed}\) was killed by SIGKILL after \d+ s up; starting it again "
                         rf"in {expected_pause} s", caplog.text), caplog.text
        assert requests.get(server.url + "/api/health", timeout=5).json()["process"] == server.pid

    try:
        for pause in ("0.5", "1", "2", "2"):  # doubling, up to the cap
            kill_and_see_it_back(pause)
        up_since = time.monotonic()
        supervise_until(lambda: time.monotonic() - up_since > 3.5, "the process to stay up", timeout=10)
        kill_and_see_it_back("0.5")
        assert len(restarts) == supervisor.restarts == 5 and restarts[-1] == server.pid
    finally:
        server.stop()
