"""What every response and request goes through, whatever the route: security headers, the cross-site
check, a proxy's forwarded address, and HEAD answered without a body.

- Behind a proxy (PROXY_HOPS > 0), X-Forwarded-For and X-Forwarded-Proto are believed only from the
  proxies named in TRUSTED_PROXIES (loopback by default) and from a peer on the server's Unix socket
  (`app.py --unix-socket`): werkzeug's ProxyFix for their requests, and for anyone else's, who reached the
  process directly, the forwarded headers are removed, so that a client is counted (budgets, owners) as the
  address it really connects from, whatever it claims to forward (ProxyTrust: the one place that says who
  is a proxy; the listener asks it too, to spare the proxy the cap on connections per address).
- A Unix socket's peer has no address: the listener gives it an empty REMOTE_ADDR (UNIX_SOCKET_PEER). It is
  whoever may open the socket file, which the operator keeps to the proxy's user (a directory only it and
  the server's user may enter, the file mode 0660), so it is a trusted proxy, and its X-Forwarded-For names
  the client. A request on it that forwards no address (an operator's own `curl --unix-socket`) keeps the
  empty address: every such request counts as one client, "?" (infra/addresses.address_key).

- Content-Security-Policy: scripts and styles only from this site (no inline script; style attributes are
  allowed, because the boards size themselves with CSS custom properties such as `style="--n: 11"`).
  Pages may be framed only under /embed/, by any site; every other page forbids framing.
- X-Content-Type-Options: nosniff; Referrer-Policy: same-origin (a match address never leaks to another
  site); Cache-Control: no-store on the API and on pages that carry a live seat token.
- The same headers on the answers Flask never sees: Socket.IO's own (AnswersNotFromFlask) and the listener's
  refusals (web/listener.py), through `security_headers`.
- A state-changing request that carries no token (creating, joining or importing a match) must come from
  this site: browsers send `Origin` (and `Sec-Fetch-Site`) with every cross-site POST, so a request that
  names another origin is refused. Bots and scripts send neither and are not affected. JSON bodies are
  accepted only as `application/json` (see http_api.json_body): a form or `text/plain` POST, which a page
  on another site may send without asking, is never read as JSON.
"""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Flask, g, request
from werkzeug.middleware.proxy_fix import ProxyFix

from ..errors import ServiceError
from ..i18n import _l

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "media-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
])
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SOCKETIO_PATH = "/socket.io/"  # Flask-SocketIO's default path: Engine.IO answers there, not Flask


def install(app: Flask) -> None:
    public_origin = origin_of(app.config["PUBLIC_URL"])

    @app.before_request
    def refuse_cross_site_writes():
        if request.method not in STATE_CHANGING or request.headers.get("Authorization"):
            return None
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise cross_site()
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (public_origin, origin_of(request.host_url)):
            raise cross_site()
        return None

    @app.after_request
    def add_security_headers(response):
        response.headers.update(security_headers(request.path, g.get("carries_token", False)))
        return response

    # Outermost first: the forwarded address must be in place before Socket.IO sees the request.
    app.wsgi_app = AnswersNotFromFlask(HeadWithoutBody(app.wsgi_app))
    trust = ProxyTrust.from_config(app.config)  # checks TRUSTED_PROXIES even without a proxy: a typo stops the start
    if trust.hops:
        app.wsgi_app = TrustedProxies(app.wsgi_app, trust)


def security_headers(path: str, carries_token: bool = False) -> dict[str, str]:
    """The security headers of an answer to `path`, whoever makes it: Flask, Engine.IO or the listener."""
    framable = path.startswith("/embed/")
    headers = {"Content-Security-Policy": CSP + ("; frame-ancestors *" if framable else "; frame-ancestors 'none'")}
    if not framable:
        headers["X-Frame-Options"] = "DENY"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "same-origin"
    if path.startswith("/api/") or carries_token:
        headers["Cache-Control"] = "no-store"
    return headers


class AnswersNotFromFlask:
    """Socket.IO's own answers (Engine.IO's handshakes, polls and refusals such as a 400 for an unknown session)
    never pass through Flask: they get the same security headers here, each one that Engine.IO did not set."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        if not environ.get("PATH_INFO", "").startswith(SOCKETIO_PATH):
            return self.app(environ, start_response)
        extra = security_headers(environ["PATH_INFO"])

        def start_with_headers(status, headers, exc_info=None):
            present = {name.lower() for name, _ in headers}
            headers = list(headers) + [(k, v) for k, v in extra.items() if k.lower() not in present]
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)
        return self.app(environ, start_with_headers)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def cross_site() -> ServiceError:
    return ServiceError(403, "cross-origin", _l("This request came from another site; Quadrille refused it."))


class HeadWithoutBody:
    """Answer HEAD with the headers of GET and no body, on every route. Flask does this for its own routes,
    but Socket.IO's requests never reach Flask, and a body after a HEAD answer corrupts the next response
    on a kept-alive connection."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "HEAD":
            return self.app(environ, start_response)
        body = self.app(environ, start_response)
        if hasattr(body, "close"):
            body.close()
        return []


# Every header by which a proxy says who the client is: none of them is read from a peer that is not trusted.
FORWARDED_HEADERS = ("HTTP_FORWARDED", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
                     "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX", "HTTP_X_REAL_IP")


UNIX_SOCKET_PEER = ""  # REMOTE_ADDR of a connection on a Unix socket (web/listener.py): it has no address


class ProxyTrust:
    """Who may say who the client is: with PROXY_HOPS, a peer whose address is in TRUSTED_PROXIES, or a peer on
    the Unix socket (UNIX_SOCKET_PEER); without PROXY_HOPS, nobody."""

    def __init__(self, proxies, hops: int):
        self.hops = hops
        self.networks = trusted_networks(proxies)

    @classmethod
    def from_config(cls, config) -> "ProxyTrust":
        return cls(config["TRUSTED_PROXIES"], config["PROXY_HOPS"])

    def trusts(self, address: str | None) -> bool:
        if not self.hops or address is None:
            return False
        if address == UNIX_SOCKET_PEER:
            return True
        try:
            peer = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped:
            peer = peer.ipv4_mapped
        return any(peer in network for network in self.networks)


class TrustedProxies:
    """werkzeug's ProxyFix (`hops` proxies, X-Forwarded-For and -Proto) for requests from a trusted proxy; from
    any other peer the forwarded headers are dropped, and REMOTE_ADDR stays the peer's."""

    def __init__(self, app, trust: ProxyTrust):
        self.app = app
        self.trust = trust
        self.fixed = ProxyFix(app, x_for=trust.hops, x_proto=trust.hops, x_host=0)

    def __call__(self, environ, start_response):
        if self.trust.trusts(environ.get("REMOTE_ADDR")):
            return self.fixed(environ, start_response)
        for name in FORWARDED_HEADERS:
            environ.pop(name, None)
        return self.app(environ, start_response)


def trusted_networks(proxies) -> list:
    """TRUSTED_PROXIES (a list, or text separated by commas) as networks; a bad entry stops the start-up."""
    entries = proxies.split(",") if isinstance(proxies, str) else list(proxies or [])
    networks = []
    for entry in (str(e).strip() for e in entries):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {entry!r} is not an address or a network") from None
    return networks
