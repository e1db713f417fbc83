"""Accounts and fair play (issue 22, findings 3, 4, 6, 9 and 10) for bench/attacks.py, at the default settings.
The attacks are tests/security/test_password_floods.py's, test_account_takeover.py's and test_fair_play.py's;
the farm of ratings is the bench's own (the review's: the test plays it with a player per address)."""
from __future__ import annotations

import statistics
import time

from bench.attacks_kit import Attack, errors, ms, statuses
from tests.security.browsers import Browser
from tests.support.clients import request
from tests.security.test_account_takeover import (copy_after_logout, delete_and_sign_up_again, lock_out,
                                                  sign_out_everywhere, sign_ups)
from tests.security.test_fair_play import farm_with_a_move_each, rated_challenge_from_a_start
from tests.security.test_password_floods import wrong_logins, wrong_password_changes


# -- finding 3 -----------------------------------------------------------------------------------------------
def password_changes(target, shared):
    holder = Browser(target.url, "127.0.0.11")
    holder.sign_up("flooder")
    return wrong_password_changes, (target.url, holder, 120, 8)


def said_checks(answers) -> str:
    busy = [took for status, error, took in answers if error == "busy"]
    quick = f" (the busy ones in {ms(statistics.median(busy))} at the median)" if busy else ""
    return f"{statuses(answers)} ({errors(answers)}){quick}"


# -- findings 4 and 6 ----------------------------------------------------------------------------------------
def account(answer) -> str:
    return "none" if answer is None else answer["name"]


def said_deleted(seen: dict) -> str:
    first, second = seen["ids"]
    profile, mine = seen["newcomer_profile"], seen["newcomer_games"]
    inherited = [what for what, held in (("ratings", profile["ratings"]), ("history", profile["history"]),
                                         ("games", mine["games"]), ("challenges", sum(mine["challenges"].values(), [])))
                 if held]
    return (f"the old cookie: account {account(seen['copy_account'])}, /api/me/games {seen['copy_games']}; "
            f"the next sign-up got id {second} (the deleted one's {first}) and inherited "
            f"{', '.join(inherited) or 'nothing'}; "
            f"the deleted account's games {seen['under_way']['outcome']['reason']} and "
            f"{seen['unmoved']['outcome']['reason']}, its challenge {seen['challenge']}")


def said_logout(seen: dict) -> str:
    return (f"the copied cookie after logout: account {account(seen['copy_after'])}, "
            f"/api/me/games {seen['copy_games']}, a challenge {seen['copy_challenge'][0]}")


def said_everywhere(seen: dict) -> str:
    after = seen["after_change"]
    return (f"after a new password: the other session's account {account(after['laptop'])}, the copied cookie's "
            f"{account(after['copy'])}; after signing out everywhere: the API token {seen['token_after']}, "
            f"a move with the old seat key {seen['old_key_move']}")


# -- finding 9 -----------------------------------------------------------------------------------------------
def farm_ratings(url, address):
    """Finding 9: three alt accounts challenge a farmer to rated Trails games and resign at move 0, 24 times
    (API tokens, one address; sign-ups from the same address fit ACCOUNT_RATE). Each resignation is checked, so
    that an unrated farmer is the ratings' doing, not a refused request's."""
    tokens = {}
    for name in ("farmer", "alt0", "alt1", "alt2"):
        request(url, "POST", "/api/account", {"name": name, "password": "farm password"}, address=address)
        tokens[name] = request(url, "POST", "/api/account/tokens", {"name": name, "password": "farm password"},
                               address=address)[2]["token"]
    started, refused = time.perf_counter(), 0
    for game in range(24):
        alt = f"alt{game % 3}"
        status, _, made = request(url, "POST", "/api/challenges", {"to": "farmer", "game": "trails", "rated": True,
                                                                   "first": "challenger"},
                                  address=address, headers={"Authorization": f"Bearer {tokens[alt]}"})
        if status != 201:
            refused += 1
            continue
        match = request(url, "POST", f"/api/challenges/{made['challenge']}/accept", {}, address=address,
                        headers={"Authorization": f"Bearer {tokens['farmer']}"})[2]["match"]
        status, _, resigned = request(url, "POST", f"/api/matches/{match}/resign", {}, address=address,
                                      headers={"Authorization": f"Bearer {tokens[alt]}"})  # a token plays its seats
        assert status == 200 and resigned["outcome"]["reason"] == "resigned", (status, resigned)
    ratings = request(url, "GET", "/api/players/farmer", address=address)[2]["ratings"]
    return {"farmer_trails_rating": ratings.get("trails", {}).get("rating", "unrated"), "refused": refused,
            "seconds": round(time.perf_counter() - started, 2)}


def said_farm(result: dict) -> str:
    return (f"the farmer's Trails rating: {result['farmer_trails_rating']} after {24 - result['refused']} games "
            f"({result['refused']} challenges refused)")


def said_farm_moves(result: dict) -> str:
    rating = result["rating"] or {}
    shown = f"{rating.get('rating', 'unrated')}{'?' if rating.get('provisional') else ''}"
    refused = ", ".join(f"{n} {error}" for error, n in result["refused"].items()) or "none"
    farm = [name for name in result["board"] if name.startswith(("grower", "farmhand"))]
    return (f"the farmer's Trails rating: {shown} ({'provisional' if rating.get('provisional') else 'established'}) "
            f"from {rating.get('games', 0)} rated games against {rating.get('opponents', '?')} opponents; "
            f"challenges refused: {refused}; ranked on the leaderboard: {', '.join(farm) or 'nobody of the farm'} "
            f"(first: {result['first']})")


def said_start(seen: dict) -> str:
    return (f"refused {seen['status']} {seen['answer'].get('error')}; the invitee's inbox holds "
            f"{len(seen['incoming'])} challenges; a plain rated challenge {seen['plain'][0]} from the standard start")


# -- finding 10 ----------------------------------------------------------------------------------------------
def said_lock_out(seen: dict) -> str:
    return (f"{statuses(seen['guesses'], 'wrong logins for victimuser')}; the owner's right password: "
            f"{seen['known_device'].count(200)} of {len(seen['known_device'])} answered 200 from its browser "
            f"(at a guesser's address), {seen['new_device']} from a new device; the guesser again "
            f"{seen['guess_again'][0]} (retry after {seen['guess_again'][1]} s); "
            f"{statuses(seen['known_failures'], 'wrong passwords from the owner’s browser')}")


ATTACKS = [
    Attack("password-changes", "3", "120 wrong-password POST /api/account/password from one account, 8 at a time",
           password_changes, said_checks),
    Attack("wrong-logins", "3", "60 wrong logins, 20 at a time, each from an address and for a name of its own",
           lambda t, s: (wrong_logins, (t.url, 60, 20)), said_checks),
    Attack("deleted-account", "4", "an account deleted with games and a challenge, its cookie kept; a new sign-up",
           lambda t, s: (delete_and_sign_up_again, (t.url,)), said_deleted),
    Attack("logout-copy", "6", "a copy of a session's cookie used after its owner logged out",
           lambda t, s: (copy_after_logout, (t.url,)), said_logout),
    Attack("sign-out-everywhere", "6", "another session, a copied cookie, an API token and the seat key, after "
           "a new password and after signing out everywhere",
           lambda t, s: (sign_out_everywhere, (t.url,)), said_everywhere),
    Attack("farm", "9", "3 alt accounts resign 24 rated games at move 0",
           lambda t, s: (farm_ratings, (t.url, "127.0.0.10")), said_farm),
    Attack("farm-moves", "9", "3 alt accounts play 24 rated games with the farmer, a move each, then resign",
           lambda t, s: (farm_with_a_move_each, (t,)), said_farm_moves),
    Attack("rated-start", "9", "a rated Lattice challenge from an imported start (8 pieces against 1)",
           lambda t, s: (rated_challenge_from_a_start, (t,)), said_start),
    Attack("sign-ups", "9", "25 sign-ups from one address in a day",
           lambda t, s: (sign_ups, (t.url, "127.0.9.1", 25, "signup")), lambda r: statuses(r, "sign-ups")),
    Attack("lock-out", "10", "100 wrong logins for victimuser from 5 addresses; then its owner logs in",
           lambda t, s: (lock_out, (t.url, 100, 5, 21)), said_lock_out),
]
