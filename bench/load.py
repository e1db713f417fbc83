"""Load benchmark: many concurrent online matches against a real server process.

    python bench/load.py                         # 200 matches (400 clients), gevent and eventlet, 30 s each
    python bench/load.py --matches 200 --think 0 --async-mode gevent --seconds 20
    python bench/load.py --url http://127.0.0.1:5000   # against a server you started yourself
    python bench/load.py --analyses 3 --async-mode gevent   # people's latency without, then with 3 analyses waiting

Each match is an online Trails and Towers match (11x11) with two Socket.IO clients (websocket
transport), one per seat. The player to move waits `--think` seconds (uniform between half and
one and a half times it; 0 plays flat out), emits `move` with the version it knows, and the time
from that emit to the `state` event of the new version on the mover's own client is the latency.
A finished match is replaced by a new one, so the load stays steady; each seat connects again for it,
naming the match as a match page does. Clients run in several
processes (--procs) so that the client side is not the bottleneck.

Each table (its two seats, and the HTTP requests that make its matches) has a loopback address of its own
(127.0.x.y: Linux routes all of 127/8 to loopback), as players on their own machines would: the server's
budgets are per address, and 400 players from one address would open more connections a minute than one
address may (CONNECTION_RATE).

Reports: accepted moves per second, refused moves, connections the server refused (none, in a sound run),
and p50/p95/p99 latency in milliseconds. With `--analyses N`, each async mode runs twice on fresh servers:
without analyses, then with N analyses kept waiting on the computer's workers for the whole run
(bench/analysis_load.py), and `p99_with_analyses` says how the people's p99 compares (the target: within 10%).
Needs the async Socket.IO client: pip install "python-socketio[asyncio_client]" aiohttp.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARM_UP = 3.0  # seconds the clients play before the measured window
sys.path.insert(0, ROOT)  # bench.analysis_load, when run as `python bench/load.py`


def start_server(async_mode: str, db: str) -> tuple[subprocess.Popen, str]:
    """`python app.py` on a free port; its output goes to a log file beside the database (a pipe nobody
    reads would fill up and stall the server)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_path = db + ".log"
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port), "--db", db, "--async-mode", async_mode],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while "Quadrille ready" not in open(log_path).read():
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise SystemExit(f"server did not start:\n{open(log_path).read()}")
        time.sleep(0.05)
    return proc, f"http://127.0.0.1:{port}"


def table_address(index: int) -> str:
    """The loopback address of the index-th table (0 <= index < 64,000)."""
    return f"127.0.{index // 250}.{index % 250 + 2}"


class FromAddress(requests.adapters.HTTPAdapter):
    """Requests' transport, its connections opened from one local address (any of 127/8 reaches a server on
    127.0.0.1)."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, source_address=(self.address, 0), **kwargs)


def http_from(address: str) -> requests.Session:
    """A requests session whose connections come from `address` (also the security tests' attackers')."""
    session = requests.Session()
    session.mount("http://", FromAddress(address))
    return session


class Seat:
    """One player's client in one match, connecting from `address`."""

    def __init__(self, url: str, stats: dict, think: float, rng: random.Random, address: str):
        import aiohttp
        import socketio
        self.http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
        self.sio = socketio.AsyncClient(reconnection=False, http_session=self.http)
        self.url, self.stats, self.think, self.rng = url, stats, think, rng
        self.match = self.token = self.seat = None
        self.over = asyncio.Event()
        self.pending: dict[int, float] = {}   # version expected -> time the move was emitted
        self.seen = -1                        # the newest version received
        self.moving: asyncio.Task | None = None
        self.sio.on("state", self.on_state)

    async def join(self, match: str, token: str, seat: int) -> dict:
        """Connect for this match, as a match page does (`?match=` lets nginx send both seats of a match to one
        process in a cluster; one process ignores it), and watch it."""
        self.match, self.token, self.seat = match, token, seat
        self.over = asyncio.Event()
        self.pending.clear()
        self.seen = -1
        await self.sio.connect(f"{self.url}/?match={match}", transports=["websocket"], wait_timeout=30)
        ack = await self.sio.call("watch", {"match": match, "token": token}, timeout=30)
        return ack["state"]

    async def leave(self):
        """Close this match's socket once its last move was answered (the move that ends a game is broadcast
        before it is acknowledged, and the table moves on at the broadcast)."""
        if self.moving is not None:
            await asyncio.wait([self.moving], timeout=30)
        await self.sio.disconnect()

    async def on_state(self, state):
        if state.get("match") != self.match or state["version"] <= self.seen:
            return  # another match's, or one already acted on (a STATE may come twice, e.g. sent again)
        self.seen = state["version"]
        sent = self.pending.pop(state["version"], None)
        if sent is not None:
            self.stats["latencies"].append(time.perf_counter() - sent)
        if state["outcome"] is not None:
            self.over.set()
        elif state["turn"] == self.seat:
            self.moving = asyncio.get_running_loop().create_task(self.play(state))

    async def play(self, state):
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if not self.stats["running"]:
            self.over.set()
            return
        version = state["version"] + 1
        self.pending[version] = time.perf_counter()
        ack = await self.sio.call("move", {"match": self.match, "token": self.token,
                                           "move": self.rng.choice(state["legal"]), "version": state["version"]},
                                  timeout=30)
        if ack.get("ok"):
            self.stats["accepted"] += 1
        else:
            self.pending.pop(version, None)
            self.stats["refused"] += 1


def new_match(http: requests.Session, url: str) -> tuple[str, str, str]:
    created = http.post(f"{url}/api/matches", json={"game": "trails", "mode": "online"}).json()
    second = http.post(f"{url}/api/matches/{created['match']}/seats",
                       json={"invite": created["invite_secret"]}).json()
    return created["match"], created["token"], second["token"]


async def table(url: str, stats: dict, think: float, rng: random.Random, address: str) -> None:
    """Two seats playing match after match from one address until the run ends. A connection the server
    refuses is counted, and the table starts another match a second later."""
    import socketio
    loop = asyncio.get_running_loop()
    blue, red = Seat(url, stats, think, rng, address), Seat(url, stats, think, rng, address)
    http = http_from(address)
    try:
        while stats["running"]:
            match, blue_token, red_token = await loop.run_in_executor(None, new_match, http, url)
            try:
                await red.join(match, red_token, 2)
                await blue.on_state(await blue.join(match, blue_token, 1))
            except socketio.exceptions.ConnectionError:
                stats["connections_refused"] += 1
                await red.leave()
                await asyncio.sleep(1.0)
                continue
            while stats["running"] and not (blue.over.is_set() or red.over.is_set()):
                await asyncio.sleep(0.05)
            stats["games"] += 1
            await blue.leave()
            await red.leave()
    finally:
        await blue.http.close()
        await red.http.close()


async def run_matches(url: str, matches: int, seconds: float, think: float, seed: int, first: int) -> dict:
    """`matches` tables, numbered from `first` (their addresses), played for `seconds` after the warm-up."""
    rng = random.Random(seed)
    stats = {"latencies": [], "accepted": 0, "refused": 0, "connections_refused": 0, "running": True, "games": 0}
    tasks = [asyncio.create_task(table(url, stats, think, rng, table_address(first + i))) for i in range(matches)]
    await asyncio.sleep(WARM_UP)  # every table connects and starts playing
    stats["latencies"].clear()
    accepted0, t0, cpu0 = stats["accepted"], time.perf_counter(), time.process_time()
    await asyncio.sleep(seconds)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    accepted = stats["accepted"] - accepted0
    stats["running"] = False
    await asyncio.wait(tasks, timeout=15)
    return {"accepted": accepted, "elapsed": elapsed, "refused": stats["refused"],
            "connections_refused": stats["connections_refused"], "latencies": stats["latencies"],
            "games": stats["games"], "cpu": cpu}


def client_process(args: tuple) -> dict:
    url, matches, seconds, think, seed, first = args
    return asyncio.run(run_matches(url, matches, seconds, think, seed, first))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play_tables(url: str, matches: int, seconds: float, think: float, procs: int) -> list[dict]:
    """`matches` tables spread over `procs` client processes, for `seconds` after the warm-up: each process's
    counts."""
    shares = [matches // procs + (1 if i < matches % procs else 0) for i in range(procs)]
    with multiprocessing.Pool(procs) as pool:
        return pool.map(client_process, [(url, n, seconds, think, 1000 + i, sum(shares[:i]))
                                         for i, n in enumerate(shares) if n])


def summarise(results: list[dict]) -> dict:
    """The client processes' counts as one: accepted moves/s, refusals, latency percentiles, client CPU."""
    latencies = [x for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    accepted = sum(r["accepted"] for r in results)
    return {
        "seconds": round(elapsed, 1), "accepted": accepted, "moves_per_s": round(accepted / elapsed, 1),
        "refused": sum(r["refused"] for r in results),
        "connections_refused": sum(r["connections_refused"] for r in results),
        "games_finished": sum(r["games"] for r in results),
        "p50_ms": round(percentile(latencies, 0.50), 2), "p95_ms": round(percentile(latencies, 0.95), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2), "samples": len(latencies),
        "client_cpu_cores": round(sum(r["cpu"] for r in results) / elapsed, 2),
    }


def measure(url: str, matches: int, seconds: float, think: float, procs: int, server_pid: int | None = None,
            analyses: int = 0) -> dict:
    """Run the clients; with the server's pid, also the server's CPU time per accepted move, a figure that
    other work on the machine distorts far less than the wall-clock latencies. `analyses`: that many kept
    waiting on the server for the whole run (bench/analysis_load.py)."""
    from bench.analysis_load import Analyses, children_cpu_seconds
    cpu = {}
    if server_pid:
        def sample():
            time.sleep(WARM_UP)
            cpu["start"], cpu["workers_start"] = cpu_seconds(server_pid), children_cpu_seconds(server_pid)
            time.sleep(seconds)
            cpu["end"], cpu["workers_end"] = cpu_seconds(server_pid), children_cpu_seconds(server_pid)
    feeder = Analyses(url, analyses, http_from, table_address).start() if analyses else None
    if server_pid:
        import threading
        threading.Thread(target=sample, daemon=True).start()
    try:
        summary = summarise(play_tables(url, matches, seconds, think, procs))
    finally:
        if feeder is not None:
            summary.update(feeder.stop())
    if "workers_end" in cpu:
        summary["workers_cpu_cores"] = round((cpu["workers_end"] - cpu["workers_start"]) / seconds, 2)
    accepted = summary.pop("accepted")
    if "end" in cpu and accepted:
        cpu["per_move_ms"] = round(1000 * (cpu["end"] - cpu["start"]) / accepted, 3)
        cpu["share"] = round((cpu["end"] - cpu["start"]) / seconds, 2)
    return {"matches": matches, "clients": 2 * matches, "think_s": think, **summary,
            "server_cpu_ms_per_move": cpu.get("per_move_ms"), "server_cpu_cores": cpu.get("share")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.25, help="mean seconds a player waits before moving")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--async-mode", choices=["gevent", "eventlet", "both"], default="both")
    parser.add_argument("--url", help="an already running server (then --async-mode is ignored)")
    parser.add_argument("--analyses", type=int, default=0,
                        help="also run with this many analyses kept waiting, and compare the people's p99")
    args = parser.parse_args()

    if args.url:
        print(json.dumps({"server": args.url, **measure(args.url, args.matches, args.seconds, args.think, args.procs,
                                                        analyses=args.analyses)}))
        return
    modes = ["gevent", "eventlet"] if args.async_mode == "both" else [args.async_mode]
    for mode in modes:
        baseline = None
        for analyses in ([0, args.analyses] if args.analyses else [0]):
            result = measure_on_a_fresh_server(mode, args, analyses)
            if analyses and baseline:
                result["p99_with_analyses"] = f"{result['p99_ms'] / baseline['p99_ms']:.2f}x without"
            baseline = baseline or result
            print(json.dumps({"async_mode": mode, "analyses": analyses, **result}), flush=True)


def measure_on_a_fresh_server(mode: str, args, analyses: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(mode, os.path.join(tmp, "load.db"))
        try:
            return measure(url, args.matches, args.seconds, args.think, args.procs, proc.pid, analyses)
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    main()
