"""The server's log: its format and level, one access line per HTTP request and per Socket.IO connection, and a
line for each failed login that fail2ban can act on (docs/hosting.md, "Logs").

    configure("INFO", "text")     # app.py, from QUADRILLE_LOG_LEVEL and QUADRILLE_LOG_FORMAT (json: a JSON object
                                  # per line); every logger of the process writes to stderr in that format
    install(app, socketio)        # create_app: the access lines and the failed logins

Access lines (logger `quadrille.access`, INFO), after the answer was sent:

    203.0.113.9 "GET /api/matches" 200 3.1 ms 512 B
    203.0.113.9 "SOCKET connect" #17
    203.0.113.9 "SOCKET disconnect" #17 95.2 s (client disconnect)

The address is the client's as the app resolved it (behind a trusted proxy, the forwarded one: web/security.py).
A path is shown without its query string, and quoted (a client's quote, backslash or control character is
escaped, so a path cannot forge a field or a line). Nothing else of a request is logged: no header (cookies and
API tokens travel in them), no body, no Socket.IO `auth`, and no Socket.IO session id (Engine.IO's polling takes
it as the only proof of a session): a connection's lines share a number of this process's instead.

Engine.IO's own HTTP requests (/socket.io/: polls, the WebSocket's upgrade) are not logged one by one; the
connection and disconnection are. Socket.IO events (moves...) are never logged: they are the hot path. A
successful `/api/health` is logged at DEBUG: load balancers and Docker's HEALTHCHECK ask it every few seconds,
which would be most of the log and say nothing; a failing one is logged at INFO like any other request. So is
a request or a connection refused by a budget (429, `rate-limited`): web/refusal_log.py sums those up once a
minute with the addresses they came from, because a flood's refusals, a line each, would drown the log and cost
a write each (what the budget spares the server).

Failed logins (logger `quadrille.auth`, WARNING), from POST /account/login and POST /account/tokens:

    login failed from 203.0.113.9 for account "alice"

The address comes first, before anything the client chose; the name is quoted and escaped as JSON text.
Moderation actions are logged by quadrille/moderation to `quadrille.moderation`, at INFO, which comes out
whatever the level (like the failed logins, an operator's audit trail is never filtered away).
"""
from __future__ import annotations

import json
import logging
import os
import sys
import time
from datetime import datetime, timezone
from itertools import count

from socketio.exceptions import ConnectionRefusedError as SocketIORefusal  # the one whose data reaches the client

ACCESS = logging.getLogger("quadrille.access")
AUTH = logging.getLogger("quadrille.auth")
AUDITED = ("quadrille.moderation", "quadrille.auth")    # logged at INFO at least, whatever the level
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")
SOCKETIO_PATH = "/socket.io"
HEALTH_PATH = "/api/health"
RATE_LIMITED = "rate-limited"
LOGIN_ENDPOINTS = ("players_api.log_in_", "players_api.create_token")
SHOWN_PATH = 200     # characters of a path shown at most
SHOWN_NAME = 64      # characters of an account name attempted shown at most


# -- format and level --------------------------------------------------------------------------------------
class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the record's `fields` (an access
    line's address, method, path...), and the traceback as `exception` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
                 "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        entry.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def parse_level(level) -> int:
    """"INFO", "debug", 20...: the logging level; ValueError (which stops the start) for anything else."""
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    number = logging.getLevelName(str(level).strip().upper())
    if not isinstance(number, int):
        raise ValueError(f"LOG_LEVEL: {level!r} is not a level (DEBUG, INFO, WARNING, ERROR or CRITICAL)")
    return number


def configure(level="INFO", fmt: str = "text", stream=None) -> int:
    """Every logger of the process to `stream` (stderr), at `level`, in `fmt` ("text" or "json"). Alembic's
    lines (what it does each time the database is opened) only at DEBUG: a start says one line, "ready"."""
    number = parse_level(level)
    fmt = str(fmt or "text").strip().lower()
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT: {fmt!r} is not a format (text or json)")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.quadrille = True  # ours: a second configure replaces it, and leaves others' handlers be (a test's)
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "quadrille", False):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(number)
    quiet = number > logging.DEBUG
    logging.getLogger("alembic").setLevel(logging.WARNING if quiet else logging.DEBUG)
    for name in ("alembic.runtime.migration", "alembic.runtime.plugins"):  # quieted on their own by migrate.py
        logging.getLogger(name).setLevel(logging.WARNING if quiet else logging.NOTSET)
    for name in AUDITED:
        logging.getLogger(name).setLevel(min(number, logging.INFO))
    return number


def configure_from_environment(environ=None) -> int:
    """QUADRILLE_LOG_LEVEL and QUADRILLE_LOG_FORMAT (plain text, or JSON text as app.py takes every setting), for
    the commands that are not the server (python -m quadrille admin): their moderation lines come out as the
    server's do."""
    environ = os.environ if environ is None else environ

    def setting(name: str, default: str) -> str:
        raw = environ.get(f"QUADRILLE_{name}") or default
        try:
            value = json.loads(raw)
        except ValueError:
            return raw
        return value if isinstance(value, (str, int)) else raw
    return configure(setting("LOG_LEVEL", "INFO"), setting("LOG_FORMAT", "text"))


# -- what a client sent, shown safely ----------------------------------------------------------------------
def shown(text, limit: int) -> str:
    """A client's text for a log line: at most `limit` characters, with quotes, backslashes and anything not
    printable escaped, so that it can neither end its field nor begin a new line."""
    if not isinstance(text, str):
        return "?"
    cut = text[:limit]
    if cut.isprintable() and '"' not in cut and "\\" not in cut:
        return cut if len(text) <= limit else cut + "…"
    escaped = json.dumps(cut, ensure_ascii=True)[1:-1]
    return escaped if len(text) <= limit else escaped + "…"


# -- HTTP --------------------------------------------------------------------------------------------------
class AccessLog:
    """WSGI middleware, outermost: one line per request once its answer was sent (its body iterated and closed),
    with the status, the time from the request's arrival to then, and the bytes of the body."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO") or "/"
        if path.startswith(SOCKETIO_PATH) or not ACCESS.isEnabledFor(logging.INFO):
            return self.app(environ, start_response)
        started = time.perf_counter()
        status = ["-"]

        def start(line, headers, exc_info=None):
            status[0] = line.split(" ", 1)[0]
            return start_response(line, headers, exc_info)
        try:
            body = self.app(environ, start)
        except BaseException:
            self.line(environ, path, "500", started, 0)
            raise
        return LoggedBody(body, lambda size: self.line(environ, path, status[0], started, size))

    @staticmethod
    def line(environ: dict, path: str, status: str, started: float, size: int) -> None:
        quiet = status == "429" or (status == "200" and path == HEALTH_PATH)
        level = logging.DEBUG if quiet else logging.INFO
        if not ACCESS.isEnabledFor(level):
            return
        address = environ.get("REMOTE_ADDR") or "-"   # read now: a trusted proxy's forwarded one is in place
        method, shown_path = shown(environ.get("REQUEST_METHOD"), 16), shown(path, SHOWN_PATH)
        ms = (time.perf_counter() - started) * 1000
        ACCESS.log(level, '%s "%s %s" %s %.1f ms %d B', address, method, shown_path, status, ms, size,
                   extra={"fields": {"address": address, "method": method, "path": shown_path,
                                     "status": int(status) if status.isdigit() else status,
                                     "ms": round(ms, 1), "bytes": size}})


class LoggedBody:
    """A WSGI body that counts what it yields and calls `done(bytes)` when the server closes it."""

    def __init__(self, body, done):
        self.body, self.done, self.size = body, done, 0

    def __iter__(self):
        for chunk in self.body:
            self.size += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.done(self.size)


# -- Socket.IO ---------------------------------------------------------------------------------------------
class SocketLog:
    """Wraps the Socket.IO server's connect and disconnect handlers (as python-socketio calls them): one line
    when a connection is accepted or refused, one when it ends, with how long it lasted and why it ended."""

    def __init__(self, server, refusals=None):
        """`refusals`: the app's web/refusal_log.py, which sums up the connections refused by a budget."""
        self.refusals = refusals
        self.numbers = count(1)
        self.open: dict[str, tuple[int, str, float]] = {}   # sid -> (number, address, since)
        handlers = server.handlers.setdefault("/", {})
        self._connect, self._disconnect = handlers["connect"], handlers["disconnect"]
        handlers["connect"], handlers["disconnect"] = self.connect, self.disconnect

    def connect(self, sid, environ, *args):
        number, address = next(self.numbers), (environ or {}).get("REMOTE_ADDR") or "-"
        try:
            accepted = self._connect(sid, environ, *args)
        except (ConnectionRefusedError, SocketIORefusal) as refused:
            reason = self._reason(refused)
            over_budget = reason == RATE_LIMITED
            if over_budget and self.refusals is not None:
                self.refusals.count("socket-connection", address)
            self._line(address, "refused", number, reason, level=logging.DEBUG if over_budget else None)
            raise
        if accepted is False:
            self._line(address, "refused", number, None)
        else:
            self.open[sid] = (number, address, time.monotonic())
            self._line(address, "connect", number, None)
        return accepted

    def disconnect(self, sid, *args):
        try:
            return self._disconnect(sid, *args)
        finally:
            entry = self.open.pop(sid, None)
            if entry is not None:
                number, address, since = entry
                reason = str(args[0]) if args and args[0] is not None else None
                self._line(address, "disconnect", number, reason, time.monotonic() - since)

    @staticmethod
    def _reason(refused) -> str | None:
        """The refusal's `error` ("rate-limited", "bad-token"): python-socketio's refusal carries it in the data
        its client receives (web/socket_tokens.refused), the built-in one as its first argument."""
        data = (getattr(refused, "error_args", None) or {}).get("data")
        first = refused.args[0] if refused.args else None
        found = data if isinstance(data, dict) else first if isinstance(first, dict) else {}
        return found.get("error")

    @staticmethod
    def _line(address: str, event: str, number: int, reason: str | None, seconds: float | None = None,
              level: int | None = None) -> None:
        fields = {"address": address, "method": "SOCKET", "event": event, "socket": number}
        tail = ""
        if seconds is not None:
            fields["seconds"] = round(seconds, 1)
            tail += f" {seconds:.1f} s"
        if reason:
            fields["reason"] = reason
            tail += f" ({reason})"
        ACCESS.log(level or logging.INFO, '%s "SOCKET %s" #%d%s', address, event, number, tail,
                   extra={"fields": fields})


# -- failed logins -----------------------------------------------------------------------------------------
def log_failed_login(response):
    """Flask after_request: a login (or an API token asked for by name and password) refused for a wrong name
    or password (401) is logged with the address it came from and the name tried; never the password."""
    from flask import request
    if response.status_code == 401 and request.endpoint in LOGIN_ENDPOINTS:
        body = request.get_json(silent=True, cache=True)
        name = body.get("name") if isinstance(body, dict) else None
        address = request.remote_addr or "-"
        shown_name = json.dumps(name[:SHOWN_NAME] if isinstance(name, str) else "?", ensure_ascii=True)
        AUTH.warning("login failed from %s for account %s", address, shown_name,
                     extra={"fields": {"address": address, "account": json.loads(shown_name),
                                       "event": "login-failed"}})
    return response


def install(app, socketio) -> None:
    """The access lines of the app's HTTP requests and Socket.IO connections, and its failed logins. Call once
    the app's own middleware is in place (security.install): this goes outside it, and sees the answers the
    client got, and the address the trusted proxy's headers resolved."""
    app.wsgi_app = AccessLog(app.wsgi_app)
    app.extensions["quadrille.socket_log"] = SocketLog(socketio.server, app.extensions.get("quadrille.refusals"))
    app.after_request(log_failed_login)
