"""Quadrille's web server: the application factory.

    from quadrille import create_app
    app = create_app({"DATABASE": "quadrille.db"})
    socketio = app.extensions["socketio"]

Nothing here depends on the async mode (eventlet, gevent or threading); app.py
chooses it at start-up and passes it in as ASYNC_MODE.
"""
from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask_socketio import SocketIO
from socketio import packet as socketio_packet
from werkzeug.exceptions import HTTPException

from .computer import ComputerPlayers
from .errors import ServiceError
from .infra.limits import Budgets
from .infra.presence import Presence
from .infra.storage import Storage
from .matches import MatchService
from .settings import DEFAULTS
from .web import assets, http_api, learn, pages, rate_limits, security, sockets
from .web.links import public_url
from .matches.cache import MatchCache

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("quadrille")


class PlainJsonPacket(socketio_packet.Packet):
    """Quadrille never sends binary data, so skip python-socketio's recursive search for binary parts in
    every outgoing packet: on a STATE it cost about a tenth of the server's time per move."""

    @classmethod
    def data_is_binary(cls, data) -> bool:
        return False


def create_app(config: dict | None = None) -> Flask:
    app = Flask("quadrille", template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.sort_keys = False

    socketio = SocketIO(app, async_mode=app.config["ASYNC_MODE"],
                        max_http_buffer_size=app.config["SOCKET_MAX_BYTES"],
                        serializer=PlainJsonPacket, logger=False, engineio_logger=False)

    def broadcast(match_id: str, event: str, payload: dict) -> None:
        socketio.emit(event, payload, to=sockets.room_of(match_id))

    config = app.config
    storage = Storage.sqlite(config["DATABASE"])
    presence = Presence(grace=config["PRESENCE_GRACE"])
    service = MatchService(storage, broadcast, MatchCache(max_weight=config["CACHE_MAX_EVENTS"]), presence=presence,
                           vote_ttl=config["VOTE_TTL"], disconnect_timeout=config["DISCONNECT_TIMEOUT"],
                           spawn=socketio.start_background_task, sleep=socketio.sleep)
    service.computer = ComputerPlayers(service, socketio.start_background_task, socketio.sleep,
                                       size=config["COMPUTER_WORKERS"], demo_delay=config["DEMO_DELAY"],
                                       watched=presence.watching, per_address=config["COMPUTER_MATCHES_PER_ADDRESS"])
    budgets = Budgets(config["RATELIMIT_STORAGE_URI"], player_events=config["SOCKET_PLAYER_EVENTS"],
                      spectator_events=config["SOCKET_SPECTATOR_EVENTS"],
                      address_events=config["SOCKET_ADDRESS_EVENTS"],
                      connections_per_address=config["CONNECTIONS_PER_ADDRESS"],
                      connection_rate=config["CONNECTION_RATE"],
                      refusals_before_close=config["SOCKET_REFUSALS_BEFORE_CLOSE"],
                      enabled=config["RATELIMIT_ENABLED"])
    sockets.register(socketio, service, presence, budgets, presence_interval=config["PRESENCE_INTERVAL"])
    app.extensions["quadrille"] = service
    app.extensions["quadrille.storage"] = storage
    app.extensions["quadrille.presence"] = presence
    app.extensions["quadrille.budgets"] = budgets

    app.register_blueprint(http_api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(learn.bp)
    app.jinja_env.globals["public_url"] = public_url
    app.extensions["quadrille.limiter"] = rate_limits.install(app)
    security.install(app)
    assets.install(app)
    register_error_handlers(app)
    return app


def wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError):
        if wants_json():
            return jsonify(exc.to_dict()), exc.status
        return render_template("error.html", reason=exc.reason), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        words = {404: "not-found", 405: "method-not-allowed", 413: "payload-too-large", 400: "bad-request",
                 415: "unsupported-media-type", 429: "rate-limited"}
        reason = {413: "The request is too large.", 404: "There is no such page.",
                  429: "Too many requests from your address; wait a little and try again."}.get(exc.code, exc.description)
        if wants_json():
            return jsonify({"error": words.get(exc.code, "http-error"), "reason": reason}), exc.code
        return render_template("error.html", reason=reason), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        reason = "Something went wrong on the server; nothing was changed."
        if wants_json():
            return jsonify({"error": "server-error", "reason": reason}), 500
        return render_template("error.html", reason=reason), 500
