"""The Flask request context of a Socket.IO event, built once per socket instead of once per event.

Flask-SocketIO runs every event inside a request context made from the socket's WSGI environ: it builds a
new Request, binds the URL map to it, matches the route, and opens the signed session cookie, only to replace
that session with the socket's own copy, saved on its first event (`manage_session`). Under the load
benchmark that was about a tenth of the server's time per move. Here a socket's later events reuse what its
first one built: the same Request (its environ, address and cookies are the connection's, which never
change), the same URL adapter and route match, and the saved session, which is what Flask-SocketIO would
have put in the context anyway. `connect` and `disconnect`, and a socket's first event, take Flask-SocketIO's
own path, so what a handler sees (`request.sid`, `request.environ`, `session`, `g`) is unchanged.

The Socket.IO path has a route of its own in the URL map (`ENGINE_IO_ENDPOINT`), never served: the Engine.IO
middleware answers every request under it before Flask sees one. Without it, each of a socket's contexts
(its connect, its first event, its disconnect) failed to match a route, and the NotFound it kept, whose
traceback holds the frame that holds the context, made a cycle of about sixty objects that only the garbage
collector frees: under the load benchmark, nearly all the server's cyclic garbage.
"""
from __future__ import annotations

import sys

from flask import Flask
from flask.ctx import RequestContext
from flask_socketio import SocketIO
from werkzeug.exceptions import NotFound

# (the context class is Flask's, whose annotations pdoc cannot read)
__all__ = ["LeanSocketIO", "ONCE_PER_SOCKET", "ENGINE_IO_ENDPOINT"]

ONCE_PER_SOCKET = "quadrille.socket_request"  # environ key: (Request, URL adapter) of the socket's first event
ENGINE_IO_ENDPOINT = "engine_io"  # the Socket.IO path's route: what a socket's request contexts match


def answered_by_engine_io():
    """The Socket.IO path's view, which no request reaches but `/socket.io` without its slash (Engine.IO takes
    the path with it): a 404, as for any path without a page."""
    raise NotFound()


class _SocketEventContext(RequestContext):
    """A request context around an existing Request, URL adapter and session (Flask 3.1's attributes)."""

    def __init__(self, app: Flask, request, url_adapter, session):  # noqa: D107 - no super(): it rebuilds them
        self.app = app
        self.request = request
        self.url_adapter = url_adapter
        self.flashes = None
        self._session = session
        self._after_request_functions = []
        self._cv_tokens = []

    def match_request(self) -> None:
        """The route was matched on the socket's first event; the Request keeps its result."""


class LeanSocketIO(SocketIO):
    def init_app(self, app: Flask, **kwargs) -> None:
        super().init_app(app, **kwargs)
        path = "/" + kwargs.get("path", "socket.io").strip("/") + "/"
        # (long polling's requests, and Werkzeug's WebSocket rule for a WebSocket's handshake, which matches no other)
        app.add_url_rule(path, ENGINE_IO_ENDPOINT, answered_by_engine_io, methods=["GET", "POST"],
                         strict_slashes=False)
        app.add_url_rule(path, ENGINE_IO_ENDPOINT, answered_by_engine_io, strict_slashes=False, websocket=True)

    def _handle_event(self, handler, message, namespace, sid, *args):
        environ = self.server.get_environ(sid, namespace=namespace)
        built = environ.get(ONCE_PER_SOCKET) if environ else None
        if built is None or message in ("connect", "disconnect") or not self.manage_session:
            answer = super()._handle_event(handler, message, namespace, sid, *args)
            if environ and message not in ("connect", "disconnect") and "saved_session" in environ:
                self._keep_first_request(environ)
            return answer
        request, url_adapter = built
        with _SocketEventContext(environ["flask.app"], request, url_adapter, environ["saved_session"]):
            request.sid = sid
            request.namespace = namespace
            request.event = {"message": message, "args": args}
            try:
                return handler(*args)
            except ConnectionRefusedError:
                raise
            except Exception:
                err_handler = self.exception_handlers.get(namespace, self.default_exception_handler)
                if err_handler is None:
                    raise
                return err_handler(sys.exc_info()[1])

    @staticmethod
    def _keep_first_request(environ: dict) -> None:
        """Build once what the later events of this socket reuse (a Request whose routing is already done)."""
        app = environ["flask.app"]
        context = RequestContext(app, environ)
        if context.url_adapter is not None:
            context.match_request()
        environ[ONCE_PER_SOCKET] = (context.request, context.url_adapter)
