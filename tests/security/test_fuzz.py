"""A seeded fuzz of malformed input over every door: HTTP routes, Socket.IO events and raw WebSocket frames.

Budgets are off on this server, so that every payload reaches the code that parses it (the budgets have
tests of their own). What must hold: no 5xx, no `server-error`, an answer to every event, no traceback in
the log, and no existing match changed (the fuzz knows the matches' ids but none of their tokens).
"""
from __future__ import annotations

import json
import random
import string

import pytest
import websocket

from tests.support.servers import ServerProcess
from tests.support.clients import RawSocket, request
from tests.security.conftest import log_of, tracebacks

SEED = 20261123
EVENTS = ["watch", "move", "claim", "takeback", "rewind", "resign", "start", "pause", "reclaim", "computer",
          "rematch", "decline", "position", "offer", "accept", "abort", "timeout"]
KEYS = ["match", "token", "move", "version", "seat", "seats", "player", "to", "ply", "paused", "level",
        "computer_level", "offer", "name", "game", "options", "mode", "ai", "moves", "format", "invite", "result",
        "visibility"]
ROUTES = [("GET", "/api/games"), ("POST", "/api/games/{game}/check"), ("POST", "/api/matches"),
          ("POST", "/api/matches/by-name"), ("POST", "/api/matches/import"), ("GET", "/api/matches/recent"),
          ("GET", "/api/matches/{match}"), ("POST", "/api/matches/{match}/seats"),
          ("POST", "/api/matches/{match}/moves"), ("POST", "/api/matches/{match}/{action}"),
          ("GET", "/api/matches/{match}/record"), ("GET", "/api/matches/{match}/export/{ext}"),
          ("GET", "/api/matches/{match}/positions/{ply}"), ("GET", "/m/{match}"), ("GET", "/embed/{match}"),
          ("GET", "/embed/new/{game}"), ("PUT", "/api/matches"), ("DELETE", "/api/matches/{match}"),
          ("POST", "/socket.io/?EIO=4&transport=polling&sid={match}"), ("GET", "/socket.io/?EIO={ply}&transport=polling"),
          ("HEAD", "/socket.io/?EIO=4&transport=polling"), ("GET", "/socket.io/?EIO=4&transport={game}")]
ACTIONS = ["takeback", "rewind", "resign", "start", "rematch", "pause", "computer", "reclaim", "decline", "fly",
           "offer", "accept", "abort", "timeout"]


class Fuzz:
    def __init__(self, seed: int, matches: list[str], tokens: list[str]):
        self.rng = random.Random(seed)
        self.matches, self.tokens = matches, tokens

    def text(self) -> str:
        rng = self.rng
        kind = rng.randrange(9)
        if kind == 0:
            return ""
        if kind == 1:
            return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 40)))
        if kind == 2:
            return rng.choice(["\ud800", "\udfff", "\x00", "\u202e", "é" * 50, "💥", "\n\r\t"])
        if kind == 3:
            return "x" * rng.choice([201, 1000, 5000])
        if kind == 4:
            return rng.choice(self.matches)
        if kind == 5:  # a near miss of a real token: never the token itself
            token = rng.choice(self.tokens)
            return rng.choice([token[:-1], token + "x", token.upper(), " " + token, token[::-1]])
        if kind == 6:
            return rng.choice(["right", "up", "skip", "end", "m1,1>1,2:1", "a1-b2", "p0 0 0"])
        if kind == 7:
            return rng.choice(EVENTS + ["trails", "gamma", "towers", "lattice", "online", "local", "ai"])
        return str(rng.randrange(-10**6, 10**6))

    def value(self, depth: int = 0):
        rng = self.rng
        kind = rng.randrange(12 if depth < 3 else 8)
        if kind == 0:
            return None
        if kind == 1:
            return rng.choice([True, False])
        if kind == 2:
            return rng.choice([0, -1, 1, 2, 3, 2**31, 2**63, -2**63, 10**40, 17])
        if kind == 3:
            return rng.choice([0.5, -0.0, 1e308, 3.0])
        if kind in (4, 5, 6, 7):
            return self.text()
        if kind in (8, 9):
            return [self.value(depth + 1) for _ in range(rng.randrange(4))]
        return self.payload(depth + 1)

    def payload(self, depth: int = 0):
        rng = self.rng
        if rng.random() < 0.1:
            return self.value(depth + 1)
        if rng.random() < 0.03:
            return json.loads("[" * 900 + "]" * 900) if rng.random() < 0.5 else {"match": "[" * 200}
        return {rng.choice(KEYS): self.value(depth) for _ in range(rng.randrange(6))}

    def http(self) -> tuple[str, str, dict]:
        rng = self.rng
        method, path = rng.choice(ROUTES)
        path = path.format(game=rng.choice(["trails", "gamma", "towers", "lattice", "chess", "%00", "x" * 100]),
                           match=rng.choice(self.matches + ["missing", "%2e%2e", "a" * 40, "ü"]),
                           action=rng.choice(ACTIONS), ext=rng.choice(["twr", "ltc", "json", "exe"]),
                           ply=rng.choice([0, 1, 5, 10**6]))
        if rng.random() < 0.3:
            path += "?" + "&".join(f"{rng.choice(KEYS)}={rng.choice(['twr', 'ltc', 'x', '1', '%ff'])}"
                                   for _ in range(rng.randrange(1, 3)))
        kind = rng.randrange(5)
        headers = {}
        if rng.random() < 0.3:
            headers["Authorization"] = "Bearer " + rng.choice(["", "x", "é".encode().decode("latin-1")] +
                                                              [t[:-1] for t in self.tokens])
        if kind == 0:
            return method, path, {"raw": None, "headers": headers}
        if kind == 1:
            return method, path, {"raw": "[" * 1000 + "]" * 1000,
                                  "headers": {**headers, "Content-Type": "application/json"}}
        if kind == 2:
            return method, path, {"raw": self.text(), "headers": {**headers, "Content-Type": rng.choice(
                ["text/plain", "application/json", "application/x-www-form-urlencoded"])}}
        return method, path, {"body": self.payload(), "headers": headers}

    def frame(self):
        rng = self.rng
        kind = rng.randrange(8)
        if kind == 0:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
        if kind == 1:
            return rng.choice(["4", "42", "42[", "42[]", "43[]", "431[]", "45-[]", "451-[\"move\"]", "49", "40/x,",
                               "41", "2", "3", "6", "x", "40/other,"])
        if kind == 2:
            return "42" + "[" * rng.randrange(50, 3000)
        if kind == 3:
            return "42" + json.dumps([self.value(), self.payload()])
        if kind == 4:
            return "42" + "9" * rng.randrange(16, 130) + json.dumps(["watch", {}])
        if kind == 5:
            return "4" + self.text()
        if kind == 6:
            return "42" + json.dumps([rng.choice(EVENTS)]) + "junk"
        return "42" + json.dumps([[1, 2], {}])


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("fuzz") / "fuzz.db", "gevent",
                         settings={"RATELIMIT_ENABLED": False}).start()
    yield proc
    proc.stop()


def snapshot(url, matches):
    return {m: request(url, "GET", f"/api/matches/{m}/record")[2] for m in matches}


def test_five_thousand_malformed_payloads_change_nothing_and_break_nothing(fuzz_server):
    url = fuzz_server.url
    matches, tokens = [], []
    for body in ({"game": "trails", "mode": "online"}, {"game": "towers", "mode": "local"},
                 {"game": "gamma", "mode": "online"}, {"game": "lattice", "mode": "ai", "ai": {"seats": [2]}}):
        created = request(url, "POST", "/api/matches", body)[2]
        matches.append(created["match"])
        tokens.append(created["token"])
        if body["mode"] == "online":
            while True:  # take every free seat, so that no payload can claim one
                status, _, seat = request(url, "POST", f"/api/matches/{created['match']}/seats",
                                          {"invite": created["invite_secret"]})
                if status != 201 or body["game"] == "gamma" and seat["seat"] >= 3:
                    break
                tokens.append(seat["token"])
    if True:  # gamma waits for its creator's start: start it, so that no seat is left to claim
        request(url, "POST", f"/api/matches/{matches[2]}/start", {},
                headers={"Authorization": f"Bearer {tokens[3]}"})
    before = snapshot(url, matches)
    log_before = log_of(fuzz_server)
    fuzz = Fuzz(SEED, matches, tokens)
    sent = {"http": 0, "events": 0, "frames": 0}

    for _ in range(2000):
        method, path, spec = fuzz.http()
        status, _, answer = request(url, method, path, spec.get("body"), raw=spec.get("raw"),
                                    headers=spec["headers"])
        sent["http"] += 1
        assert status < 500, (method, path, spec, status, answer)
        if path.startswith("/api/") and status >= 400 and method != "HEAD":
            assert isinstance(answer, dict) and answer.get("error") and answer.get("reason"), (path, answer)

    sock = RawSocket(url)
    ids = []
    for _ in range(2500):
        event = fuzz.rng.choice(EVENTS) if fuzz.rng.random() < 0.9 else fuzz.text()
        ids.append(sock.emit(event, fuzz.payload()) if fuzz.rng.random() < 0.95 else sock.emit(event))
        sent["events"] += 1
    for id in ids:
        answer = sock.wait_answer(id, timeout=20)
        assert isinstance(answer, dict) and "ok" in answer, answer
        assert answer.get("error") != "server-error", answer
        if not answer["ok"]:
            assert answer["reason"], answer

    closed = 0
    for _ in range(1000):
        try:
            sock.send_raw(fuzz.frame())
        except (OSError, websocket.WebSocketException):  # invalid UTF-8 closes the connection (RFC 6455)
            closed += 1
            sock.close()
            sock = RawSocket(url)
        sent["frames"] += 1
    try:
        sock.drain(1.0)
    except (OSError, websocket.WebSocketException):
        pass
    sock.close()
    sock = RawSocket(url)
    assert sock.call("watch", {"match": matches[0]})["ok"]  # the server still answers
    sock.close()

    assert sum(sent.values()) >= 5000, sent
    added = log_of(fuzz_server)[len(log_before):]
    assert tracebacks(added) == 0, added[:5000]
    assert snapshot(url, matches) == before
