"""A match's life, decided by the service: invites and visibility, the waiting room, offers by consent
(take-back, draw), aborting, the disconnect timeout, and every refusal of bad input (nothing changed)."""
from __future__ import annotations

import pytest

from quadrille.errors import ServiceError
from quadrille.infra.presence import Presence


@pytest.fixture
def service(make_service, clock):
    events = []
    svc = make_service(lambda match, event, payload: events.append((match, event, payload)),
                       presence=Presence(grace=5, clock=clock), clock=clock, disconnect_timeout=60)
    svc.events = events
    return svc


def error_of(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call(*args, **kwargs)
    assert info.value.reason
    return info.value


def unchanged(service, match, call, *args, **kwargs) -> ServiceError:
    """The call is refused with a clear error and changes nothing (the STATE is the same)."""
    before = service.state(match)
    error = error_of(call, *args, **kwargs)
    after = service.state(match)
    assert {k: v for k, v in after.items() if k != "away"} == {k: v for k, v in before.items() if k != "away"}
    return error


def pair(service, game="trails", options=None, **kwargs):
    """An online match of two players: the creator (seat 1) and the friend who followed the invite."""
    created = service.create(game, options, "online", player="Ann", **kwargs)
    friend = service.claim_seat(created["match"], invite=created["invite_secret"], player="Bob")
    return created["match"], created["token"], friend["token"]


# -- invites and visibility -------------------------------------------------------------------------------
def test_only_the_invite_secret_takes_a_private_seat(service):
    created = service.create("trails", None, "online")
    match = created["match"]
    for forged in (None, "", "guess", created["token"], created["invite_secret"] + "x", 42, "é" * 10, "x" * 500):
        assert unchanged(service, match, service.claim_seat, match, invite=forged).error == "invite-required"
    assert service.state(match)["seats"][1]["taken"] is False
    claimed = service.claim_seat(match, invite=created["invite_secret"], player="Bob")
    assert claimed["seat"] == 2 and service.state(match)["seats"][1]["name"] == "Bob"


def test_an_open_match_is_listed_and_its_seat_is_anyones(service):
    created = service.create("trails", None, "online", visibility="open")
    public = service.create("trails", None, "online", visibility="public")
    service.create("trails", None, "online")  # private: never listed
    service.create("trails", None, "local")
    listed = service.recent()
    assert [m["id"] for m in listed] == [public["match"], created["match"]]
    assert [m["visibility"] for m in listed] == ["public", "open"]
    assert service.claim_seat(created["match"])["seat"] == 2  # an open seek: no secret needed
    assert error_of(service.claim_seat, public["match"]).error == "invite-required"  # listed to watch only


def test_the_list_counts_the_free_seats_anyone_may_take_now(service):
    waiting = service.create("trails", None, "online", visibility="open")
    public = service.create("trails", None, "online", visibility="public")
    cancelled = service.create("trails", None, "online", visibility="open")
    service.abort(cancelled["match"], cancelled["token"])
    gamma = service.create("gamma", {"players": 3}, "online", visibility="open")
    free = {m["id"]: m["free_seats"] for m in service.recent()}
    # an open seek's free seat is offered; a public match's needs its invite; a cancelled match is not listed
    assert free == {waiting["match"]: 1, public["match"]: 0, gamma["match"]: 2}
    service.claim_seat(waiting["match"], player="Bob")
    service.claim_seat(gamma["match"], player="Cat")
    assert {m["id"]: m["free_seats"] for m in service.recent()}[gamma["match"]] == 1
    service.start(gamma["match"], gamma["token"])  # Gamma's creator started it: its last free seat is left out
    free = {m["id"]: m["free_seats"] for m in service.recent()}
    assert free[waiting["match"]] == 0 and free[gamma["match"]] == 0


def test_the_live_list_shows_only_games_under_way_or_waiting_and_counts_their_moves(service):
    """Issue 23: the lobby listed a finished game as "23 moves", an aborted rematch and a cancelled Gamma invite
    as "1 move" (it counted events)."""
    live, ann, bob = pair(service, visibility="public")
    service.play(live, ann, "right")
    service.play(live, bob, "left")
    service.offer(live, ann, "takeback")
    service.decline(live, bob, "takeback")  # an event, not a move
    finished, ann2, bob2 = pair(service, visibility="public")
    service.play(finished, ann2, "right")
    service.play(finished, bob2, "left")
    service.resign(finished, ann2)
    declined, ann3, bob3 = pair(service, visibility="public")
    service.resign(declined, ann3)
    service.rematch(declined, ann3)
    service.decline(declined, bob3, "rematch")  # a declined rematch: the finished match's newest event
    service.rematch(finished, ann2)
    rematch = service.rematch(finished, bob2)["match"]
    service.abort(rematch, ann2)  # an aborted rematch
    gamma = service.create("gamma", {"players": 3}, "online", visibility="open", player="Ann")
    service.abort(gamma["match"], gamma["token"])  # a cancelled Gamma invite
    waiting = service.create("gamma", {"players": 3}, "online", visibility="open", player="Cy")
    listed = service.recent()
    assert [m["id"] for m in listed] == [waiting["match"], live]
    assert {m["id"]: m["moves"] for m in listed} == {waiting["match"]: 0, live: 2}
    assert {m["id"]: m["version"] for m in listed}[live] > 2  # (the events: the list used to show this)
    assert {m["id"]: m["free_seats"] for m in listed} == {waiting["match"]: 2, live: 0}


def test_only_online_matches_can_be_listed(service):
    for mode in ("local", "ai"):
        assert error_of(service.create, "trails", None, mode, visibility="public", ai={"seats": [2]}).error \
            == "bad-visibility"
    assert error_of(service.create, "trails", None, "online", visibility="everyone").error == "bad-visibility"
    assert service.recent() == []


def test_by_name_play_needs_no_secret_but_a_stranger_on_its_address_does(service):
    first = service.join_by_name("Friday", "trails")
    assert first["invite_secret"]
    assert error_of(service.claim_seat, first["match"]).error == "invite-required"
    second = service.join_by_name("friday", "trails")
    assert second["seat"] == 2 and service.state(first["match"])["started"]


# -- the waiting room ---------------------------------------------------------------------------------------
def test_a_two_player_match_begins_when_the_last_seat_is_taken(service):
    created = service.create("towers", None, "online")
    match, token = created["match"], created["token"]
    state = service.state(match)
    assert (state["started"], state["turn"], state["legal"]) == (False, None, [])
    assert unchanged(service, match, service.play, match, token, "end").error == "not-started"
    assert unchanged(service, match, service.resign, match, token).error == "not-started"  # nobody to resign to
    assert state["abortable"]
    service.claim_seat(match, invite=created["invite_secret"])
    state = service.events[-1][2]
    assert service.events[-1][1] == "state" and state["started"] and state["turn"] == 1 and state["version"] == 0


def test_the_creator_may_cancel_a_waiting_match(service):
    created = service.create("trails", None, "online")
    match = created["match"]
    assert unchanged(service, match, service.abort, match, "stranger").status == 401
    state = service.abort(match, created["token"])
    assert state["outcome"] == {"winners": [], "scores": [], "reason": "aborted", "aborted": 1}
    assert error_of(service.claim_seat, match, invite=created["invite_secret"]).error == "no-free-seat"


# -- aborting -----------------------------------------------------------------------------------------------
def test_abort_until_both_sides_have_moved(service):
    match, ann, bob = pair(service)
    service.play(match, ann, "right")
    state = service.abort(match, bob)  # Bob has not moved yet
    assert state["outcome"]["reason"] == "aborted" and state["outcome"]["winners"] == []
    match, ann, bob = pair(service)
    service.play(match, ann, "right")
    service.play(match, bob, "left")
    assert service.state(match)["abortable"] is False
    assert unchanged(service, match, service.abort, match, ann).error == "not-allowed"
    local = service.create("trails", None, "local")
    assert unchanged(service, local["match"], service.abort, local["match"], local["token"]).error == "not-allowed"


# -- take-backs by consent ----------------------------------------------------------------------------------
def test_a_take_back_offer_accepted_goes_back_before_the_offerers_last_move(service):
    match, ann, bob = pair(service)
    service.play(match, ann, "right")
    service.play(match, bob, "left")
    assert unchanged(service, match, service.accept, match, bob, "takeback").error == "no-offer"
    state = service.offer(match, ann, "takeback")  # on Ann's turn: Bob's reply goes too
    assert state["offers"] == {"takeback": [1]} and state["moves"] == ["right", "left"]
    assert unchanged(service, match, service.offer, match, ann, "takeback").error == "already-offered"
    assert unchanged(service, match, service.accept, match, ann, "takeback").error == "own-offer"
    state = service.accept(match, bob, "takeback")
    assert state["moves"] == [] and state["offers"] == {} and state["turn"] == 1
    assert service.record(match)["events"][-1] == {**service.record(match)["events"][-1], "kind": "rewind",
                                                   "to": 0, "offer": "takeback"}


def test_a_declined_take_back_cannot_be_offered_again_until_a_move(service):
    match, ann, bob = pair(service)
    assert unchanged(service, match, service.offer, match, ann, "takeback").error == "bad-rewind"  # no move yet
    service.play(match, ann, "right")
    service.offer(match, ann, "takeback")
    state = service.decline(match, bob, "takeback")
    assert state["offers"] == {} and state["declined"] == {"takeback": [1]} and state["moves"] == ["right"]
    for _ in range(3):
        assert unchanged(service, match, service.offer, match, ann, "takeback").error == "offer-declined"
    service.play(match, bob, "left")
    assert service.state(match)["declined"] == {}
    assert service.offer(match, ann, "takeback")["offers"] == {"takeback": [1]}
    service.play(match, ann, "down")  # a move lapses the pending take-back
    assert service.state(match)["offers"] == {}


def test_offering_what_the_other_offers_accepts_it(service):
    match, ann, bob = pair(service)
    service.play(match, ann, "right")
    service.play(match, bob, "left")
    service.offer(match, bob, "takeback")
    state = service.offer(match, ann, "takeback")  # Ann has moved too: her offer agrees to Bob's
    assert state["moves"] == ["right"] and state["turn"] == 2


def test_against_the_computer_and_on_one_screen_a_take_back_is_immediate(service):
    local = service.create("trails", None, "local")
    service.play(local["match"], local["token"], "right")
    assert unchanged(service, local["match"], service.offer, local["match"], local["token"], "takeback").error \
        == "not-allowed"
    assert service.takeback(local["match"], local["token"])["moves"] == []


# -- draws by consent ---------------------------------------------------------------------------------------
def test_a_draw_by_agreement_where_the_game_has_draws(service):
    match, ann, bob = pair(service, "towers")
    assert unchanged(service, match, service.offer, match, bob, "draw").error == "not-your-turn"
    service.offer(match, ann, "draw")
    service.play(match, ann, "end")  # the offer stands through its maker's own move
    assert service.state(match)["offers"] == {"draw": [1]}
    state = service.accept(match, bob, "draw")
    assert state["outcome"] == {"winners": [], "scores": [], "reason": "agreed"} and state["turn"] is None
    assert state["offers"] == {}  # nothing left to answer
    assert unchanged(service, match, service.play, match, bob, "end").error == "game-over"


def test_a_draw_offer_lapses_when_the_other_player_moves_instead(service):
    match, ann, bob = pair(service, "towers")
    service.offer(match, ann, "draw")
    service.play(match, ann, "end")
    service.play(match, bob, "end")
    assert service.state(match)["offers"] == {}
    assert unchanged(service, match, service.accept, match, bob, "draw").error == "no-offer"


def test_no_draw_in_a_game_without_draws(service):
    match, ann, _ = pair(service, "trails")
    error = unchanged(service, match, service.offer, match, ann, "draw")
    assert error.error == "bad-offer" and "no draws" in error.reason
    assert unchanged(service, match, service.offer, match, ann, "surrender").error == "bad-offer"


# -- the disconnect timeout ---------------------------------------------------------------------------------
def test_claiming_victory_after_the_timeout_and_only_then(service, clock):
    match, ann, bob = pair(service)
    service.presence.enter("ann-socket", match, [1])
    service.presence.enter("bob-socket", match, [2])
    assert service.state(match)["away"] == []
    assert unchanged(service, match, service.claim_win, match, ann).error == "player-present"
    clock.now += 1
    service.presence.leave("bob-socket")  # Bob closes his tab
    assert service.state(match)["away"] == [{"seat": 2, "seconds": 0.0, "claimable_in": 60.0, "rule": "disconnect", "timeout": 60.0}]
    clock.now += 30
    early = unchanged(service, match, service.claim_win, match, ann)
    assert early.error == "too-early" and "Red left 30 s ago" in early.reason and early.extra["claimable_in"] == 30
    assert service.timeouts.fire_due() == []
    clock.now += 30
    service.events.clear()
    assert service.timeouts.fire_due() == [match]  # the room hears it at once, from the server
    assert service.events[-1][2]["away"] == [{"seat": 2, "seconds": 60.0, "claimable_in": 0.0, "rule": "disconnect", "timeout": 60.0}]
    assert unchanged(service, match, service.claim_win, match, ann, "draw").error == "not-allowed"  # no draws
    assert unchanged(service, match, service.claim_win, match, ann, "surrender").error == "bad-request"
    state = service.claim_win(match, ann)
    assert state["outcome"] == {"winners": [1], "scores": [], "reason": "abandoned", "abandoned": [2]}
    version = state["version"]
    assert service.claim_win(match, ann)["version"] == version  # claiming twice: one result
    assert error_of(service.claim_win, match, ann, "draw").error == "game-over"


def test_a_player_who_comes_back_cannot_be_claimed_against(service, clock):
    match, ann, bob = pair(service, "lattice")
    service.presence.enter("ann", match, [1])
    service.presence.enter("bob", match, [2])
    service.presence.leave("bob")
    clock.now += 61
    assert service.state(match)["away"][0]["claimable_in"] == 0
    service.presence.enter("bob-again", match, [2])  # "Red is back"
    assert service.state(match)["away"] == []
    assert unchanged(service, match, service.claim_win, match, ann).error == "player-present"
    service.presence.leave("bob-again")
    clock.now += 61
    state = service.claim_win(match, ann, "draw")  # Lattice has draws
    assert state["outcome"]["winners"] == [] and state["outcome"]["reason"] == "abandoned"


def test_the_countdown_of_a_player_who_left_the_waiting_room_starts_when_the_game_begins(service, clock):
    created = service.create("trails", None, "online")
    match = created["match"]
    service.presence.enter("ann", match, [1])
    service.presence.leave("ann")  # Ann waits a while, then closes the tab
    clock.now += 500
    friend = service.claim_seat(match, invite=created["invite_secret"])
    away = service.state(match)["away"]
    assert away == [{"seat": 1, "seconds": 0.0, "claimable_in": 60.0, "rule": "disconnect", "timeout": 60.0}]
    assert error_of(service.claim_win, match, friend["token"]).error == "too-early"


def test_a_computer_seat_is_never_away(service, clock):
    created = service.create("trails", None, "ai", ai={"seats": [2], "level": 1})
    clock.now += 1000
    assert service.state(created["match"])["away"] == []


def test_players_are_named_in_every_refusal(service):
    match, ann, bob = pair(service, "lattice", {"color_b": "green", "color_t": "white"})
    state = service.state(match)
    assert state["seat_names"] == ["Green", "White"] and state["draws"] is True
    assert error_of(service.play, match, bob, "Aa1-Ab2").reason == "It is Green's turn, not yours."
