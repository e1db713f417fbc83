"""Quadrille's web server: the application factory.

    from quadrille import create_app
    app = create_app({"DATABASE": "quadrille.db"})
    socketio = app.extensions["socketio"]

Nothing here depends on the async mode (eventlet, gevent or threading); app.py
chooses it at start-up and passes it in as ASYNC_MODE.

This factory is the one place that knows which backends are configured: one process keeps presence, leases,
timers, the computer's quota and the budgets in memory; with MESSAGE_QUEUE (a Redis URL) broadcasts travel
through Redis and those live in it, shared by every process, and each cached match is checked against the
database before use. Everything else sees one interface of each (infra/).
"""
from __future__ import annotations

import logging
import os
import time
from importlib import metadata as package_metadata
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from limits import parse as parse_limit
from werkzeug.exceptions import HTTPException
import games


from .clocks import Bounds, Clocks
from .analysis import AnalysisRunner, AnalysisService, AnalysisStore
from .computer import ComputerPlayers
from .errors import ServiceError
from .computer.quota import MatchQuota, RedisMatchQuota
from .infra.leases import MemoryLeases, RedisLeases
from .infra.limits import Audiences, Budgets
from .infra.presence import MemoryPresence
from .infra.redis_presence import RedisPresence
from .infra.room_index import IndexedManager
from .matches.store import Storage
from .infra.timers import MemoryTimers, RedisTimers
from .matches import ENDED, REMATCH, MatchService
from .settings import DEFAULTS
from .accounts import AccountService, password_pool
from . import bots
from .challenges import ChallengeService
from .ratings import LeaderboardRule, RatingService
from .moderation import ModerationService
from .moderation.live import LiveModeration
from .web import analysis_api, api_documents, blocks_api, moderation_api, moderation_pages, seat_names
from .web import puzzle_pages
from .puzzles.service import PuzzleService
from .web import (assets, game_files, http_api, inbox, pages, player_pages, players_api, rate_limits, rules_pages,
                  security, sessions, sockets, tutorial_pages)
from .web import analysis_board_pages
from .web import refusal_log
from .web.packets import PlainJsonPacket
from .i18n import web as i18n_web
from .i18n import _l, translated
from .web.links import public_url
from .web.socket_context import LeanSocketIO
from .web.socket_tokens import SocketTokens
from .matches.cache import MatchCache
from .matches import summary
from .matches.retention import Retention
from .observability import logs as observed_logs

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("quadrille")

# The version has one source, pyproject.toml, read from the installed package's metadata; this constant is
# for a checkout run without installing it (tests/platform/test_release.py keeps the two equal).
RELEASE = "0.1.0"


def installed_version() -> str:
    try:
        return package_metadata.version("quadrille")
    except package_metadata.PackageNotFoundError:
        return RELEASE


__version__ = installed_version()


def register_game_packages(packages) -> None:
    """The GAME_PACKAGES setting: games from packages outside games/, added to the one registry."""
    if isinstance(packages, str):
        packages = [item.strip() for item in packages.split(",")]
    for dotted in packages or ():
        if dotted:
            games.register(dotted)


def create_app(config: dict | None = None) -> Flask:
    app = Flask("quadrille", template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.sort_keys = False

    config = app.config
    register_game_packages(config["GAME_PACKAGES"])
    queue = config["MESSAGE_QUEUE"] or None
    if queue and config["RATELIMIT_STORAGE_URI"] == "memory://":
        config["RATELIMIT_STORAGE_URI"] = queue  # budgets per address hold across processes
    redis_pool, counter_options, queue_options = None, {}, {}
    if queue:
        from .infra.extras import require
        redis = require("redis", "a message queue (--message-queue, QUADRILLE_MESSAGE_QUEUE)")

        from .infra.message_queue import RoomAwareRedisManager
        # One bounded pool for presence, leases, timers and the budgets: a greenlet that finds every
        # connection busy waits for one instead of failing.
        redis_pool = redis.BlockingConnectionPool.from_url(queue, max_connections=config["REDIS_CONNECTIONS"],
                                                           timeout=10, health_check_interval=30)
        if config["RATELIMIT_STORAGE_URI"] == queue:  # the budgets count in the same Redis
            counter_options = {"connection_pool": redis_pool}
        # Flask-SocketIO's manager makes its own client (publishing, and one subscribed connection): lift
        # redis-py's default cap of 100 connections, which a burst of broadcasts under gevent can reach.
        queue_options = {"client_manager": RoomAwareRedisManager(
            queue, channel=f"{config['CLUSTER_PREFIX']}socketio", redis_options={"max_connections": 1000})}
    else:  # a leaving socket leaves its own rooms, not a test of every room (infra/room_index.py)
        queue_options = {"client_manager": IndexedManager()}
    socketio = LeanSocketIO(app, async_mode=config["ASYNC_MODE"],
                        max_http_buffer_size=config["SOCKET_MAX_BYTES"], message_queue=queue,
                        serializer=PlainJsonPacket, logger=False, engineio_logger=False, **queue_options)

    bot_kit = None  # made below, once the services it hears exist

    def broadcast(match_id: str, event: str, payload: dict) -> None:
        """The room hears every STATE (and a rematch); the services beside the core hear the bus (below), and
        the bots' game streams every STATE (bots/)."""
        socketio.emit(event, payload, to=sockets.room_of(match_id))
        if event == "state" and bot_kit is not None:
            bot_kit.events.on_state(match_id, payload)

    storage = Storage.open(config["DATABASE"])
    spawn, sleep = socketio.start_background_task, socketio.sleep
    if queue:
        client = redis.Redis(connection_pool=redis_pool)
        prefix, clock = config["CLUSTER_PREFIX"], time.time   # times shared between machines: wall-clock
        presence = RedisPresence(client, grace=config["PRESENCE_GRACE"], ttl=config["PRESENCE_TTL"], prefix=prefix,
                                 spawn=spawn, sleep=sleep)
        leases = RedisLeases(client, prefix=prefix, spawn=spawn, sleep=sleep, every=config["LEASE_TTL"] / 3)
        timers = RedisTimers(client, prefix=prefix, spawn=spawn, sleep=sleep)

        def quota(cap, live):
            return RedisMatchQuota(cap, live, client, prefix=prefix)
        takeover = (config["TAKEOVER_INTERVAL"], presence.local_matches)
        # A match's broadcasts go through Redis only when presence says another process has a socket in it.
        socketio.server.manager.publish_only_where_heard(
            lambda room: presence.entries_key(match) if (match := sockets.match_of(room)) else None, presence.node,
            ttl=config["AUDIENCE_TTL"])
    else:
        client, clock, quota, takeover = None, time.monotonic, MatchQuota, None
        presence = MemoryPresence(grace=config["PRESENCE_GRACE"])
        leases, timers = MemoryLeases(), MemoryTimers(clock, spawn, sleep)
    # The clocks' time is wall-clock time (stored, and the same for every process and after a restart); in one
    # process their timers are a heap of their own on that clock, with several the shared RedisTimers.
    clocks = Clocks(storage, clock=time.time, timers=timers if queue else MemoryTimers(time.time, spawn, sleep),
                    bounds=Bounds.from_settings(config), beat_interval=config["CLOCK_BEAT"], spawn=spawn,
                    sleep=sleep)
    service = MatchService(storage, broadcast, MatchCache(max_weight=config["CACHE_MAX_EVENTS"]), presence=presence,
                           vote_ttl=config["VOTE_TTL"], disconnect_timeout=config["DISCONNECT_TIMEOUT"],
                           spawn=spawn, sleep=sleep, clock=clock, timers=timers, checked=bool(queue),
                           clocks=clocks, realtime_absence=config["REALTIME_ABSENCE"])
    service.computer = ComputerPlayers(service, spawn, sleep,
                                       size=config["COMPUTER_WORKERS"], demo_delay=config["DEMO_DELAY"],
                                       watched=presence.watching, per_address=config["COMPUTER_MATCHES_PER_ADDRESS"],
                                       leases=leases, lease_ttl=config["LEASE_TTL"], quota=quota, takeover=takeover)
    budgets = Budgets(config["RATELIMIT_STORAGE_URI"], player_events=config["SOCKET_PLAYER_EVENTS"],
                      spectator_events=config["SOCKET_SPECTATOR_EVENTS"],
                      address_events=config["SOCKET_ADDRESS_EVENTS"],
                      connections_per_address=config["CONNECTIONS_PER_ADDRESS"],
                      connection_rate=config["CONNECTION_RATE"],
                      refusals_before_close=config["SOCKET_REFUSALS_BEFORE_CLOSE"],
                      enabled=config["RATELIMIT_ENABLED"], storage_options=counter_options)
    socket_tokens = SocketTokens()  # sockets whose handshake gave an API token (a bot's)
    sockets.register(socketio, service, presence, budgets, presence_interval=config["PRESENCE_INTERVAL"],
                     audiences=Audiences(config["WATCHERS_PER_ADDRESS"]), send_queue_limit=config["SOCKET_SEND_QUEUE"],
                     tokens=socket_tokens)

    # Players (optional accounts, challenges, ratings): services of their own beside the match service, on the
    # same storage, told of the match events they follow on the match bus (matches/bus.py).
    sessions.install(app, storage)
    accounts = AccountService(storage, service, sessions.site_secret(storage, "seats"),
                              hashing=password_pool.for_async_mode(config["ASYNC_MODE"], config["PASSWORD_WORKERS"],
                                                                   config["PASSWORD_QUEUE"], config["PASSWORD_NICE"]),
                              session_lifetime=app.permanent_session_lifetime.total_seconds(), pause=sleep)
    ratings = RatingService(storage, pair_limit=config["RATED_GAMES_PER_PAIR"],
                            rule=LeaderboardRule(config["LEADERBOARD_GAMES"], config["LEADERBOARD_OPPONENTS"],
                                                 config["LEADERBOARD_ACTIVE_DAYS"]))
    service.absence.rated = lambda match_id: bool(ratings.rated([match_id]))  # no claim before both moved
    app.jinja_env.globals["realtime_absence"] = service.absence.realtime_timeout  # the match page's help
    challenges = ChallengeService(storage, service, accounts, ratings,
                                  notify=lambda account_id, event, payload: (
                                      socketio.emit(event, payload, to=inbox.room_of(account_id)),
                                      bot_kit.events.on_challenge(account_id, event, payload)),
                                  budget=per_account_budget(budgets, config["CHALLENGE_RATE"], "challenges"),
                                  max_incoming=config["CHALLENGES_WAITING_MAX"])
    service.looks_like_account = seat_names.looks_like_account(storage)  # a guest's seat name (quadrille/names.py)
    service.state_extras = ratings.in_play.extras  # a rated match's STATE: ratings beside names, and their change
    service.bus.subscribe(ENDED, ratings.on_ended)  # a match rated once, when it ends
    service.bus.subscribe(REMATCH, ratings.on_rematch)  # a rated match's rematch is rated
    service.bus.subscribe(REMATCH, accounts.on_rematch)  # a rematch's seats go to the same accounts
    accounts.forgetters.extend([ratings.forget, challenges.forget])
    moderation = ModerationService(storage, service, accounts, challenges,
                                   budget=per_account_budget(budgets, config["REPORT_RATE"], "reports"))
    live_moderation = LiveModeration(moderation.store, service, accounts, spawn=spawn, sleep=sleep,
                                     every=config["MODERATION_POLL"],
                                     close_room=lambda account_id: socketio.close_room(inbox.room_of(account_id)))
    # Puzzles (quadrille/puzzles/service.py): their ratings and attempts on the same storage; a guest's rated
    # results budgeted per address on the budgets' counters; an account deleted forgets its puzzle rows too.
    puzzles = PuzzleService(storage, sessions.site_secret(storage, "puzzles"),
                            repeat_after=config["PUZZLE_REPEAT_DAYS"] * 86400.0,
                            guest_budget=per_account_budget(budgets, config["PUZZLE_GUEST_RATED_RATE"],
                                                            "puzzle-guest-rated"))
    accounts.forgetters.append(puzzles.store.forget)
    inbox.register(socketio, socket_tokens)
    app.extensions["quadrille"] = service
    app.extensions["quadrille.storage"] = storage
    app.extensions["quadrille.accounts"] = accounts
    app.extensions["quadrille.ratings"] = ratings
    app.extensions["quadrille.challenges"] = challenges
    app.extensions["quadrille.presence"] = presence
    app.extensions["quadrille.budgets"] = budgets
    app.extensions["quadrille.clocks"] = clocks
    app.extensions["quadrille.moderation"] = moderation
    app.extensions["quadrille.puzzles"] = puzzles
    app.extensions["quadrille.live_moderation"] = live_moderation
    app.extensions["quadrille.backends"] = [clocks, presence, leases, timers,  # closed at shutdown (app.py)
                                            live_moderation]  # started by app.py, as the clocks' heartbeat
    # Bots' streams (bots/): what they hear, through Redis in a cluster; the challenges and rooms feed them.
    bot_kit = bots.install(app, bots.hub_for(client, config["CLUSTER_PREFIX"], spawn, sleep,
                                                 socketio.server.eio.create_queue), spawn)
    clocks.resume(service.credit_clock)  # after a stop: the time nobody served given back, every flag re-armed
    # Lists of games read summaries (matches/summary.py): an earlier release's matches are summarised in the
    # background; unopened anonymous imports expire (matches/retention.py); by-name matches idle out.
    summary.backfill(service, timers)
    app.extensions["quadrille.retention"] = Retention(service, timers, config["IMPORT_RETENTION"], sleep=sleep)
    service.name_idle = config["NAME_IDLE"]

    def health() -> tuple[dict, bool]:
        """For load balancers and checks: this process, its database and its queue, and whether both answer;
        `sockets` is how many Socket.IO connections this process holds (how evenly nginx spreads them), and
        `version` the release it runs (which process of a rolling upgrade runs which)."""
        answer = {"ok": True, "process": os.getpid(), "database": storage.dialect, "queue": "redis" if queue else None,
                  "sockets": len(socketio.server.eio.sockets), "version": __version__}
        for name, ping in (("database", storage.ping), ("queue", client.ping if client is not None else None)):
            if ping is None:
                continue
            try:
                ping()
            except Exception as exc:
                answer["ok"] = False
                answer.setdefault("unreachable", []).append(name)
                log.warning("health: the %s does not answer: %s", name, exc)
        return answer, answer["ok"]
    app.extensions["quadrille.health"] = health
    app.extensions["quadrille.analysis"] = analysis_service(config, storage, service, spawn)

    app.register_blueprint(http_api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(rules_pages.bp)
    app.register_blueprint(tutorial_pages.bp)
    app.register_blueprint(analysis_board_pages.bp)
    app.register_blueprint(players_api.bp)
    app.register_blueprint(player_pages.bp)
    app.register_blueprint(blocks_api.bp)
    app.register_blueprint(moderation_api.bp)
    app.register_blueprint(moderation_pages.bp)
    app.register_blueprint(api_documents.bp)
    app.register_blueprint(analysis_api.bp)
    app.register_blueprint(puzzle_pages.bp)
    app.jinja_env.globals["public_url"] = public_url
    app.extensions["quadrille.limiter"] = rate_limits.install(app, counter_options)
    security.install(app)
    moderation_api.install(app)
    game_files.install(app)
    i18n_web.install(app)  # Flask-Babel and the request's language; builds missing catalogs before the assets
    assets.install(app, game_files.static_mounts())
    register_error_handlers(app)
    # 429s and CSRF refusals counted and summed up once a minute, not logged one line each (web/refusal_log.py).
    app.extensions["quadrille.backends"].append(refusal_log.install(app, spawn, sleep))
    # Outside every other door: one access line per request and socket, failed logins (observability/logs.py);
    # the Prometheus metrics only when METRICS names where to serve them (observability/metrics.py).
    observed_logs.install(app, socketio)
    if config["METRICS"]:
        from .observability import metrics
        metrics.install(app, socketio, storage, client)
    return app


def analysis_service(config, storage, matches: MatchService, spawn) -> AnalysisService:
    """The computer's analyses (quadrille/analysis/), run on the match service's worker pool behind people's
    moves; those a stop interrupted go on."""
    runner = AnalysisRunner(AnalysisStore(storage), matches.computer, spawn, config["ANALYSIS_NODES"],
                            config["ANALYSIS_NICE"])
    runner.resume()
    return AnalysisService(matches, runner.store, runner, config["ANALYSIS_QUEUE_PER_ADDRESS"],
                           config["ANALYSIS_POSITION_NODES"], config["ANALYSIS_POSITION_MOVES"])


def per_account_budget(budgets: Budgets, rate: str, scope: str):
    """`budget(account_id)`: counts one more for the account, False once it has had `rate` (the `limits`
    notation) lately; on the budgets' own counters (memory, or Redis with several processes)."""
    limit = parse_limit(rate)
    return lambda account_id: not budgets.enabled or budgets.limiter.hit(limit, scope, str(account_id))


def wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError):
        if wants_json():
            return jsonify(exc.to_dict()), exc.status
        return render_template("error.html", reason=translated(exc.reason)), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        words = {404: "not-found", 405: "method-not-allowed", 413: "payload-too-large", 400: "bad-request",
                 415: "unsupported-media-type", 429: "rate-limited"}
        reason = translated({413: _l("The request is too large."), 404: _l("There is no such page."),
                             429: _l("Too many requests from your address; wait a little and try again.")}
                            .get(exc.code, exc.description))
        if wants_json():
            answer = jsonify({"error": words.get(exc.code, "http-error"), "reason": reason}), exc.code
        else:
            answer = render_template("error.html", reason=reason), exc.code
        return (*answer, kept_headers(exc))

    def kept_headers(exc: HTTPException) -> dict:
        """What the refusal itself says in headers, e.g. a 405's `Allow` (the methods the path takes: RFC 9110
        asks for it) or a 429's `Retry-After`: kept when the body is replaced."""
        return {name: value for name, value in exc.get_headers() if name.lower() != "content-type"}

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        reason = translated(_l("Something went wrong on the server; nothing was changed."))
        if wants_json():
            return jsonify({"error": "server-error", "reason": reason}), 500
        return render_template("error.html", reason=reason), 500
