"""The engine contract's optional extras for people: what each seat is called, and whether a game has draws."""
from __future__ import annotations

import pytest

import games
from tests.support.paths import SHARED


@pytest.mark.parametrize("name, options, expected", [
    ("trails", {}, ["Blue", "Red"]),
    ("towers", {"size": 7}, ["Blue", "Red"]),
    ("lattice", {}, ["Blue", "Red"]),
    ("lattice", {"color_b": "green", "color_t": "white"}, ["Green", "White"]),
    ("gamma", {"players": 3}, ["Blue", "Orange", "Pink"]),
])
def test_each_game_names_its_seats_as_its_renderer_draws_them(name, options, expected):
    assert games.get(name).seat_names(options) == expected


def test_a_game_without_names_or_beyond_its_list_says_player_n():
    gamma = games.get("gamma")
    names = gamma.seat_names({"players": 18, "width": 40, "height": 40})
    assert len(names) == 18 and len(set(names)) == 18
    assert names[16:] == ["Player 17", "Player 18"]
    plain = games.Game("plain", "Plain", (2, 2), {}, games.get("trails").board_class)
    assert plain.seat_names({}) == ["Player 1", "Player 2"] and plain.draws is False


def test_bad_options_are_refused_as_by_new():
    with pytest.raises(ValueError):
        games.get("lattice").seat_names({"color_b": "plaid"})


@pytest.mark.parametrize("name, draws", [("trails", False), ("lattice", True), ("towers", True), ("gamma", False)])
def test_draws_follow_each_rules_documents_decisions(name, draws):
    game = games.get(name)
    assert game.draws is draws and game.to_dict()["draws"] is draws
    assert (SHARED / "rules" / f"{name}.md").is_file()
