#!/usr/bin/env python3
"""Start the Quadrille server.

    python app.py [--host 127.0.0.1] [--port 5000] [--db quadrille.db] [--async-mode gevent]
    python app.py --db postgresql+psycopg://user@host/quadrille --message-queue redis://host:6379/0

Environment variables QUADRILLE_HOST, QUADRILLE_PORT, QUADRILLE_DB, QUADRILLE_MESSAGE_QUEUE,
QUADRILLE_ASYNC_MODE and QUADRILLE_PUBLIC_URL mirror the flags. --db takes a SQLite file's path (the
default: one process, everything in memory) or a database URL; with --message-queue (Redis) several
processes serve the same matches (README.md, "Running several processes"). Every other
setting of quadrille/settings.py can be set as QUADRILLE_<NAME> (a JSON value, or
plain text), e.g. QUADRILLE_CONNECTIONS_PER_ADDRESS=200. The async mode is chosen
here and only here: the rest of the code uses Flask-SocketIO's portable
primitives. The default is gevent (see README.md, "Async mode", for the
measurements behind it).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys

ASYNC_MODES = ("gevent", "eventlet")
DEFAULT_ASYNC_MODE = "gevent"
BACKLOG = 2048
GC_THRESHOLDS = (5_000, 10, 100)   # generation 0 allocations, then passes of the younger generation


def parse_args(argv=None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(description="Serve Quadrille, a browser arcade of abstract strategy games.")
    parser.add_argument("--host", default=env("QUADRILLE_HOST", "127.0.0.1"), help="address to listen on")
    parser.add_argument("--port", type=int, default=int(env("QUADRILLE_PORT", "5000")),
                        help="port to listen on (0 picks a free one)")
    parser.add_argument("--db", default=env("QUADRILLE_DB", "quadrille.db"),
                        help="a SQLite database file, or a database URL (postgresql+psycopg://user@host/name)")
    parser.add_argument("--message-queue", default=env("QUADRILLE_MESSAGE_QUEUE") or None,
                        help="a Redis URL (redis://host:6379/0) shared by several server processes")
    parser.add_argument("--async-mode", choices=ASYNC_MODES, default=env("QUADRILLE_ASYNC_MODE", DEFAULT_ASYNC_MODE),
                        help="the concurrency model of the server")
    parser.add_argument("--public-url", default=env("QUADRILLE_PUBLIC_URL"),
                        help="the address players reach the site by, for invite links (default: the listening address)")
    return parser.parse_args(argv)


FLAG_SETTINGS = {"DATABASE", "ASYNC_MODE", "PUBLIC_URL", "MESSAGE_QUEUE"}


def settings_from_environment(defaults: dict) -> dict:
    """QUADRILLE_<NAME> for every setting that has no flag of its own: a JSON value, or else plain text."""
    found = {}
    for name in defaults:
        raw = os.environ.get(f"QUADRILLE_{name}")
        if raw is None or name in FLAG_SETTINGS:
            continue
        try:
            found[name] = json.loads(raw)
        except ValueError:
            found[name] = raw
    return found


def shown(location: str) -> str:
    """A database or queue location for the log: a URL without its password."""
    import re
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", location)


def patch(mode: str) -> None:
    """Monkey-patch the standard library for the chosen async mode; must run before other imports."""
    if mode == "gevent":
        from gevent import monkey
        monkey.patch_all()
    elif mode == "eventlet":
        # psycopg waits for PostgreSQL with a C poll() unless told otherwise (it knows gevent's patching, not
        # eventlet's): its select()-based wait is the one eventlet makes cooperative.
        os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_select")
        import eventlet
        eventlet.monkey_patch()


def raise_file_limit() -> None:
    """Each connected client is a file descriptor: lift the soft limit to the hard one."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    except (ImportError, ValueError, OSError):
        pass


def tune_garbage_collector() -> None:
    """Keep the garbage collector's pauses off the latency tail.

    Every collection blocks the event loop, and a full one walks every live object. Under the load
    benchmark (200 matches) the defaults ran ten full passes in 20 s, up to 93 ms each: they were most of
    the p99. Freezing what start-up built (modules, routes, engines' tables) takes it out of every later
    pass; the thresholds make full passes rare (a couple a minute, 25-30 ms) while keeping the young
    passes small (5 ms at most). Garbage that is not cyclic is freed by reference counting regardless.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def listen(host: str, port: int):
    """A listening socket with TCP_NODELAY (inherited by accepted sockets on Linux): Nagle's
    algorithm would hold back the small Socket.IO frames and cost several times the latency."""
    import socket
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    return sock


def serve(app, mode: str, sock, ready: str) -> None:
    """Serve until SIGTERM or Ctrl-C. The ready line is printed only once the signal handlers are in place,
    so that a SIGTERM sent as soon as the server says it is ready still stops it cleanly. The listener
    (quadrille/web/listener.py) caps connections per address and times out idle and unfinished requests."""
    import signal

    from quadrille.web import listener
    limits = listener.ConnectionLimits.from_config(app.config)
    if mode == "gevent":
        import gevent
        # WebSocket frames go through simple-websocket (gevent-websocket, unmaintained, is not used)
        server = listener.gevent_server(sock, app, limits)
        server.start()  # accepting before the handlers can run: a stop() before start() would fail

        server.stop_timeout = 5  # the sessions' last events finish; what is left then is cut

        def stop():
            server.close()  # the listening socket first: nginx finds it refused and tries the next process; this
            drain(app)      # also ends serve_forever, which stops the server, waiting for its handlers meanwhile
        gevent.signal_handler(signal.SIGTERM, stop)
        gevent.signal_handler(signal.SIGINT, stop)
        print(ready, flush=True)
        server.serve_forever()
    else:
        import eventlet.wsgi

        def interrupt(*_):
            raise KeyboardInterrupt
        signal.signal(signal.SIGTERM, interrupt)
        print(ready, flush=True)
        # The socket is already green (the socket module was patched before listen()).
        # eventlet refuses connections past 1,024 simultaneous requests unless told otherwise.
        try:
            eventlet.wsgi.server(listener.GatedListener(sock, limits.gate), app, log_output=False, max_size=20000,
                                 protocol=listener.eventlet_protocol(limits))
        finally:
            drain(app)
            eventlet.sleep(0.5)  # the sessions' last events finish


def drain(app) -> None:
    """Close every Socket.IO session, each after the event it is handling: a move under way is committed and
    broadcast, never cut between the two (a stopped process's greenlets are killed where they stand). The
    clients see their connection close, not a goodbye, so they reconnect at once, to another process behind
    nginx in a rolling restart."""
    eio = app.extensions["socketio"].server.eio
    for session in list(eio.sockets.values()):
        try:
            session.close(wait=False, abort=True)
        except Exception:  # pragma: no cover - a session that went meanwhile
            pass


def main(argv=None) -> int:
    args = parse_args(argv)
    patch(args.async_mode)
    import logging  # noqa: E402 - imported after monkey-patching on purpose
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from quadrille import create_app
    from quadrille.settings import DEFAULTS

    raise_file_limit()
    sock = listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
    public_url = args.public_url or f"http://{shown_host}:{port}"
    app = create_app({**settings_from_environment(DEFAULTS), "DATABASE": args.db, "ASYNC_MODE": args.async_mode,
                      "PUBLIC_URL": public_url, "MESSAGE_QUEUE": args.message_queue})
    tune_garbage_collector()
    app.extensions["quadrille.clocks"].start()  # the heartbeat that lets a restart give clocks their time back
    queue = f", message queue {shown(args.message_queue)}" if args.message_queue else ""
    ready = (f"Quadrille ready on http://{host}:{port}/ (async mode {args.async_mode}, database {shown(args.db)}"
             f"{queue}, process {os.getpid()})")
    try:
        serve(app, args.async_mode, sock, ready)
    except KeyboardInterrupt:
        pass
    app.extensions["quadrille"].computer.close()
    for backend in app.extensions["quadrille.backends"]:
        try:
            backend.close()  # presence withdraws this process's sockets, leases are let go
        except Exception:
            pass
    app.extensions["quadrille.storage"].close()
    print("Quadrille stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
