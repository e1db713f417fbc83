"""A server process started here and stopped by its PID (Service, which each server of scripts/services/
extends), and what starting one needs: a free port, whether a port or a Unix socket answers, an HTTP request
through a Unix socket, whether a Unix socket fits a path, the processes under a PID."""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from scripts.services.users import RunAs, popen_as, private_log


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def answers_on(path: Path) -> bool:
    """Whether a server accepts connections on the Unix socket at `path`."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(0.5)
        return s.connect_ex(str(path)) == 0


class UnixHTTPConnection(http.client.HTTPConnection):
    """http.client's connection, through a Unix socket: for a server that has no TCP port (an app process of
    the cluster, which only nginx and the cluster's user reach)."""

    def __init__(self, path: Path, timeout: float = 10.0):
        super().__init__("localhost", timeout=timeout)
        self.unix_path = str(path)

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self.unix_path)
        self.sock = sock


def request_over_unix(path: Path, method: str, target: str, headers: dict | None = None,
                      body: bytes | None = None) -> tuple[int, dict, bytes]:
    """One HTTP request through the Unix socket at `path`: its status, headers and body."""
    connection = UnixHTTPConnection(path)
    try:
        connection.request(method, target, body=body, headers={"Host": "localhost", **(headers or {})})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


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
