"""Ratings where they matter (issue 23), in real browsers against a real server: two players of a rated game,
one on a 1366x800 desktop and one on a 390x844 phone, see each player's rating beside the name ("1500?" while
provisional) while they play, the change ("+N" / "-N") on the result screen without scrolling, and in my games."""
from __future__ import annotations

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.conftest import api_state, match_id, result_title, wait_seats
from tests.browser.test_accessibility import overflow, small_controls
from tests.browser.test_players_browser import challenge, play_turns, sign_up

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def change(before: int, after: int) -> str:
    d = after - before
    return f"+{d}" if d > 0 else f"-{-d}" if d < 0 else "±0"


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def test_a_rated_game_shows_ratings_beside_the_names_and_their_change_at_the_end(live_server, new_context, shoot):
    server = live_server
    rita = new_context(viewport=DESKTOP).new_page()
    ravi = new_context(**PHONE).new_page()
    sign_up(rita, server, "rita")
    sign_up(ravi, server, "ravi")
    challenge(rita, "ravi", "trails", options={"size": 5}, first="challenger", rated=True)
    ravi.wait_for_function("document.getElementById('incoming').textContent.includes('Trails')")
    ravi.click("#incoming li:has-text('Trails') button:text-is('Accept')")
    ravi.wait_for_url("**/m/**")
    match = match_id(ravi)
    wait_seats(ravi, "2")
    rita.goto(f"{server.url}/m/{match}")
    wait_seats(rita, "1")

    # While they play: each name with its rating, "?" while provisional.
    for page in (rita, ravi):
        page.wait_for_selector("#seats .seat-rating")
        seats = page.inner_text("#seats")
        assert "rita" in seats and "ravi" in seats and seats.count("(1500?)") == 2, seats
    assert rita.inner_text("#seats li[data-seat='1']").replace("\n", " ").count("1500?") == 1
    shoot(rita, "desktop-playing")
    shoot(ravi, "phone-playing")

    final = play_turns({1: rita, 2: ravi}, server, match)
    ratings = api_state(server, match)["ratings"]
    mine = {1: ratings["1"], 2: ratings["2"]}
    for seat, page in ((1, rita), (2, ravi)):
        result_title(page)
        page.wait_for_selector("#result-rating:not([hidden])")
        line = page.inner_text("#result-rating")
        own, other = mine[seat], mine[3 - seat]
        said = {k: f"{r['before']} → {r['after']}? ({change(r['before'], r['after'])})" for k, r in (("own", own),
                                                                                                  ("other", other))}
        assert line.startswith(f"Your rating: {said['own']}") and f"{said['other']}" in line
        assert in_view(page, "#result-rating") and in_view(page, "#play-again")
        spoken = f"Your rating is now {own['after']}, provisional: {change(own['before'], own['after'])}."
        page.wait_for_function("t => document.getElementById('announce').textContent.includes(t)", arg=spoken)
    winners = final["outcome"]["winners"]
    if winners:  # (a draw between newcomers changes nothing)
        assert change(mine[winners[0]]["before"], mine[winners[0]]["after"]).startswith("+")
        assert change(mine[3 - winners[0]]["before"], mine[3 - winners[0]]["after"]).startswith("-")
    shoot(rita, "desktop-result")
    shoot(ravi, "phone-result")
    assert serious_violations(rita) == []
    assert small_controls(ravi) == [] and overflow(ravi) <= 0

    # My games: the finished game with what it did to the player's rating.
    for seat, page in ((1, rita), (2, ravi)):
        page.goto(server.url + "/me")
        page.click("#show-finished")
        line = f"#games [data-match='{match}'].finished"
        page.wait_for_selector(f"{line} .rating-change")
        own = mine[seat]
        assert f"· {change(own['before'], own['after'])}" in page.inner_text(f"{line} .rating-change")
    shoot(rita, "desktop-my-games")
    shoot(ravi, "phone-my-games")
    assert small_controls(ravi) == [] and overflow(ravi) <= 0 and serious_violations(ravi) == []
    rita.goto(server.url + "/players/ravi")  # a profile's recent games say it too
    shown = rita.inner_text(f".game-list li:has(a[href$='/m/{match}']) .rating-change")
    assert shown == change(mine[2]["before"], mine[2]["after"])
    shoot(rita, "desktop-profile")


def test_the_lobby_lists_only_live_games_with_their_moves(live_server, new_context, shoot):
    """Issue 23: "Join or watch live games" listed a finished game as "online, 23 moves" and a cancelled invite
    as "1 move" (its events). Now: games under way or waiting for a player, with their moves."""
    server = live_server

    def post(path, body=None, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = requests.post(f"{server.url}/api{path}", json=body or {}, headers=headers)
        assert answer.ok, answer.text
        return answer.json()

    def public_pair():
        made = post("/matches", {"game": "trails", "mode": "online", "visibility": "public"})
        friend = post(f"/matches/{made['match']}/seats", {"invite": made["invite_secret"], "player": "Bo"})
        return made["match"], made["token"], friend["token"]

    live, ann, bob = public_pair()
    post(f"/matches/{live}/moves", {"move": "right"}, ann)
    post(f"/matches/{live}/moves", {"move": "left"}, bob)
    post(f"/matches/{live}/offer", {"offer": "takeback"}, ann)
    post(f"/matches/{live}/decline", {"offer": "takeback"}, bob)  # an event, not a move
    over, ann2, _ = public_pair()
    post(f"/matches/{over}/resign", None, ann2)
    gamma = post("/matches", {"game": "gamma", "options": {"players": 3}, "mode": "online", "visibility": "open"})
    post(f"/matches/{gamma['match']}/abort", None, gamma["token"])
    listed = {m["id"]: m for m in requests.get(f"{server.url}/api/matches/recent").json()}
    assert live in listed and over not in listed and gamma["match"] not in listed
    assert listed[live]["moves"] == 2 and listed[live]["version"] > 2
    for name, context in (("desktop", {"viewport": DESKTOP}), ("phone", PHONE)):
        page = new_context(**context).new_page()
        page.goto(server.url + "/")
        entry = page.locator(f"#recent-list li[data-match='{live}']")
        entry.wait_for()
        assert entry.inner_text().startswith("Trails and Towers online, 2 moves")
        for gone in (over, gamma["match"]):
            assert page.locator(f"#recent-list li[data-match='{gone}']").count() == 0
        entry.scroll_into_view_if_needed()
        shoot(page, f"{name}-live-games")
        if name == "phone":
            assert small_controls(page) == [] and overflow(page) <= 0
