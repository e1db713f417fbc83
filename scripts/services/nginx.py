"""nginx in front of the app processes: deploy/nginx.conf rewritten for this machine (its upstream servers,
its port, its paths: the access log in its directory, access.log), checked with `nginx -t`, then started."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

from scripts.services import ROOT
from scripts.services.process import Service
from scripts.services.users import popen_as, private_directory, system_user

NGINX_TEMPLATE = ROOT / "deploy" / "nginx.conf"


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not found:
        raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
    return found


def nginx_config(template: str, port: int, upstreams: list[str], directory: Path) -> str:
    """deploy/nginx.conf for this machine: its upstream servers (`unix:/path/app1.sock` for an app process on
    this machine, or `host:port`), its listening port and its paths."""
    def servers(match: re.Match) -> str:
        return "".join(f"{match.group(1)}server {address} max_fails=1 fail_timeout=5s;\n" for address in upstreams)

    text = re.sub(r"^( +)server app\d+:5000[^\n]*\n(?:\1server app\d+:5000[^\n]*\n)*", servers, template, flags=re.M)
    text = re.sub(r"^(\s+)listen 80;", rf"\1listen 127.0.0.1:{port};", text, flags=re.M)
    temp = directory / "tmp"
    paths = "".join(f"    {name}_temp_path {temp / name};\n"
                    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = text.replace("http {\n", f"http {{\n{paths}", 1)
    text = text.replace("access_log /var/log/nginx/access.log ", f"access_log {directory / 'access.log'} ", 1)
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
                "-g", f"daemon off; pid {self.pid_file}; error_log {self.directory / 'error.log'} warn;",
                *extra]

    def test(self) -> subprocess.CompletedProcess:
        """`nginx -t` on the configuration written, as the user nginx will run as."""
        self.write_config()
        return subprocess.run(self.argv("-t"), capture_output=True, text=True, **popen_as(self.run_as))

    def start(self) -> "Nginx":
        checked = self.test()
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{checked.stderr}")
        self.pid_file.unlink(missing_ok=True)  # `nginx -t` writes one too
        self._spawn(self.argv(), self.run_as)
        self.wait_ready()
        return self

    @property
    def pid_file(self) -> Path:
        return self.directory / "nginx.pid"

    def ready(self) -> bool:
        # nginx writes its PID file once it has bound its port: another server answering on the port is not it
        return self.pid_file.exists() and super().ready()

    def reload(self) -> None:
        self.proc.send_signal(signal.SIGHUP)
