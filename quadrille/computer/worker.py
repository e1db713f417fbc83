"""A computer player's worker process: `python -m quadrille.computer.worker FD [GAME_PACKAGE...]`.

The game packages the server registered beyond Quadrille's own (GAME_PACKAGES, games.register) follow FD, so
that the worker knows the same games.

It reads one JSON request per line from the socket FD (inherited from the server),
rebuilds the board through the engine contract, asks `ai.choose_move` (or, for an
analysis, `ai.analysis`: analysis_requests.py), and writes one JSON answer per line.
While it thinks, a line "cancel" on the socket ends the search early (the best move
so far is returned, and the server discards it).

It runs as a plain process, without the server's monkey-patching, so the search
has a whole core and the server's event loop never waits for it.
"""
from __future__ import annotations

import json
import select
import socket
import sys
import time

import ai
import games
from quadrille.computer import analysis_requests


class Channel:
    """Line-oriented reading and writing on a socket, with a non-blocking check for "cancel"."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = b""
        self.cancelled = False
        self._next_poll = 0.0

    def read_line(self) -> bytes | None:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def write(self, obj: dict) -> None:
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def stop_requested(self) -> bool:
        """Polled by the search; looks at the socket at most every 10 ms."""
        now = time.monotonic()
        if self.cancelled or now < self._next_poll:
            return self.cancelled
        self._next_poll = now + 0.01
        if select.select([self.sock], [], [], 0)[0]:
            line = self.read_line()
            if line is None or line.strip() == b"cancel":
                self.cancelled = True
        return self.cancelled


def answer(request: dict, channel: Channel) -> dict:
    if request.get("kind") in analysis_requests.KINDS:  # a step of an analysis (analysis_requests.py)
        return {"id": request["id"], **analysis_requests.answer(request, channel.stop_requested)}
    board = games.from_dict({"game": request["game"], "options": request["options"], "moves": request["moves"]})
    move = ai.choose_move(board, request["level"], seed=request.get("seed"), time_budget=request.get("budget"),
                          stop=channel.stop_requested)
    return {"id": request["id"], "move": move, "cancelled": channel.cancelled}


def main(fd: int) -> int:
    sock = socket.socket(fileno=fd)
    sock.setblocking(True)  # under gevent or eventlet the server's end, and so the inherited fd, is non-blocking
    channel = Channel(sock)
    channel.write({"ready": True})
    while True:
        line = channel.read_line()
        if line is None:
            return 0  # the server went away
        if not line.strip() or line.strip() == b"cancel":
            continue  # a cancel that arrived after the answer
        request = json.loads(line)
        channel.cancelled = False
        try:
            channel.write(answer(request, channel))
        except Exception as exc:  # report, and stay alive for the next request
            channel.write({"id": request.get("id"), "error": f"{type(exc).__name__}: {exc}"})


if __name__ == "__main__":
    for package in sys.argv[2:]:
        games.register(package)
    sys.exit(main(int(sys.argv[1])))
