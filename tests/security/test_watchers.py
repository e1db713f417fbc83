"""Watchers against a real server process: one address attaching many sockets to a match, sockets that watch
and never read, and many watchers multiplying each action (socketio_server.py, web/frames.py,
infra/limits.py's Audiences)."""
from __future__ import annotations

import json
import selectors
import socket
import threading
import time
from urllib.parse import urlsplit

import websocket

import pytest

from tests.support.waiting import wait_until
from tests.support.clients import ATTACKER, SETUP, RawSocket, request
from tests.security.conftest import WORST_ROUND_TRIP_MS, run_attack

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = pytest.mark.alone

WATCHERS_PER_ADDRESS = 10
SERVER_SETTINGS = {
    "WATCHERS_PER_ADDRESS": WATCHERS_PER_ADDRESS,
    # The attacker's player makes thousands of actions and the victim probes for a minute: budgets that let
    # them, so that what is measured is what watchers cost.
    "SOCKET_PLAYER_EVENTS": "100000 per 20 seconds",
    "SOCKET_ADDRESS_EVENTS": "1000000 per 20 seconds",
    "CONNECTION_RATE": "100000 per minute",
    "HTTP_RATE": "100000 per minute",
    "MATCH_CREATION_RATE": "1000 per minute",
}
# The largest STATE the server sends: a 40x40 Gamma of 16 players lists its 1,600 legal moves (37 KB).
BIG_MATCH = {"game": "gamma", "mode": "local", "options": {"width": 40, "height": 40, "players": 16}}



def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def address(n: int) -> str:
    """The n-th of many loopback addresses of the attack's watchers (127.0.32.1 and on)."""
    return f"127.0.{32 + n // 250}.{1 + n % 250}"


class Player:
    """The attacker's own match, played through Socket.IO: actions (a move and its take-back) as fast as the
    server answers, `burst` of them sent before waiting for their answers."""

    def __init__(self, url: str, body: dict = BIG_MATCH, address: str = ATTACKER):
        status, _, created = request(url, "POST", "/api/matches", body, address=address)
        assert status == 201, created
        self.match, self.token = created["match"], created["token"]
        self.sock = RawSocket(url, address)
        self.state = self.sock.call("watch", {"match": self.match, "token": self.token})["state"]

    def act(self, actions: int, burst: int = 1) -> None:
        move = {"match": self.match, "token": self.token, "move": self.state["legal"][0]}
        for _ in range(0, actions, 2 * burst):
            ids = []
            for _ in range(burst):
                ids += [self.sock.emit("move", move), self.sock.emit("takeback", {"match": self.match,
                                                                                   "token": self.token})]
            for id in ids:
                answer = self.sock.wait_answer(id, timeout=60)
                assert answer["ok"], answer
            self.sock.events.clear()

    def close(self) -> None:
        self.sock.close()


def test_many_watchers_from_one_address_are_capped_with_a_clear_refusal(target):
    match = Player(target.url, address=SETUP).match  # its player's socket counts for SETUP's address
    crowd = [RawSocket(target.url, ATTACKER) for _ in range(WATCHERS_PER_ADDRESS + 5)]
    answers = [sock.call("watch", {"match": match}) for sock in crowd]
    refused = [a for a in answers if not a["ok"]]
    assert sum(a["ok"] for a in answers) == WATCHERS_PER_ADDRESS and len(refused) == 5, answers
    assert all(a["error"] == "rate-limited" and "watching this match" in a["reason"] for a in refused), refused
    # Another address watches the same match; the refused sockets may watch another match.
    assert RawSocket(target.url, SETUP).call("watch", {"match": match})["ok"]
    other = Player(target.url).match
    assert crowd[-1].call("watch", {"match": other})["ok"]
    # A watcher that leaves makes room for another from its address.
    crowd[0].close()
    # as soon as the server has heard it leave (a refused watch changes nothing, so asking again is harmless)
    wait_until(lambda: crowd[-2].call("watch", {"match": match})["ok"], 10, "room for another watcher")
    for sock in crowd[1:]:
        sock.close()


def non_reader(url: str, source: str, match: str) -> socket.socket:
    """A WebSocket that watches `match`, then never reads again (its receive buffer kept small)."""
    parts = urlsplit(url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((source, 0))
    sock.connect((parts.hostname, parts.port))
    ws = websocket.WebSocket()
    ws.connect(f"ws://{parts.netloc}/socket.io/?EIO=4&transport=websocket", socket=sock)
    ws.recv()
    ws.send("40")
    ws.recv()
    ws.send("421" + json.dumps(["watch", {"match": match}]))
    while not ws.recv().startswith("431"):  # the server's answer to the watch: it watches from now on
        pass
    return sock


def ended(sock: socket.socket, within: float) -> bool:
    """Whether the server closed the connection: what it sent is read (and dropped) until the end of it."""
    sock.settimeout(within)
    try:
        while sock.recv(1 << 20):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def test_watchers_that_never_read_are_disconnected_and_memory_stays_bounded(target, victim):
    player = Player(target.url)
    silent = [non_reader(target.url, SETUP, player.match) for _ in range(5)]   # each one's watch answered
    before = rss_mb(target.pid)
    run_attack(victim, player.act, 1200, timeout=180)
    grown = rss_mb(target.pid) - before
    # Before, the server grew by about 65 MB over these 1,200 actions (a STATE of 37 KB each), kept for the
    # silent watchers; a bounded queue keeps SOCKET_SEND_QUEUE (100) STATEs at most, shared by every socket.
    assert grown < 30, f"the server grew by {grown:.0f} MB"
    assert all(ended(sock, 5) for sock in silent), "a watcher that never reads was kept"
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips
    player.close()


def crowd_acts(url: str, watchers: int, actions: int, burst: int) -> dict:
    """Attach `watchers` reading sockets (from as many addresses as the cap asks) to a match of one's own, then
    act in it `actions` times, `burst` pairs at a time."""
    player = Player(url)
    crowd = [RawSocket(url, address(n // WATCHERS_PER_ADDRESS)) for n in range(watchers)]
    for sock in crowd:
        assert sock.call("watch", {"match": player.match})["ok"]
    readers = selectors.DefaultSelector()
    for sock in crowd:
        sock.ws.sock.setblocking(False)
        readers.register(sock.ws.sock, selectors.EVENT_READ)
    acting = True

    def read_everything():  # watchers that read what they are sent (and drop it), as pages do
        while acting:
            for key, _ in readers.select(0.1):
                try:
                    key.fileobj.recv(1 << 20)
                except OSError:
                    pass
    reader = threading.Thread(target=read_everything, daemon=True)
    reader.start()
    started = time.monotonic()
    player.act(actions, burst)
    took = time.monotonic() - started
    acting = False
    reader.join(5)
    for sock in crowd:
        sock.close()
    player.close()
    return {"actions": actions, "seconds": took}


def test_many_watchers_of_one_match_do_not_stall_anyone(target, victim):
    # 600 watchers of the largest STATE: each action sends 22 MB. Before, each receiver's writer framed the STATE
    # anew (85 ms an action) and the victim waited behind them (its worst round trip 200-270 ms).
    result = run_attack(victim, crowd_acts, target.url, 600, 100, 5, timeout=180)
    assert result["actions"] == 100, result
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, sorted(victim.round_trips)[-5:]
