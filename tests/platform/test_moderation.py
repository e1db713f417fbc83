"""Moderation (quadrille/moderation/): the operator's commands (`python -m quadrille admin ...`, run here in
the test's process on the app's database), the moderators' API and page, and players' reports, on SQLite and
PostgreSQL. The app is a server's: the commands write the database, and the app follows the moderation log
(quadrille/moderation/live.py; app.py starts it in a server, here the tests turn it by hand: `follow(app)`).
tests/server/test_moderation_server.py runs the commands against a real server process."""
from __future__ import annotations

import logging

from sqlalchemy import func, select

from quadrille.admin.cli import main as admin
from quadrille.infra.schema import moderation_log_table, rated_matches_table, reports_table
from tests.support.players import Player, play_to_the_end



def run(app, command, *argv) -> int:
    """The command on the app's database. (A match id may begin with "-": the tests put "--" before one, as an
    operator does.)"""
    return admin([command, "--db", app.config["DATABASE"], *argv])


def follow(app) -> int:
    return app.extensions["quadrille.live_moderation"].catch_up()


def count(app, table) -> int:
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def bearer(token) -> dict:
    return {"Authorization": f"Bearer {token}"}


def rated_match(ann, bob) -> str:
    made = ann.challenge("bob", "trails", options={"size": 5}, first="challenger", rated=True)
    return bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]


def test_a_ban_refuses_login_sessions_api_tokens_challenges_and_seats_and_an_unban_restores_them(app, ann, bob, capsys):
    token = app.test_client().post("/api/account/tokens", json={"name": "ann", "password": "correct horse"}).json["token"]
    match = rated_match(ann, bob)
    pending = ann.challenge("bob", "trails")["challenge"]
    assert ann.move(match, app.test_client().get(f"/api/matches/{match}").json["legal"][0]).status_code == 200

    assert run(app, "ban", "ann", "--note", "farming") == 0
    assert "Banned ann." in capsys.readouterr().out
    follow(app)
    assert ann.get("/api/account").json["account"] is None                       # the session ended
    refused = app.test_client().get("/api/account/tokens", headers=bearer(token))
    assert refused.status_code == 401 and refused.json["error"] == "bad-token"   # the token opens nothing
    login = app.test_client().post("/api/account/login", json={"name": "ann", "password": "correct horse"})
    assert login.status_code == 403 and login.json["error"] == "banned"
    wrong = app.test_client().post("/api/account/login", json={"name": "ann", "password": "wrong horse!"})
    assert wrong.status_code == 401                                             # the ban told only to the owner
    assert bob.get(f"/api/challenges/{pending}").json["status"] == "cancelled"  # its challenges closed
    to_ann = bob.post("/api/challenges", {"to": "ann", "game": "trails", "rated": True})
    assert to_ann.status_code == 403 and to_ann.json["error"] == "not-accepted"  # nobody plays rated with it
    state = app.test_client().get(f"/api/matches/{match}").json
    assert bob.move(match, state["legal"][0]).status_code == 200
    state = app.test_client().get(f"/api/matches/{match}").json
    kept = ann.move(match, state["legal"][0])                                   # the key its browser kept
    assert kept.status_code == 401 and kept.json["error"] == "unauthorized"
    again = run(app, "ban", "ann")
    assert again == 1 and "banned already" in capsys.readouterr().err

    assert run(app, "unban", "ann") == 0
    back = app.test_client().post("/api/account/login", json={"name": "ann", "password": "correct horse"})
    assert back.status_code == 200
    assert app.test_client().get("/api/account/tokens", headers=bearer(token)).status_code == 200
    moved = app.test_client().post(f"/api/matches/{match}/moves", json={"move": state["legal"][0]},
                                   headers=bearer(back.json["seat_key"]))
    assert moved.status_code == 200                                              # its seats, under its new key
    assert app.test_client().post(f"/api/matches/{match}/moves", json={"move": "x"},
                                  headers=bearer(token)).json["error"] != "unauthorized"


def test_closing_a_match_ends_it_as_aborted_by_the_site_unrated_and_the_room_hears_it(app, ann, bob, capsys):
    match = rated_match(ann, bob)
    heard = []
    service = app.extensions["quadrille"]
    service.listener = lambda match_id, event, payload: heard.append((match_id, payload))
    assert run(app, "close", "--note", "stalling", "--", match) == 0
    follow(app)
    state = app.test_client().get(f"/api/matches/{match}").json
    assert state["outcome"]["reason"] == "aborted" and state["outcome"]["by"] == "site"
    assert state["outcome"]["winners"] == []
    assert heard and heard[-1][0] == match and heard[-1][1]["outcome"]["by"] == "site"
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        assert conn.execute(select(rated_matches_table.c.verdict)).scalar_one() == "aborted"
    assert ann.get("/api/players/ann").json["ratings"] == {}
    capsys.readouterr()
    assert run(app, "close", "--", match) == 1 and "over already" in capsys.readouterr().err
    assert run(app, "close", "no/such") == 1 and "no such match" in capsys.readouterr().err
    assert run(app, "close", "nosuchmatch") == 1


def test_a_match_with_a_running_clock_is_closed_and_its_clock_stops(app, ann, bob):
    made = ann.challenge("bob", "trails", first="challenger", clock={"kind": "realtime", "minutes": 5, "increment": 0})
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    assert ann.move(match, app.test_client().get(f"/api/matches/{match}").json["legal"][0]).status_code == 200
    assert run(app, "close", "--", match) == 0
    follow(app)
    state = app.test_client().get(f"/api/matches/{match}").json
    assert state["outcome"]["by"] == "site" and state["clock"]["running"] is None


def test_deleting_a_match_removes_it_and_its_record(app, ann, bob, capsys):
    match = rated_match(ann, bob)
    assert run(app, "delete", "--", match) == 0
    follow(app)
    assert app.test_client().get(f"/api/matches/{match}").status_code == 404
    assert ann.get("/api/me/games").json["games"] == []
    assert count(app, rated_matches_table) == 0
    assert run(app, "delete", "--", match) == 1 and "no such match" in capsys.readouterr().err


def test_matches_under_way_are_listed_and_a_squatted_name_is_freed(app, ann, bob, capsys):
    client = app.test_client()
    squat = client.post("/api/matches/by-name", json={"name": "Lobby", "game": "trails"}).json
    match = rated_match(ann, bob)
    assert run(app, "matches") == 0
    listed = capsys.readouterr().out
    assert squat["match"] in listed and match in listed and "name 'lobby'" in listed
    assert run(app, "free-name", "LOBBY") == 0
    fresh = client.post("/api/matches/by-name", json={"name": "lobby", "game": "trails"}).json
    assert fresh["created"] is True and fresh["match"] != squat["match"]
    assert client.get(f"/api/matches/{squat['match']}").status_code == 200      # still playable by its link
    capsys.readouterr()
    assert run(app, "free-name", "nobody-has-it") == 1 and "No match is called" in capsys.readouterr().err


def test_a_rating_is_reset_per_game(app, ann, bob, capsys):
    play_to_the_end(rated_match(ann, bob), {1: ann, 2: bob}, app)
    assert "trails" in ann.get("/api/players/ann").json["ratings"]
    assert run(app, "reset-rating", "ann", "chess") == 1 and "game must be one of" in capsys.readouterr().err
    assert run(app, "reset-rating", "ann", "trails") == 0
    profile = ann.get("/api/players/ann").json
    assert profile["ratings"] == {} and profile["history"] == {}
    assert "trails" in ann.get("/api/players/bob").json["ratings"]               # the opponent's stays
    assert run(app, "reset-rating", "ann", "trails") == 1 and "no trails rating" in capsys.readouterr().err


def test_reports_are_checked_counted_and_listed(app, ann, bob, capsys):
    match = rated_match(ann, bob)
    bad = [({"account": "bob", "reason": "rude"}, 400, "bad-reason"),
           ({"account": "bob", "reason": "other", "text": "x" * 501}, 400, "bad-text"),
           ({"reason": "other"}, 400, "bad-target"),
           ({"account": "ann", "reason": "other"}, 400, "bad-player"),
           ({"account": "nobody", "reason": "other"}, 404, "unknown-player"),
           ({"match": "nosuchmatch", "reason": "other"}, 404, "not-found")]
    for body, status, error in bad:
        answer = ann.post("/api/reports", body)
        assert (answer.status_code, answer.json["error"]) == (status, error), body
    assert count(app, reports_table) == 0
    assert app.test_client().post("/api/reports", json={"account": "bob", "reason": "other"}).status_code == 401
    assert ann.client.post("/api/reports", json={"account": "bob", "reason": "other"}).status_code == 403  # no CSRF
    made = ann.post("/api/reports", {"account": "bob", "match": match, "reason": "stalling", "text": "never moves"})
    assert made.status_code == 201 and made.json["report"]
    assert ann.post("/api/reports", {"match": match, "reason": "name"}).status_code == 201
    assert ann.get("/api/reports/reasons").json["reasons"]["cheating"]
    assert run(app, "reports") == 0
    out = capsys.readouterr().out
    assert "bob" in out and "1 report(s) by 1 player(s)" in out and "'never moves'" in out and f"match {match}" in out
    assert run(app, "dismiss-report", str(made.json["report"])) == 0
    assert run(app, "dismiss-report", "999") == 1


def test_reports_have_a_budget_per_account(make_app):
    app = make_app(RATELIMIT_ENABLED=True, REPORT_RATE="2 per hour")
    ann, _ = Player(app, "ann"), Player(app, "bob")
    answers = [ann.post("/api/reports", {"account": "bob", "reason": "other"}).status_code for _ in range(3)]
    assert answers == [201, 201, 429] and count(app, reports_table) == 2


def test_a_muted_account_cannot_name_what_others_see(app, ann):
    assert run(app, "mute", "ann") == 0
    headers = {"X-CSRFToken": ann.csrf}
    named = ann.client.post("/api/matches/by-name", json={"name": "hello", "game": "trails"}, headers=headers)
    assert named.status_code == 403 and named.json["error"] == "muted"
    seat_name = ann.client.post("/api/matches", json={"game": "trails", "player": "rude words"}, headers=headers)
    assert seat_name.status_code == 403
    assert ann.client.post("/api/matches", json={"game": "trails"}, headers=headers).status_code == 201
    assert run(app, "unmute", "ann") == 0
    assert ann.client.post("/api/matches/by-name", json={"name": "hello", "game": "trails"},
                           headers=headers).status_code == 201


def test_only_moderators_reach_the_page_and_the_api_and_every_action_is_logged(app, ann, bob, caplog):
    match = rated_match(ann, bob)
    for who in (app.test_client(), ann.client):
        assert who.get("/moderation").status_code == 404
        assert who.get("/api/moderation/matches").status_code == 404
    assert ann.post(f"/api/moderation/matches/{match}/close").status_code == 404
    assert ann.post("/moderation/ban", {}).status_code == 404
    assert run(app, "moderator", "ann") == 0
    page = ann.get("/moderation")
    assert page.status_code == 200 and match.encode() in page.data and b"csrf_token" in page.data
    assert ann.get("/api/moderation/matches").json["matches"][0]["id"] == match
    # the page's forms need the session's CSRF token
    assert ann.client.post("/moderation/ban", data={"name": "bob"}).status_code == 403
    with caplog.at_level(logging.INFO, logger="quadrille.moderation"):
        done = ann.client.post("/moderation/ban", data={"name": "bob", "note": "abuse", "csrf_token": ann.csrf},
                               follow_redirects=True)
    assert done.status_code == 200 and b"Banned bob." in done.data
    assert "moderation: ann ban account bob" in caplog.text and "correct horse" not in caplog.text
    refused = ann.client.post("/moderation/ban", data={"name": "nobody", "csrf_token": ann.csrf}, follow_redirects=True)
    assert b"Nothing was changed: There is no player called" in refused.data
    closed = ann.post(f"/api/moderation/matches/{match}/close", {"note": "x" * 201})
    assert closed.status_code == 400 and closed.json["error"] == "bad-note"
    assert ann.post(f"/api/moderation/matches/{match}/close").json["ok"] is True
    assert ann.post("/api/moderation/accounts/bob/unban").status_code == 200
    assert ann.post("/api/moderation/accounts/bob/explode").status_code == 404
    log = ann.get("/api/moderation/log").json["log"]
    assert [(e["action"], e["actor"]) for e in log] == [
        ("unban", "ann"), ("close", "ann"), ("ban", "ann"), ("moderator", "console")]
    assert log[2]["detail"] == {"note": "abuse"}
    assert count(app, moderation_log_table) == 4
    assert run(app, "moderator", "ann", "--remove") == 0
    assert ann.get("/moderation").status_code == 404


def test_the_profile_and_match_pages_offer_report_and_block(app, ann, bob):
    match = rated_match(ann, bob)
    profile = ann.get("/players/bob").data
    assert b"/report?account=bob" in profile and b"Block" in profile
    # blocking, from the profile's "Block" (the account page's form), needs the session's CSRF token too
    assert ann.client.post("/api/account/blocks", json={"name": "bob"}).status_code == 403
    assert ann.post("/api/account/blocks", {"name": "bob"}).json["blocks"][0]["name"] == "bob"
    assert f"/report?match={match}".encode() in app.test_client().get(f"/m/{match}").data
    form = ann.get("/report?account=bob")
    assert form.status_code == 200 and b'name="reason"' in form.data
    sent = ann.client.post("/report", data={"account": "bob", "reason": "cheating", "csrf_token": ann.csrf})
    assert sent.status_code == 200 and b"Thank you" in sent.data
    refused = ann.client.post("/report", data={"account": "bob", "reason": "bogus", "csrf_token": ann.csrf})
    assert refused.status_code == 400 and b"Nothing was sent" in refused.data
    assert count(app, reports_table) == 1
    assert b"Log in to report" in app.test_client().get("/report?account=bob").data


def test_0012_downgrades_and_upgrades_again_keeping_the_accounts(empty_database):
    from sqlalchemy import inspect, text

    from quadrille.infra import migrate
    from quadrille.infra.engine import database_url, make_engine
    engine = make_engine(database_url(empty_database))
    try:
        assert migrate.upgrade(engine, "0012")[-1] == "0012"
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO accounts (name, name_key, password_hash, seat_salt, created, name_skeleton,"
                              " banned) VALUES ('ann', 'ann', 'h', 's', 1.0, 'ann', 2.0)"))
        with engine.connect() as conn:
            migrate.command.downgrade(migrate.config(conn), "0011")
            conn.commit()
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("accounts")}
            assert not {"banned", "muted", "moderator"} & columns
            assert not {"reports", "moderation_log"} & set(inspect(conn).get_table_names())
        assert migrate.upgrade(engine, "0012") == ["0012"]
        with engine.connect() as conn:
            row = conn.execute(text("SELECT name, banned, moderator FROM accounts")).one()
        assert (row.name, row.banned, bool(row.moderator)) == ("ann", None, False)
    finally:
        engine.dispose()
