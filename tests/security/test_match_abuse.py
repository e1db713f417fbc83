"""Abuse of a match's own decisions: seats handed to the computer behind a player's back, rematch offers,
rematch seats taken by a stranger, votes that never lapse."""
from __future__ import annotations


import pytest

from quadrille.errors import ServiceError
from quadrille.infra.presence import Presence
from quadrille.matches.store import Storage
from quadrille.matches import MatchService
from tests.support.clients import SETUP, RawSocket, request
from tests.security.conftest import SETTINGS
from tests.support.clock import Clock
from tests.support.waiting import real_time_passes, wait_until


def online_match(url) -> tuple[dict, dict]:
    created = request(url, "POST", "/api/matches", {"game": "trails", "mode": "online"})[2]
    friend = request(url, "POST", f"/api/matches/{created['match']}/seats", {"invite": created["invite_secret"]})[2]
    return created, friend


def hand_over(url, match, token, seat=2):
    return request(url, "POST", f"/api/matches/{match}/computer", {"seat": seat, "level": 1},
                   headers={"Authorization": f"Bearer {token}"})


def test_a_reload_is_not_leaving(target):
    created, friend = online_match(target.url)
    sock = RawSocket(target.url, SETUP)
    assert sock.call("watch", {"match": created["match"], "token": friend["token"]})["ok"]
    sock.close()  # the friend reloads: their socket drops ...
    status, _, body = hand_over(target.url, created["match"], created["token"])
    assert status == 409 and body["error"] == "player-present", body
    sock = RawSocket(target.url, SETUP)  # ... and is back at once
    assert sock.call("watch", {"match": created["match"], "token": friend["token"]})["ok"]
    assert hand_over(target.url, created["match"], created["token"])[0] == 409
    sock.close()


def server_time_passes(seconds: float) -> None:
    """Real time passes: presence's grace runs on the clock of a real server process, which a test cannot move.
    What is tested is which of two requests that clock counts from, so the time between them must be real."""
    real_time_passes(seconds, "presence's grace on the server's clock")


def away_in_the_state(url, match, token, seat) -> bool:
    """The STATE, as the player with `token` reads it, counts `seat` away (the server's own clock decides)."""
    state = request(url, "GET", f"/api/matches/{match}", headers={"Authorization": f"Bearer {token}"})[2]
    return any(entry["seat"] == seat for entry in state.get("away") or [])


def test_a_player_who_plays_over_http_counts_as_present(target):
    created, friend = online_match(target.url)
    match = created["match"]
    request(target.url, "POST", f"/api/matches/{match}/moves", {"move": "right"},
            headers={"Authorization": f"Bearer {created['token']}"})
    server_time_passes(SETTINGS["PRESENCE_GRACE"] * 0.5)
    request(target.url, "POST", f"/api/matches/{match}/moves", {"move": "left"},
            headers={"Authorization": f"Bearer {friend['token']}"})
    server_time_passes(SETTINGS["PRESENCE_GRACE"] * 0.6)  # the friend's last request is within the grace period
    status, _, body = hand_over(target.url, match, created["token"])
    assert status == 409 and body["error"] == "player-present", body
    # now the friend has been silent for longer than it, as the server counts
    wait_until(lambda: away_in_the_state(target.url, match, created["token"], 2), 30, "the friend to be away")
    status, _, body = hand_over(target.url, match, created["token"])
    assert status == 200 and body["seats"][1]["kind"] == "ai", body


def test_rematch_offers_before_the_end_are_refused_and_change_nothing(target):
    created, friend = online_match(target.url)
    match = created["match"]
    before = request(target.url, "GET", f"/api/matches/{match}")[2]
    for _ in range(50):
        status, _, body = request(target.url, "POST", f"/api/matches/{match}/rematch",
                                  headers={"Authorization": f"Bearer {friend['token']}"})
        assert status == 409 and body["error"] == "game-not-over", body
    after = request(target.url, "GET", f"/api/matches/{match}")[2]
    assert {**after, "away": None} == {**before, "away": None}  # who is away is a clock, not the match


def test_a_spectator_cannot_take_a_seat_of_the_rematch(target):
    created, friend = online_match(target.url)
    match = created["match"]
    spectator = RawSocket(target.url, "127.0.0.5")
    spectator.call("watch", {"match": match})
    request(target.url, "POST", f"/api/matches/{match}/resign", headers={"Authorization": f"Bearer {friend['token']}"})
    for token in (friend["token"], created["token"]):
        request(target.url, "POST", f"/api/matches/{match}/rematch", headers={"Authorization": f"Bearer {token}"})
    spectator.drain(0.5)
    rematch = [payload for name, payload in spectator.events if name == "rematch"]
    assert rematch and rematch[-1]["from"] == match
    new = rematch[-1]["match"]
    claimed = spectator.call("claim", {"match": new})
    assert claimed["ok"] is False and claimed["error"] == "no-free-seat", claimed
    status, _, body = request(target.url, "POST", f"/api/matches/{new}/seats", {}, address="127.0.0.5")
    assert status == 409, body
    spectator.close()


def test_votes_to_hand_over_a_seat_expire(tmp_path):
    clock = Clock(1000.0)
    service = MatchService(Storage.sqlite(str(tmp_path / "votes.db")), presence=Presence(grace=5, clock=clock),
                           vote_ttl=60, clock=clock)
    created = service.create("gamma", {"players": 3}, "online")
    match = created["match"]
    second, third = (service.claim_seat(match, invite=created["invite_secret"]) for _ in range(2))
    service.start(match, created["token"])
    clock.now += 10  # every player's presence has lapsed (nobody is connected here)
    waiting = service.hand_to_computer(match, created["token"], 3)
    assert waiting["waiting_for"] == [2]
    clock.now += 61  # the first vote lapses before the second player agrees
    waiting = service.hand_to_computer(match, second["token"], 3)
    assert waiting["waiting_for"] == [1]
    assert service.state(match)["seats"][2]["kind"] == "human"
    service.hand_to_computer(match, created["token"], 3)  # both agree within the minute
    assert service.state(match)["seats"][2]["kind"] == "ai"
    with pytest.raises(ServiceError):
        service.hand_to_computer(match, third["token"], 3)
    service.storage.close()
