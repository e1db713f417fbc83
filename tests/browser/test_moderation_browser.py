"""The moderators' page and the players' report control, in real Chromium against a real server: a player
reports another from the profile page with the keyboard alone, the match page offers "Report this match", a
moderator sees the report and the match under way on /moderation and closes the match and bans the player
with the keyboard; someone who is not a moderator finds no page there. Screenshots on a 1366x800 desktop and
a 390x844 touch screen (test-output/)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.support.paths import ROOT

pytestmark = pytest.mark.browser
PASSWORD = "correct horse"
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def admin(server, *argv):
    env = {**os.environ, "QUADRILLE_DB": str(server.db), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "quadrille", "admin", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def sign_up(server, name) -> requests.Session:
    session = requests.Session()
    made = session.post(f"{server.url}/api/account", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    session.headers["X-CSRFToken"] = made.json()["csrf"]
    return session


def logged_in(new_context, server, name, **screen):
    context = new_context(**screen)
    answer = context.request.post(f"{server.url}/api/account/login", data={"name": name, "password": PASSWORD})
    assert answer.ok, answer.text()
    return context.new_page()


def no_sideways_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture(scope="module")
def site(live_server):
    mod, bob = sign_up(live_server, "modder"), sign_up(live_server, "bobby")
    sign_up(live_server, "carol")
    made = bob.post(f"{live_server.url}/api/challenges", json={"to": "carol", "game": "trails"}).json()
    carol = requests.Session()
    carol_login = carol.post(f"{live_server.url}/api/account/login", json={"name": "carol", "password": PASSWORD})
    carol.headers["X-CSRFToken"] = carol_login.json()["csrf"]
    match = carol.post(f"{live_server.url}/api/challenges/{made['challenge']}/accept").json()["match"]
    admin(live_server, "moderator", "modder")
    return {"match": match, "mod": mod}


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_player_reports_another_from_the_profile_page_with_the_keyboard(live_server, new_context, shoot, site,
                                                                          screen):
    page = logged_in(new_context, live_server, "bobby", **(DESKTOP if screen == "desktop" else PHONE))
    page.goto(f"{live_server.url}/players/carol")
    report = page.get_by_role("link", name="Report carol")
    report.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/report?account=carol")
    assert page.get_by_role("heading", name="Report carol").is_visible()
    page.get_by_role("radio", name="Stalling").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.type(f"Lets the clock run in every game ({screen}).")
    shoot(page, f"report-form-{screen}")
    # every reason's radio the same size, whether its words wrap or not (the form's own stylesheet is loaded)
    sizes = page.eval_on_selector_all(".report-reasons input[type=radio]",
                                      "radios => radios.map(r => [r.offsetWidth, r.offsetHeight])")
    assert len(sizes) == 5 and len(set(map(tuple, sizes))) == 1, sizes
    assert serious_violations(page) == [] and no_sideways_scroll(page)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.get_by_text("Thank you: the site's moderators will look at it").wait_for()
    shoot(page, f"report-sent-{screen}")
    page.goto(f"{live_server.url}/m/{site['match']}")
    link = page.get_by_role("link", name="Report this match")
    assert link.get_attribute("href") == f"/report?match={site['match']}"
    link.scroll_into_view_if_needed()
    shoot(page, f"match-report-link-{screen}")


def test_a_moderator_closes_a_match_and_bans_a_player_from_the_page(live_server, new_context, shoot, site):
    outsider = logged_in(new_context, live_server, "bobby", **DESKTOP)
    assert outsider.goto(f"{live_server.url}/moderation").status == 404
    for screen, options in (("phone", PHONE), ("desktop", DESKTOP)):
        page = logged_in(new_context, live_server, "modder", **options)
        page.goto(f"{live_server.url}/moderation")
        assert page.get_by_role("heading", name="Moderation").is_visible()
        assert page.locator("#reports").get_by_role("link", name="carol").first.is_visible()
        assert page.get_by_role("button", name=f"Close {site['match']}").is_visible()
        shoot(page, f"moderation-{screen}")
        assert serious_violations(page) == [] and no_sideways_scroll(page)
    page.get_by_role("button", name=f"Close {site['match']}").focus()
    page.keyboard.press("Enter")
    page.get_by_text(f"Closed match {site['match']}.").wait_for()
    state = requests.get(f"{live_server.url}/api/matches/{site['match']}").json()
    assert state["outcome"]["reason"] == "aborted" and state["outcome"]["by"] == "site"
    form = page.locator("#accounts form").first
    form.get_by_label("Player's name").focus()
    page.keyboard.type("carol")
    page.keyboard.press("Enter")  # the form's first button: Ban
    page.get_by_text("Banned carol.").wait_for()
    shoot(page, "moderation-after-ban-desktop")
    login = requests.post(f"{live_server.url}/api/account/login", json={"name": "carol", "password": PASSWORD})
    assert login.status_code == 403 and login.json()["error"] == "banned"
    form.get_by_label("Player's name").fill("nobody-here")
    page.keyboard.press("Enter")
    page.get_by_text("Nothing was changed: There is no player called 'nobody-here'.").wait_for()
    assert "close" in admin(live_server, "log") and "ban" in admin(live_server, "log")
    # the closed match's own page says who ended it
    page.goto(f"{live_server.url}/m/{site['match']}")
    page.get_by_text("The site's moderators closed this match").first.wait_for()
    shoot(page, "closed-match-desktop")
