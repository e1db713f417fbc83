"""A game's options in the new-game dialog's words, where lists show a challenge or a game (issue 23, item 8):
never "size 7, towers 3, distance 1" but the preset's name or the dialog's labels."""
from __future__ import annotations

import pytest

from quadrille.option_words import STANDARD, describe
from tests.support.players import Player

pytestmark = pytest.mark.app_settings(ACCOUNT_RATE="1000 per minute")

CORNER = "Each master starts in its player's right-hand back corner, not in the middle"


def test_a_preset_is_named_and_other_options_are_said_with_the_dialogs_labels():
    assert describe("trails", {"size": 7, "towers": 3, "distance": 1}) == "Quick 7×7"
    assert describe("towers", {"size": 6, "rules": ["master-at-corner"]}) == "Masters in the corner 6×6"
    assert describe("towers", {"size": 5, "rules": ["master-at-corner"]}) == \
        f"Board size: 5 cells a side; Alternative rules: {CORNER}"
    assert describe("trails", {"size": 9, "towers": 3, "distance": 2}) == \
        "Board size: 9 cells a side; Space between towers: 2"
    assert describe("lattice", {"size": "222", "first": 2, "start": ""}) == "Who moves first: The top side"
    assert describe("gamma", {"width": 10, "height": 10, "players": 3, "areas": 3}) == "Players: 3"
    assert describe("gamma", {}) == "Duel 10×10" and STANDARD == "standard options"


def test_challenges_and_my_games_carry_the_options_in_words(app):
    ann, bob = Player(app, "ann"), Player(app, "bob")
    made = ann.challenge("bob", "towers", options={"size": 5, "rules": ["master-at-corner"]})
    words = f"Board size: 5 cells a side; Alternative rules: {CORNER}"
    assert made["options_words"] == words
    assert bob.get("/api/challenges").json["incoming"][0]["options_words"] == words
    match = bob.post(f"/api/challenges/{made['challenge']}/accept").json["match"]
    game = ann.get("/api/me/games").json["games"][0]
    assert game["match"] == match and game["options_words"] == words
