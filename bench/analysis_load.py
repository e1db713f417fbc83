"""Analyses kept waiting on a server while bench/load.py's people play (`python bench/load.py --analyses N`).

N addresses of their own (ANALYSIS_QUEUE_PER_ADDRESS counts per address) each keep one analysis of a long game
waiting: a Trails game of up to 60 random moves, imported as a local match and analysed; when it is done, the
next one is asked. So the computer's workers analyse for the whole measured window, and load.py compares the
people's move latency with and without them (the issue's target: p99 within 10%).

Also measured: the processor time the server's worker processes used during the window (how busy the
analyses kept them), and the analyses finished.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import games  # noqa: E402

MOVES = 60
FIRST_ADDRESS = 60_000  # table_address() numbers far past the tables'


def random_game(rng: random.Random, moves: int = MOVES) -> list[str]:
    board = games.get("trails").new()
    while board.outcome() is None and len(board.moves) < moves:
        board.push(rng.choice(board.legal_moves()))
    return list(board.moves)


class Analyses:
    """Keeps `count` analyses waiting on the server at `url` until stopped."""

    def __init__(self, url: str, count: int, http_from, table_address, seed: int = 7):
        self.url, self.count, self.rng = url, count, random.Random(seed)
        self.sessions = [http_from(table_address(FIRST_ADDRESS + i)) for i in range(count)]
        self.waiting: list[str | None] = [None] * count
        self.finished = self.refused = 0
        self.running = True
        self.thread = threading.Thread(target=self._keep_waiting, daemon=True)

    def start(self, warm: float = 120.0) -> "Analyses":
        """Ask the first analyses, and wait until one runs (the worker process started and imported its
        engines, as on a server that has been serving a while), at most `warm` seconds."""
        for i in range(self.count):
            self.waiting[i] = self._ask(self.sessions[i])
        deadline = time.monotonic() + warm
        while time.monotonic() < deadline and not any(self._progress(i) > 0 for i in range(self.count)):
            time.sleep(0.2)
        self.thread.start()
        return self

    def _progress(self, i: int) -> float:
        return self.sessions[i].get(f"{self.url}/api/matches/{self.waiting[i]}/analysis", timeout=30).json()["progress"]

    def stop(self) -> dict:
        self.running = False
        self.thread.join(10)
        return {"analyses_kept_waiting": self.count, "analyses_finished": self.finished,
                "analyses_refused": self.refused}

    def _keep_waiting(self) -> None:
        while self.running:
            for i, session in enumerate(self.sessions):
                answer = session.get(f"{self.url}/api/matches/{self.waiting[i]}/analysis", timeout=30).json()
                if answer.get("status") in ("done", "failed"):
                    self.finished += 1
                    self.waiting[i] = self._ask(session)
            time.sleep(0.5)

    def _ask(self, session) -> str:
        record = {"game": "trails", "options": {}, "moves": random_game(self.rng)}
        created = session.post(f"{self.url}/api/matches/import", json=record, timeout=30).json()
        asked = session.post(f"{self.url}/api/matches/{created['match']}/analysis", timeout=30)
        if asked.status_code not in (200, 202):
            self.refused += 1
        return created["match"]


def children_cpu_seconds(pid: int) -> float:
    """The processor time the process's children (the computer's workers) have used so far (Linux /proc)."""
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    total = 0.0
    for child in out.split():
        try:
            fields = open(f"/proc/{child}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total
