"""Refresh docs/screenshot.png (the lobby, as a new visitor sees it, light) and docs/screenshot-phone.png (the lobby
on a 390 px phone whose system setting is dark).

    python scripts/screenshot.py    # starts its own server on a temporary database
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.services.app import App  # noqa: E402
from scripts.services.chromium import launch  # noqa: E402


def play_a_little(server, game: str, moves: int, seed: int) -> None:
    """A public online match between Ann and Bob with a few random moves, so that the lobby's list of live
    games has something in it (private invites, local and computer games are never listed)."""
    created = requests.post(f"{server.url}/api/matches", json={"game": game, "mode": "online", "player": "Ann",
                                                               "visibility": "public"}).json()
    friend = requests.post(f"{server.url}/api/matches/{created['match']}/seats",
                           json={"player": "Bob", "invite": created["invite_secret"]}).json()
    tokens = {1: created["token"], 2: friend["token"]}
    if game == "gamma":
        requests.post(f"{server.url}/api/matches/{created['match']}/start", json={},
                      headers={"Authorization": f"Bearer {created['token']}"})
    rng = random.Random(seed)
    for _ in range(moves):
        state = requests.get(f"{server.url}/api/matches/{created['match']}").json()
        if state["outcome"] or not state["legal"]:
            break
        requests.post(f"{server.url}/api/matches/{created['match']}/moves", json={"move": rng.choice(state["legal"])},
                      headers={"Authorization": f"Bearer {tokens[state['turn']]}"})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = App(Path(tmp), 1, str(Path(tmp) / "shot.db"), None).start()
        try:
            for k, game in enumerate(("towers", "trails", "gamma")):
                play_a_little(server, game, 12 + 5 * k, k)
            # An open seek: someone waits for an opponent, so the list offers "Join".
            requests.post(f"{server.url}/api/matches", json={"game": "lattice", "mode": "online", "player": "Cleo",
                                                             "visibility": "open"})
            with sync_playwright() as p:
                browser = launch(p)
                page = browser.new_page(viewport={"width": 1100, "height": 800}, color_scheme="light")
                page.goto(server.url + "/")
                page.wait_for_selector("#recent-list li a")
                page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))
                phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                         color_scheme="dark")
                phone.goto(server.url + "/")
                phone.wait_for_selector("#recent-list li a")
                phone.screenshot(path=str(ROOT / "docs" / "screenshot-phone.png"))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
