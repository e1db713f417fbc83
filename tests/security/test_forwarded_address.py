"""X-Forwarded-For is believed only from a trusted proxy (TRUSTED_PROXIES, loopback by default; issue 22,
finding 5): a client that reaches the process directly from another address is counted as that address,
whatever it forwards, while the proxy's requests still count each client as its own. The cluster's own test
is tests/cluster/test_cluster_security.py."""
from __future__ import annotations

import pytest
import requests

from bench.load import http_from
from quadrille import create_app
from tests.conftest import ServerProcess

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def behind_a_proxy(tmp_path_factory):
    """A real server told it has one proxy in front, with the default TRUSTED_PROXIES."""
    proc = ServerProcess(tmp_path_factory.mktemp("forwarded") / "forwarded.db",
                         settings={"PROXY_HOPS": 1, "HTTP_RATE": "100 per minute"}).start()
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
