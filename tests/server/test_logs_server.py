"""The log of a real server process (quadrille/observability/logs.py): a quiet start, one access line per HTTP
request and per Socket.IO connection and disconnection, failed logins that the fail2ban filter of
docs/hosting.md matches, never a secret; QUADRILLE_LOG_FORMAT=json and QUADRILLE_LOG_LEVEL."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import requests
import socketio

from tests.support.paths import ROOT
from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server
SECRETS = ("SECRET-QUERY", "qbt_SECRET-AUTH", "qbt_SECRET-BEARER", "SECRET-COOKIE", "SECRET-PASSWORD")
# fail2ban's <HOST> (its filter.d/common's address part, IPv4 and IPv6), for the filter written in the docs.
FAIL2BAN_HOST = r"(?:::f{4,6}:)?(?P<host>[\w\-.^_:]*\w)"


def documented_failregex() -> str:
    """The failregex line of docs/hosting.md's fail2ban filter."""
    found = re.search(r"^failregex\s*=\s*(.+)$", (ROOT / "docs" / "hosting.md").read_text(), re.M)
    assert found, "docs/hosting.md has no fail2ban filter"
    return found.group(1).strip()


def log_text(proc) -> str:
    return proc.log_path.read_text(errors="replace")


def visit(proc, expected=("SOCKET disconnect", "login failed", "account/login")) -> None:
    """What the tests look for in the log: a request (with secrets in its query, header and cookie), a health
    check, a Socket.IO connection (with a token in its auth) and its end, and a failed login."""
    answer = requests.get(f"{proc.url}/api/games?token=SECRET-QUERY",
                          headers={"Authorization": "Bearer qbt_SECRET-BEARER", "Cookie": "session=SECRET-COOKIE"})
    assert answer.status_code == 200
    assert requests.get(f"{proc.url}/api/health").status_code == 200
    refused = socketio.Client(reconnection=False)  # a token that is no account's: refused, and never logged
    with pytest.raises(socketio.exceptions.ConnectionError):
        refused.connect(proc.url, transports=["websocket"], auth={"token": "qbt_SECRET-AUTH"}, wait_timeout=10)
    sio = socketio.Client(reconnection=False)
    sio.connect(proc.url, transports=["websocket"], wait_timeout=10)
    sio.disconnect()
    failed = requests.post(f"{proc.url}/api/account/login", json={"name": "mallory", "password": "SECRET-PASSWORD"})
    assert failed.status_code == 401
    wait_until(lambda: all(line in log_text(proc) for line in expected), 10, f"{expected} in the log")


def test_a_quiet_start_access_lines_and_failed_logins_without_secrets(tmp_path):
    proc = ServerProcess(tmp_path / "logged.db").start()
    try:
        first = log_text(proc).splitlines()
        # A new database: one line says it was made (the migrations), then the ready line; Alembic says nothing.
        assert len(first) == 2 and "quadrille.migrate: upgrading the database" in first[0], first
        assert first[1].startswith("Quadrille ready on ")
        proc.stop()
        proc.start()
        again = log_text(proc).splitlines()[2:]
        assert [line.split(" on ")[0] for line in again] == ["Quadrille stopped", "Quadrille ready"], again
        visit(proc)
        text = log_text(proc)
    finally:
        proc.stop()
    assert re.search(r' INFO quadrille\.access: 127\.0\.0\.1 "GET /api/games" 200 \d+\.\d ms \d+ B$', text, re.M)
    assert re.search(r' INFO quadrille\.access: 127\.0\.0\.1 "SOCKET refused" #1 \(bad-token\)$', text, re.M)
    assert re.search(r' INFO quadrille\.access: 127\.0\.0\.1 "SOCKET connect" #2$', text, re.M)
    assert re.search(r' INFO quadrille\.access: 127\.0\.0\.1 "SOCKET disconnect" #2 \d+\.\d s \(.+\)$', text, re.M)
    assert '"POST /api/account/login" 401' in text
    assert "/api/health" not in text          # a successful health check is logged at DEBUG only
    assert "/socket.io" not in text           # Engine.IO's requests: the connection's lines instead
    for secret in SECRETS:
        assert secret not in text
    login = [line for line in text.splitlines() if "login failed" in line]
    assert login == [login[0]] and login[0].endswith(' WARNING quadrille.auth: login failed from 127.0.0.1 for '
                                                     'account "mallory"')
    # The fail2ban filter of the docs finds the address in that line, and in no other line of the log.
    failregex = re.compile(documented_failregex().replace("<HOST>", FAIL2BAN_HOST))
    matched = [m.group("host") for line in text.splitlines() if (m := failregex.search(without_date(line)))]
    assert matched == ["127.0.0.1"]


def without_date(line: str) -> str:
    """The line as fail2ban matches it: its date (found by fail2ban's date detector) cut out."""
    return re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}", "", line)


def test_a_forged_login_line_in_a_path_or_a_name_bans_nobody(tmp_path):
    proc = ServerProcess(tmp_path / "forged.db").start()
    try:
        forged = "WARNING quadrille.auth: login failed from 198.51.100.7 for account x"
        requests.get(f"{proc.url}/{forged}")
        requests.get(f"{proc.url}/x\n2026-01-01 00:00:00,000 {forged}".replace("\n", "%0A"))
        requests.post(f"{proc.url}/api/account/login", json={"name": f'x"\n{forged}', "password": "nope"})
        wait_until(lambda: "login failed" in log_text(proc), 10, "the failed login")
        text = log_text(proc)
    finally:
        proc.stop()
    failregex = re.compile(documented_failregex().replace("<HOST>", FAIL2BAN_HOST))
    hosts = [m.group("host") for line in text.splitlines() if (m := failregex.search(without_date(line)))]
    assert hosts == ["127.0.0.1"]


def test_json_format_one_object_per_line(tmp_path):
    proc = ServerProcess(tmp_path / "json.db", settings={"LOG_FORMAT": "json"}).start()
    try:
        visit(proc)
        text = log_text(proc)
    finally:
        proc.stop()
    records = [json.loads(line) for line in text.splitlines() if not line.startswith("Quadrille ")]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    access = [r for r in records if r["logger"] == "quadrille.access"]
    http = next(r for r in access if r.get("path") == "/api/games")
    assert http["method"] == "GET" and http["status"] == 200 and http["address"] == "127.0.0.1"
    assert isinstance(http["ms"], float) and http["bytes"] > 0
    assert {r["event"] for r in access if r["method"] == "SOCKET"} == {"refused", "connect", "disconnect"}
    login = next(r for r in records if r["logger"] == "quadrille.auth")
    assert login["account"] == "mallory" and login["address"] == "127.0.0.1" and login["level"] == "WARNING"
    for secret in SECRETS:
        assert secret not in text


def test_log_level_warning_keeps_failed_logins_and_a_bad_setting_stops_the_start(tmp_path):
    proc = ServerProcess(tmp_path / "warn.db", settings={"LOG_LEVEL": "WARNING"}).start()
    try:
        visit(proc, expected=("login failed",))
        text = log_text(proc)
    finally:
        proc.stop()
    assert "quadrille.access" not in text and "quadrille.migrate" not in text
    assert 'login failed from 127.0.0.1 for account "mallory"' in text
    bad = subprocess.run([sys.executable, "app.py", "--port", "0", "--db", str(tmp_path / "bad.db")], cwd=ROOT,
                         env={"PATH": "/usr/bin:/bin", "QUADRILLE_LOG_LEVEL": "LOUD"}, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "LOG_LEVEL: 'LOUD' is not a level" in bad.stderr


def test_debug_shows_alembic_and_moderation_lines_come_out_in_json_at_any_level():
    probe = """
import io, json, logging
from quadrille.observability import logs
out = io.StringIO()
logs.configure("ERROR", "json", stream=out)
logging.getLogger("quadrille.moderation").info("banned %s", "mallory", extra={"fields": {"account": "mallory"}})
logging.getLogger("quadrille.access").info("not shown at ERROR")
debug = io.StringIO()
logs.configure("debug", "text", stream=debug)
logging.getLogger("alembic.runtime.migration").info("Context impl SQLiteImpl.")
print(json.dumps({"json": out.getvalue(), "debug": debug.getvalue()}))
"""
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    seen = json.loads(out.stdout)
    lines = seen["json"].splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["logger"] == "quadrille.moderation" and record["message"] == "banned mallory"
    assert record["account"] == "mallory" and record["level"] == "INFO"
    assert "INFO alembic.runtime.migration: Context impl SQLiteImpl." in seen["debug"]


def test_behind_a_trusted_proxy_the_lines_name_the_forwarded_client(tmp_path):
    proc = ServerProcess(tmp_path / "proxied.db", settings={"PROXY_HOPS": 1}).start()
    forwarded = {"X-Forwarded-For": "198.51.100.4"}   # from 127.0.0.1, a trusted proxy by default
    try:
        assert requests.get(f"{proc.url}/api/games", headers=forwarded).status_code == 200
        sio = socketio.Client(reconnection=False)
        sio.connect(proc.url, transports=["websocket"], headers=forwarded, wait_timeout=10)
        sio.disconnect()
        requests.post(f"{proc.url}/api/account/login", json={"name": "mallory", "password": "nope"}, headers=forwarded)
        wait_until(lambda: all(part in log_text(proc) for part in ("SOCKET disconnect", "login failed", "/login")),
                   10, "the lines")
        text = log_text(proc)
    finally:
        proc.stop()
    assert '198.51.100.4 "GET /api/games" 200' in text
    assert '198.51.100.4 "SOCKET connect" #1' in text and '198.51.100.4 "SOCKET disconnect" #1' in text
    assert 'login failed from 198.51.100.4 for account "mallory"' in text
    assert "127.0.0.1 \"" not in text


def test_the_admin_commands_log_moderation_in_the_servers_format(tmp_path):
    """`python -m quadrille admin ban` on a real account writes its moderation line in the server's format (JSON
    here), even at a level (WARNING) that hides the access lines."""
    server = ServerProcess(tmp_path / "q.db", "gevent").start()
    try:
        made = requests.post(f"{server.url}/api/account", json={"name": "mallory", "password": "correct horse"},
                             timeout=10)
        assert made.status_code == 201, made.text
    finally:
        server.stop()
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "QUADRILLE_DB": str(tmp_path / "q.db"),
           "QUADRILLE_LOG_FORMAT": '"json"', "QUADRILLE_LOG_LEVEL": "WARNING"}
    out = subprocess.run([sys.executable, "-m", "quadrille", "admin", "ban", "mallory"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stderr.strip().splitlines()[-1])
    assert (record["logger"], record["level"]) == ("quadrille.moderation", "INFO")
    assert record["message"].startswith("moderation: console ban account mallory"), record
    assert "correct horse" not in out.stderr + out.stdout
