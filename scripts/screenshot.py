"""Refresh docs/screenshot.png: a Trails and Towers game in progress, as a player sees it.

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

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.conftest import ServerProcess  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "shot.db").start()
        try:
            created = requests.post(f"{server.url}/api/matches", json={"game": "trails", "mode": "online",
                                                                      "player": "Ann"}).json()
            friend = requests.post(f"{server.url}/api/matches/{created['match']}/seats",
                                   json={"player": "Bob", "invite": created["invite_secret"]}).json()
            tokens = {1: created["token"], 2: friend["token"]}
            rng = random.Random(11)
            for _ in range(24):
                state = requests.get(f"{server.url}/api/matches/{created['match']}").json()
                if state["outcome"] or len(state["legal"]) < 2:
                    break
                move = rng.choice(state["legal"])
                requests.post(f"{server.url}/api/matches/{created['match']}/moves", json={"move": move},
                              headers={"Authorization": f"Bearer {tokens[state['turn']]}"})
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1100, "height": 720})
                page.goto(f"{server.url}/m/{created['match']}")
                page.evaluate(f"window.QuadrilleTokens.set({created['match']!r}, {created['token']!r})")
                page.reload()
                page.wait_for_function("document.getElementById('match').dataset.seats === '1'")
                page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
