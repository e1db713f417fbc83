"""Prometheus metrics of a real server process (quadrille/observability/metrics.py): a match is played over
Socket.IO against a server with Redis as its message queue, and /metrics is scraped on its own listener during
it; the Grafana dashboard in deploy/ queries only metrics that a real scrape has."""
from __future__ import annotations

import json
import random
import re

import pytest
import requests
import socketio
from prometheus_client.parser import text_string_to_metric_families

from scripts.services.process import free_port
from tests.support.paths import ROOT
from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server
DASHBOARD = ROOT / "deploy" / "grafana" / "quadrille-dashboard.json"


def scrape(url: str) -> dict[tuple[str, tuple], float]:
    """Every sample of a scrape: {(name, sorted labels): value}."""
    text = requests.get(url, timeout=10).text
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def connected(server, token=None, match=None):
    sio = socketio.Client(reconnection=False)
    sio.connect(server.url, transports=["websocket"], wait_timeout=10)
    if match:
        assert sio.call("watch", {"match": match, "token": token}, timeout=10)["ok"]
    return sio


@pytest.fixture
def metered(tmp_path, redis_url):
    port = free_port()
    proc = ServerProcess(tmp_path / "metered.db", queue=redis_url,
                         settings={"METRICS": f"127.0.0.1:{port}", "SOCKET_SPECTATOR_EVENTS": "4 per 20 seconds"})
    proc.start()
    proc.metrics_url = f"http://127.0.0.1:{port}/metrics"
    yield proc
    proc.stop()


def test_a_match_played_over_socketio_is_seen_in_the_metrics(metered):
    assert f"metrics on {metered.metrics_url}" in metered.log()  # the ready line says where
    created = requests.post(f"{metered.url}/api/matches", json={"game": "trails", "mode": "local"}).json()
    match, token = created["match"], created["token"]
    player = connected(metered, token, match)
    state = requests.get(f"{metered.url}/api/matches/{match}").json()
    refused = player.call("move", {"match": match, "token": token, "move": "no-such-move",
                                   "version": state["version"]}, timeout=10)
    assert refused["error"] == "illegal-move"
    rng, played = random.Random(3), 0
    for _ in range(6):
        ack = player.call("move", {"match": match, "token": token, "move": rng.choice(state["legal"]),
                                   "version": state["version"]}, timeout=10)
        assert ack["ok"], ack
        played += 1
        state = requests.get(f"{metered.url}/api/matches/{match}").json()

    during = scrape(metered.metrics_url)  # the match is still under way, its player connected
    assert value(during, "quadrille_sockets_connected") >= 1
    assert value(during, "quadrille_moves_accepted_total", door="socket") == played
    assert value(during, "quadrille_move_seconds_count") == played
    assert 0 < value(during, "quadrille_move_seconds_sum") < played * 5
    assert value(during, "quadrille_move_seconds_bucket", le="+Inf") == played
    assert value(during, "quadrille_moves_refused_total", door="socket", reason="illegal-move") == 1
    assert value(during, "quadrille_matches_under_way", game="trails") >= 1
    assert value(during, "quadrille_database_round_trip_seconds") > 0
    assert value(during, "quadrille_redis_round_trip_seconds") > 0
    assert ("quadrille_computer_queue_length", ()) in during
    # A bot's moves through the JSON API are counted too, by door.
    headers = {"Authorization": f"Bearer {token}"}
    bad = requests.post(f"{metered.url}/api/matches/{match}/moves", json={"move": "nowhere"}, headers=headers)
    good = requests.post(f"{metered.url}/api/matches/{match}/moves", json={"move": state["legal"][0]}, headers=headers)
    assert (bad.status_code, good.status_code) == (400, 200)
    after = scrape(metered.metrics_url)
    assert value(after, "quadrille_moves_accepted_total", door="http") == 1
    assert value(after, "quadrille_moves_refused_total", door="http", reason="illegal-move") == 1
    player.disconnect()


def test_budgets_refused_and_the_computer_are_counted(metered):
    created = requests.post(f"{metered.url}/api/matches", json={"game": "trails", "mode": "local"}).json()
    spectator = connected(metered)  # holds no seat: its budget is SOCKET_SPECTATOR_EVENTS, 4 per 20 s
    answers = [spectator.call("move", {"match": created["match"], "move": "right", "version": 0}, timeout=10)
               for _ in range(8)]
    refused = sum(a["error"] == "rate-limited" for a in answers)
    assert refused >= 3  # 8 on a budget of 4: one fewer refused when the burst straddles the counter's windows
    spectator.disconnect()
    thinker = requests.post(f"{metered.url}/api/matches", json={"game": "trails", "mode": "ai",
                                                                "ai": {"seats": [2], "level": 1}}).json()
    human = connected(metered, thinker["token"], thinker["match"])
    assert human.call("move", {"match": thinker["match"], "token": thinker["token"], "move": "right",
                               "version": 0}, timeout=10)["ok"]
    wait_until(lambda: requests.get(f"{metered.url}/api/matches/{thinker['match']}").json()["version"] >= 2, 30,
               "the computer's move")
    samples = scrape(metered.metrics_url)
    assert value(samples, "quadrille_budget_refusals_total", budget="socket-event") >= refused
    assert value(samples, "quadrille_moves_refused_total", door="socket", reason="rate-limited") >= refused
    assert value(samples, "quadrille_computer_search_seconds_count", kind="person") >= 1
    human.disconnect()


def test_metrics_are_not_served_on_the_public_listener(metered):
    assert requests.get(f"{metered.url}/metrics", timeout=10).status_code == 404


def test_metrics_are_off_by_default(tmp_path):
    proc = ServerProcess(tmp_path / "plain.db").start()
    try:
        assert "metrics on" not in proc.log()
        assert requests.get(f"{proc.url}/metrics", timeout=10).status_code == 404
    finally:
        proc.stop()


def test_the_grafana_dashboard_queries_only_metrics_a_real_scrape_has(metered):
    dashboard = json.loads(DASHBOARD.read_text())
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    queried = {name for expr in expressions for name in re.findall(r"\b((?:quadrille|process)_[a-z_]+)\b", expr)}
    assert {"quadrille_sockets_connected", "quadrille_move_seconds_bucket", "quadrille_moves_refused_total",
            "quadrille_computer_search_seconds_bucket", "quadrille_budget_refusals_total"} <= queried
    # Every histogram and labelled counter has a sample once something was counted: play one move by the computer.
    thinker = requests.post(f"{metered.url}/api/matches", json={"game": "trails", "mode": "ai",
                                                                "ai": {"seats": [2], "level": 1}}).json()
    human = connected(metered, thinker["token"], thinker["match"])
    human.call("move", {"match": thinker["match"], "token": thinker["token"], "move": "bad", "version": 0}, timeout=10)
    human.call("move", {"match": thinker["match"], "token": thinker["token"], "move": "right", "version": 0},
               timeout=10)
    wait_until(lambda: requests.get(f"{metered.url}/api/matches/{thinker['match']}").json()["version"] >= 2, 30,
               "the computer's move")
    scraped = {name for name, _ in scrape(metered.metrics_url)}
    assert queried <= scraped, f"the dashboard queries metrics no scrape has: {sorted(queried - scraped)}"
    human.disconnect()


def test_connections_and_requests_over_their_budgets_are_counted_and_summed_up(tmp_path):
    port = free_port()
    proc = ServerProcess(tmp_path / "crowded.db", settings={"METRICS": f"127.0.0.1:{port}", "LOG_LEVEL": "DEBUG",
                                                            "CONNECTIONS_PER_ADDRESS": 1, "HTTP_RATE": "3 per day"}
                         ).start()
    try:
        first = connected(proc)
        second = socketio.Client(reconnection=False)
        with pytest.raises(socketio.exceptions.ConnectionError):
            second.connect(proc.url, transports=["websocket"], wait_timeout=10)
        wait_until(lambda: '"SOCKET refused"' in proc.log_path.read_text(), 10, "the refusal's line")
        answers = [requests.get(f"{proc.url}/api/games").status_code for _ in range(5)]
        assert answers == [200, 200, 200, 429, 429]
        samples = scrape(f"http://127.0.0.1:{port}/metrics")
        first.disconnect()
    finally:
        proc.stop()  # the refusals counted since the last summary are summed up as it stops
    assert re.search(r"INFO quadrille\.refusals: refused in the last \d+ s: 2 rate-limited, 1 socket-connection; "
                     r"from 1 addresses, most from 127\.0\.0\.1 \(3\)$", proc.log_path.read_text(), re.M)
    refusals = {labels: n for (name, labels), n in samples.items() if name == "quadrille_budget_refusals_total" and n}
    assert refusals == {(("budget", "socket-connection"),): 1, (("budget", "http-rate-limited"),): 2}
    assert value(samples, "quadrille_sockets_connected") == 1
    # At DEBUG only: a flood's refusals are summed up once a minute (web/refusal_log.py), not written a line each.
    assert re.search(r' DEBUG quadrille\.access: 127\.0\.0\.1 "SOCKET refused" #2 \(rate-limited\)$',
                     proc.log_path.read_text(), re.M)
    log = proc.log_path.read_text()
    assert log.count('DEBUG quadrille.access: 127.0.0.1 "GET /api/games" 429') == 2
    assert log.count('INFO quadrille.access: 127.0.0.1 "GET /api/games" 200') == 3
