"""Where a real server's time goes under the load benchmark, by concern: py-spy samples of `app.py` (gevent)
while bench/load.py's tables play against it.

    python bench/profile_server.py                      # --think 0, 200 matches, 20 s
    python bench/profile_server.py --think 0.25 --keep /tmp/server.stacks   # the raw stacks, for a flame graph
    python bench/profile_server.py --rate 1000          # five times the samples: finer shares, a dearer run

Needs py-spy (`pip install py-spy`; a development tool, not a dependency). It prints the samples' shares by
concern (the Socket.IO door, Flask's context, the budgets, the match core, storage, the engine, JSON, sending)
and, for each, the milliseconds of samples per accepted move. py-spy samples wall time: a process that a busy
machine takes off its core is charged to where it stood, above all to `send()`, which wakes the client that
then takes the core; bench/load.py's `server_cpu_ms_per_move` is the CPU figure. (cProfile under gevent cost
the server nine tenths of its speed, and skews towards small functions.)
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

# (concern, pattern a stack must contain), the first that matches names the sample
CONCERNS = [
    ("HTTP routes (a match made, a seat claimed)", r"quadrille/web/http_api\.py"),
    ("send() of frames (and the preemption it causes)", r"(send_at_once|SocketMixin\.send) \([^;]*$"),
    ("storage: a move recorded", r"_record_event .*(sqlalchemy|sqlite3|storage\.py)"),
    ("storage: other SQL", r"sqlalchemy|sqlite3"),
    ("JSON", r"/json/|engineio/json"),
    ("engine: move names", r"games/.*move_names|move_names.*games/"),
    ("engine: view", r"games/[^;]*\.view "),
    ("engine: other", r"games/"),
    ("budgets and rate limits", r"infra/limits\.py|limits/|flask_limiter"),
    ("presence and away", r"presence\.py|absence\.py|timeouts\.py"),
    ("ratings and accounts listeners", r"quadrille/ratings/|quadrille/accounts/"),
    ("match core (quadrille/matches)", r"quadrille/matches/[^;]*$"),
    ("Flask context, session, routing", r"(flask|werkzeug|itsdangerous|blinker)/[^;]*$"),
    ("Socket.IO door (quadrille/web)", r"quadrille/web/(sockets|socketio_server|frames|socket_context)\.py[^;]*$"),
    ("python-socketio / engineio", r"(socketio|engineio|flask_socketio)/[^;]*$"),
    ("WebSocket (simple_websocket, wsproto)", r"(simple_websocket|wsproto)/[^;]*$"),
    ("gevent (hub, pywsgi, sockets)", r"gevent/[^;]*$"),
]

RATE = 200  # samples a second, unless --rate says otherwise


def concern(stack: str) -> str:
    for name, pattern in CONCERNS:
        if re.search(pattern, stack):
            return name
    return "other"


def shares(path: str, moves: int, rate: int = RATE) -> list[tuple[str, float, float]]:
    """(concern, share of samples, ms of samples per move) from py-spy's raw output."""
    counts, total = collections.Counter(), 0
    with open(path) as stacks:
        for line in stacks:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if stack and n.isdigit():  # (py-spy may leave a line cut short when it stops)
                counts[concern(stack)] += int(n)
                total += int(n)
    return [(name, n / total, 1000 * n / rate / max(moves, 1)) for name, n in counts.most_common()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=0)
    parser.add_argument("--keep", help="keep py-spy's raw stacks in this file")
    parser.add_argument("--rate", type=int, default=RATE, help="samples a second (more: finer, dearer)")
    args = parser.parse_args()
    if not shutil.which("py-spy"):
        raise SystemExit("needs py-spy: pip install py-spy")
    import load
    with tempfile.TemporaryDirectory() as tmp:
        stacks = args.keep or os.path.join(tmp, "server.stacks")
        proc, url = load.start_server("gevent", os.path.join(tmp, "load.db"))
        try:
            # py-spy starts with the measured window (after the clients' warm-up) and lasts as long
            spy = subprocess.Popen(["sh", "-c", f"sleep {load.WARM_UP}; exec py-spy record -p {proc.pid} "
                                                f"-r {args.rate} -d {int(args.seconds)} -f raw --nonblocking "
                                                f"-o {stacks}"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            result = load.measure(url, args.matches, args.seconds, args.think, 2, proc.pid)
            spy.wait(60)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
        moves = int(result["moves_per_s"] * result["seconds"])
        print({k: result[k] for k in ("moves_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_move", "refused")})
        print(f"{'share':>6} {'ms/move':>8}  concern")
        for name, share, per_move in shares(stacks, moves, args.rate):
            print(f"{100 * share:5.1f}% {per_move:8.3f}  {name}")


if __name__ == "__main__":
    main()
