"""Refusals are counted, not logged one line each (issue 22, low): 500 refused requests (429s and CSRF
refusals) against a real server write no line each, and at most a couple of summary lines whose counts add
up to exactly what was refused (quadrille/web/refusal_log.py)."""
from __future__ import annotations

import re

import pytest

from bench.load import http_from
from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

ATTACKER = "127.0.0.7"
SUMMARY = re.compile(r"INFO quadrille\.refusals: refused in the last \d+ s: (.*?); from (\d+) addresses, "
                     r"most from (.*)$", re.M)


@pytest.fixture(params=ASYNC_MODES)
def server(request, tmp_path):
    proc = ServerProcess(tmp_path / "refusals.db", request.param,
                         settings={"HTTP_RATE": "120 per minute", "REFUSAL_LOG_INTERVAL": 5.0}).start()
    yield proc
    proc.stop()


def counted(log: str) -> dict[str, int]:
    totals: dict[str, int] = {}
    for kinds, _, _ in SUMMARY.findall(log):
        for number, kind in re.findall(r"(\d+) ([\w-]+)", kinds):
            totals[kind] = totals.get(kind, 0) + int(number)
    return totals


def test_five_hundred_refusals_make_a_couple_of_summary_lines(server):
    attacker = http_from(ATTACKER)
    # A session cookie without the session's CSRF token: refused 403 `csrf` (before any budget counts it).
    forged = [attacker.post(f"{server.url}/api/challenges", json={"to": "ann", "game": "trails"},
                            cookies={"quadrille_session": "forged"}) for _ in range(100)]
    assert {(r.status_code, r.json()["error"]) for r in forged} == {(403, "csrf")}
    answers = [attacker.get(f"{server.url}/api/games").status_code for _ in range(520)]
    # The budget is a sliding-window counter: when the run crosses a minute boundary the previous minute's
    # weight fades while it runs, so a request or two more may pass; the log must count exactly the refusals.
    refused = answers.count(429)
    assert set(answers) == {200, 429} and 120 <= answers.count(200) <= 125, answers

    wait_until(lambda: counted(server.log_path.read_text()), 20, "the refusals' summary")
    server.stop()  # and what was counted after the last summary is written at shutdown
    log = server.log_path.read_text()
    assert "ratelimit" not in log and "CSRF token" not in log  # no line per refusal
    lines = SUMMARY.findall(log)
    assert 1 <= len(lines) <= 2, log
    assert counted(log) == {"rate-limited": refused, "csrf": 100}, log
    assert all(addresses == "1" and most.startswith(f"{ATTACKER} (") for _, addresses, most in lines), lines
