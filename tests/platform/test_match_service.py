"""The match service on a real SQLite file: seats, tokens, versions, history, races, restarts."""
from __future__ import annotations

import sqlite3
import threading

import pytest

from quadrille.errors import ServiceError
from tests.support.databases import stored_matches
from quadrille.matches import MatchService
from quadrille.matches.store import Storage


@pytest.fixture
def db(database):
    return database  # a SQLite file, then a PostgreSQL database (tests/conftest.py)


@pytest.fixture
def service(make_service):
    events = []
    svc = make_service(lambda match, event, payload: events.append((match, event, payload)))
    svc.events = events
    return svc


def join(service, created, **kwargs) -> dict:
    """A friend takes a free seat through the invite link (its secret)."""
    return service.claim_seat(created["match"], invite=created["invite_secret"], **kwargs)


def error_of(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call(*args, **kwargs)
    return info.value


def test_new_online_match_gives_the_creator_seat_one_and_a_strong_token(service):
    created = service.create("trails", {"size": 7}, "online")
    assert created["seat"] == 1 and created["seats"] == [1]
    assert len(created["token"]) >= 32  # 24 random bytes, url-safe: 192 bits
    state = service.state(created["match"])
    assert state["version"] == 0 and state["turn"] is None and state["moves"] == []  # waiting for the friend
    assert state["started"] is False and state["visibility"] == "private"
    assert state["options"] == {"size": 7, "towers": 3, "distance": 1}
    assert [s["taken"] for s in state["seats"]] == [True, False]
    assert "token" not in str(state["seats"]) and created["invite_secret"] not in str(state)


def test_only_a_hash_of_the_token_is_stored(service, db):
    created = service.create("trails", None, "online")
    claimed = join(service, created)
    if "://" in db:  # a server database: everything its tables hold
        from sqlalchemy import text
        with service.storage.engine.connect() as conn:
            raw = repr([conn.execute(text(f"SELECT * FROM {t}")).all() for t in ("matches", "seats", "events")])
            hashes = [row[0] for row in conn.execute(text("SELECT token_hash FROM seats"))]
        raw = raw.encode()
    else:  # the file itself, and its write-ahead log
        raw = open(db, "rb").read() + open(db + "-wal", "rb").read()
        hashes = [row[0] for row in sqlite3.connect(db).execute("select token_hash from seats")]
    for token in (created["token"], claimed["token"], created["invite_secret"]):
        assert token.encode() not in raw
    assert all(h is None or len(h) == 64 for h in hashes)


def test_claiming_takes_the_first_free_seat_then_refuses(service):
    created = service.create("trails", None, "online")
    match = created["match"]
    assert join(service, created, player="Ann")["seat"] == 2
    assert error_of(join, service, created).error == "no-free-seat"
    state = service.state(match)
    assert state["version"] == 0  # claiming a seat is not a move
    assert state["started"] and state["turn"] == 1  # the last seat taken: the game begins
    assert state["seats"][1]["name"] == "Ann"


def test_a_move_is_checked_for_token_turn_version_and_legality(service):
    created = service.create("trails", None, "online")
    match, token = created["match"], created["token"]
    assert error_of(service.play, match, token, "right").error == "not-started"  # nobody to play against yet
    second = join(service, created)["token"]
    assert error_of(service.play, match, "not-a-token", "right").status == 401
    assert error_of(service.play, match, None, "right").error == "unauthorized"
    refused = error_of(service.play, match, second, "right")
    assert refused.error == "not-your-turn" and refused.reason == "It is Blue's turn, not yours."
    illegal = error_of(service.play, match, token, "up")
    assert (illegal.status, illegal.error) == (400, "illegal-move") and illegal.reason
    assert error_of(service.play, match, token, "sideways").error == "illegal-move"
    assert error_of(service.play, match, token, 42).error == "illegal-move"
    assert error_of(service.play, match, token, "right", version=3).error == "stale-version"
    assert error_of(service.play, match, token, "right", version="0").error == "bad-request"
    assert service.state(match)["version"] == 0  # nothing above changed anything
    state = service.play(match, token, "right", version=0)
    assert state["version"] == 1 and state["moves"] == ["right"] and state["turn"] == 2
    assert service.events[-1][1] == "state" and service.events[-1][2]["version"] == 1


def test_unknown_matches_are_not_found(service):
    for match in ("nope", "", None, 7, "../etc", "x" * 100):
        assert error_of(service.state, match).status == 404


def test_bad_creation_requests_are_refused_with_a_reason(service):
    assert error_of(service.create, "chess").error == "unknown-game"
    bad = error_of(service.create, "trails", {"size": 2})
    assert bad.error == "bad-options" and "size" in bad.reason
    assert error_of(service.create, "trails", {"colour": "red"}).error == "bad-options"
    beyond_form = error_of(service.create, "towers", {"size": 20})  # the engine takes 32, the server offers 10
    assert beyond_form.error == "bad-options" and "5 to 10" in beyond_form.reason
    assert error_of(service.create, "trails", "big").error == "bad-options"
    assert error_of(service.create, "trails", None, "solo").error == "bad-mode"
    assert error_of(service.create, "trails", None, "online", seats=[3]).error == "bad-request"
    assert error_of(service.create, "trails", None, "online", player="x" * 99).error == "bad-request"


def play_out(service, match, tokens):
    """Play the first legal move until the game ends; return the final state."""
    state = service.state(match)
    while state["outcome"] is None:
        state = service.play(match, tokens[state["turn"]], state["legal"][0], version=state["version"])
    return state


def test_a_finished_game_refuses_moves(service):
    created = service.create("trails", {"size": 5}, "local")
    state = play_out(service, created["match"], {1: created["token"], 2: created["token"]})
    assert state["turn"] is None and state["legal"] == []
    assert error_of(service.play, created["match"], created["token"], "up").error == "game-over"


def test_local_takeback_and_rewind_continue_from_an_earlier_move(service):
    created = service.create("trails", None, "local")
    match, token = created["match"], created["token"]
    for move in ("right", "up", "right", "left"):
        service.play(match, token, move)
    state = service.takeback(match, token)
    assert state["moves"] == ["right", "up", "right"] and state["version"] == 5
    state = service.rewind(match, token, 1)
    assert state["moves"] == ["right"] and state["turn"] == 2 and state["version"] == 6
    state = service.play(match, token, "left")
    assert state["moves"] == ["right", "left"]
    assert error_of(service.rewind, match, token, 2).error == "bad-rewind"
    assert error_of(service.rewind, match, token, -1).error == "bad-rewind"
    assert error_of(service.rewind, match, "wrong", 0).status == 401


def test_online_games_refuse_rewinds_and_take_backs_once_the_turn_passed(service):
    created = service.create("trails", None, "online")
    other = join(service, created)
    service.play(created["match"], created["token"], "right")
    assert error_of(service.takeback, created["match"], created["token"]).error == "not-allowed"
    assert error_of(service.takeback, created["match"], other["token"]).error == "not-allowed"
    assert error_of(service.rewind, created["match"], created["token"], 0).error == "not-allowed"
    assert service.state(created["match"])["moves"] == ["right"]


def test_everything_survives_a_restart(db):
    first = MatchService(Storage.open(db))
    created = first.create("trails", {"size": 9}, "local")
    match, token = created["match"], created["token"]
    for move in ("down", "up", "down", "left", "right"):
        first.play(match, token, move)
    first.rewind(match, token, 3)
    first.play(match, token, "up")
    before = first.state(match)
    first.storage.close()

    second = MatchService(Storage.open(db))
    after = second.state(match)
    assert after == before
    assert second.play(match, token, after["legal"][0])["version"] == before["version"] + 1


def test_positions_step_through_the_game(service):
    created = service.create("trails", None, "local")
    for move in ("right", "up", "right"):
        service.play(created["match"], created["token"], move)
    start = service.position(created["match"], 0)
    assert start["view"]["heads"] == [[0, 0], [10, 10]] and start["turn"] == 1
    assert service.position(created["match"], 3)["view"] == service.state(created["match"])["view"]
    assert error_of(service.position, created["match"], 4).error == "bad-request"
    assert error_of(service.position, created["match"], "1").error == "bad-request"


def test_record_export_and_import_continue_the_game(service):
    created = service.create("trails", {"size": 7, "towers": 1}, "local")
    for move in ("right", "up", "right"):
        service.play(created["match"], created["token"], move)
    record = service.record(created["match"])
    assert record["format"] == "quadrille-record" and record["moves"] == ["right", "up", "right"]
    assert [e["kind"] for e in record["events"]] == ["move"] * 3
    imported = service.import_record(record)
    state = service.state(imported["match"])
    assert state["moves"] == record["moves"] and state["options"] == record["options"]
    assert state["version"] == 3 and state["mode"] == "local"
    service.play(imported["match"], imported["token"], state["legal"][0])


@pytest.mark.parametrize("record, word", [
    ("not a record", "bad-record"),
    ({"game": "trails", "moves": "right"}, "bad-record"),
    ({"game": "trails", "moves": ["right", "sideways"]}, "bad-record"),
    ({"game": "trails", "moves": ["right", "right", "right"]}, "bad-record"),
    ({"game": "nope", "moves": []}, "bad-record"),
    ({"game": "trails", "options": {"size": 99}, "moves": []}, "bad-record"),
    ({"format": "chess-pgn", "game": "trails", "moves": []}, "bad-record"),
])
def test_corrupt_records_are_refused(service, record, word):
    assert error_of(service.import_record, record).error == word
    assert stored_matches(service.storage) == 0


def test_by_name_first_creates_second_joins_third_watches(service):
    first = service.join_by_name("Friday Final", "trails", {"size": 9}, player="Ann")
    second = service.join_by_name("  friday   final ", "trails", None, player="Bob")
    third = service.join_by_name("FRIDAY FINAL", "trails")
    assert first["created"] and first["seat"] == 1
    assert second["match"] == first["match"] and second["seat"] == 2 and not second["created"]
    assert third["match"] == first["match"] and third["seat"] is None and third["token"] is None
    assert service.state(first["match"])["options"]["size"] == 9  # the creator's options stand
    assert error_of(service.join_by_name, "friday final", "towers").error == "name-taken"
    assert error_of(service.join_by_name, "", "trails").error == "bad-request"


def test_a_finished_matchs_name_starts_a_new_match(service):
    first = service.join_by_name("rematch-me", "trails", {"size": 5})
    second = service.join_by_name("rematch-me", "trails")
    play_out(service, first["match"], {1: first["token"], 2: second["token"]})
    again = service.join_by_name("rematch-me", "trails")
    assert again["created"] and again["match"] != first["match"]


def test_resign_and_rematch_by_consent(service):
    created = service.create("trails", None, "online")
    match = created["match"]
    other = join(service, created)
    assert error_of(service.resign, match, "nobody").status == 401
    assert error_of(service.rematch, match, other["token"]).error == "game-not-over"
    state = service.resign(match, other["token"])
    assert state["outcome"]["winners"] == [1] and state["outcome"]["reason"] == "resigned"
    assert state["turn"] is None and state["legal"] == []
    assert error_of(service.play, match, created["token"], "right").error == "game-over"

    offered = service.rematch(match, other["token"])  # an offer: the other player has not agreed yet
    assert offered["offers"] == {"rematch": [2]} and offered["rematch"] is None
    assert error_of(service.rematch, match, other["token"]).error == "already-offered"
    assert error_of(service.decline, match, other["token"]).error == "no-offer"  # not one's own offer
    version = service.state(match)["version"]
    assert error_of(service.rematch, match, "a spectator").status == 401
    assert service.state(match)["version"] == version

    accepted = service.rematch(match, created["token"])  # the other player agrees: the rematch starts
    new = accepted["match"]
    assert accepted["seat"] == 2 and accepted["token"] == created["token"]  # sides swapped, same token
    assert service.events[-1][1:] == ("rematch", {"match": new, "from": match, "seats": [2, 1]})
    assert service.rematch(match, other["token"])["seats"] == [1]  # asking again only says where it is
    fresh = service.state(new)
    assert [s["taken"] for s in fresh["seats"]] == [True, True]  # no free seat for a stranger to take
    assert error_of(service.claim_seat, new).error == "no-free-seat"
    assert fresh["visibility"] == "private" and fresh["started"]
    assert error_of(service.play, new, created["token"], "right").error == "not-your-turn"
    assert service.play(new, other["token"], "right")["version"] == 1  # the old seat 2 moves first now


def test_a_declined_rematch_cannot_be_offered_again(service):
    created = service.create("trails", None, "online")
    match = created["match"]
    other = join(service, created)
    service.resign(match, created["token"])
    service.rematch(match, created["token"])
    state = service.decline(match, other["token"])
    assert state["offers"] == {} and state["rematch"] is None
    assert error_of(service.rematch, match, created["token"]).error == "offer-declined"
    assert error_of(service.decline, match, other["token"], "chess").error == "bad-offer"


def test_a_rematch_against_the_computer_swaps_sides_at_once(service):
    created = service.create("trails", {"size": 5}, "ai", ai={"seats": [2], "level": 1})
    match = created["match"]
    state = service.state(match)
    while state["outcome"] is None:
        if state["turn"] == 1:
            state = service.play(match, created["token"], state["legal"][0])
        else:  # no computer process here: the test plays the computer's seat through the service
            state = service.play_computer(match, state["version"], 2, state["legal"][0])
    again = service.rematch(match, created["token"])
    fresh = service.state(again["match"])
    assert again["seats"] == [2] and fresh["mode"] == "ai"
    assert fresh["seats"][0] == {"seat": 1, "taken": True, "name": "ai", "kind": "ai", "level": 1, "level_name": "Easy"}
    assert service.rematch(match, created["token"])["match"] == again["match"]  # once, not one per click


def test_a_rematch_on_one_screen_keeps_every_seat_and_its_event_says_so(service):
    """The `rematch` event carries the seat each old seat became, which accounts and ratings follow: turned by
    one online and against the computer, unchanged on one screen."""
    created = service.create("trails", {"size": 5}, "local")
    match = created["match"]
    state = service.state(match)
    while state["outcome"] is None:
        state = service.play(match, created["token"], state["legal"][0])
    again = service.rematch(match, created["token"])
    assert again["seats"] == [1, 2]
    assert service.events[-1][1:] == ("rematch", {"match": again["match"], "from": match, "seats": [1, 2]})


def test_racing_clients_get_one_success_and_a_clear_refusal(service):
    created = service.create("trails", None, "local")
    match, token = created["match"], created["token"]
    results = []
    barrier = threading.Barrier(8)

    def race(move):
        barrier.wait()
        try:
            results.append(service.play(match, token, move, version=0)["version"])
        except ServiceError as exc:
            results.append(exc.error)

    threads = [threading.Thread(target=race, args=(move,)) for move in ["right", "down"] * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(1) == 1
    assert set(results) - {1} == {"stale-version"}
    assert len(service.state(match)["moves"]) == 1


def test_two_servers_on_one_database_cannot_both_write_the_same_version(db):
    """A stale cache (another process wrote first) is caught by storage, not silently overwritten."""
    a, b = MatchService(Storage.open(db)), MatchService(Storage.open(db))
    created = a.create("trails", None, "local")
    match, token = created["match"], created["token"]
    b.state(match)  # b caches version 0
    a.play(match, token, "right")
    assert error_of(b.play, match, token, "down").error == "stale-version"
    assert b.state(match)["moves"] == ["right"]  # b reloaded the truth
    assert b.play(match, token, "up")["moves"] == ["right", "up"]


def lattice_moves_through_a_return():
    """The moves of a recorded Lattice game up to and including its first promotion's return."""
    from tests.support.paths import SHARED, read_jsonl
    for game in read_jsonl(SHARED / "reference" / "lattice.jsonl"):
        if game["first"] != "B":
            continue
        moves = []
        for turn in game["turns"]:
            if turn["kind"] == "pass":
                continue
            moves.append(turn["chosen"])
            if turn["return"] is not None:
                return game["size"], moves + ["+" + turn["return"]["chosen"]]
    raise AssertionError("no promotion with a return in the reference games")


def test_take_backs_never_split_a_lattice_move_from_its_return(service):
    size, moves = lattice_moves_through_a_return()
    created = service.create("lattice", {"size": size}, "local")
    for move in moves:
        service.play(created["match"], created["token"], move)
    state = service.takeback(created["match"], created["token"])
    assert state["moves"] == moves[:-2]  # the promoting move and its return go together
    for move in moves[-2:]:
        service.play(created["match"], created["token"], move)
    split = error_of(service.rewind, created["match"], created["token"], len(moves) - 1)
    assert split.error == "bad-rewind" and "complete turns" in split.reason
    assert service.rewind(created["match"], created["token"], len(moves) - 2)["moves"] == moves[:-2]


def test_an_online_gamma_match_waits_for_its_creator_and_leaves_out_free_seats(service):
    created = service.create("gamma", {"width": 5, "height": 4, "players": 4, "areas": 2}, "online")
    match = created["match"]
    state = service.state(match)
    assert state["started"] is False and state["turn"] is None and state["players"] == 4
    assert error_of(service.play, match, created["token"], "0,0").error == "not-started"
    assert error_of(service.start, match, created["token"]).error == "not-enough-players"  # alone: not yet
    assert error_of(service.claim_seat, match).error == "invite-required"
    second = join(service, created)
    third = join(service, created, player="Cy")
    assert (second["seat"], third["seat"]) == (2, 3)
    assert error_of(service.start, match, second["token"]).error == "not-allowed"  # only the creator starts
    state = service.start(match, created["token"])
    assert state["started"] and state["players"] == 3 and state["options"]["players"] == 3
    assert [s["seat"] for s in state["seats"]] == [1, 2, 3] and state["turn"] == 1
    assert error_of(join, service, created).error == "no-free-seat"  # latecomers watch
    assert error_of(service.start, match, created["token"]).error == "already-started"
    service.play(match, created["token"], "0,0")
    service.play(match, second["token"], "4,3")
    assert service.play(match, third["token"], "2,2")["turn"] == 1
    service.storage.close()
    again = MatchService(Storage.open(service.storage.engine.url.render_as_string(hide_password=False)))
    assert again.state(match)["moves"] == ["0,0", "4,3", "2,2"] and again.state(match)["players"] == 3


def test_a_match_that_reaches_its_games_move_limit_is_a_draw(service):
    import games
    gamma = games.get("gamma")
    limit = gamma.move_limit(gamma.normalise({"width": 2, "height": 2}))
    too_long = error_of(service.import_record, {"game": "gamma", "options": {"width": 2, "height": 2},
                                                "moves": ["skip"] * (limit + 1)})
    assert too_long.error == "bad-record" and f"at most {limit}" in too_long.reason
    assert stored_matches(service.storage) == 0
    created = service.import_record({"game": "gamma", "options": {"width": 2, "height": 2},
                                     "moves": ["skip"] * (limit - 1)})
    state = service.play(created["match"], created["token"], "skip")  # the last move a match may hold
    assert state["outcome"] == {"winners": [], "scores": [], "reason": "move-limit"}
    assert state["turn"] is None and state["legal"] == []
    assert error_of(service.play, created["match"], created["token"], "skip").error == "game-over"
    assert service.takeback(created["match"], created["token"])["outcome"] is None  # a take-back reopens it


def test_a_match_holds_a_bounded_number_of_events(service):
    created = service.create("trails", {"size": 3, "towers": 0}, "local")
    match, token = created["match"], created["token"]
    state = service.state(match)
    while True:
        try:
            service.play(match, token, state["legal"][0])
            state = service.takeback(match, token)
        except ServiceError as exc:
            assert exc.error == "match-full" and exc.status == 409 and exc.reason
            break
    version = service.state(match)["version"]
    assert version == 4 * 7 + 400  # 3x3 Trails lasts at most 7 moves
    assert error_of(service.play, match, token, service.state(match)["legal"][0]).error == "match-full"
    assert service.state(match)["version"] == version



def test_the_state_says_who_played_each_move(service):
    """STATE `movers`: the seat that played each move, for the move list's rounds (a Towers turn of several
    actions is a run of one seat's moves); a rewind cuts it with the moves; an imported record's moves: null."""
    def cost(move):  # the move points a tower's move spends: its distance times the pawns moved
        (x0, y0), (x1, y1) = (map(int, c.split(",")) for c in move[1:].split(":")[0].split(">"))
        return (abs(x1 - x0) + abs(y1 - y0)) * int(move.split(":")[1])
    created = service.create("towers", {"size": 6}, "local")  # two move points a turn
    token, state, turns = created["token"], service.state(created["match"]), []
    while len(state["moves"]) < 8:
        turns.append(state["turn"])
        move = min((m for m in state["legal"] if m.startswith("m")), key=cost, default="end")
        state = service.play(created["match"], token, move)
    assert state["movers"] == turns and set(turns) == {1, 2}
    assert any(a == b for a, b in zip(turns, turns[1:]))  # a turn of several actions
    state = service.rewind(created["match"], token, 3)
    assert state["movers"] == turns[:3]
    imported = service.create("trails", {"size": 7}, "local", moves=["down", "up"])
    assert service.state(imported["match"])["movers"] == [None, None]
