"""Accounts' security on both databases (SQLite and PostgreSQL): ids never reused, deletion forgets every row,
server-side sessions, API tokens listed and revoked, budgets per account and per address (an IPv6 address
counts as its /64). The same attacks on a real server are in tests/security/test_account_takeover.py."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from quadrille import create_app
from quadrille.infra.schema import (account_matches_table, account_sessions_table, accounts_table,
                                           api_tokens_table, rating_history_table)
from quadrille.web.sessions import SESSION_COOKIE

PASSWORD = "correct horse"


pytestmark = pytest.mark.app_settings(ACCOUNT_RATE="1000 per minute")  # the app of tests/platform/conftest.py


def rows(app, table, **where) -> int:
    query = select(func.count()).select_from(table)
    for column, value in where.items():
        query = query.where(table.c[column] == value)
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        return conn.execute(query).scalar_one()


def sign_up(client, name: str, **environ) -> dict:
    answer = client.post("/api/account", json={"name": name, "password": PASSWORD}, environ_base=environ)
    assert answer.status_code == 201, answer.json
    return answer.json


def csrf(answer: dict) -> dict:
    return {"X-CSRFToken": answer["csrf"]}


def test_a_deleted_accounts_id_is_never_given_again_and_its_rows_all_go(app):
    client, other = app.test_client(), app.test_client()
    sign_up(other, "bob")
    ann = sign_up(client, "ann")
    bob_csrf = other.get("/api/account").json
    made = other.post("/api/challenges", json={"to": "ann", "game": "trails", "rated": True, "first": "challenger"},
                      headers=csrf(bob_csrf)).json
    match = client.post(f"/api/challenges/{made['challenge']}/accept", headers=csrf(ann)).json["match"]
    state = client.get(f"/api/matches/{match}").json
    other.post(f"/api/matches/{match}/moves", json={"move": state["legal"][0]},
               headers={"Authorization": f"Bearer {bob_csrf['seat_key']}"})
    state = client.get(f"/api/matches/{match}").json
    client.post(f"/api/matches/{match}/moves", json={"move": state["legal"][0]},
                headers={"Authorization": f"Bearer {ann['seat_key']}"})
    app.test_client().post("/api/account/tokens", json={"name": "ann", "password": PASSWORD})
    ann_id = ann["account"]["id"]
    assert client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(ann)).status_code == 200
    # the game under way was resigned (bob won, rated), and nothing of ann stays
    assert client.get(f"/api/matches/{match}").json["outcome"]["winners"] == [1]
    for table in (account_sessions_table, api_tokens_table, account_matches_table, rating_history_table):
        assert rows(app, table, account_id=ann_id) == 0, table.name
    assert rows(app, rating_history_table) == 1  # bob's
    newcomer = sign_up(app.test_client(), "cleo")
    assert newcomer["account"]["id"] > ann_id


def test_the_seat_key_of_a_deleted_account_holds_nothing(app):
    client = app.test_client()
    ann = sign_up(client, "ann")
    sign_up(app.test_client(), "bob")
    made = client.post("/api/challenges", json={"to": "bob", "game": "towers"}, headers=csrf(ann)).json
    assert client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(ann)).status_code == 200
    assert made["status"] == "pending"
    refused = app.test_client().post(f"/api/challenges/{made['challenge']}/accept")
    assert refused.status_code in (401, 403)


def test_sessions_live_on_the_server_and_a_new_password_renews_this_one(app):
    client = app.test_client()
    ann = sign_up(client, "ann")
    ann_id = ann["account"]["id"]
    elsewhere = app.test_client()
    elsewhere.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
    assert rows(app, account_sessions_table, account_id=ann_id) == 2
    old_cookie = client.get_cookie(SESSION_COOKIE).value
    changed = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "battery staple"},
                          headers=csrf(ann))
    assert changed.status_code == 200 and rows(app, account_sessions_table, account_id=ann_id) == 1
    assert client.get("/api/account").json["account"]["name"] == "ann"
    assert elsewhere.get("/api/account").json["account"] is None
    stale = app.test_client()
    stale.set_cookie(SESSION_COOKIE, old_cookie)
    assert stale.get("/api/account").json["account"] is None
    bad = client.post("/api/account/password", json={"password": "battery staple", "new_password": "another one",
                                                     "sign_out_everywhere": "yes"}, headers=csrf(changed.json))
    assert bad.status_code == 400 and bad.json["error"] == "bad-request"


def test_tokens_are_listed_and_revoked_by_their_owner_only(app):
    client = app.test_client()
    ann = sign_up(client, "ann")
    made = app.test_client().post("/api/account/tokens", json={"name": "ann", "password": PASSWORD, "label": "bot"})
    assert made.status_code == 201
    listed = client.get("/api/account/tokens").json["tokens"]
    assert [(t["label"], t["last_used"]) for t in listed] == [("bot", None)]
    token = made.json["token"]
    who = app.test_client().get("/api/account", headers={"Authorization": f"Bearer {token}"}).json
    assert who == {"account": {"id": ann["account"]["id"], "name": "ann"}, "language": None}  # none chosen (issue 27)
    assert client.get("/api/account/tokens").json["tokens"][0]["last_used"] is not None
    near = listed[0]["id"][:-1] + ("0" if listed[0]["id"][-1] != "0" else "1")  # another id of the same shape
    for bad in ("x" * 16, "nope", near):
        refused = client.post(f"/api/account/tokens/{bad}/revoke", headers=csrf(ann))
        assert refused.status_code == 404 and refused.json["error"] == "not-found"
    label = app.test_client().post("/api/account/tokens", json={"name": "ann", "password": PASSWORD, "label": 7})
    assert label.status_code == 400 and rows(app, api_tokens_table) == 1
    assert client.post(f"/api/account/tokens/{listed[0]['id']}/revoke", headers=csrf(ann)).status_code == 200
    assert rows(app, api_tokens_table) == 0
    assert app.test_client().get("/api/challenges", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_password_changes_and_deletions_have_a_budget_per_account(database):
    app = create_app({"DATABASE": database, "ACCOUNT_RATE": "1000 per minute", "PASSWORD_CHECK_RATE": "3 per day"})
    client = app.test_client()
    ann = sign_up(client, "ann")
    answers = [client.post("/api/account/password", json={"password": "wrong one", "new_password": "whatever 1"},
                           headers=csrf(ann), environ_base={"REMOTE_ADDR": f"10.1.0.{k}"}).status_code
               for k in range(3)]
    refused = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(ann),
                          environ_base={"REMOTE_ADDR": "10.1.0.9"})
    assert answers == [401, 401, 401] and refused.status_code == 429 and refused.json["error"] == "rate-limited"
    assert rows(app, accounts_table) == 1
    bob = sign_up(app.test_client(), "bob")  # another account has its own budget
    assert bob["account"]["name"] == "bob"
    app.extensions["quadrille.storage"].close()


@pytest.mark.parametrize("same, other", [(("2001:db8:1:2::1", "2001:db8:1:2:ffff::9"), "2001:db8:1:3::1"),
                                         (("10.2.0.1", "::ffff:10.2.0.1"), "10.2.0.2")])
def test_address_budgets_count_an_ipv6_address_as_its_64(database, same, other):
    app = create_app({"DATABASE": database, "ACCOUNT_RATE": "2 per day"})

    def login(address):
        return app.test_client().post("/api/account/login", json={"name": "ann", "password": "wrong horse"},
                                      environ_base={"REMOTE_ADDR": address}).status_code
    assert [login(same[0]), login(same[1]), login(same[0])] == [401, 401, 429]
    assert login(other) == 401
    app.extensions["quadrille.storage"].close()


def test_address_keys():
    from quadrille.infra.addresses import address_key
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("2001:db8:aa:bb:1:2:3:4") == address_key("2001:db8:aa:bb::9") == "2001:db8:aa:bb::/64"
    assert address_key("2001:db8:aa:bc::9") != address_key("2001:db8:aa:bb::9")
    assert address_key("::ffff:198.51.100.1") == "198.51.100.1"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key(None) == "?" and address_key("not an address") == "not an address"
