"""Accounts: sign up, log in and out, passwords, deletion, sessions and their CSRF guard, API tokens standing
for an account's seats, and anonymous matches handed over to an account. On SQLite and PostgreSQL."""
from __future__ import annotations


import pytest
from sqlalchemy import func, select

from quadrille import create_app
from quadrille.accounts.passwords import verify_or_dummy
from quadrille.infra.schema import accounts_table, api_tokens_table
from quadrille.web.sessions import SESSION_COOKIE


pytestmark = pytest.mark.app_settings(ACCOUNT_RATE="1000 per minute")  # the app of tests/platform/conftest.py


def count(app, table) -> int:
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def sign_up(client, name="ann", password="correct horse", **extra):
    answer = client.post("/api/account", json={"name": name, "password": password, **extra})
    assert answer.status_code == 201, answer.json
    return answer.json


def csrf(answer) -> dict:
    return {"X-CSRFToken": answer["csrf"]}


def bearer(token) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_sign_up_logs_in_and_the_cookie_is_httponly_and_lax(client):
    answer = sign_up(client)
    assert answer["account"]["name"] == "ann" and answer["seat_key"].startswith("qsk_") and answer["csrf"]
    cookie = client.get_cookie(SESSION_COOKIE)
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax" and not cookie.secure
    assert client.get("/api/account").json["account"]["name"] == "ann"


def test_the_cookie_is_secure_behind_https(database):
    app = create_app({"DATABASE": database, "PUBLIC_URL": "https://quadrille.example", "PROXY_HOPS": 1})
    client = app.test_client()
    response = client.post("/api/account", json={"name": "ann", "password": "correct horse"},
                           headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "1.2.3.4"},
                           base_url="https://quadrille.example")
    assert response.status_code == 201
    assert "Secure" in response.headers["Set-Cookie"] and "HttpOnly" in response.headers["Set-Cookie"]
    app.extensions["quadrille.storage"].close()


@pytest.mark.parametrize("name", ["a", "x" * 21, "ann smith", "ann!", "", None, 7, "émile", ["ann"]])
def test_malformed_names_are_refused_and_nothing_is_stored(app, client, name):
    answer = client.post("/api/account", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 400 and answer.json["error"] == "bad-name"
    assert count(app, accounts_table) == 0 and client.get_cookie(SESSION_COOKIE) is None


def test_bad_tokens_with_a_sign_up_change_nothing(app, client):
    answer = client.post("/api/account", json={"name": "ann", "password": "correct horse", "tokens": ["x"]})
    assert answer.status_code == 400 and answer.json["error"] == "bad-request"
    assert count(app, accounts_table) == 0 and client.get_cookie(SESSION_COOKIE) is None
    answer = client.post("/api/account", data="name=ann", content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 415 and count(app, accounts_table) == 0


@pytest.mark.parametrize("tokens", [{"abcdefgh": 5}, {"abcdefgh": None}, {"abcdefgh": ["t"]}, {"a": "t", "b": {}}])
def test_tokens_that_are_not_strings_are_refused_by_every_call_that_takes_tokens(app, client, tokens):
    """Found by Schemathesis: a token that was not a string was passed over and the call answered 200."""
    answer = client.post("/api/account", json={"name": "ann", "password": "correct horse", "tokens": tokens})
    assert answer.status_code == 400 and answer.json["error"] == "bad-request"
    assert count(app, accounts_table) == 0
    assert client.post("/api/me/games", json={"tokens": tokens}).json["error"] == "bad-request"
    csrf = client.post("/api/account", json={"name": "ann", "password": "correct horse"}).json["csrf"]
    refused = client.post("/api/account/claim", json={"tokens": tokens}, headers={"X-CSRFToken": csrf})
    assert refused.status_code == 400 and refused.json["error"] == "bad-request"


@pytest.mark.parametrize("password", ["short", "", None, 12345678, "x" * 257])
def test_bad_passwords_are_refused(app, client, password):
    answer = client.post("/api/account", json={"name": "ann", "password": password})
    assert answer.status_code == 400 and answer.json["error"] == "bad-password"
    assert count(app, accounts_table) == 0


def test_names_are_unique_ignoring_case(app, client):
    sign_up(client, "Ann-1")
    other = app.test_client()
    answer = other.post("/api/account", json={"name": "aNN-1", "password": "another one"})
    assert answer.status_code == 409 and answer.json["error"] == "name-taken"
    assert count(app, accounts_table) == 1
    assert other.post("/api/account/login", json={"name": "ann-1", "password": "correct horse"}).status_code == 200


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(app, client):
    sign_up(client)
    client.post("/api/account/logout", headers=csrf(client.get("/api/account").json))
    wrong = client.post("/api/account/login", json={"name": "ann", "password": "wrong horse"})
    unknown = client.post("/api/account/login", json={"name": "nobody", "password": "wrong horse"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json == unknown.json == {"error": "bad-credentials", "reason": "Wrong user name or password."}
    assert client.get("/api/account").json["account"] is None


def test_an_unknown_name_costs_an_argon2_verification_too(monkeypatch):
    """The timing does not tell: an unknown name is verified against a dummy hash (as long as a real one):
    one Argon2 verification each, with the same parameters (the same work, not a quick "no such name")."""
    from argon2 import extract_parameters

    from quadrille.accounts import passwords
    real = passwords.hash_password("correct horse")
    verified = []
    hasher = passwords._hasher

    class Counting:
        def verify(self, stored, password):
            verified.append(extract_parameters(stored))
            return hasher.verify(stored, password)
    monkeypatch.setattr(passwords, "_hasher", Counting())
    assert verify_or_dummy(real, "wrong horse") is False
    assert verify_or_dummy(None, "wrong horse") is False
    assert len(verified) == 2 and verified[0] == verified[1] == extract_parameters(real)
    assert verify_or_dummy(None, "a password nobody has: only its verification time matters") is False


def test_logging_out_ends_the_session_and_every_copy_of_its_cookie(app, client):
    answer = sign_up(client)
    thief = app.test_client()
    thief.set_cookie(SESSION_COOKIE, client.get_cookie(SESSION_COOKIE).value)
    assert thief.get("/api/account").json["account"]["name"] == "ann"
    assert client.post("/api/account/logout", headers=csrf(answer)).status_code == 200
    assert client.get("/api/account").json == {"account": None}
    assert client.get("/api/me/games").json["error"] == "login-required"
    assert thief.get("/api/account").json == {"account": None}
    assert thief.get("/api/me/games").json["error"] == "login-required"


def test_a_cookie_authenticated_write_needs_the_csrf_token(app, client):
    answer = sign_up(client)
    sign_up(app.test_client(), "bob")
    body = {"to": "bob", "game": "trails"}
    missing = client.post("/api/challenges", json=body)
    forged = client.post("/api/challenges", json=body, headers={"X-CSRFToken": answer["csrf"][:-3] + "abc"})
    other = client.post("/api/challenges", json=body, headers={"X-CSRFToken": app.test_client().get(
        "/api/account").json.get("csrf") or "x"})
    basic = client.post("/api/challenges", json=body, headers={"Authorization": "Basic YW5uOng="})
    for refused in (missing, forged, other, basic):
        assert refused.status_code == 403 and refused.json["error"] == "csrf", refused.json
    assert client.get("/api/challenges").json["outgoing"] == []
    assert client.post("/api/challenges", json=body, headers=csrf(answer)).status_code == 201


def test_another_site_is_refused_even_with_the_token(client):
    answer = sign_up(client)
    refused = client.post("/api/account/logout", headers={**csrf(answer), "Origin": "https://evil.example"})
    assert refused.status_code == 403 and refused.json["error"] == "cross-origin"
    assert client.get("/api/account").json["account"]["name"] == "ann"


def test_changing_the_password_ends_other_sessions(app, client):
    answer = sign_up(client)
    elsewhere = app.test_client()
    elsewhere.post("/api/account/login", json={"name": "ann", "password": "correct horse"})
    wrong = client.post("/api/account/password", json={"password": "not mine!", "new_password": "battery staple"},
                        headers=csrf(answer))
    assert wrong.status_code == 401 and wrong.json["error"] == "bad-credentials"
    short = client.post("/api/account/password", json={"password": "correct horse", "new_password": "tiny"},
                        headers=csrf(answer))
    assert short.status_code == 400 and short.json["error"] == "bad-password"
    assert elsewhere.get("/api/account").json["account"]["name"] == "ann"
    changed = client.post("/api/account/password", json={"password": "correct horse", "new_password": "battery staple"},
                          headers=csrf(answer))
    assert changed.status_code == 200
    assert client.get("/api/account").json["account"]["name"] == "ann"      # this session goes on
    assert elsewhere.get("/api/account").json["account"] is None            # the other one ended
    assert app.test_client().post("/api/account/login", json={"name": "ann", "password": "correct horse"}).status_code == 401
    assert app.test_client().post("/api/account/login", json={"name": "ann", "password": "battery staple"}).status_code == 200


def test_api_tokens_are_shown_once_stored_hashed_and_need_the_password(app, client):
    sign_up(client)
    bot = app.test_client()
    wrong = bot.post("/api/account/tokens", json={"name": "ann", "password": "wrong horse"})
    assert wrong.status_code == 401 and wrong.json["error"] == "bad-credentials" and count(app, api_tokens_table) == 0
    made = bot.post("/api/account/tokens", json={"name": "ann", "password": "correct horse", "label": "my bot"})
    assert made.status_code == 201 and made.json["token"].startswith("qbt_")
    assert bot.get_cookie(SESSION_COOKIE) is None  # a script needs no cookie
    token = made.json["token"]
    with app.extensions["quadrille.storage"].engine.connect() as conn:
        stored = conn.execute(select(api_tokens_table.c.token_hash)).scalars().all()
    assert token not in stored and len(stored[0]) == 64
    assert bot.get("/api/challenges", headers=bearer(token)).status_code == 200
    bad = bot.get("/api/challenges", headers=bearer("qbt_" + "x" * 40))
    assert bad.status_code == 401 and bad.json["error"] == "bad-token"


def test_an_api_token_acts_for_its_accounts_seats_and_no_others(app, client):
    """Bob's token plays Bob's seat; Ann's token cannot play Bob's seat, nor a stranger's anonymous match."""
    ann = sign_up(client)
    bob_client = app.test_client()
    sign_up(bob_client, "bob")
    bob_token = app.test_client().post("/api/account/tokens", json={"name": "bob", "password": "correct horse"}).json["token"]
    ann_token = app.test_client().post("/api/account/tokens", json={"name": "ann", "password": "correct horse"}).json["token"]
    challenge = client.post("/api/challenges", json={"to": "bob", "game": "trails", "first": "opponent"},
                            headers=csrf(ann)).json
    accepted = app.test_client().post(f"/api/challenges/{challenge['challenge']}/accept", headers=bearer(bob_token))
    assert accepted.status_code == 200, accepted.json
    match = accepted.json["match"]
    state = client.get(f"/api/matches/{match}").json
    assert state["turn"] == 1 and state["started"]
    refused = client.post(f"/api/matches/{match}/moves", json={"move": state["legal"][0]}, headers=bearer(ann_token))
    assert refused.status_code == 403 and refused.json["error"] == "not-your-turn"
    assert client.get(f"/api/matches/{match}").json["version"] == 0
    played = client.post(f"/api/matches/{match}/moves", json={"move": state["legal"][0]}, headers=bearer(bob_token))
    assert played.status_code == 200 and played.json["version"] == 1
    stranger = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    none = client.post(f"/api/matches/{stranger['match']}/moves", json={"move": "right"}, headers=bearer(bob_token))
    assert none.status_code == 401 and none.json["error"] == "unauthorized"


def test_an_anonymous_players_matches_go_to_the_account_they_sign_up_with(app, client):
    local = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    online = client.post("/api/matches", json={"game": "towers"}).json
    someone_else = app.test_client().post("/api/matches", json={"game": "trails"}).json
    tokens = {local["match"]: local["token"], online["match"]: online["token"],
              someone_else["match"]: "not-their-token", "nosuchmatch": "x"}
    answer = sign_up(client, tokens=tokens)
    assert sorted(c["match"] for c in answer["claimed"]) == sorted([local["match"], online["match"]])
    key = answer["seat_key"]
    # the old token holds nothing now; the account's key holds the seats, from any browser that logs in
    assert client.post(f"/api/matches/{local['match']}/moves", json={"move": "right"},
                       headers=bearer(local["token"])).status_code == 401
    other_browser = app.test_client()
    key_there = other_browser.post("/api/account/login", json={"name": "ann", "password": "correct horse"}).json["seat_key"]
    assert key_there == key
    assert other_browser.post(f"/api/matches/{local['match']}/moves", json={"move": "right"},
                              headers=bearer(key)).status_code == 200
    state = client.get(f"/api/matches/{online['match']}").json
    assert state["seats"][0]["name"] == "ann"
    listed = {g["match"] for g in other_browser.get("/api/me/games").json["games"]}
    assert listed == {local["match"], online["match"]}


def test_deleting_the_account_keeps_finished_games_as_a_deleted_player(app, client):
    ann = sign_up(client)
    bob_client = app.test_client()
    bob = sign_up(bob_client, "bob")
    challenge = client.post("/api/challenges", json={"to": "bob", "game": "trails", "first": "challenger"},
                            headers=csrf(ann)).json
    match = bob_client.post(f"/api/challenges/{challenge['challenge']}/accept", headers=csrf(bob)).json["match"]
    assert client.post(f"/api/matches/{match}/resign", headers=bearer(ann["seat_key"])).status_code == 200
    waiting = bob_client.post("/api/challenges", json={"to": "ann", "game": "towers"}, headers=csrf(bob)).json
    wrong = client.post("/api/account/delete", json={"password": "wrong horse"}, headers=csrf(ann))
    assert wrong.status_code == 401 and count(app, accounts_table) == 2
    assert client.post("/api/account/delete", json={"password": "correct horse"}, headers=csrf(ann)).status_code == 200
    assert count(app, accounts_table) == 1 and client.get("/api/account").json["account"] is None
    games = bob_client.get("/api/me/games?finished=1").json["games"]
    assert [g["opponents"][0]["name"] for g in games] == ["deleted player"] and games[0]["result"] == "win"
    assert app.test_client().post("/api/account/login", json={"name": "ann", "password": "correct horse"}).status_code == 401
    assert client.get("/api/players/ann").status_code == 404
    assert bob_client.get(f"/api/challenges/{waiting['challenge']}").json["status"] == "declined"


def test_login_and_sign_up_are_rate_limited_per_address(database):
    app = create_app({"DATABASE": database, "ACCOUNT_RATE": "3 per day"})  # a day: no window ends mid-test
    client = app.test_client()
    answers = [client.post("/api/account/login", json={"name": "ann", "password": "wrong horse"}).status_code
               for _ in range(4)]
    assert answers == [401, 401, 401, 429]
    refused = client.post("/api/account", json={"name": "ann", "password": "correct horse"})
    assert refused.status_code == 429 and refused.json["error"] == "rate-limited" and count(app, accounts_table) == 0
    app.extensions["quadrille.storage"].close()


def test_failed_guesses_at_one_name_from_many_addresses_slow_it_down_without_locking_it(database):
    """Past the name's budget of failures, each address gets one try per LOGIN_SLOW_RATE: a guesser waits,
    and the owner with the right password gets in from an address the guesser does not hold."""
    app = create_app({"DATABASE": database, "LOGIN_NAME_RATE": "3 per day", "LOGIN_SLOW_RATE": "1 per day",
                      "PROXY_HOPS": 1})
    sign_up(app.test_client())

    def login(name, password, address):
        return app.test_client().post("/api/account/login", json={"name": name, "password": password},
                                      headers={"X-Forwarded-For": address})
    for name in ("ANN", "nobody"):  # the same for a name that does not exist: the budget tells nothing
        answers = [login(name, "wrong horse", f"10.0.{len(name)}.{i}").status_code for i in range(4)]
        assert answers == [401, 401, 401, 401]  # three spend the budget; the fourth is its address's slow try
        again = login(name, "wrong horse", f"10.0.{len(name)}.3")
        assert again.status_code == 429 and again.json["error"] == "rate-limited" and again.json["retry_after"] > 0
    assert login("ann", "correct horse", "10.0.9.9").status_code == 200
    assert login("bob", "wrong horse", "10.0.2.1").status_code == 401  # other names have their own budget
    app.extensions["quadrille.storage"].close()


def test_the_player_search_finds_names_by_their_start(app, client):
    for name in ("Anna", "annie", "bob"):
        sign_up(app.test_client(), name)
    assert client.get("/api/players?search=AN").json["players"] == ["Anna", "annie"]
    assert client.get("/api/players?search=%25").json["players"] == []


def test_anonymous_pages_and_embeds_set_no_cookie(app, client):
    created = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    for path in ("/", f"/m/{created['match']}", f"/embed/{created['match']}", "/embed/new/trails?size=7",
                 "/players", "/api/account", f"/api/matches/{created['match']}"):
        response = client.get(path)
        assert response.status_code == 200 and "Set-Cookie" not in response.headers, path
    assert client.post(f"/api/matches/{created['match']}/moves", json={"move": "right"},
                       headers=bearer(created["token"])).status_code == 200
    assert client.get_cookie(SESSION_COOKIE) is None


def test_the_match_service_hands_seats_over_from_one_token_to_another(app):
    from quadrille.errors import ServiceError
    service = app.extensions["quadrille"]
    created = service.create("trails", {"size": 5}, "online", player="Ann")
    with pytest.raises(ServiceError) as refused:
        service.hand_over(created["match"], "not a token of it", "new-key")
    assert refused.value.error == "unauthorized"
    assert service.hand_over(created["match"], created["token"], "new-key", name="ann") == [1]
    assert service.seats_of(created["match"], created["token"]) == []
    assert service.seats_of(created["match"], "new-key") == [1]
    assert service.state(created["match"])["seats"][0]["name"] == "ann"
    reloaded = app.extensions["quadrille.storage"].load_match(created["match"])
    assert reloaded.seats[0].name == "ann" and reloaded.revision >= 1
    # a given token holds a new match's seats, and a claimed one
    mine = service.create("trails", None, "online", token="account-key")
    assert mine["token"] == "account-key" and service.seats_of(mine["match"], "account-key") == [1]
    other = service.claim_seat(mine["match"], invite=mine["invite_secret"], token="other-key")
    assert other["token"] == "other-key" and service.seats_of(mine["match"], "other-key") == [2]


def test_processes_on_one_database_share_sessions_and_seat_keys(database):
    """Two server processes (two apps) on one database: the secrets come from the database, made once, so a
    cookie signed by one is good on the other and an account's seat key is the same on both."""
    first, second = (create_app({"DATABASE": database}) for _ in range(2))
    one, other = first.test_client(), second.test_client()
    answer = sign_up(one)
    other.set_cookie(SESSION_COOKIE, one.get_cookie(SESSION_COOKIE).value)
    there = other.get("/api/account").json
    assert there["account"]["name"] == "ann" and there["seat_key"] == answer["seat_key"]
    assert other.post("/api/account/logout", headers=csrf(there)).status_code == 200
    for app in (first, second):
        app.extensions["quadrille.storage"].close()
