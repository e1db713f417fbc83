"""A browser's side of accounts against a real server: plain HTTP from one loopback address (clients.py),
keeping the cookies the server sets (the session's, the known device's) as a browser does, and the CSRF
token the pages send with every write. `copy()` is what a thief of the cookies holds."""
from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlsplit

from tests.support.clients import SETUP

PASSWORD = "correct horse"


def http_call(url: str, method: str, path: str, body=None, address: str = SETUP, headers: dict | None = None):
    """(status, headers as a dict, every Set-Cookie header, parsed JSON or text, seconds taken)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60, source_address=(address, 0))
    started = time.perf_counter()
    try:
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        cookies = response.msg.get_all("Set-Cookie") or []
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
        return (response.status, {k.lower(): v for k, v in response.getheaders()}, cookies, parsed,
                time.perf_counter() - started)
    finally:
        conn.close()


class Browser:
    def __init__(self, url: str, address: str = SETUP):
        self.url, self.address = url, address
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self.seat_key: str | None = None

    def copy(self, address: str | None = None) -> "Browser":
        """Another machine holding this browser's cookies and CSRF token (a thief's copy)."""
        other = Browser(self.url, address or self.address)
        other.cookies, other.csrf, other.seat_key = dict(self.cookies), self.csrf, self.seat_key
        return other

    def call(self, method: str, path: str, body=None, headers: dict | None = None):
        """(status, answer); remembers the cookies set and the CSRF token an answer carries."""
        status, _, answer, _ = self.call_timed(method, path, body, headers)
        return status, answer

    def call_timed(self, method: str, path: str, body=None, headers: dict | None = None):
        """(status, response headers, answer, seconds)."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.csrf and method != "GET" and "Authorization" not in headers:
            headers["X-CSRFToken"] = self.csrf
        status, response_headers, cookies, answer, took = http_call(self.url, method, path, body, self.address,
                                                                    headers)
        for cookie in cookies:
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if value and "expires=thu, 01 jan 1970" not in cookie.lower() and "max-age=0" not in cookie.lower():
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)
        if isinstance(answer, dict):
            self.csrf = answer.get("csrf", self.csrf)
            self.seat_key = answer.get("seat_key", self.seat_key)
        return status, response_headers, answer, took

    def sign_up(self, name: str, password: str = PASSWORD) -> dict:
        status, answer = self.call("POST", "/api/account", {"name": name, "password": password})
        assert status == 201, answer
        return answer

    def log_in(self, name: str, password: str = PASSWORD) -> tuple[int, dict]:
        return self.call("POST", "/api/account/login", {"name": name, "password": password})

    def who(self) -> dict | None:
        status, answer = self.call("GET", "/api/account")
        assert status == 200, answer
        return answer["account"]
