"""Computer players: a pool of worker processes that think outside the server's event loop.

The match service tells this module whenever a match changes. When the computer
holds the seat to move, a background task (Flask-SocketIO's, so it is a greenlet
under gevent or eventlet and a thread otherwise) asks an idle worker process for
a move over a socket pair, waiting cooperatively, and hands the answer back to
the service, which applies it with the usual version check. A take-back while
the computer thinks cancels its search; a worker that crashes or hangs is
replaced and the move asked again.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

from .errors import ServiceError

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("quadrille.computer")

ATTEMPTS = 3          # a move is asked this many times before the match is left waiting
START_TIMEOUT = 60.0  # seconds for a new worker to import its engines


class WorkerCrashed(Exception):
    """The worker process died, hung, or answered nonsense."""


class Worker:
    """One worker process and the server's end of its socket pair."""

    def __init__(self):
        parent, child = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "quadrille.computer_worker", str(child.fileno())],
            pass_fds=(child.fileno(),), cwd=str(ROOT), stdin=subprocess.DEVNULL)
        child.close()
        self.sock, self.buffer = parent, b""
        try:
            self._read(START_TIMEOUT)
        except WorkerCrashed:
            self.close()
            raise

    def ask(self, request: dict, timeout: float) -> dict:
        try:
            self.sock.sendall(json.dumps(request).encode() + b"\n")
        except OSError as exc:
            raise WorkerCrashed(f"cannot write to the worker: {exc}") from exc
        answer = self._read(timeout)
        if answer.get("id") != request["id"]:
            raise WorkerCrashed(f"the worker answered {answer!r} to request {request['id']}")
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


class ComputerPlayers:
    """Schedules the computer's moves; at most `size` searches run at once, one per worker process."""

    def __init__(self, service, start_task, sleep, size: int | None = None, demo_delay: float = 0.6):
        self.service = service
        self.start_task, self.sleep = start_task, sleep
        self.size = size or max(1, (os.cpu_count() or 2) - 1)
        self.demo_delay = demo_delay
        self._idle: list[Worker] = []
        self._slots = threading.Semaphore(self.size)
        self._lock = threading.Lock()
        self._thinking: dict[str, dict] = {}  # match -> {"version", "worker"}

    # -- called by the match service after every change ---------------------------------
    def notify(self, match_id: str, version: int, computer_to_move: bool) -> None:
        with self._lock:
            current = self._thinking.get(match_id)
            if current and current["version"] != version and current["worker"] is not None:
                current["worker"].cancel()  # the position changed under the search (a take-back, say)
            if not computer_to_move or (current and current["version"] == version):
                return
            self._thinking[match_id] = {"version": version, "worker": None}
        self.start_task(self._think, match_id, version)

    def thinking(self, match_id: str) -> bool:
        with self._lock:
            return match_id in self._thinking

    # -- the background task -----------------------------------------------------------------
    def _think(self, match_id: str, version: int) -> None:
        try:
            request = self.service.computer_request(match_id, version)
            if request is None:
                return
            if request.pop("demo", False):
                self.sleep(self.demo_delay)  # let people watching a demo follow the game
            answer = self._ask(match_id, version, request)
            if answer is None or answer.get("cancelled"):
                return
            if "error" in answer:
                log.error("the computer failed in match %s: %s", match_id, answer["error"])
                return
            self.service.play_computer(match_id, version, request["seat"], answer["move"])
        except ServiceError as exc:
            log.info("computer move in match %s not applied: %s", match_id, exc.reason)
        except Exception:
            log.exception("computer player failed in match %s", match_id)
        finally:
            with self._lock:
                if self._thinking.get(match_id, {}).get("version") == version:
                    del self._thinking[match_id]

    def _ask(self, match_id: str, version: int, request: dict) -> dict | None:
        request["id"] = f"{match_id}:{version}"
        timeout = 3 * (request.get("budget") or 2.0) + 30
        with self._slots:
            worker = None
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    worker = worker or self._take_worker()
                    with self._lock:
                        self._thinking[match_id]["worker"] = worker
                    answer = worker.ask(request, timeout)
                    self._idle.append(worker)
                    return answer
                except WorkerCrashed as exc:
                    log.warning("computer worker failed (attempt %d of %d): %s", attempt, ATTEMPTS, exc)
                    if worker is not None:
                        worker.close()
                    worker = None
                finally:
                    with self._lock:
                        if match_id in self._thinking:
                            self._thinking[match_id]["worker"] = None
        log.error("no computer move for match %s after %d attempts", match_id, ATTEMPTS)
        return None

    def _take_worker(self) -> Worker:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return Worker()

    def workers(self) -> list[Worker]:
        """The idle worker processes (for tests and shutdown)."""
        with self._lock:
            return list(self._idle)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()
