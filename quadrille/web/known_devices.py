"""Known devices: a browser remembers, in a cookie the server signs, which accounts logged in from it.

`quadrille_device` holds a random device id and the ids of the last MAX_ACCOUNTS accounts that logged in (or
signed up) from this browser, signed with the site's secret (itsdangerous, as Flask's session), `HttpOnly`,
`SameSite=Lax`, `Secure` like the session, for a year. It proves nothing about who is asking, only that
this browser once knew the account's password: the login budgets (accounts/login_budget.py) let such a device
past a name's budget of failures, which strangers can spend, and count its own failures apart. It is set
only by a successful login or sign-up: anonymous pages and embeds still set no cookie.
"""
from __future__ import annotations

import secrets

from flask import after_this_request, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "quadrille_device"
MAX_ACCOUNTS = 10
LIFETIME = 365 * 24 * 3600


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="quadrille.known-device")


def read() -> tuple[str | None, list[int]]:
    """(this browser's device id, the accounts it logged into), or (None, []) without a good cookie."""
    raw = request.cookies.get(COOKIE)
    if not raw:
        return None, []
    try:
        found = _signer().loads(raw)
    except BadSignature:
        return None, []
    device, accounts = (found.get("d"), found.get("a")) if isinstance(found, dict) else (None, None)
    if not isinstance(device, str) or not isinstance(accounts, list):
        return None, []
    return device, [a for a in accounts if isinstance(a, int)]


def device_for(account_id: int | None) -> str | None:
    """This browser's device id if it logged into `account_id` before, else None."""
    device, accounts = read()
    return device if account_id is not None and account_id in accounts else None


def remember(account_id: int) -> None:
    """After this response, the browser knows `account_id` (its most recent accounts first)."""
    device, accounts = read()
    device = device or secrets.token_urlsafe(16)
    accounts = [account_id] + [a for a in accounts if a != account_id][:MAX_ACCOUNTS - 1]
    value = _signer().dumps({"d": device, "a": accounts})
    config = current_app.config

    @after_this_request
    def set_cookie(response):
        response.set_cookie(COOKIE, value, max_age=LIFETIME, httponly=True, samesite="Lax",
                            secure=config["SESSION_COOKIE_SECURE"], path="/")
        return response
