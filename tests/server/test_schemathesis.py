"""Schemathesis against a real server process, from the OpenAPI document it serves (/api/openapi.json):
every operation as an account's bot (its API token), the players' operations again as its logged-in browser
(the session cookie and its CSRF token), and stateful runs that follow the document's links (a match created,
then read; a challenge made, then read and answered). Each answer is checked: no 5xx, a documented status
code and content type, a body that matches the document, schema-violating input refused with a 4xx, a 405
that says which methods the path takes, and no operation that needs credentials answering without them.

Deterministic (derandomize, no example database) and bounded (EXAMPLES per operation) so that it stays within
a few minutes on a loaded machine. The bots' NDJSON streams are left out (they answer for as long as the
client reads; their own tests play them), and so are the routes still PENDING on another branch."""
from __future__ import annotations

import secrets

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import allow_header_conformance, missing_required_header, positive_data_acceptance

from quadrille.web.openapi import openapi_document
from tests.platform.test_openapi import PENDING
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.server

STREAMS = {"/api/stream/event", "/api/bot/game/stream/{match_id}"}
EXAMPLES = 10
# Checks that ask more of the server than the document promises:
# - positive_data_acceptance wants a 2xx for any input the schema allows, but a move must also be legal, a
#   name free, options within a game's range: the document says what a body looks like, the rules what it means;
# - missing_required_header wants a 401 before anything else, but a request that is malformed is refused as
#   malformed (400) whoever sends it: both change nothing;
# - allow_header_conformance wants `Allow` to list the documented methods only, but a path such as
#   /api/matches/by-name is also the address a match id would have (GET /api/matches/<id>), so it truly takes GET.
EXCLUDED = [positive_data_acceptance, missing_required_header, allow_header_conformance]
BOUNDED = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))

# The document the server serves, built here too so that pytest names a test per operation (Schemathesis's
# loader from a fixture does not run under pytest 9); test_the_server_serves_this_document keeps them one.
DOCUMENT = openapi_document("test")
schema = schemathesis.openapi.from_dict(DOCUMENT).exclude(path=sorted(STREAMS | PENDING))
WITH_A_SESSION = sorted(path for path, item in DOCUMENT["paths"].items()
                        if any("session" in way for op in item.values() for way in op["security"]))
session_schema = schema.include(path=WITH_A_SESSION)


class Fuzzer:
    """The account the run acts as: its API token, and a browser session (cookie and CSRF token) of its own;
    and an opponent to challenge. The password is never guessed by the run: the account cannot be deleted."""

    def __init__(self, url: str):
        self.password = secrets.token_urlsafe(18)
        self.browser = requests.Session()
        made = self.browser.post(f"{url}/api/account", json={"name": "fuzzer", "password": self.password})
        assert made.status_code == 201, made.text
        self.csrf = made.json()["csrf"]
        token = requests.post(f"{url}/api/account/tokens", json={"name": "fuzzer", "password": self.password})
        assert token.status_code == 201, token.text
        self.token = token.json()["token"]
        opponent = requests.post(f"{url}/api/account", json={"name": "opponent", "password": "correct horse"})
        assert opponent.status_code == 201, opponent.text

    def bearer(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def cookie(self) -> dict:
        return {"X-CSRFToken": self.csrf}


def fuzzed_server(directory):
    """A server with its budgets off: the run sends thousands of requests from one address."""
    return ServerProcess(directory / "fuzz.db", "gevent",
                         settings={"RATELIMIT_ENABLED": False, "COMPUTER_MATCHES_PER_ADDRESS": None}).start()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = fuzzed_server(tmp_path_factory.mktemp("schemathesis"))
    yield proc
    proc.stop()


@pytest.fixture
def fresh_server(tmp_path):
    """A server of the stateful run's own: Hypothesis replays the start of a sequence and expects the same
    answers, so the run must not depend on what the other tests left (a match name already taken)."""
    proc = fuzzed_server(tmp_path)
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def fuzzer(server):
    return Fuzzer(server.url)


def test_the_server_serves_this_document(server):
    served = requests.get(f"{server.url}/api/openapi.json").json()
    assert served["servers"] == [{"url": server.url}]
    assert {**served, "servers": None, "info": None} == {**DOCUMENT, "servers": None, "info": None}


@schema.parametrize()
@BOUNDED
def test_every_operation_as_a_bot_with_an_api_token(case, server, fuzzer):
    case.call_and_validate(base_url=server.url, headers=fuzzer.bearer(), excluded_checks=EXCLUDED)


@session_schema.parametrize()
@BOUNDED
def test_the_players_operations_as_a_browser_with_its_cookie_and_csrf_token(case, server, fuzzer):
    case.call_and_validate(base_url=server.url, session=fuzzer.browser, headers=fuzzer.cookie(),
                           excluded_checks=EXCLUDED)


def test_stateful_runs_follow_the_links(fresh_server):
    """Sequences of calls along the document's links (and those Schemathesis infers): a match created, then
    read, moved in, resigned, offered a take-back or a rematch, its record and positions read; a challenge made
    to the opponent, then read, started or cancelled. A call on a match the run created carries the creator's
    seat token, as a client keeps it from the creation's answer (a link cannot set a header); any other call,
    the account's API token."""
    server, fuzzer = fresh_server, Fuzzer(fresh_server.url)
    calls = []  # (operation, whether it carried a seat token the run was given)

    # By name, the same call creates, then joins, then only watches (200, no token): a sequence replayed would
    # not get the answers it got the first time. It has its links all the same; the stateless runs test it.
    links = schema.include(path_regex=r"^/api/(matches|challenges)").exclude(operation_id="joinByName")

    class Links(links.as_state_machine()):
        def setup(self):
            self.tokens = {}

        def get_call_kwargs(self, case):
            token = self.tokens.get((case.path_parameters or {}).get("match_id"), fuzzer.token)
            calls.append((case.operation.label, token != fuzzer.token))
            return {"base_url": server.url, "headers": {"Authorization": f"Bearer {token}"}}

        def after_call(self, response, case):
            try:
                answer = response.json()
            except ValueError:  # an SVG, a save file
                return
            if response.status_code in (200, 201) and isinstance(answer, dict) and answer.get("token"):
                self.tokens[answer.get("match")] = answer["token"]

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, additional_checks=additional_checks, excluded_checks=EXCLUDED,
                                   transport_kwargs=kwargs)

    Links.run(settings=settings(BOUNDED, max_examples=EXAMPLES * 5, stateful_step_count=8))
    with_seat = {label for label, seated in calls if seated}
    assert len(with_seat) >= 6, calls  # the links were followed into the matches the run created
