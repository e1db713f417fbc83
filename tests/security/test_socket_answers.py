"""What Socket.IO answers by itself, on a real server: an event with binary attachments, whose payload is not
an object, or that is not JSON, is answered `bad-request` (a client waiting for its acknowledgement never
hangs), and Engine.IO's own HTTP answers, which never pass through Flask, carry the same security headers as
Flask's."""
from __future__ import annotations

import pytest

from tests.support.servers import ASYNC_MODES, ServerProcess
from tests.support.clients import SETUP, RawSocket, request


@pytest.fixture(scope="module", params=ASYNC_MODES)
def server(request, tmp_path_factory):
    """One real server per async mode for the whole module."""
    proc = ServerProcess(tmp_path_factory.mktemp("answers") / "answers.db", request.param).start()
    yield proc
    proc.stop()


def new_match(url: str) -> dict:
    status, _, created = request(url, "POST", "/api/matches", {"game": "trails", "mode": "online"}, address=SETUP)
    assert status == 201, created
    return created


@pytest.mark.parametrize("frames", [
    ['451-7["watch",{"_placeholder":true,"num":0}]', b"\x01\x02"],   # an event and its binary attachment
    ['451-7["watch",{"_placeholder":true,"num":0}]'],                # the attachment never comes
    ['451-/,7["move",{"_placeholder":true,"num":0}]', b"\x00"],      # with the namespace written out
    ['450-7["watch",{"match":"x"}]'],                                # a binary event of no attachment
], ids=["attachment", "attachment-never-sent", "namespace", "no-attachment"])
def test_an_event_with_binary_attachments_is_answered_bad_request(server, frames):
    sock = RawSocket(server.url, SETUP)
    for frame in frames:
        sock.send_raw(frame)
    answer = sock.wait_answer(7, timeout=5)
    assert answer == {"ok": False, "error": "bad-request", "reason": "That message could not be read."}, answer
    # The socket goes on: nothing waits for an attachment, and the next event is answered.
    assert sock.call("watch", {"match": new_match(server.url)["match"]})["ok"]
    sock.close()


@pytest.mark.parametrize("payload", [5, True, "a string", None, ["a", "list"]])
def test_an_event_whose_payload_is_not_an_object_is_answered_bad_request(server, payload):
    sock = RawSocket(server.url, SETUP)
    answer = sock.call("watch", payload) if payload is not None else sock.wait_answer(sock.emit("watch"))
    assert answer["ok"] is False and answer["error"] == "bad-request", answer
    sock.close()


@pytest.mark.parametrize("text", [
    '428["watch",{"match":NaN}]',                       # not JSON, though Python's reader took it
    '428["watch",{"match":"\\ud800"}]',                 # a lone surrogate, which no UTF-8 text can hold
    '428["watch",' + "[" * 2000 + "]" * 2000 + "]",     # nested deeper than the reader goes
    '428["watch",{"match":',                            # cut short
], ids=["nan", "lone-surrogate", "too-deep", "cut-short"])
def test_an_event_that_is_not_json_is_answered_bad_request_and_the_socket_goes_on(server, text):
    sock = RawSocket(server.url, SETUP)
    sock.send_raw(text)
    answer = sock.wait_answer(8, timeout=5)
    assert answer == {"ok": False, "error": "bad-request", "reason": "That message could not be read."}, answer
    created = new_match(server.url)
    assert sock.call("watch", {"match": created["match"]})["state"]["match"] == created["match"]
    sock.close()


FLASK_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")


@pytest.mark.parametrize("path", [
    "/socket.io/?EIO=3&transport=polling",           # a protocol version Engine.IO refuses (400)
    "/socket.io/?EIO=4&transport=polling&sid=nope",  # a session that does not exist (400)
    "/socket.io/?EIO=4&transport=carrier-pigeon",    # a transport that does not exist (400)
    "/socket.io/?EIO=4&transport=polling",           # a handshake Engine.IO accepts (200)
])
def test_engineio_answers_carry_the_security_headers_of_flask(server, path):
    _, flask_headers, _ = request(server.url, "GET", "/api/health")
    status, headers, _ = request(server.url, "GET", path)
    assert status in (200, 400), status
    for name in FLASK_HEADERS:
        assert headers.get(name) == flask_headers[name], (name, headers)
