"""The pool's handle on one worker process (worker.py runs inside it): started with the registered games,
asked a move over a socket pair, told to cancel, closed. Whatever goes wrong on the way (the process died,
hung or answered nonsense) is one error, WorkerCrashed, on which the pool replaces the worker."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import games

ROOT = Path(__file__).resolve().parent.parent.parent
START_TIMEOUT = 60.0  # seconds for a new worker to import its engines


class WorkerCrashed(Exception):
    """The worker process died, hung, or answered nonsense."""


class Worker:
    """One worker process and the server's end of its socket pair."""

    def __init__(self):
        parent, child = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "quadrille.computer.worker", str(child.fileno()), *games.registered()],
            pass_fds=(child.fileno(),), cwd=str(ROOT), stdin=subprocess.DEVNULL)
        child.close()
        self.sock, self.buffer = parent, b""
        try:
            self._read(START_TIMEOUT)
        except WorkerCrashed:
            self.close()
            raise

    def ask(self, request: dict, timeout: float) -> dict:
        self.send(request)
        return self.receive(request["id"], timeout)

    def send(self, request: dict) -> None:
        try:
            self.sock.sendall(json.dumps(request).encode() + b"\n")
        except OSError as exc:
            raise WorkerCrashed(f"cannot write to the worker: {exc}") from exc

    def receive(self, request_id: str, timeout: float) -> dict:
        answer = self._read(timeout)
        if answer.get("id") != request_id:
            raise WorkerCrashed(f"the worker answered {answer!r} to request {request_id}")
        return answer

    def cancel(self) -> None:
        try:
            self.sock.sendall(b"cancel\n")
        except OSError:
            pass

    def _read(self, timeout: float) -> dict:
        self.sock.settimeout(timeout)
        try:
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise WorkerCrashed(f"the worker exited with {self.proc.poll()}")
                self.buffer += chunk
        except (socket.timeout, OSError) as exc:
            raise WorkerCrashed(f"the worker did not answer: {exc}") from exc
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError as exc:
            raise WorkerCrashed(f"the worker wrote {line[:80]!r}") from exc

    def close(self) -> None:
        try:
            self.sock.close()
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
