"""Prometheus metrics (the official prometheus-client), served at /metrics on an address of their own.

Off by default. `METRICS = "127.0.0.1:9464"` (QUADRILLE_METRICS) makes each server process serve them there, on a
listener apart from the site's: nginx never proxies it, so a scrape reaches it only from where that address is
reachable (loopback, or a private interface), never through the public site. In a cluster each app process
serves its own (give each its own port) and Prometheus scrapes each one: the processes are separate programs,
not the forks of one server, so prometheus-client's multiprocess mode (a shared directory of files, for
gunicorn's workers) would buy nothing, and each process's numbers (its sockets, its moves) are what tell an
uneven spread. docs/hosting.md, "Metrics", lists them; deploy/grafana/quadrille-dashboard.json draws them.

What each costs: a move pays one Counter.inc and one Histogram.observe (5 µs together, measured on a busy
two-core machine), in a wrapper around the `move` handler (the Socket.IO door, never the match core). Everything
else is read when Prometheus scrapes: the sockets, the computer's queue, the matches under way (one query, kept
for a few seconds), and the round trip to the database and to Redis (one `SELECT 1` and one PING, timed: no hook
on every query, which would slow each move's write).

    install(app, socketio, storage, redis_client)   # create_app, when METRICS is set: the metrics of this app
    serve(app)                                      # app.py: the listener; answers (host, port)
"""
from __future__ import annotations

import json
import time
from collections import Counter as Tally

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

import games

EXTENSION = "quadrille.metrics"
# Seconds from a move's event arriving (its budget spent) to its answer, the room's STATE sent on the way.
MOVE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SEARCH_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
UNDER_WAY_WINDOW = 600.0   # a match under way: started, not over, and an event within this many seconds
HTTP_MOVE = "api.play_move"  # the JSON API's endpoint of a move
UNDER_WAY_CACHE = 5.0      # seconds one count of the matches under way answers the scrapes


def parse_address(setting) -> tuple[str, int] | None:
    """METRICS: "" or None (off), or "host:port" ("[::1]:9464" for IPv6); ValueError stops the start."""
    if setting in (None, "", False):
        return None
    text = str(setting).strip()
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"METRICS: {setting!r} is not host:port (e.g. 127.0.0.1:9464), nor empty for off")
    return host, int(port)


class Metrics:
    """The metrics of one app, in a registry of its own (create_app may run several times in one process)."""

    def __init__(self):
        disable_created_metrics()  # no `_created` series beside each counter: Prometheus does not need them
        self.registry = CollectorRegistry()
        for collector in (ProcessCollector, PlatformCollector, GCCollector):
            collector(registry=self.registry)
        r = self.registry
        self.moves = Counter("quadrille_moves_accepted", "Moves accepted, by door (socket: Socket.IO, http: the "
                             "JSON API's POST /api/matches/<id>/moves)", ["door"], registry=r)
        self.refused = Counter("quadrille_moves_refused", "Moves refused, by door and by the error answered",
                               ["door", "reason"], registry=r)
        self.latency = Histogram("quadrille_move_seconds", "From a move's event arriving to its answer, the "
                                 "room's STATE sent on the way (accepted moves)", buckets=MOVE_BUCKETS, registry=r)
        self.search = Histogram("quadrille_computer_search_seconds", "A computer player's search, from the "
                                "request sent to its worker to the move back", ["kind"], buckets=SEARCH_BUCKETS,
                                registry=r)
        self.budgets = Counter("quadrille_budget_refusals", "Requests, events and connections refused by a "
                               "budget (rate limits), by budget", ["budget"], registry=r)
        self.socket_moves = self.moves.labels("socket")  # labels() costs more than the inc itself: kept
        self._refused_by = {}   # (door, reason) -> its child counter

    def refuse_move(self, reason: str, door: str = "socket") -> None:
        child = self._refused_by.get((door, reason))
        if child is None:
            child = self._refused_by[door, reason] = self.refused.labels(door, reason)
        child.inc()


class ReadAtScrape:
    """The metrics read when Prometheus asks: sockets, the computer's queue, the matches under way, round trips."""

    def __init__(self, eio, computer, storage, redis_client):
        self.eio, self.computer, self.storage, self.redis = eio, computer, storage, redis_client
        self._under_way: tuple[float, dict] = (0.0, {})

    def collect(self):
        yield GaugeMetricFamily("quadrille_sockets_connected", "Socket.IO connections this process holds",
                                value=len(self.eio.sockets))
        yield GaugeMetricFamily("quadrille_computer_queue_length", "Computer searches waiting for a worker",
                                value=self.computer.queued())
        under_way = GaugeMetricFamily("quadrille_matches_under_way", "Matches started, not over, with an event in "
                                      f"the last {UNDER_WAY_WINDOW:.0f} s (the whole site's, from the database)",
                                      labels=["game"])
        for game, n in sorted(self.matches_under_way().items()):
            under_way.add_metric([game], n)
        yield under_way
        yield from self.round_trips()

    def matches_under_way(self) -> dict[str, int]:
        at, counts = self._under_way
        if time.monotonic() - at < UNDER_WAY_CACHE:
            return counts
        from sqlalchemy import select

        from ..infra.schema import matches_table as m
        counts = dict.fromkeys(games.names(), 0)
        with self.storage.reading() as conn:
            # `listed IN (false, true)`: every row, read through ix_matches_listed_updated as two ranges of recent
            # rows rather than by scanning the whole table
            rows = conn.execute(select(m.c.game, m.c.summary).where(
                m.c.listed.in_([False, True]), m.c.updated > time.time() - UNDER_WAY_WINDOW))
            tally = Tally(game for game, text in rows if under_way(text))
        counts.update(tally)
        self._under_way = (time.monotonic(), counts)
        return counts

    def round_trips(self):
        for name, ping in (("database", self.storage.ping), ("redis", self.redis.ping if self.redis else None)):
            if ping is None:
                continue
            family = GaugeMetricFamily(f"quadrille_{name}_round_trip_seconds", f"One round trip to the {name} "
                                       "(SELECT 1 or PING), timed at the scrape; -1 when it failed")
            started = time.perf_counter()
            try:
                ping()
                family.add_metric([], time.perf_counter() - started)
            except Exception:  # noqa: BLE001 - an unreachable backend is what this metric is for
                family.add_metric([], -1.0)
            yield family


def under_way(summary_text: str | None) -> bool:
    """A summary (matches/summary.py) of a match that has begun and not ended."""
    try:
        summary = json.loads(summary_text) if summary_text else None
    except ValueError:
        return False
    return isinstance(summary, dict) and bool(summary.get("started")) and summary.get("outcome") is None


# -- the doors ---------------------------------------------------------------------------------------------
def count_moves(server, metrics: Metrics) -> None:
    """Wrap the `move` handler: an accepted move is counted and timed, a refused one counted by its error."""
    handlers = server.handlers["/"]
    move = handlers["move"]
    accepted, observe, refuse = metrics.socket_moves.inc, metrics.latency.observe, metrics.refuse_move
    clock = time.perf_counter

    def timed_move(sid, *args):
        started = clock()
        answer = move(sid, *args)
        if answer.get("ok"):
            accepted()
            observe(clock() - started)
        else:
            refuse(answer.get("error") or "unknown")
        return answer
    handlers["move"] = timed_move


def count_http_moves(app, metrics: Metrics) -> None:
    """Moves through the JSON API (bots that poll): counted after the answer, by its status and error."""
    from flask import request
    accepted = metrics.moves.labels("http")

    def counted(response):
        if request.endpoint == HTTP_MOVE:
            if response.status_code == 200:
                accepted.inc()
            else:
                body = response.get_json(silent=True)
                metrics.refuse_move(body.get("error", "unknown") if isinstance(body, dict) else "unknown", "http")
        return response
    app.after_request(counted)


def count_refusals(app, server, budgets, metrics: Metrics) -> None:
    """Budgets refused: Socket.IO events (the gate every event passes, web/socketio_server.py), connections
    (infra/limits.py), and HTTP requests and CSRF (web/refusal_log.py, which counts Flask-Limiter's)."""
    gate, connect, refusals = server.gate, budgets.connect, app.extensions.get("quadrille.refusals")
    by_budget = {name: metrics.budgets.labels(name) for name in ("socket-event", "socket-connection")}

    def counted_gate(sid, event):
        answer = gate(sid, event)
        if answer is not None:
            by_budget["socket-event"].inc()
            if event == "move":
                metrics.refuse_move(answer.get("error") or "rate-limited")
        return answer

    def counted_connect(address):
        admitted = connect(address)
        if not admitted:
            by_budget["socket-connection"].inc()
        return admitted
    server.gate, budgets.connect = counted_gate, counted_connect
    if refusals is not None:
        count = refusals.count

        def counted(kind, address):
            if not kind.startswith("socket-"):  # (the log's socket refusals are counted above, at the budget)
                metrics.budgets.labels(f"http-{kind}").inc()
            count(kind, address)
        refusals.count = counted


def install(app, socketio, storage, redis_client=None) -> Metrics:
    """The metrics of this app: call at the end of create_app (every door is in place)."""
    metrics = Metrics()
    server, service = socketio.server, app.extensions["quadrille"]
    metrics.registry.register(ReadAtScrape(server.eio, service.computer, storage, redis_client))
    count_moves(server, metrics)
    count_http_moves(app, metrics)
    count_refusals(app, server, app.extensions["quadrille.budgets"], metrics)
    service.computer.searched = lambda seconds, person: metrics.search.labels(
        "person" if person else "demo").observe(seconds)
    app.extensions[EXTENSION] = metrics
    return metrics


def serve(app) -> tuple[str, int] | None:
    """Serve this app's metrics on the METRICS address (a thread of prometheus-client's own HTTP server, which
    is a greenlet under gevent and eventlet: the standard library is patched by then). Answers (host, port)
    bound, or None when metrics are off."""
    metrics, address = app.extensions.get(EXTENSION), parse_address(app.config["METRICS"])
    if metrics is None or address is None:
        return None
    http, _ = start_http_server(address[1], address[0], registry=metrics.registry)
    return address[0], http.server_port
