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

from ..errors import ServiceError

ROOT = Path(__file__).resolve().parent.parent.parent
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
            [sys.executable, "-m", "quadrille.computer.worker", str(child.fileno())],
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
        self._thinking: dict[str, dict] = {}  # match -> {"version", "worker", "cancelled", "ticket"}
        self._tickets = 0

    # -- called by the match service after every change ---------------------------------
    def notify(self, match_id: str, version: int, computer_to_move: bool) -> None:
        """Start thinking if the computer is to move; cancel a search the position (or a pause) overtook."""
        with self._lock:
            current = self._thinking.get(match_id)
            if current and current["version"] == version and computer_to_move and not current["cancelled"]:
                return  # already thinking about this very position
            if current:
                current["cancelled"] = True
                if current["worker"] is not None:
                    current["worker"].cancel()
            if not computer_to_move:
                return
            self._tickets += 1
            ticket = self._tickets
            self._thinking[match_id] = {"version": version, "worker": None, "cancelled": False, "ticket": ticket}
        self.start_task(self._think, match_id, version, ticket)

    def thinking(self, match_id: str) -> bool:
        with self._lock:
            return match_id in self._thinking

    # -- the background task -----------------------------------------------------------------
    def _think(self, match_id: str, version: int, ticket: int) -> None:
        try:
            request = self.service.computer_request(match_id, version)
            if request is None:
                return
            if request.pop("demo", False):
                self.sleep(self.demo_delay)  # let people watching a demo follow the game
            answer = self._ask(match_id, ticket, request)
            if answer is None or answer.get("cancelled") or self._cancelled(match_id, ticket):
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
                if self._thinking.get(match_id, {}).get("ticket") == ticket:
                    del self._thinking[match_id]

    def _cancelled(self, match_id: str, ticket: int) -> bool:
        with self._lock:
            entry = self._thinking.get(match_id)
            return entry is None or entry["ticket"] != ticket or entry["cancelled"]

    def _set_worker(self, match_id: str, ticket: int, worker) -> None:
        with self._lock:
            entry = self._thinking.get(match_id)
            if entry is not None and entry["ticket"] == ticket:
                entry["worker"] = worker

    def _ask(self, match_id: str, ticket: int, request: dict) -> dict | None:
        request["id"] = f"{match_id}:{ticket}"
        timeout = 3 * (request.get("budget") or 2.0) + 30
        with self._slots:
            worker = None
            for attempt in range(1, ATTEMPTS + 1):
                if self._cancelled(match_id, ticket):
                    return None  # cancelled while waiting for a free worker
                try:
                    worker = worker or self._take_worker()
                    self._set_worker(match_id, ticket, worker)
                    answer = worker.ask(request, timeout)
                    self._idle.append(worker)
                    return answer
                except WorkerCrashed as exc:
                    log.warning("computer worker failed (attempt %d of %d): %s", attempt, ATTEMPTS, exc)
                    if worker is not None:
                        worker.close()
                    worker = None
                finally:
                    self._set_worker(match_id, ticket, None)
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
