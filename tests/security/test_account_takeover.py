"""Issue 22, findings 4, 6 and 10 (and 9's sign-ups per day), each attacked on a real server (gevent, SQLite).

4. A deleted account's id went to the next sign-up (SQLite without AUTOINCREMENT), and its old cookie, which
   held only the id, then answered as the newcomer, who also inherited its ratings, challenges and games.
6. Logging out ended nothing (a copy of the cookie still worked); API tokens could not be listed or revoked,
   survived a password change and handed out the seat key.
10. The budget per name counted logins before checking them: 50 cheap wrong logins for a name locked its owner
   out from every address for half an hour, renewably.
"""
from __future__ import annotations

import pytest

from tests.support.servers import ServerProcess
from tests.security.browsers import PASSWORD, Browser, http_call
from tests.security.conftest import SETTINGS

NAME_FAILURES = 10
SIGNUPS_A_DAY = 4
TAKEOVER_SETTINGS = {**SETTINGS, "ACCOUNT_RATE": "1000 per minute", "LOGIN_NAME_RATE": f"{NAME_FAILURES} per hour",
                     "LOGIN_SLOW_RATE": "1 per hour", "LOGIN_DEVICE_RATE": "5 per hour",
                     "SIGNUP_RATE": f"{SIGNUPS_A_DAY} per day"}


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("takeover") / "takeover.db", "gevent",
                         settings=TAKEOVER_SETTINGS).start()
    yield proc
    proc.stop()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def match_of_challenge(challenger: Browser, invitee: Browser, name: str, first: str = "challenger") -> str:
    status, made = challenger.call("POST", "/api/challenges", {"to": name, "game": "trails", "rated": True,
                                                               "first": first})
    assert status == 201, made
    status, accepted = invitee.call("POST", f"/api/challenges/{made['challenge']}/accept", {})
    assert status == 200, accepted
    return accepted["match"]


def play(browser: Browser, match: str) -> None:
    """The browser's account plays a legal move in `match`, with its seat key."""
    status, state = browser.call("GET", f"/api/matches/{match}")
    status, played = browser.call("POST", f"/api/matches/{match}/moves", {"move": state["legal"][0]},
                                  headers=bearer(browser.seat_key))
    assert status == 200, played


# -- finding 4 --------------------------------------------------------------------------------------------
def delete_and_sign_up_again(url: str, base: str = "127.0.4") -> dict:
    """The attack of finding 4 (bench/attacks.py replays it): an account with a game under way, a game nobody
    moved in and a challenge keeps a copy of its cookie, deletes itself, and the next sign-up comes. What the
    copy and the newcomer then see, and what became of what hung on the deleted account."""
    opponent = Browser(url, f"{base}.2")
    opponent.sign_up("opponent")
    old = Browser(url, f"{base}.1")
    first = old.sign_up("first")                                 # the newest account: SQLite gave its id again
    under_way = match_of_challenge(opponent, old, "first")       # both move: resigned at the deletion
    play(opponent, under_way)
    play(old, under_way)
    unmoved = match_of_challenge(opponent, old, "first")         # nobody moved: aborted at the deletion
    status, pending = old.call("POST", "/api/challenges", {"to": "opponent", "game": "towers"})
    assert status == 201
    thief = old.copy(f"{base}.3")                                # a copy of the cookie, kept somewhere
    status, answer = old.call("POST", "/api/account/delete", {"password": PASSWORD})
    assert status == 200, answer
    newcomer = Browser(url, f"{base}.4")
    second = newcomer.sign_up("second")
    ended = {name: opponent.call("GET", f"/api/matches/{match}")[1] for name, match in (("under_way", under_way),
                                                                                        ("unmoved", unmoved))}
    return {"ids": (first["account"]["id"], second["account"]["id"]),
            "copy_account": thief.who(), "copy_games": thief.call("GET", "/api/me/games")[0],
            "newcomer_profile": newcomer.call("GET", "/api/players/second")[1],
            "newcomer_games": newcomer.call("GET", "/api/me/games?finished=1")[1],
            **{name: {"outcome": state["outcome"], "names": [s["name"] for s in state["seats"]]}
               for name, state in ended.items()},
            "challenge": opponent.call("GET", f"/api/challenges/{pending['challenge']}")[1]["status"],
            "opponent_rating": opponent.call("GET", "/api/players/opponent")[1]["ratings"]["trails"]}


def test_a_deleted_accounts_cookie_never_opens_the_next_sign_up_who_inherits_nothing(target):
    seen = delete_and_sign_up_again(target.url)
    first, second = seen["ids"]
    assert second > first                                       # the id is never given again
    assert seen["copy_account"] is None                         # the old cookie opens nothing
    assert seen["copy_games"] == 401
    profile, mine = seen["newcomer_profile"], seen["newcomer_games"]
    assert profile["ratings"] == {} and profile["history"] == {} and profile["recent"] == []
    assert mine["games"] == [] and mine["challenges"] == {"incoming": [], "outgoing": []}
    # the games of the deleted account ended as the rules say, and its challenge is no more
    resigned, aborted = seen["under_way"], seen["unmoved"]
    assert resigned["outcome"]["reason"] == "resigned" and resigned["outcome"]["winners"] == [1]
    assert aborted["outcome"]["reason"] == "aborted"
    assert resigned["names"] == ["opponent", "deleted player"]
    assert seen["challenge"] == "cancelled"
    assert seen["opponent_rating"]["games"] == 1 and seen["opponent_rating"]["rating"] > 1500


# -- finding 6 --------------------------------------------------------------------------------------------
def copy_after_logout(url: str, base: str = "127.0.5") -> dict:
    """The attack of finding 6: a copy of a session's cookie, used after its owner logged out."""
    owner = Browser(url, f"{base}.1")
    owner.sign_up("leaver")
    thief = owner.copy(f"{base}.2")
    before = thief.who()
    logged_out = owner.call("POST", "/api/account/logout", {})[0]
    return {"copy_before": before, "logged_out": logged_out, "owner_after": owner.who(), "copy_after": thief.who(),
            "copy_games": thief.call("GET", "/api/me/games")[0],
            "copy_challenge": thief.call("POST", "/api/challenges", {"to": "opponent", "game": "trails"})}


def test_logging_out_ends_the_session_for_every_copy_of_its_cookie(target):
    seen = copy_after_logout(target.url)
    assert seen["copy_before"]["name"] == "leaver"
    assert seen["logged_out"] == 200
    assert seen["owner_after"] is None
    assert seen["copy_after"] is None and seen["copy_games"] == 401
    status, refused = seen["copy_challenge"]
    assert status in (401, 403), refused


def test_api_tokens_are_listed_used_and_revoked_and_never_hand_out_the_seat_key(target):
    owner = Browser(target.url, "127.0.6.1")
    seat_key = owner.sign_up("botmaker")["seat_key"]
    made = {}
    for label in ("my bot", "old bot"):
        status, answer = http_call(target.url, "POST", "/api/account/tokens",
                                   {"name": "botmaker", "password": PASSWORD, "label": label}, "127.0.6.2")[::3]
        assert status == 201, answer
        made[label] = answer["token"]
    bot = Browser(target.url, "127.0.6.3")
    status, who = bot.call("GET", "/api/account", headers=bearer(made["my bot"]))
    assert status == 200 and set(who) == {"account", "language"} and who["account"]["name"] == "botmaker"
    assert seat_key not in str(who)
    status, listed = owner.call("GET", "/api/account/tokens")
    assert status == 200 and [t["label"] for t in listed["tokens"]] == ["old bot", "my bot"]
    used = {t["label"]: t for t in listed["tokens"]}
    assert used["my bot"]["last_used"] is not None and used["old bot"]["last_used"] is None
    assert all(t["created"] > 0 and len(t["id"]) == 16 and "token" not in t for t in listed["tokens"])
    status, after = owner.call("POST", f"/api/account/tokens/{used['old bot']['id']}/revoke", {})
    assert status == 200 and [t["label"] for t in after["tokens"]] == ["my bot"]
    status, refused = bot.call("GET", "/api/challenges", headers=bearer(made["old bot"]))
    assert status == 401 and refused["error"] == "bad-token"
    assert bot.call("GET", "/api/challenges", headers=bearer(made["my bot"]))[0] == 200
    # another account cannot revoke it, nor learn whether it exists
    other = Browser(target.url, "127.0.6.4")
    other.sign_up("stranger")
    assert other.call("POST", f"/api/account/tokens/{used['my bot']['id']}/revoke", {})[0] == 404
    assert bot.call("GET", "/api/challenges", headers=bearer(made["my bot"]))[0] == 200


def sign_out_everywhere(url: str, base: str = "127.0.7") -> dict:
    """Finding 6's other half: what a thief holding a copy of the cookie, another session, an API token and the
    seat key can still do after the owner changes the password, then signs out everywhere."""
    owner = Browser(url, f"{base}.1")
    owner.sign_up("rotator")
    rival = Browser(url, f"{base}.2")
    rival.sign_up("rival")
    match = match_of_challenge(owner, rival, "rival", first="opponent")  # the rival moves first
    old_key = owner.seat_key
    laptop = Browser(url, f"{base}.3")
    assert laptop.log_in("rotator")[0] == 200
    status, token = http_call(url, "POST", "/api/account/tokens", {"name": "rotator", "password": PASSWORD},
                              f"{base}.4")[::3]
    before_change = owner.copy()
    seen = {"old_key": old_key}
    # a plain change: every other session ends, this one goes on under a new session id; tokens stay
    seen["changed"] = owner.call("POST", "/api/account/password",
                                 {"password": PASSWORD, "new_password": "battery staple"})
    seen["after_change"] = {"owner": owner.who(), "laptop": laptop.who(), "copy": before_change.who(),
                            "token": Browser(url).call("GET", "/api/challenges", headers=bearer(token["token"]))[0]}
    # signing out everywhere: the tokens end and the seat key changes; the seats follow the new key
    seen["everywhere"] = owner.call("POST", "/api/account/password", {"password": "battery staple",
                                                                      "new_password": "correct staple",
                                                                      "sign_out_everywhere": True})
    seen["token_after"] = Browser(url).call("GET", "/api/challenges", headers=bearer(token["token"]))[0]
    play(rival, match)
    _, state = rival.call("GET", f"/api/matches/{match}")
    seen["old_key_move"] = Browser(url).call("POST", f"/api/matches/{match}/moves", {"move": state["legal"][0]},
                                             headers=bearer(old_key))[0]
    play(owner, match)                                          # owner.seat_key is the new key
    _, listed = owner.call("GET", "/api/me/games")
    seen["owner_games"], seen["match"] = [g["match"] for g in listed["games"]], match
    return seen


def test_a_new_password_ends_other_sessions_and_signing_out_everywhere_ends_tokens_and_the_seat_key(target):
    seen = sign_out_everywhere(target.url)
    status, changed = seen["changed"]
    assert status == 200 and changed["seat_key"] == seen["old_key"]
    after = seen["after_change"]
    assert after["owner"]["name"] == "rotator" and after["laptop"] is None and after["copy"] is None
    assert after["token"] == 200
    status, everywhere = seen["everywhere"]
    assert status == 200 and everywhere["seat_key"] != seen["old_key"]
    assert seen["token_after"] == 401
    assert seen["old_key_move"] == 401
    assert seen["owner_games"] == [seen["match"]]


# -- finding 10 -------------------------------------------------------------------------------------------
def lock_out(url: str, guesses: int, owner_logins: int, known_failures: int, base: str = "127.0.8") -> dict:
    """The attack of finding 10: `guesses` wrong logins for a name from five addresses, then its owner logs in
    from a browser that logged in before (from a guesser's address) and from a new one; a guesser tries again,
    and the known browser fails `known_failures` times on its own."""
    owner = Browser(url, f"{base}.1")
    owner.sign_up("victimuser")
    assert owner.call("POST", "/api/account/logout", {})[0] == 200  # logged out; the browser stays known
    seen = {"guesses": [http_call(url, "POST", "/api/account/login", {"name": "victimuser", "password": f"guess {k}"},
                                  f"{base}.{10 + k % 5}")[0] for k in range(guesses)]}
    seen["known_device"] = [owner.copy(f"{base}.10").log_in("victimuser")[0] for _ in range(owner_logins)]
    seen["new_device"] = Browser(url, f"{base}.2").log_in("victimuser")[0]
    status, _, _, slowed, _ = http_call(url, "POST", "/api/account/login",
                                        {"name": "victimuser", "password": "guess again"}, f"{base}.10")
    seen["guess_again"] = (status, slowed.get("retry_after"))
    known = owner.copy(f"{base}.3")
    seen["known_failures"] = [known.log_in("victimuser", "not the password")[0] for _ in range(known_failures)]
    return seen


def test_a_flood_of_wrong_logins_locks_out_neither_a_known_device_nor_the_right_password(target):
    seen = lock_out(target.url, 3 * NAME_FAILURES, NAME_FAILURES + 2, 6)
    guesses = seen["guesses"]
    assert guesses.count(401) <= NAME_FAILURES + 5 and guesses.count(429) >= 2 * NAME_FAILURES - 5, guesses
    # the owner's own browser, even from a guesser's address, and again and again: right passwords cost nothing
    assert seen["known_device"] == [200] * (NAME_FAILURES + 2)
    # the owner on a new device, from an address the guesser does not hold: the right password gets in
    assert seen["new_device"] == 200
    # while a guesser's next try from an address that already had its slow try waits
    status, retry_after = seen["guess_again"]
    assert status == 429 and retry_after > 0
    # a known device's own failures have a budget of their own (LOGIN_DEVICE_RATE), which strangers cannot spend
    assert seen["known_failures"] == [401] * 5 + [429]


# -- finding 9: sign-ups per address, per day -------------------------------------------------------------
def sign_ups(url: str, address: str, count: int, prefix: str = "alt") -> list[int]:
    """Finding 9's farm of accounts: `count` sign-ups from one address; their statuses."""
    return [http_call(url, "POST", "/api/account", {"name": f"{prefix}{k}", "password": PASSWORD}, address)[0]
            for k in range(count)]


def test_sign_ups_from_one_address_have_a_daily_budget(target):
    made = sign_ups(target.url, "127.0.9.1", SIGNUPS_A_DAY + 2)
    taken = http_call(target.url, "POST", "/api/account", {"name": "alt0", "password": PASSWORD}, "127.0.9.2")
    assert made == [201] * SIGNUPS_A_DAY + [429, 429] and taken[0] == 409
    assert http_call(target.url, "POST", "/api/account", {"name": "elsewhere", "password": PASSWORD},
                     "127.0.9.3")[0] == 201
