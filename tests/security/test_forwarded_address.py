"""X-Forwarded-For is believed only from a trusted proxy (TRUSTED_PROXIES, loopback by default, or the peer of
the server's Unix socket; issue 22, finding 5): a client that reaches the process directly from another address
is counted as that address, whatever it forwards, while the proxy's requests still count each client as its
own. The cluster's own test is tests/cluster/test_cluster_security.py. And every rule per address counts an IPv6
client as its /64, the computer's quota included."""
from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys

import pytest
import requests
import socketio

import quadrille
from bench.load import http_from
from quadrille import create_app
from scripts.services.process import request_over_unix
from tests.support.paths import ROOT
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.server

COMPUTER_CAP = 2


@pytest.fixture(scope="module")
def behind_a_proxy(tmp_path_factory):
    """A real server told it has one proxy in front, with the default TRUSTED_PROXIES."""
    proc = ServerProcess(tmp_path_factory.mktemp("forwarded") / "forwarded.db",
                         settings={"PROXY_HOPS": 1, "HTTP_RATE": "100 per day",
                                   "COMPUTER_MATCHES_PER_ADDRESS": COMPUTER_CAP}).start()
    yield proc
    proc.stop()


def remaining(response: requests.Response) -> int:
    assert response.status_code == 200, response.text
    return int(response.headers["X-RateLimit-Remaining"])


def test_a_client_that_reaches_the_process_directly_is_counted_as_itself(behind_a_proxy):
    url = f"{behind_a_proxy.url}/api/games"
    direct = http_from("127.0.0.10")
    forging = [remaining(direct.get(url, headers={"X-Forwarded-For": f"203.0.113.{i}"})) for i in range(1, 5)]
    assert forging == [99, 98, 97, 96]  # one budget, its own: no fresh one for each address it names
    # the proxy (on loopback, 127.0.0.1) is believed: each client it forwards has a budget of its own, which
    # the forger above did not spend
    proxy = http_from("127.0.0.1")
    assert remaining(proxy.get(url, headers={"X-Forwarded-For": "203.0.113.1"})) == 99
    assert remaining(proxy.get(url, headers={"X-Forwarded-For": "203.0.113.9, 203.0.113.1"})) == 98  # the last hop's
    assert remaining(direct.get(url)) == 95


def test_trusted_proxies_that_are_not_addresses_stop_the_start_up(tmp_path):
    with pytest.raises(ValueError, match="TRUSTED_PROXIES: 'nginx' is not an address"):
        create_app({"DATABASE": str(tmp_path / "x.db"), "PROXY_HOPS": 1, "TRUSTED_PROXIES": "10.0.0.0/8, nginx"})


def test_the_computers_quota_counts_an_ipv6_client_as_its_64_through_both_doors(behind_a_proxy):
    """COMPUTER_MATCHES_PER_ADDRESS was keyed by the full address: an IPv6 client, who picks any address of its
    /64 at will, had a fresh quota at every request. Now both doors, HTTP and Socket.IO, count its /64 (the
    clients come through the proxy, which forwards their addresses)."""
    proxy, url = http_from("127.0.0.1"), behind_a_proxy.url

    def against_the_computer(client: str) -> requests.Response:
        return proxy.post(f"{url}/api/matches", json={"game": "trails", "mode": "ai", "ai": {"seats": [2], "level": 1}},
                          headers={"X-Forwarded-For": client})

    def started_with_the_computer(client: str) -> dict:
        """A Gamma match waiting for its players, started over Socket.IO with the computer in the free seats."""
        created = proxy.post(f"{url}/api/matches", json={"game": "gamma", "mode": "online"},
                             headers={"X-Forwarded-For": client}).json()
        sio = socketio.Client(reconnection=False)
        sio.connect(url, transports=["websocket"], headers={"X-Forwarded-For": client}, wait_timeout=10)
        try:
            return sio.call("start", {"match": created["match"], "token": created["token"], "computer_level": 1},
                            timeout=10)
        finally:
            sio.disconnect()

    assert against_the_computer("2001:db8:7:1::1").status_code == 201
    assert started_with_the_computer("2001:db8:7:1::2")["ok"]
    # the cap of its /64 is reached: another address of it is refused at either door, and nothing is started
    refused = against_the_computer("2001:db8:7:1:ffff:ffff:ffff:fff0")
    assert refused.status_code == 429 and refused.json()["error"] == "rate-limited", refused.text
    assert started_with_the_computer("2001:db8:7:1::3")["error"] == "rate-limited"
    # another /64 (another subscriber), and an IPv4 client, each have a quota of their own
    assert against_the_computer("2001:db8:7:2::1").status_code == 201
    assert started_with_the_computer("203.0.113.50")["ok"]


@pytest.fixture(scope="module")
def on_a_unix_socket(tmp_path_factory):
    """A real server on a Unix socket, its proxy's way in, and on a TCP port too, where no peer is trusted."""
    where = tmp_path_factory.mktemp("unix")
    proc = ServerProcess(where / "unix.db", port=True, unix_socket=where / "app.sock",
                         settings={"PROXY_HOPS": 1, "TRUSTED_PROXIES": [], "HTTP_RATE": "100 per day"}).start()
    yield proc
    proc.stop()


def test_the_unix_sockets_peer_is_the_proxy_and_no_tcp_peer_is(on_a_unix_socket):
    server = on_a_unix_socket

    def over_the_socket(headers: dict | None = None) -> int:
        status, answered, body = request_over_unix(server.unix_socket, "GET", "/api/games", headers)
        assert status == 200, body
        return int(answered["X-RateLimit-Remaining"])
    assert stat.S_IMODE(server.unix_socket.stat().st_mode) == 0o660
    # the socket's peer is the proxy: each client it forwards has a budget of its own, the last hop's
    assert [over_the_socket({"X-Forwarded-For": "198.51.100.1"}) for _ in range(2)] == [99, 98]
    assert over_the_socket({"X-Forwarded-For": "203.0.113.9, 198.51.100.2"}) == 99
    # over TCP, even from 127.0.0.1, no peer is the proxy (TRUSTED_PROXIES is empty): counted as itself
    direct = http_from("127.0.0.1")
    forging = [remaining(direct.get(f"{server.url}/api/games", headers={"X-Forwarded-For": "198.51.100.3"}))
               for _ in range(2)]
    assert forging == [99, 98]
    assert over_the_socket({"X-Forwarded-For": "198.51.100.3"}) == 99  # the forger spent none of that client's
    # on the socket without X-Forwarded-For (an operator's own check): one client, "?", whoever sends it
    assert [over_the_socket() for _ in range(2)] == [99, 98]
    assert server.get("/api/health")[1]["ok"]


def app_py(*argv: str, **settings: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("QUADRILLE_")}, **settings}
    return subprocess.run([sys.executable, "app.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)


def test_a_unix_socket_is_for_a_proxy_and_never_taken_from_a_live_server(on_a_unix_socket, tmp_path):
    db = str(tmp_path / "other.db")
    alone = app_py("--unix-socket", str(tmp_path / "a.sock"), "--db", db, "--public-url", "http://x.test")
    assert alone.returncode == 2 and "set QUADRILLE_PROXY_HOPS" in alone.stderr, alone.stderr
    no_url = app_py("--unix-socket", str(tmp_path / "a.sock"), "--db", db, QUADRILLE_PROXY_HOPS="1")
    assert no_url.returncode == 2 and "needs --public-url" in no_url.stderr, no_url.stderr
    taken = app_py("--unix-socket", str(on_a_unix_socket.unix_socket), "--db", db, "--public-url", "http://x.test",
                   QUADRILLE_PROXY_HOPS="1")
    assert taken.returncode == 2 and "a server already listens on" in taken.stderr, taken.stderr
    assert on_a_unix_socket.get("/api/health")[0] == 200  # still its own
    # a socket file left by a server that was killed is replaced
    stale = tmp_path / "stale.sock"
    left = socket.socket(socket.AF_UNIX)
    left.bind(str(stale))
    left.close()
    server = ServerProcess(tmp_path / "stale.db", unix_socket=stale, settings={"PROXY_HOPS": 1}).start()
    try:
        assert server.port is None and server.get("/api/health") == (200, {"ok": True, "process": server.pid,
                                                                           "database": "sqlite", "queue": None,
                                                                           "sockets": 0,
                                                                           "version": quadrille.__version__})
    finally:
        server.stop()
    assert not stale.exists()  # removed when its server stopped
