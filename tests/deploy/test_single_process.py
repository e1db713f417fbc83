"""The one-process recipe for real: the command and environment of deploy/systemd/quadrille.service (its
directories moved under a test's own), in as much of the unit's sandbox as can be made without systemd (the
code and the Python installation read-only, as ProtectSystem=strict makes them; no capabilities; no new
privileges; its UMask), behind deploy/nginx-single.conf on a real nginx with TLS, a certificate made here by
openssl. HTTP is redirected to HTTPS, HTTPS and HTTP/2 are offered, a Socket.IO WebSocket upgrades through it,
and the access log has a line a request without query strings."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
import websocket

from scripts.services import ROOT
from scripts.services.nginx import Nginx
from scripts.services.process import free_port
from scripts.services.users import private_directory, private_log, shared_with
from tests.deploy.units import UNITS, environment, for_this_machine, read_only_places, read_unit, sandboxed, value
from tests.support.servers import service_directory
from tests.support.waiting import wait_until

pytestmark = pytest.mark.cluster

RECIPE = ROOT / "deploy" / "nginx-single.conf"


def self_signed(where: Path) -> tuple[Path, Path]:
    cert, key = where / "fullchain.pem", where / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=quadrille.test",
                    "-addext", "subjectAltName=DNS:quadrille.test,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def recipe_for_this_machine(where: Path, http: int, https: int, socket: Path, cert: Path, key: Path) -> str:
    """deploy/nginx-single.conf with its placeholders filled in: ports of the test's own on 127.0.0.1 (no IPv6
    here), the test's certificate, socket and log files; user and pid are given by the Nginx service
    (-g, and it runs as nginx's user already)."""
    text = RECIPE.read_text()
    text = re.sub(r"^user [^\n]*\n|^pid [^\n]*\n|^ *listen \[::\][^\n]*\n", "", text, flags=re.M)
    text = text.replace("listen 80;", f"listen 127.0.0.1:{http};").replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl")
    text = text.replace("/etc/ssl/quadrille/fullchain.pem", str(cert)).replace("/etc/ssl/quadrille/privkey.pem", str(key))
    text = text.replace("unix:/run/quadrille/quadrille.sock", f"unix:{socket}")
    text = text.replace("/var/log/nginx/", f"{where}/").replace("/var/www/acme", str(where / "acme"))
    temp = "".join(f"    {name}_temp_path {where / 'tmp' / name};\n" for name in ("client_body", "proxy", "fastcgi",
                                                                                       "uwsgi", "scgi"))
    return text.replace("http {\n", f"http {{\n{temp}", 1)


class RecipeNginx(Nginx):
    def __init__(self, directory: Path, text: str, port: int):
        super().__init__(directory, [], port)
        self.text = text

    def write_config(self) -> Path:
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.directory / "tmp" / name).mkdir(parents=True, exist_ok=True)
        self.conf.write_text(self.text)
        private_directory(self.directory, self.run_as, recursive=True)
        return self.conf


@pytest.fixture
def site():
    where = service_directory("quadrille-single-")
    http, https = free_port(), free_port()
    state, run, web = where / "state", where / "run", where / "nginx"
    state.mkdir()
    web.mkdir()
    cert, key = self_signed(web)
    nginx = RecipeNginx(web, "", https)
    shared_with(run, nginx.run_as)  # the RuntimeDirectory: the app's user and nginx's (its group)
    nginx.text = recipe_for_this_machine(web, http, https, run / "quadrille.sock", cert, key)

    # the unit's command, environment and working directory, its directories moved here
    unit = read_unit_here(state, run)
    env = {name: val for name, val in os.environ.items() if not name.startswith("QUADRILLE_")}
    env.update(environment(unit))
    env["QUADRILLE_PUBLIC_URL"] = f"https://127.0.0.1:{https}"  # what /etc/quadrille/quadrille.env holds
    log = private_log(where / "app.log")
    app = subprocess.Popen(sandboxed(shlex.split(value(unit, "ExecStart")), unit), cwd=value(unit, "WorkingDirectory"), env=env,
                           stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    try:
        wait_until(lambda: app.poll() is not None or "Quadrille ready" in (where / "app.log").read_text(), 90, "the app")
        assert app.poll() is None, (where / "app.log").read_text()
        nginx.start()
        yield {"http": f"http://127.0.0.1:{http}", "https": f"https://127.0.0.1:{https}", "https_port": https,
               "cert": str(cert), "access_log": web / "quadrille-access.log", "app": app, "socket": run / "quadrille.sock",
               "database": Path(env["QUADRILLE_DB"])}
    finally:
        nginx.stop()
        if app.poll() is None:
            app.send_signal(signal.SIGTERM)
            app.wait(30)
        shutil.rmtree(where, ignore_errors=True)


def read_unit_here(state: Path, run: Path) -> list:
    path = state.parent / "quadrille.service"
    path.write_text(for_this_machine((UNITS / "quadrille.service").read_text(), state=state, run=run))
    return read_unit(path)


def test_nginx_t_accepts_the_recipe(site, tmp_path):
    nginx = RecipeNginx(tmp_path, "", 1)
    nginx.conf = site["access_log"].parent / "nginx.conf"
    checked = subprocess.run(nginx.argv("-t"), capture_output=True, text=True)
    assert checked.returncode == 0 and "test is successful" in checked.stderr, checked.stderr


def test_the_app_runs_in_the_units_sandbox(site):
    pid = site["app"].pid
    status = dict(line.split(":\t", 1) for line in open(f"/proc/{pid}/status").read().splitlines() if ":\t" in line)
    assert status["NoNewPrivs"].strip() == "1" and int(status["CapEff"], 16) == int(status["CapBnd"], 16) == 0
    assert os.readlink(f"/proc/{pid}/exe").startswith(str(Path(sys.base_prefix).resolve()))
    mounts = {fields[4]: fields[5].split(",") for fields in
              (line.split() for line in open(f"/proc/{pid}/mountinfo").read().splitlines())}
    for place in read_only_places():
        assert "ro" in mounts[str(place)], place
    assert oct(site["database"].stat().st_mode & 0o777) == "0o600"  # UMask=0077


def test_the_single_process_serves_through_nginx_with_tls(site):
    assert site["database"].exists() and site["socket"].exists()  # the unit's database and socket, written
    assert oct(site["socket"].stat().st_mode & 0o777) == "0o660"

    redirected = requests.get(site["http"] + "/rules/towers?x=1", allow_redirects=False, timeout=10,
                              headers={"Host": "quadrille.example.org"})
    assert redirected.status_code == 301
    assert redirected.headers["Location"] == "https://quadrille.example.org/rules/towers?x=1"
    assert redirected.headers["Server"] == "nginx"  # server_tokens off: no version

    health = requests.get(site["https"] + "/api/health", verify=site["cert"], timeout=10)
    assert health.status_code == 200 and health.json()["ok"] and health.json()["process"] == site["app"].pid
    assert health.headers["Server"] == "nginx" and "max-age=" in health.headers["Strict-Transport-Security"]
    lobby = requests.get(site["https"] + "/", verify=site["cert"], timeout=10)
    assert lobby.status_code == 200 and "Trails and Towers" in lobby.text

    context = ssl.create_default_context(cafile=site["cert"])
    context.set_alpn_protocols(["h2", "http/1.1"])
    import socket as socket_module
    with socket_module.create_connection(("127.0.0.1", site["https_port"]), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.selected_alpn_protocol() == "h2" and tls.version() in ("TLSv1.2", "TLSv1.3")


def test_a_socket_io_websocket_upgrades_through_the_recipe(site):
    ws = websocket.create_connection(site["https"].replace("https", "wss") + "/socket.io/?EIO=4&transport=websocket",
                                     sslopt={"ca_certs": site["cert"]}, origin=site["https"], timeout=10)
    try:
        opened = ws.recv()
        assert opened.startswith("0{") and '"sid"' in opened  # Engine.IO's open packet, over the upgraded socket
        ws.send("40")
        assert ws.recv().startswith("40{")  # Socket.IO's connect, acknowledged
    finally:
        ws.close()
    time.sleep(0.5)  # nginx writes a WebSocket's line when it closes
    logged = wait_until(lambda: site["access_log"].read_text() if "/socket.io/" in site["access_log"].read_text()
                        else None, 10, "the WebSocket's access log line")
    assert re.search(r'"GET /socket\.io/ HTTP/1\.1" 101 ', logged), logged
    assert "EIO=" not in logged and "sid" not in logged  # no query strings: a session id would travel there


def test_the_access_log_has_a_line_a_request(site):
    requests.get(site["https"] + "/api/health?token=secret-value", verify=site["cert"], timeout=10)
    requests.get(site["http"] + "/anything", allow_redirects=False, timeout=10)
    lines = wait_until(lambda: [line for line in site["access_log"].read_text().splitlines()] if
                       len(site["access_log"].read_text().splitlines()) >= 2 else None, 10, "two log lines")
    assert re.fullmatch(r'127\.0\.0\.1 \[[^\]]+\] "GET /api/health HTTP/1\.1" 200 \d+ \d+\.\d+ "python-requests/[^"]+"',
                        lines[0]), lines[0]
    assert '"GET /anything HTTP/1.1" 301 ' in lines[1]
    assert "secret-value" not in site["access_log"].read_text()
