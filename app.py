#!/usr/bin/env python3
"""Start the Quadrille server.

    python app.py [--host 127.0.0.1] [--port 5000] [--db quadrille.db] [--async-mode gevent]
    python app.py --db postgresql+psycopg://user@host/quadrille --message-queue redis://host:6379/0
    QUADRILLE_PROXY_HOPS=1 python app.py --unix-socket /run/quadrille/app1.sock --public-url https://your.site

Environment variables QUADRILLE_HOST, QUADRILLE_PORT, QUADRILLE_UNIX_SOCKET, QUADRILLE_DB,
QUADRILLE_MESSAGE_QUEUE, QUADRILLE_ASYNC_MODE and QUADRILLE_PUBLIC_URL mirror the flags. --unix-socket serves
a proxy on this machine through a socket file instead of a TCP port (quadrille/web/unix_socket.py), and a
TCP port too only when one is named. --db takes a SQLite file's path (the
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
    parser.add_argument("--port", type=int, default=int(env("QUADRILLE_PORT")) if env("QUADRILLE_PORT") else None,
                        help="port to listen on (default 5000; 0 picks a free one); with --unix-socket, only if given")
    parser.add_argument("--unix-socket", default=env("QUADRILLE_UNIX_SOCKET") or None,
                        help="listen on this Unix socket (mode 0660), for a proxy on this machine, instead of TCP; "
                             "needs QUADRILLE_PROXY_HOPS and --public-url")
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
        try:
            import eventlet
        except ImportError:  # quadrille.infra.extras says the same, but cannot be imported before the patching
            raise SystemExit("--async-mode eventlet needs the Python package eventlet, which is not installed: "
                             "install quadrille[eventlet] (in the repository: python -m pip install -c "
                             "constraints.txt -e '.[eventlet]'; scripts/serve.sh installs it when asked for "
                             "--async-mode eventlet)")
        eventlet.monkey_patch()


def extras_wanted(argv: list[str]) -> list[str]:
    """The extras of pyproject.toml that these arguments (and QUADRILLE_* variables) need: `cluster` for a
    PostgreSQL database or a message queue, `eventlet` for its async mode. scripts/serve.sh installs them; the
    arguments are checked for real when the server starts (nothing, for arguments it would refuse)."""
    import contextlib
    import io
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            args = parse_args(argv)
    except SystemExit:
        return []
    wanted = []
    if args.message_queue or args.db.startswith(("postgresql", "postgres://")):
        wanted.append("cluster")
    if args.async_mode == "eventlet":
        wanted.append("eventlet")
    return wanted


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


def unix_socket_refusal(args, settings: dict, defaults: dict) -> str | None:
    """Why --unix-socket cannot be served as asked, if it cannot. Its only peer is a proxy on this machine: without
    PROXY_HOPS every player would be one address (the socket's peer has none), and there is no listening
    address to make invite links from."""
    if not args.unix_socket:
        return None
    if not settings.get("PROXY_HOPS", defaults["PROXY_HOPS"]):
        return "--unix-socket is for a proxy on this machine: set QUADRILLE_PROXY_HOPS (1 behind one nginx)"
    if not args.public_url:
        return "--unix-socket needs --public-url (QUADRILLE_PUBLIC_URL), the address players reach the site by"
    return None


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


def open_listeners(args):
    """The listening sockets, what the ready line calls them, the Unix socket's file (or None) and the public
    URL: the Unix socket if one is asked for, and a TCP port by default, or as well when a port is named."""
    from quadrille.web.unix_socket import UnixSocketFile
    socks, addresses, public_url = [], [], args.public_url
    unix_file = UnixSocketFile(args.unix_socket) if args.unix_socket else None
    if unix_file:
        socks.append(unix_file.listen(BACKLOG))
        addresses.append(f"unix:{unix_file.path}")
    if not unix_file or args.port is not None:
        sock = listen(args.host, 5000 if args.port is None else args.port)
        socks.append(sock)
        host, port = sock.getsockname()[:2]
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
        public_url = public_url or f"http://{shown_host}:{port}"
        addresses.append(f"http://{host}:{port}/")
    return socks, addresses, unix_file, public_url


def serve(app, mode: str, socks: list, ready: str) -> None:
    """Serve on every listening socket until SIGTERM or Ctrl-C. The ready line is printed only once the signal
    handlers are in place, so that a SIGTERM sent as soon as the server says it is ready still stops it cleanly.
    The listener (quadrille/web/listener.py) caps connections per address and times out idle and unfinished
    requests, on a Unix socket as on TCP (one gate counts them all)."""
    import signal

    from quadrille.web import listener
    limits = listener.ConnectionLimits.from_config(app.config)
    if mode == "gevent":
        import gevent
        # WebSocket frames go through simple-websocket (gevent-websocket, unmaintained, is not used)
        servers = [listener.gevent_server(sock, app, limits) for sock in socks]
        for server in servers:
            server.start()  # accepting before the handlers can run: a stop() before start() would fail
            server.stop_timeout = 5  # the sessions' last events finish; what is left then is cut

        def stop():
            for server in servers:  # the listening sockets first: nginx finds them refused and tries the next
                server.close()      # process; this also ends serve_forever, which stops each server, waiting
            drain(app)              # for its handlers meanwhile
        gevent.signal_handler(signal.SIGTERM, stop)
        gevent.signal_handler(signal.SIGINT, stop)
        print(ready, flush=True)
        gevent.joinall([gevent.spawn(server.serve_forever) for server in servers])
    else:
        import eventlet.hubs
        import eventlet.wsgi
        import greenlet

        from quadrille.web.eventlet_listener import GatedListener, eventlet_protocol

        main_greenlet = greenlet.getcurrent()

        def interrupt(*_):
            # Raised here, the interrupt would land in whichever greenlet runs when the signal comes (a socket's
            # handler, whose error is logged and forgotten) and the server would never stop. The hub throws it
            # into the main greenlet instead, where run() below is serving.
            eventlet.hubs.get_hub().schedule_call_global(0, main_greenlet.throw, KeyboardInterrupt)
        signal.signal(signal.SIGTERM, interrupt)
        signal.signal(signal.SIGINT, interrupt)

        def run(sock):
            # The socket is already green (the socket module was patched before listen()).
            # eventlet refuses connections past 1,024 simultaneous requests unless told otherwise.
            # minimum_chunk_size: each chunk of an answer is sent as it comes (eventlet would gather 4 KB first,
            # and hold a bot's NDJSON stream back: quadrille/web/bot_streams.py).
            eventlet.wsgi.server(GatedListener(sock, limits), app, log_output=False, max_size=20000,
                                 protocol=eventlet_protocol(limits), minimum_chunk_size=1)
        others = [eventlet.spawn(run, sock) for sock in socks[1:]]
        print(ready, flush=True)
        try:
            run(socks[0])  # SIGTERM's KeyboardInterrupt comes out here, in the main greenlet
        finally:
            for other in others:
                other.kill()
            for sock in socks[1:]:
                sock.close()
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
    from quadrille import create_app  # noqa: E402 - imported after monkey-patching on purpose
    from quadrille.infra.extras import MissingExtra
    from quadrille.observability import logs, metrics
    from quadrille.settings import DEFAULTS
    from quadrille.web.unix_socket import SocketInUse

    settings = settings_from_environment(DEFAULTS)
    try:  # the level and format of every line from here on (QUADRILLE_LOG_LEVEL, QUADRILLE_LOG_FORMAT)
        logs.configure(settings.get("LOG_LEVEL", DEFAULTS["LOG_LEVEL"]),
                       settings.get("LOG_FORMAT", DEFAULTS["LOG_FORMAT"]))
        metrics.parse_address(settings.get("METRICS", DEFAULTS["METRICS"]))
    except ValueError as exc:
        print(exc, file=sys.stderr, flush=True)
        return 2
    refused = unix_socket_refusal(args, settings, DEFAULTS)
    if refused:
        print(refused, file=sys.stderr, flush=True)
        return 2
    raise_file_limit()
    try:
        socks, addresses, unix_file, public_url = open_listeners(args)
    except SocketInUse as exc:
        print(exc, file=sys.stderr, flush=True)
        return 2
    try:
        app = create_app({**settings, "DATABASE": args.db, "ASYNC_MODE": args.async_mode,
                          "PUBLIC_URL": public_url, "MESSAGE_QUEUE": args.message_queue})
    except MissingExtra as exc:
        print(exc, file=sys.stderr, flush=True)
        if unix_file:
            unix_file.remove()
        return 2
    tune_garbage_collector()
    app.extensions["quadrille.clocks"].start()  # the heartbeat that lets a restart give clocks their time back
    app.extensions["quadrille.live_moderation"].start()  # follows bans and closes made by `quadrille admin`
    queue = f", message queue {shown(args.message_queue)}" if args.message_queue else ""
    scraped = metrics.serve(app)  # METRICS: its own listener, never the site's (docs/hosting.md, "Metrics")
    scrape = f", metrics on http://{scraped[0]}:{scraped[1]}/metrics" if scraped else ""
    ready = (f"Quadrille ready on {' and '.join(addresses)} (async mode {args.async_mode}, database "
             f"{shown(args.db)}{queue}{scrape}, process {os.getpid()})")
    try:
        serve(app, args.async_mode, socks, ready)
    except KeyboardInterrupt:
        pass
    finally:
        if unix_file:
            unix_file.remove()
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
