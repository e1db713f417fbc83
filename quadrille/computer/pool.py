"""Computer players: a pool of worker processes that think outside the server's event loop.

The match service tells this module whenever a match changes. When the computer
holds the seat to move, a background task (Flask-SocketIO's, so it is a greenlet
under gevent or eventlet and a thread otherwise) queues a request for a worker
process, waits for its turn, asks over a socket pair, waiting cooperatively, and
hands the answer back to the service, which applies it with the usual version
check. A take-back while the computer thinks cancels its search; a worker that
crashes or hangs is replaced and the move asked again.

Scheduling (nobody can monopolise the computer):
- a request in a match where a person holds a seat goes ahead of every demo
  (computer against computer), and cuts short a demo's search under way when no
  worker is free; the demo's request goes back in the queue and is asked again;
- among requests of the same kind, the owners (client addresses) take turns:
  fewest searches in flight first, then the owner served longest ago, then
  first come; so many requests of one address never delay another address's;
- a demo that nobody watches is not searched; it rests until someone watches it
  again (`MatchService.wake_computer`);
- an address may have at most `per_address` matches against the computer going
  (quota.py); over it, new ones are refused with 429 rate-limited.

With several server processes, exactly one drives each position: before it thinks about a match's version, a
process takes the lease `computer:<match>:<version>` (infra/leases.py), renewed while it lives. Another
process that is told of the same position finds the lease taken and leaves it. Should the driver die, its
lease lapses within LEASE_TTL seconds, and the takeover sweep of a process that serves the match (it has a
client there) finds the computer to move with nobody thinking, takes the lease and thinks.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from ..errors import ServiceError
from ..infra.leases import MemoryLeases
from .quota import MatchQuota
from .worker_process import Worker, WorkerCrashed

log = logging.getLogger("quadrille.computer")

ATTEMPTS = 3          # a move is asked this many times before the match is left waiting
DEMO_GUARD = 10.0     # seconds an owner's demos may go without a finished search before one is no longer cut short
LEASE_TTL = 6.0       # seconds a dead process's lease on a position outlives it


@dataclass(eq=False)
class Job:
    """A request waiting for a worker, or holding one."""

    match: str
    ticket: int
    owner: str
    person: bool            # a person holds a seat of the match (and waits for this move)
    seq: int                # first come, first served among equals (kept when the job goes back in the queue)
    ready: threading.Event = field(default_factory=threading.Event)  # set when granted a worker, or dropped
    granted: bool = False
    preempted: bool = False  # a demo's search cut short for a person's request
    guarded: bool = False    # a demo's search that is not cut short: its owner's demos have waited long enough
    worker: Worker | None = None
    background: bool = False  # work for no match (an analysis, analysis_jobs.py): after every move, cut short


class ComputerPlayers:
    """Schedules the computer's moves; at most `size` searches run at once, one per worker process."""

    def __init__(self, service, start_task, sleep, size: int | None = None, demo_delay: float = 0.6,
                 watched: Callable[[str], bool] | None = None, per_address: int | None = None,
                 leases=None, lease_ttl: float = LEASE_TTL, quota: Callable | None = None,
                 takeover: tuple[float, Callable[[], list[str]]] | None = None):
        """`leases`: infra/leases.py's (default: in memory). `quota(cap, live)`: makes the quota (default:
        MatchQuota, in memory). `takeover`: (seconds, matches) to sweep, every so many seconds, the matches
        this process serves for a computer to move that nobody drives (several processes)."""
        self.service = service
        self.start_task, self.sleep = start_task, sleep
        self.size = size or max(1, (os.cpu_count() or 2) - 1)
        self.demo_delay = demo_delay
        self.watched = watched or (lambda match_id: True)  # whether anyone is connected to a match
        self.quota = (quota or MatchQuota)(per_address, live=self._live)
        self.leases = leases if leases is not None else MemoryLeases()
        self.lease_ttl = lease_ttl
        self._closed = False
        if takeover is not None:
            start_task(self._sweep_forever, *takeover)
        self._idle: list[Worker] = []
        self._lock = threading.Lock()
        self._thinking: dict[str, dict] = {}  # match -> {"version", "worker", "cancelled", "ticket", "job"}
        self._tickets = 0
        self._free = self.size               # workers not searching
        self._queue: list[Job] = []          # requests waiting for a worker
        self._running: list[Job] = []        # requests holding a worker
        self._served: dict[str, int] = {}    # owner -> when it was last given a worker (for taking turns)
        self._starving: dict[str, float] = {}  # owner -> since when its demos wait without a finished search
        self._serial = 0
        self.demo_guard = DEMO_GUARD
        # Told how long each search that ran to its end took (seconds, whether a person waited for it): the
        # metrics' histogram (quadrille/observability/metrics.py) when they are on.
        self.searched: Callable[[float, bool], None] = lambda seconds, person: None

    # -- called by the match service -------------------------------------------------------
    def admit(self, match_id: str, owner: str | None) -> None:
        """Count a match with computer seats against its owner's cap: ServiceError(429, "rate-limited") over
        it. The service calls this before it creates the match or hands it a computer seat."""
        self.quota.admit(match_id, owner)

    def notify(self, match_id: str, version: int, computer_to_move: bool, over: bool = False) -> None:
        """Start thinking if the computer is to move; cancel a search the position (or a pause) overtook.

        Also called when someone starts watching, which resumes a demo that rested for want of watchers."""
        if over:
            self.quota.release(match_id)
        else:
            self.quota.touch(match_id)
        with self._lock:
            current = self._thinking.get(match_id)
            if current and current["version"] == version and computer_to_move and not current["cancelled"]:
                return  # already thinking about this very position
            if current:
                current["cancelled"] = True
                self._withdraw(current)
            if not computer_to_move:
                return
            self._tickets += 1
            ticket = self._tickets
            self._thinking[match_id] = {"version": version, "worker": None, "cancelled": False, "ticket": ticket,
                                        "job": None}
        self.start_task(self._think, match_id, version, ticket)

    def thinking(self, match_id: str) -> bool:
        with self._lock:
            return match_id in self._thinking

    def idle(self) -> bool:
        """The computer has gone quiet: no match it is about to think about, no request queued or searching.
        A read-only look for whoever must wait until it has (tests, a shutdown) rather than guess a time."""
        with self._lock:
            return not self._thinking and not self._queue and not self._running

    def _live(self, match_id: str) -> bool:
        """For the quota: the match is not resting (read without the lock: a dict lookup, and the quota
        must not wait for this lock while holding its own)."""
        return match_id in self._thinking or self.watched(match_id)

    # -- the background task -----------------------------------------------------------------
    def _think(self, match_id: str, version: int, ticket: int) -> None:
        lease = None
        try:
            request = self.service.computer_request(match_id, version)
            if request is None:
                return
            if not self.leases.acquire(f"computer:{match_id}:{version}", self.lease_ttl):
                return  # another process drives this position
            lease = f"computer:{match_id}:{version}"
            person = not request.pop("demo", False)
            owner = self.quota.owner(match_id)
            try:
                self.quota.admit(match_id, owner)  # a match back from a rest counts again, within the cap
            except ServiceError:
                log.info("the computer waits in match %s: its owner has too many matches going", match_id)
                return
            if not person:
                self.sleep(self.demo_delay)  # let people watching a demo follow the game
            answer = self._ask(match_id, ticket, request, owner or f"match:{match_id}", person)
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
            try:
                if lease is not None:
                    self.leases.release(lease)
                self.quota.touch(match_id)
            except Exception:
                log.warning("could not release the computer's lease in match %s", match_id, exc_info=True)

    def _sweep_forever(self, every: float, matches: Callable[[], list[str]]) -> None:
        """Several processes: the computer seats of a process that died are taken over by a process that
        serves the match. Every `every` seconds, each match this process has clients in, whose cached copy
        has computer seats, is woken: if the computer is to move and nobody holds its lease, this process
        takes it and thinks (notify does nothing while this process already thinks about that position)."""
        while not self._closed:
            self.sleep(every)
            try:
                self.service.resume_computers(matches())
            except Exception:
                log.exception("the computer's takeover sweep failed")

    def _cancelled(self, match_id: str, ticket: int) -> bool:
        with self._lock:
            return self._current(match_id, ticket) is None

    def _current(self, match_id: str, ticket: int) -> dict | None:
        """The match's entry if it is still this ticket's and not cancelled (the caller holds the lock)."""
        entry = self._thinking.get(match_id)
        return entry if entry is not None and entry["ticket"] == ticket and not entry["cancelled"] else None

    def _ask(self, match_id: str, ticket: int, request: dict, owner: str, person: bool) -> dict | None:
        request["id"] = f"{match_id}:{ticket}"
        timeout = 3 * (request.get("budget") or 2.0) + 30
        failures, seq = 0, None
        while failures < ATTEMPTS:
            job = self._enqueue(match_id, ticket, owner, person, seq)
            if job is None:
                return None  # cancelled, or a demo that nobody watches any more (it rests)
            seq = job.seq
            job.ready.wait()
            if not job.granted:
                return None  # cancelled, or left resting, while it waited
            worker = answer = None
            try:
                worker = self._take_worker()
                if self._send(job, worker, request):
                    sent = time.perf_counter()
                    answer = worker.receive(request["id"], timeout)
                    if not answer.get("cancelled"):
                        self.searched(time.perf_counter() - sent, person)
            except WorkerCrashed as exc:
                failures += 1
                log.warning("computer worker failed (attempt %d of %d): %s", failures, ATTEMPTS, exc)
                if worker is not None:
                    worker.close()
                worker = None
            finally:
                self._release(job, worker, finished=answer is not None and not answer.get("cancelled"))
            if answer is not None and not (job.preempted and answer.get("cancelled")):
                return answer
            # A crash, a demo's search cut short for a person, or a job cancelled before it began (the
            # next _enqueue says so): ask again.
        log.error("no computer move for match %s after %d attempts", match_id, ATTEMPTS)
        return None

    # -- the queue (every method below holds the lock, or takes it) -----------------------------
    def _enqueue(self, match_id: str, ticket: int, owner: str, person: bool, seq: int | None) -> Job | None:
        with self._lock:
            entry = self._current(match_id, ticket)
            if entry is None:
                return None
            if not person and not self.watched(match_id):
                del self._thinking[match_id]  # the demo rests; a watcher wakes it (notify)
                return None
            if seq is None:
                self._serial += 1
                seq = self._serial
            job = Job(match_id, ticket, owner, person, seq)
            if not person:
                self._starving.setdefault(owner, time.monotonic())
            entry["job"] = job
            self._queue.append(job)
            self._dispatch()
            return job

    def _rank(self, job: Job) -> tuple:
        """The order in which queued jobs get a worker: people first, then owners take turns."""
        in_flight = sum(1 for running in self._running if running.owner == job.owner)
        return (not job.person, job.background, in_flight, self._served.get(job.owner, 0), job.seq)

    def _dispatch(self) -> None:
        """Give free workers to the best queued jobs; cut demos short while a person's request waits."""
        while self._free and self._queue:
            job = min(self._queue, key=self._rank)
            self._queue.remove(job)
            if not job.person and not job.background and not self.watched(job.match):
                if self._current(job.match, job.ticket) is not None:
                    del self._thinking[job.match]  # the demo rests; a watcher wakes it (notify)
                job.ready.set()
                continue
            self._free -= 1
            self._running.append(job)
            self._serial += 1
            self._served[job.owner] = self._serial
            # Cutting short every demo search would starve demos while people play; an owner's demo that
            # has waited `demo_guard` seconds for a finished search runs to its end.
            since = self._starving.get(job.owner)
            job.guarded = (not job.person and not job.background and since is not None
                           and time.monotonic() - since > self.demo_guard)
            job.granted = True
            job.ready.set()
        waiting = sum(1 for job in self._queue if job.person)
        stopping = sum(1 for job in self._running if job.preempted)
        for job in reversed(self._running):  # the demo that started last has done the least work
            if stopping >= waiting:
                break
            if not job.person and not job.preempted and not job.guarded:
                job.preempted = True
                stopping += 1
                if job.worker is not None:
                    job.worker.cancel()

    def _withdraw(self, entry: dict) -> None:
        """A cancelled request leaves the queue, or its search is cut short."""
        job = entry["job"]
        if job is not None and job in self._queue:
            self._queue.remove(job)
            job.ready.set()
        if entry["worker"] is not None:
            entry["worker"].cancel()

    def _send(self, job: Job, worker: Worker, request: dict) -> bool:
        """Send the request unless it was cancelled or cut short meanwhile. Under the lock, so that a cancel
        always follows its request on the socket (a cancel sent first would be read as a stale one)."""
        with self._lock:
            entry = None if job.background else self._current(job.match, job.ticket)
            if (entry is None and not job.background) or job.preempted:
                return False
            worker.send(request)
            job.worker = worker
            if entry is not None:
                entry["worker"] = worker
            return True

    def _release(self, job: Job, worker: Worker | None, finished: bool) -> None:
        """The job gives its worker back (to the idle list, unless it died) and the next job gets it;
        `finished`: its search ran to its end."""
        with self._lock:
            entry = self._thinking.get(job.match)
            if entry is not None and entry["ticket"] == job.ticket:
                entry["worker"] = None
            job.worker = None
            if worker is not None:
                self._idle.append(worker)
            self._running.remove(job)
            self._free += 1
            if finished and not job.person:
                self._starving.pop(job.owner, None)
            if not any(other.owner == job.owner for other in self._queue + self._running):
                self._served.pop(job.owner, None)  # an owner with nothing queued comes first next time
                self._starving.pop(job.owner, None)
            self._dispatch()

    def _take_worker(self) -> Worker:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return Worker()

    # -- work for no match (analysis_jobs.py): the lowest lane ----------------------------------------------
    def enqueue_background(self, owner: str, seq: int | None) -> Job:
        """Queue a background job (`job.ready` is set when it holds a worker): after every person's move and
        demo, owners taking turns as above; cut short whenever a person's request waits."""
        with self._lock:
            if seq is None:
                self._serial += 1
                seq = self._serial
            job = Job(f"background:{seq}", 0, owner, False, seq, background=True)
            self._queue.append(job)
            self._dispatch()
            return job

    def search_with(self, job: Job, request: dict, timeout: float) -> dict | None:
        """Ask the worker the granted `job` holds; give it back. None: cut short for a person (ask again);
        WorkerCrashed: the worker died (it is replaced)."""
        worker = answer = None
        try:
            worker = self._take_worker()
            if self._send(job, worker, request):
                answer = worker.receive(request["id"], timeout)
        except WorkerCrashed:
            if worker is not None:
                worker.close()
            worker = None
            raise
        finally:
            self._release(job, worker, finished=answer is not None and not answer.get("cancelled"))
        return None if answer is None or answer.get("cancelled") else answer

    def queued(self) -> int:
        """Requests waiting for a worker now (read without the lock: a length, for the metrics)."""
        return len(self._queue)

    def workers(self) -> list[Worker]:
        """The idle worker processes (for tests and shutdown)."""
        with self._lock:
            return list(self._idle)

    def close(self) -> None:
        self._closed = True
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()
