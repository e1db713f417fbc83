"""HTTP attacks: budgets, cross-site requests, headers, malformed bodies, forged Host headers."""
from __future__ import annotations

import sqlite3

import pytest

from tests.support.clients import ATTACKER, SETUP, VICTIM, request
from tests.security.conftest import WORST_ROUND_TRIP_MS, log_of, run_attack, tracebacks

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = pytest.mark.alone

EVIL = "http://evil.example"


def stored_ids(server) -> set:
    """Every match the server has stored (the public list shows only listed ones): nothing may be created."""
    with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM matches")}


def create_many(url: str, address: str, count: int) -> dict:
    statuses = {}
    for _ in range(count):
        status, headers, body = request(url, "POST", "/api/matches", {"game": "trails"}, address=address)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 429:
            assert body["error"] == "rate-limited" and body["reason"], body
            assert "retry-after" in headers
    return statuses


def test_match_creation_has_a_budget_per_address(target, victim):
    statuses = run_attack(victim, create_many, target.url, ATTACKER, 80)
    # MATCH_CREATION_RATE: 40/min, a sliding-window counter: a run crossing a minute's boundary lets one more through
    assert statuses.get(201, 0) <= 41 and statuses.get(429, 0) >= 39, statuses
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips
    # Another address is not affected by the attacker's spent budget.
    assert request(target.url, "POST", "/api/matches", {"game": "trails"}, address=VICTIM)[0] == 201


def test_json_sent_as_text_plain_or_a_form_is_never_read(target):
    before = stored_ids(target)
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        status, _, body = request(target.url, "POST", "/api/matches", raw='{"game": "trails"}',
                                  headers={"Content-Type": content_type})
        assert status == 415 and body["error"] == "unsupported-media-type", (content_type, body)
    status, _, body = request(target.url, "POST", "/api/matches/by-name", raw='{"name": "x", "game": "trails"}',
                              headers={"Content-Type": "text/plain"})
    assert status == 415
    assert stored_ids(target) == before


def test_token_less_writes_from_another_site_are_refused(target):
    before = stored_ids(target)
    for path, body in [("/api/matches", {"game": "trails"}),
                       ("/api/matches/by-name", {"name": "squatted", "game": "trails"}),
                       ("/api/matches/import", {"game": "trails", "moves": []})]:
        status, _, answer = request(target.url, "POST", path, body, headers={"Origin": EVIL})
        assert status == 403 and answer["error"] == "cross-origin", (path, answer)
        status, _, answer = request(target.url, "POST", path, body, headers={"Sec-Fetch-Site": "cross-site"})
        assert status == 403, (path, answer)
    status, _, answer = request(target.url, "POST", "/api/matches/import?format=twr", raw="(x)",
                                headers={"Origin": EVIL, "Content-Type": "text/plain"})
    assert status == 403
    assert stored_ids(target) == before
    # The site itself, and scripts that send no Origin at all, are served.
    assert request(target.url, "POST", "/api/matches", {"game": "trails"}, headers={"Origin": target.url})[0] == 201
    assert request(target.url, "POST", "/api/matches", {"game": "trails"})[0] == 201


def test_security_headers_and_frame_policy_per_page(target):
    status, _, created = request(target.url, "POST", "/api/matches", {"game": "trails"})
    pages = {"/": "none", f"/m/{created['match']}": "none", f"/embed/{created['match']}": "*",
             "/embed/new/trails?size=7": "*", "/api/games": "none", "/no-such-page": "none"}
    for path, ancestors in pages.items():
        status, headers, _ = request(target.url, "GET", path)
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split("style-src-attr")[0], csp
        assert f"frame-ancestors {'*' if ancestors == '*' else repr('none')}".replace('"', "'") in csp, (path, csp)
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
        assert ("x-frame-options" in headers) == (ancestors == "none"), path
    for path in ("/embed/new/trails?size=7", "/api/games"):  # a page with a live token, and the API
        assert request(target.url, "GET", path)[1]["cache-control"] == "no-store", path
    static = request(target.url, "GET", "/static/js/match.js")[1]
    assert static["x-content-type-options"] == "nosniff"


def test_pages_carry_no_inline_script(target):
    status, _, created = request(target.url, "POST", "/api/matches", {"game": "trails"})
    for path in ("/", f"/m/{created['match']}", "/embed/new/trails"):
        html = request(target.url, "GET", path)[2]
        for chunk in html.split("<script")[1:]:
            tag = chunk.split(">", 1)[0]
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)


def test_links_come_from_the_public_url_not_the_host_header(target):
    status, _, created = request(target.url, "POST", "/api/matches", {"game": "trails"},
                                 headers={"Host": "evil.example"})
    assert status == 201 and created["invite"].startswith(target.url + "/m/"), created
    page = request(target.url, "GET", f"/m/{created['match']}", headers={"Host": "evil.example"})[2]
    assert "evil.example" not in page


def test_malformed_bodies_answer_400_not_500(target):
    before = log_of(target)
    nested = "[" * 1000 + "]" * 1000
    for path in ("/api/matches", "/api/matches/by-name", "/api/matches/import", "/api/games/trails/check",
                 "/api/matches/x/seats", "/api/matches/x/moves", "/api/matches/x/resign"):
        status, _, body = request(target.url, "POST", path, raw=nested, headers={"Content-Type": "application/json"})
        words = ("bad-record",) if path.endswith("/import") else ("bad-request", "not-found")  # a file, for people
        assert status in (400, 404) and body["error"] in words and body["reason"], (path, status, body)
    for options in (0.5, [1, 2], "text", 7):
        status, _, body = request(target.url, "POST", "/api/games/trails/check", {"options": options})
        assert status == 400 and body["error"] == "bad-options", (options, body)
    status, _, body = request(target.url, "POST", "/api/matches/import?format=twr", raw="(" * 5000,
                              headers={"Content-Type": "text/plain"})
    assert status == 400 and body["error"] == "bad-record", body
    status, _, body = request(target.url, "POST", "/api/matches/x/moves", {"move": "up"},
                              headers={"Authorization": "Bearer \u00e9\u00ff"})  # not a token's alphabet
    assert status in (401, 404), body
    status, headers, body = request(target.url, "HEAD", "/socket.io/?EIO=4&transport=polling")
    assert body == "", body
    assert tracebacks(log_of(target)[len(before):]) == 0


def test_an_oversize_ltc_is_refused_at_once_and_nothing_is_stored(target, victim):
    before = stored_ids(target)
    attack = "<dimension>2,2,2</dimension><mycheckers>" + "<checker>" * 16000

    def send(url):
        return request(url, "POST", "/api/matches/import?format=ltc", raw=attack, address="127.0.0.4",
                       headers={"Content-Type": "text/plain"})[:3:2]
    status, body = run_attack(victim, send, target.url)
    assert status == 400 and body["error"] == "bad-record" and body["reason"], body
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, victim.round_trips
    assert stored_ids(target) == before


def test_an_endless_record_is_refused_with_a_clear_error(target):
    before = stored_ids(target)
    status, _, body = request(target.url, "POST", "/api/matches/import",
                              {"game": "gamma", "options": {}, "moves": ["skip"] * 120_000})
    assert status in (400, 413), body
    assert body["error"] in ("bad-record", "payload-too-large") and body["reason"], body
    status, _, body = request(target.url, "POST", "/api/matches/import",
                              {"game": "gamma", "options": {}, "moves": ["skip"] * 60_000})
    assert status == 400 and body["error"] == "bad-record" and "moves" in body["reason"], body
    assert stored_ids(target) == before


def test_every_refusal_is_json_with_a_reason(target):
    for method, path, body in [("GET", "/api/matches/nope", None), ("DELETE", "/api/matches", None),
                               ("POST", "/api/matches", {"game": "chess"}), ("POST", "/api/matches/x/fly", {})]:
        status, _, answer = request(target.url, method, path, body, address=SETUP)
        assert 400 <= status < 500 and answer["error"] and answer["reason"], (method, path, answer)
