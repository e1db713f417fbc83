"""Who is asking: a session cookie (the pages) or an API token (bots and scripts), and the cross-site guard
for everything a cookie authenticates.

- The session is Flask's signed cookie: `HttpOnly`, `SameSite=Lax` (never sent by another site's iframe or
  form post, so embeds never carry it), `Secure` when the site is served over HTTPS (PUBLIC_URL https://,
  behind a proxy trusted through PROXY_HOPS). It names a server-side session (accounts/account_sessions.py:
  a random id, whose hash is a row of the account's), and holds the session's CSRF token. Logging out
  deletes the row, so a copy of the cookie opens nothing afterwards; a new password deletes every row of the
  account and opens a new one for the browser that asked; deleting the account deletes them all. The signing
  secret is SECRET_KEY, or, when the operator sets none, a random one kept in the database (site_keys),
  shared by every process of the site and kept over restarts.
- Every state-changing request that carries the session cookie and no `Authorization` header must carry the
  session's CSRF token (Flask-WTF's CSRFProtect, checked here for those requests only: seat tokens and API
  tokens travel in headers a page on another site cannot set, and the match API is authenticated by them).
  The pages send it in `X-CSRFToken`, from the `csrf-token` meta tag. The Origin check of security.py stays.
- `Authorization: Bearer <API token>` (accounts/) authenticates a bot for every account and challenge
  endpoint, and stands for the account's seat key in every match endpoint (http_api.bearer_token); it is
  never answered with the seat key itself (revoking the token must end what it could do).
"""
from __future__ import annotations

import secrets
from datetime import timedelta

from flask import Flask, current_app, g, jsonify, render_template, request, session
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from ..errors import ServiceError
from ..i18n import _l
from ..i18n import translated
from ..infra.schema import site_keys_table
from .security import STATE_CHANGING

csrf = CSRFProtect()
SESSION_COOKIE = "quadrille_session"


def site_secret(storage, name: str = "session") -> str:
    """One of the site's own secrets from the database, made once by whichever process comes first:
    `session` signs cookies when SECRET_KEY is not set; `seats` derives the accounts' seat keys (never
    rotated: the seats of every account's matches hold its keys' hashes)."""
    query = select(site_keys_table.c.value).where(site_keys_table.c.name == name)
    with storage.reading() as conn:
        found = conn.execute(query).scalar()
    if found:
        return found
    try:
        with storage.engine.begin() as conn:
            conn.execute(insert(site_keys_table).values(name=name, value=secrets.token_urlsafe(48)))
    except IntegrityError:
        pass  # another process made it a moment ago
    with storage.reading() as conn:
        return conn.execute(query).scalar_one()


def install(app: Flask, storage) -> None:
    config = app.config
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = site_secret(storage)
    config["SESSION_COOKIE_NAME"] = SESSION_COOKIE
    config["SESSION_COOKIE_HTTPONLY"] = True
    config["SESSION_COOKIE_SAMESITE"] = "Lax"
    config["SESSION_COOKIE_SECURE"] = config["PUBLIC_URL"].startswith("https://")
    config.setdefault("PERMANENT_SESSION_LIFETIME", timedelta(days=30))
    config["WTF_CSRF_CHECK_DEFAULT"] = False        # checked below, for cookie-authenticated writes only
    config["WTF_CSRF_TIME_LIMIT"] = None            # as long as the session lives
    config["WTF_CSRF_HEADERS"] = ["X-CSRFToken", "X-CSRF-Token"]
    csrf.init_app(app)

    @app.before_request
    def guard_cookie_writes():
        if (request.method in STATE_CHANGING and SESSION_COOKIE in request.cookies
                and bearer() is None
                and request.blueprint in ("players_api", "player_pages", "blocks_api", "moderation_api",
                                          "moderation_pages", "puzzle_pages")):
            csrf.protect()  # (with a Bearer header the token, not the cookie, says who asks: current_account)

    @app.errorhandler(CSRFError)
    def csrf_refused(exc: CSRFError):
        refusal = ServiceError(403, "csrf", _l("This request lacks this site's CSRF token (reload the page and try "
                                               "again); nothing was changed."))
        if request.path.startswith("/api/"):
            return jsonify(refusal.to_dict()), 403
        return render_template("error.html", reason=translated(refusal.reason)), 403


def accounts():
    return current_app.extensions["quadrille.accounts"]


def session_account():
    """The account of this request's session cookie, or None (a session that ended, by logging out, a new
    password or the account's deletion, or that expired, counts as none)."""
    session_id = session.get("sid")
    return accounts().by_session(session_id) if isinstance(session_id, str) else None


def bearer() -> str | None:
    """The token of this request's `Authorization: Bearer <token>` header (a seat token or an API token), or
    None without one."""
    header = request.headers.get("Authorization", "")
    return header[len("Bearer "):].strip() if header.startswith("Bearer ") else None


def bearer_account():
    """The account of this request's API token (Authorization: Bearer qbt_...), else None."""
    token = bearer()
    return accounts().by_api_token(token) if token is not None else None


def current_account(required: bool = True):
    """The account acting: its API token, else its session. `required`: 401 `login-required` without one."""
    if "account" not in g:
        if bearer() is not None:
            account = bearer_account()
            if account is None and required:
                raise ServiceError(401, "bad-token", _l("This API token is not valid (revoked, or of a deleted or "
                                                        "banned account)."))
        else:
            account = session_account()
        g.account = account
    if g.account is None and required:
        raise ServiceError(401, "login-required", _l("Log in first (or send an API token)."))
    return g.account


def by_bearer() -> bool:
    """Whether this request is authenticated by an API token rather than a session."""
    return bearer() is not None


def log_in(account) -> None:
    """A new server-side session for the account, named by this browser's cookie (a new CSRF token too)."""
    session.clear()
    session.permanent = True
    session["sid"] = accounts().open_session(account)
    g.account = account


def log_out() -> None:
    """End this browser's session on the server, and forget it here."""
    session_id = session.get("sid")
    if isinstance(session_id, str):
        accounts().end_session(session_id)
    session.clear()
    g.account = None
