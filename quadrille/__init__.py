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

from .web import http_api, pages, sockets
from .computer import ComputerPlayers
from .errors import ServiceError
from .infra.storage import Storage
from .matches import MatchService

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("quadrille")

DEFAULTS = {
    "DATABASE": "quadrille.db",
    "ASYNC_MODE": "threading",
    "MAX_CONTENT_LENGTH": 1 << 20,        # HTTP bodies: 1 MiB is plenty for a record
    "SOCKET_MAX_BYTES": 16 << 10,         # Socket.IO messages: moves are tiny
    "COMPUTER_WORKERS": None,             # worker processes for computer players (default: cores - 1, at least 1)
    "DEMO_DELAY": 0.6,                    # seconds between moves when only computers play
    "COMPUTER_MATCHES_PER_ADDRESS": 8,    # matches against the computer one client address may have going
}


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

    storage = Storage.sqlite(app.config["DATABASE"])
    service = MatchService(storage, broadcast)
    presence = sockets.register(socketio, service)
    service.computer = ComputerPlayers(service, socketio.start_background_task, socketio.sleep,
                                       size=app.config["COMPUTER_WORKERS"], demo_delay=app.config["DEMO_DELAY"],
                                       watched=presence.watching,
                                       per_address=app.config["COMPUTER_MATCHES_PER_ADDRESS"])
    app.extensions["quadrille"] = service
    app.extensions["quadrille.storage"] = storage
    app.extensions["quadrille.presence"] = presence

    app.register_blueprint(http_api.bp)
    app.register_blueprint(pages.bp)
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
        words = {404: "not-found", 405: "method-not-allowed", 413: "payload-too-large", 400: "bad-request"}
        reason = {413: "The request is too large.", 404: "There is no such page."}.get(exc.code, exc.description)
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
