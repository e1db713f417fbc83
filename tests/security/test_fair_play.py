"""Fair play between players, attacked on a real server (issue 22, finding 9 and the Low items on challenges
and impersonation): farmed ratings, a rated game from an imported start, a flood of challenges, blocks, and
names that pose as someone else.

Each account acts from a loopback address of its own (as separate people would), so that no per-address budget
of the sign-ups is what stops an attack here."""
from __future__ import annotations

import itertools

import pytest
import requests
import socketio
from requests.adapters import HTTPAdapter

from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until
from tests.support.clients import ATTACKER, request
from tests.security.conftest import WORST_ROUND_TRIP_MS, run_attack

# alone: it measures another client's round trips; scripts/test.sh runs it with no other test beside it
pytestmark = [pytest.mark.server, pytest.mark.alone]

SETTINGS = {"ACCOUNT_RATE": "1000 per minute", "CHALLENGES_WAITING_MAX": 5}
PAIR_LIMIT = 3  # RATED_GAMES_PER_PAIR's default
_addresses = (f"127.0.{a}.{b}" for a, b in itertools.product(range(20, 40), range(2, 250)))


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("fair") / "fair.db", "gevent", settings=SETTINGS).start()
    yield proc
    proc.stop()


class FromAddress(HTTPAdapter):
    """requests from one loopback address of the test's choosing."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        return super().init_poolmanager(*args, **kwargs)


class Player:
    """A person with an account and a browser (a session cookie), from an address of their own."""

    def __init__(self, server, name: str, password: str = "correct horse"):
        self.url, self.name, self.http = server.url, name, requests.Session()
        self.http.mount("http://", FromAddress(next(_addresses)))
        answer = self.http.post(f"{self.url}/api/account", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        self.csrf, self.key = answer.json()["csrf"], answer.json()["seat_key"]

    def post(self, path: str, body=None) -> requests.Response:
        return self.http.post(self.url + path, json=body if body is not None else {}, headers={"X-CSRFToken": self.csrf})

    def get(self, path: str):
        return self.http.get(self.url + path).json()

    def as_seat(self, match: str, action: str, body=None) -> requests.Response:
        return self.http.post(f"{self.url}/api/matches/{match}/{action}", json=body or {},
                              headers={"Authorization": f"Bearer {self.key}"})

    def challenge(self, to: str, **body) -> requests.Response:
        return self.post("/api/challenges", {"to": to, "game": "trails", "options": {"size": 5}, **body})

    def rated_game(self, opponent: "Player") -> str:
        """A rated Trails game: this player challenges (and moves first), the opponent accepts."""
        made = self.challenge(opponent.name, rated=True, first="challenger")
        assert made.status_code == 201, made.text
        accepted = opponent.post(f"/api/challenges/{made.json()['challenge']}/accept")
        assert accepted.status_code == 200, accepted.text
        return accepted.json()["match"]

    def move(self, match: str) -> None:
        state = self.http.get(f"{self.url}/api/matches/{match}").json()
        moved = self.as_seat(match, "moves", {"move": state["legal"][0], "version": state["version"]})
        assert moved.status_code == 200, moved.text


def trails_rating(player: Player, of: str) -> dict | None:
    return player.get(f"/api/players/{of}")["ratings"].get("trails")


# -- finding 9: ratings ------------------------------------------------------------------------------------
def test_alts_resigning_at_move_zero_farm_no_rating_and_no_place_on_the_leaderboard(target):
    """The review's attack: three alt accounts challenge the farmer to rated games and resign at move 0, 24
    times. A game that ends before every player has moved is not rated: nothing moves."""
    farmer = Player(target, "farmer")
    alts = [Player(target, f"alt{i}") for i in range(3)]
    for round_ in range(8):
        for alt in alts:
            match = alt.rated_game(farmer)
            resigned = alt.as_seat(match, "resign")
            assert resigned.status_code == 200 and resigned.json()["outcome"]["winners"] == [2], resigned.text
    assert trails_rating(farmer, "farmer") is None and farmer.get("/api/players/farmer")["history"] == {}
    assert all(trails_rating(farmer, alt.name) is None for alt in alts)
    assert farmer.get("/api/leaderboard/trails")["players"] == []
    finished = farmer.get("/api/me/games?finished=1")["games"]
    assert len(finished) == 24 and not any(game["rated"] for game in finished)  # said so in the lists too


def test_games_between_the_same_two_accounts_count_only_a_few_a_day(target):
    """Each side moves once, then the alt resigns: rated, but only RATED_GAMES_PER_PAIR of them a day; past
    it a rated challenge between them is refused with a clear error, and a rated game already under way when
    the limit is reached ends unrated."""
    farmer, alt = Player(target, "farmer2"), Player(target, "alt9")
    under_way = []
    for _ in range(PAIR_LIMIT + 1):  # all accepted before any ends: the limit holds when they end
        under_way.append(alt.rated_game(farmer))
    for match in under_way:
        alt.move(match)
        farmer.move(match)
        assert alt.as_seat(match, "resign").status_code == 200
    assert trails_rating(farmer, "farmer2")["games"] == PAIR_LIMIT
    assert len(farmer.get("/api/players/farmer2")["history"]["trails"]) == PAIR_LIMIT
    refused = alt.challenge("farmer2", rated=True)
    assert refused.status_code == 409 and refused.json()["error"] == "rated-limit", refused.text
    assert "unrated" in refused.json()["reason"]
    assert alt.challenge("farmer2").status_code == 201  # an unrated game between them is still welcome
    other = Player(target, "alt10")  # another opponent's games count apart
    match = other.rated_game(farmer)
    other.move(match)
    farmer.move(match)
    assert other.as_seat(match, "resign").status_code == 200
    assert trails_rating(farmer, "farmer2")["games"] == PAIR_LIMIT + 1


def farm_with_a_move_each(server, games: int = 24, names: tuple[str, str] = ("grower", "farmhand")) -> dict:
    """Finding 9 past its first fix (bench/attacks.py replays it): three alts each challenge the farmer to rated
    Trails games, both sides move once (so that the game is rated), then the alt resigns; `games` tries in all,
    each account from an address of its own. What the farmer got: its rating, the challenges refused, the
    leaderboard, and its profile page."""
    farmer = Player(server, names[0])
    alts = [Player(server, f"{names[1]}{k}") for k in range(3)]
    refused: dict[str, int] = {}
    for game in range(games):
        alt = alts[game % 3]
        made = alt.challenge(farmer.name, rated=True, first="challenger")
        if made.status_code != 201:
            refused[made.json()["error"]] = refused.get(made.json()["error"], 0) + 1
            continue
        match = farmer.post(f"/api/challenges/{made.json()['challenge']}/accept").json()["match"]
        alt.move(match)
        farmer.move(match)
        assert alt.as_seat(match, "resign").status_code == 200
    board = farmer.get("/api/leaderboard/trails")["players"]
    return {"rating": trails_rating(farmer, farmer.name), "refused": refused, "board": [p["name"] for p in board],
            "first": board[0]["name"] if board else None,
            "page": farmer.http.get(f"{farmer.url}/players/{farmer.name}").text}


def test_alts_that_move_before_resigning_farm_no_place_on_the_leaderboard(target, victim):
    """The farm past the first fixes: 9 rated wins a day (3 with each of 3 alts) took a new account from 1500
    to 1922 and first on the leaderboard. They still move its rating, but it stays provisional (shown "1922?",
    "provisional") and 3 opponents are not the 5 a ranked player needs: the leaderboard does not list it."""
    farmed = run_attack(victim, farm_with_a_move_each, target, 24, ("grower", "farmhand"))
    assert not {"grower", "farmhand0", "farmhand1", "farmhand2"} & set(farmed["board"])  # each alt: one opponent
    rating = farmed["rating"]
    assert rating["games"] == 3 * PAIR_LIMIT and farmed["refused"] == {"rated-limit": 24 - 3 * PAIR_LIMIT}
    assert rating["rating"] > 1900 and rating["provisional"] and not rating["ranked"]
    assert rating["opponents"] == 3 and rating["missing"] == {"games": 11, "opponents": 2, "established": True}
    assert f"{rating['rating']}?" in farmed["page"] and "provisional" in farmed["page"]
    assert ("Not on the leaderboard yet: it takes 11 more rated games, 2 more opponents and a rating no longer "
            "provisional.") in farmed["page"]
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, f"another client waited {victim.worst_ms:.0f} ms"


def play_rated_games(player: Player, rivals: list[Player], wins=(True, False)) -> None:
    """3 rated Trails games (a pair's day) with each rival: the rival challenges and moves first, both move once,
    then the loser resigns; `player` wins as `wins` says, in turn."""
    results = itertools.cycle(wins)
    for rival in rivals:
        for _ in range(PAIR_LIMIT):
            match = rival.rated_game(player)
            rival.move(match)
            player.move(match)
            assert (rival if next(results) else player).as_seat(match, "resign").status_code == 200


def test_a_player_with_enough_games_against_enough_players_is_ranked(target):
    """The other side of the rule, on the same server: 3 rated games with each of 7 newcomers, won and lost in
    turn (21 games, 7 opponents; the rating settles to an RD of 105), and the player is ranked, alone."""
    regular = Player(target, "regular")
    play_rated_games(regular, [Player(target, f"rival{k}") for k in range(7)])
    rating = trails_rating(regular, "regular")
    assert rating["games"] == 21 and rating["opponents"] == 7 and rating["ranked"] and not rating["provisional"]
    board = regular.get("/api/leaderboard/trails")
    assert [(p["name"], p["rating"], p["games"], p["provisional"]) for p in board["players"]] == [
        ("regular", rating["rating"], 21, False)]
    assert board["rule"] == {"rd": 110, "games": 20, "opponents": 5, "days": 30.0}
    assert 'data-ranked="yes"' in regular.http.get(f"{target.url}/players/regular").text


def rated_challenge_from_a_start(server, names: tuple[str, str] = ("cheat", "mark")) -> dict:
    """The attack of finding 9 (bench/attacks.py replays it): a rated Lattice challenge from an imported start
    (Lattice's import-only `start` option: 8 pieces against 1). What the challenge was answered, what each
    side's lists then hold, and a plain rated challenge after it."""
    cheat, mark = Player(server, names[0]), Player(server, names[1])
    lopsided = "B:Aa1,Ac1,Bb1,Bd1,Ca1,Cc1,Db1,Dd1;T:Cd4;benchB:0;benchT:7"
    refused = cheat.post("/api/challenges", {"to": mark.name, "game": "lattice", "rated": True,
                                             "options": {"start": lopsided}})
    seen = {"status": refused.status_code, "answer": refused.json(),
            "incoming": mark.get("/api/challenges")["incoming"], "outgoing": cheat.get("/api/challenges")["outgoing"]}
    plain = cheat.post("/api/challenges", {"to": mark.name, "game": "lattice", "rated": True})
    return {**seen, "plain": (plain.status_code, plain.json().get("options", {}).get("start"))}


def test_a_rated_challenge_from_an_imported_start_is_refused(target):
    """Lattice's `start` (an imported game's position: 8 pieces against 1) is import-only and changes the
    start: a rated challenge with it is refused with a clear error, and nothing is stored."""
    seen = rated_challenge_from_a_start(target)
    assert seen["status"] == 400, seen
    assert seen["answer"]["error"] == "bad-rated" and "'start'" in seen["answer"]["reason"]
    assert "standard position" in seen["answer"]["reason"]
    assert seen["incoming"] == [] and seen["outgoing"] == []
    assert seen["plain"] == (201, "")


# -- challenges: floods, the cap, blocks -------------------------------------------------------------------
def flood(url: str, token: str, victim: str, times: int) -> dict:
    """Make a challenge and cancel it, `times` times, with an API token, from the attacker's address."""
    counts = {"made": 0, "refused": 0, "cancelled": 0}
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(times):
        status, _, made = request(url, "POST", "/api/challenges", {"to": victim, "game": "trails"},
                                  address=ATTACKER, headers=auth)
        if status != 201:
            assert status == 429 and made["error"] == "rate-limited", (status, made)
            counts["refused"] += 1
            continue
        counts["made"] += 1
        status, _, _ = request(url, "POST", f"/api/challenges/{made['challenge']}/cancel", {}, address=ATTACKER,
                               headers=auth)
        counts["cancelled"] += status == 200
    return counts


def test_made_and_cancelled_challenges_cannot_flood_a_players_page(target, victim):
    """The review's attack: one account made and cancelled 150 challenges in 3.1 s, 300 events on its victim's
    page. Each account makes at most CHALLENGE_RATE (30 per 10 minutes), so the page hears at most 60."""
    Player(target, "flooder", "flood password")
    page_owner = Player(target, "flooded")
    token = requests.post(f"{target.url}/api/account/tokens",
                          json={"name": "flooder", "password": "flood password"}).json()["token"]
    heard = []
    page = socketio.Client(reconnection=False)
    page.on("challenge", heard.append)
    page.connect(target.url, transports=["websocket"], wait_timeout=10,
                 headers={"Cookie": f"quadrille_session={page_owner.http.cookies['quadrille_session']}"})
    try:
        assert page.call("inbox", {}, timeout=10)["ok"]
        counts = run_attack(victim, flood, target.url, token, "flooded", 150)
        wait_until(lambda: len(heard) >= 2 * counts["made"], 10, "the page to hear the challenges let through")
    finally:
        page.disconnect()
    assert counts == {"made": 30, "refused": 120, "cancelled": 30}
    assert len(heard) == 60
    assert victim.worst_ms < WORST_ROUND_TRIP_MS, f"another client waited {victim.worst_ms:.0f} ms"


def test_a_player_has_at_most_so_many_challenges_waiting(target):
    """CHALLENGES_WAITING_MAX (5 here): the sixth challenger is refused until one is answered."""
    popular = Player(target, "popular")
    fans = [Player(target, f"fan{i}") for i in range(6)]
    made = [fan.challenge("popular") for fan in fans[:5]]
    assert all(answer.status_code == 201 for answer in made)
    sixth = fans[5].challenge("popular")
    assert sixth.status_code == 429 and sixth.json()["error"] == "too-many-challenges", sixth.text
    assert len(popular.get("/api/challenges")["incoming"]) == 5
    assert popular.post(f"/api/challenges/{made[0].json()['challenge']}/decline").status_code == 200
    assert fans[5].challenge("popular").status_code == 201
    cancelled = fans[1].post(f"/api/challenges/{made[1].json()['challenge']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["to"] == [{"name": "popular", "status": "cancelled"}]
    assert fans[0].challenge("popular").status_code == 201  # a cancelled challenge waits for nobody


def test_a_blocked_account_is_only_told_its_challenge_was_not_accepted(target):
    pest, quiet = Player(target, "pest"), Player(target, "quiet")
    waiting = pest.challenge("quiet").json()
    blocked = quiet.post("/api/account/blocks", {"name": "PEST"})
    assert blocked.status_code == 200 and [b["name"] for b in blocked.json()["blocks"]] == ["pest"]
    assert quiet.get("/api/challenges")["incoming"] == []
    assert pest.get(f"/api/challenges/{waiting['challenge']}")["status"] == "declined"  # as any decline
    refused = pest.challenge("quiet")
    assert refused.status_code == 403 and refused.json() == {"error": "not-accepted",
                                                             "reason": "Your challenge was not accepted."}
    assert quiet.get("/api/challenges")["incoming"] == []
    assert quiet.challenge("pest").status_code == 201  # the blocker may still challenge
    for bad, error in (({"name": "quiet"}, "bad-player"), ({"name": "nobody-here"}, "unknown-player"),
                       ({"name": 7}, "bad-player")):
        answer = quiet.post("/api/account/blocks", bad)
        assert answer.json()["error"] == error, answer.text
    assert quiet.get("/api/account/blocks")["blocks"][0]["name"] == "pest"
    assert pest.get("/api/account/blocks")["blocks"] == []  # nothing tells the blocked account
    assert quiet.post("/api/account/blocks/remove", {"name": "pest"}).json()["blocks"] == []
    assert pest.challenge("quiet").status_code == 201
    assert requests.post(f"{target.url}/api/account/blocks", json={"name": "pest"}).json()["error"] == "login-required"
    quiet.post("/api/account/blocks", {"name": "pest"})
    assert pest.post("/api/account/delete", {"password": "correct horse"}).status_code == 200
    assert quiet.get("/api/account/blocks")["blocks"] == []  # a deleted account's blocks go with it


# -- impersonation -------------------------------------------------------------------------------------------
POSERS = {
    "аnna": "a Cyrillic look-alike of an account's name",
    "ANNA": "an account's name in capitals",
    "anna": "an account's exact name",
    "\u3164": "a Hangul filler alone",
    "bob\u3164": "a Hangul filler",
    "\u2800": "the braille blank",
    "bo\u200bb": "a zero-width space",
    "\u202ebob": "a right-to-left override",
    "bob\u200f": "a right-to-left mark",
    "Computer": "the site's word for the computer",
    "deleted player": "the site's words for a deleted account",
    "Cоmputer": "a look-alike of the site's word",
}


def test_seat_names_cannot_pose_as_an_account_or_the_site(target):
    anna = Player(target, "anna")
    created = requests.post(f"{target.url}/api/matches", json={"game": "trails", "mode": "online",
                                                                "visibility": "open"}).json()
    for name, what in POSERS.items():
        status, _, answer = request(target.url, "POST", f"/api/matches/{created['match']}/seats", {"player": name})
        assert status == 400 and answer["error"] == "bad-request", (what, status, answer)
        status, _, answer = request(target.url, "POST", "/api/matches", {"game": "trails", "player": name})
        assert status == 400, (what, status, answer)
    state = requests.get(f"{target.url}/api/matches/{created['match']}").json()
    assert [s["taken"] for s in state["seats"]] == [True, False]  # nothing was claimed
    # NFKC: fullwidth letters are kept as plain ones; the owner of an account may use their own name
    claimed = requests.post(f"{target.url}/api/matches/{created['match']}/seats", json={"player": "Ｂｏ"})
    assert claimed.status_code == 201
    seats = requests.get(f"{target.url}/api/matches/{created['match']}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("Player 1", False), ("Bo", False)]
    mine = anna.post("/api/matches", {"game": "trails", "player": "Anna"})
    assert mine.status_code == 201, mine.text


def test_a_seat_held_by_an_account_is_marked_and_account_names_refuse_look_alikes(target):
    dora, eve = Player(target, "dora"), Player(target, "eve")
    made = dora.challenge("eve", first="challenger").json()
    match = eve.post(f"/api/challenges/{made['challenge']}/accept").json()["match"]
    seats = requests.get(f"{target.url}/api/matches/{match}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("dora", True), ("eve", True)]
    # a guest's game handed over to the account the guest signs up for is the account's
    guest = requests.Session()
    guest.mount("http://", FromAddress(next(_addresses)))
    local = guest.post(f"{target.url}/api/matches", json={"game": "trails", "mode": "online", "player": "Zed"}).json()
    assert requests.get(f"{target.url}/api/matches/{local['match']}").json()["seats"][0]["account"] is False
    signed = guest.post(f"{target.url}/api/account", json={"name": "zed", "password": "correct horse",
                                                          "tokens": {local["match"]: local["token"]}})
    assert signed.status_code == 201, signed.text
    seat = requests.get(f"{target.url}/api/matches/{local['match']}").json()["seats"][0]
    assert (seat["name"], seat["account"]) == ("zed", True)
    # account names: no look-alike of an existing one (l/I/1, O/0, rn/m, case), nor the site's words
    Player(target, "pauI")
    Player(target, "rnoon")
    for name in ("paul", "PAU1", "pau1", "moon", "rnOOn", "rn00n"):
        answer = requests.post(f"{target.url}/api/account", json={"name": name, "password": "correct horse"})
        assert answer.status_code == 409 and answer.json()["error"] == "name-taken", (name, answer.text)
    for name in ("Computer", "admin", "c0mputer"):
        answer = requests.post(f"{target.url}/api/account", json={"name": name, "password": "correct horse"})
        assert answer.status_code == 400 and answer.json()["error"] == "bad-name", (name, answer.text)
