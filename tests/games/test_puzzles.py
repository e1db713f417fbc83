"""The shipped puzzles (games/<name>/puzzles.json) and the cutter that makes them (quadrille/puzzles,
docs/puzzles.md).

Every shipped puzzle is checked whole: its record, a legal replay of its moves and its solution, its id, its
themes and its starting rating (verify.record_problems), and its searches: its first move still the clearly
best one by rank_moves at the budget and on the scale its file was cut with (verify.search_problems; about
10 s of one core for the 800).
"""
from __future__ import annotations

import json

import pytest

import games
from ai import analysis
from quadrille.puzzles import criterion, library, verify
from quadrille.puzzles.__main__ import main
from quadrille.puzzles.generate import budget_of, cut, puzzle_id
from quadrille.puzzles.source import generate, play

SHIPPED_AT_LEAST = 200


def test_every_game_ships_its_puzzles():
    assert library.games_with_puzzles() == games.listed()
    for game in games.listed():
        shipped = library.puzzles(game)
        assert len(shipped) >= SHIPPED_AT_LEAST, game
        assert len({p["id"] for p in shipped}) == len(shipped), game
        assert all(p["game"] == game and p["id"].startswith(f"{game}-") for p in shipped)


@pytest.mark.parametrize("game", games.listed())
def test_every_shipped_puzzle_replays_legally_with_its_id_themes_and_rating(game):
    problems = {p["id"]: found for p in library.puzzles(game) if (found := verify.record_problems(p))}
    assert problems == {}


@pytest.mark.parametrize("game", games.listed())
def test_every_first_move_is_the_clearly_best_one(game):
    """rank_moves at the budget and on the scale of the file's header, again: the same clearly best move.

    The scale's k (the game's ANALYSIS) only squashes the search's values onto -1000..1000 after the search:
    the header's k reproduces the scores the cutter saw, whatever k the analysis uses today."""
    shipped = library.puzzles(game)
    budget = verify.shipped_budget(game)
    computer = games.part(game, "computer")
    today = computer.ANALYSIS
    with verify.recorded_scale(game):
        assert computer.ANALYSIS["k"] == verify.shipped_header(game)["scale"]["k"]
        assert {p["id"]: found for p in shipped if (found := verify.search_problems(p, budget))} == {}
    assert computer.ANALYSIS is today


def test_a_changed_puzzle_is_caught():
    """The checks find what they are for: a wrong first move, a wrong theme, an illegal move, a moved id."""
    game = "trails"
    original = library.puzzles(game)[0]
    first = original["solution"][0]
    other = next(m for m in verify.replay(original)[0].legal_moves() if m != first)
    assert verify.search_problems({**original, "solution": [other]}, verify.shipped_budget(game))
    assert verify.record_problems({**original, "themes": sorted(original["themes"] + ["capture-chain"])})
    assert verify.record_problems({**original, "moves": original["moves"] + ["nowhere"]})
    assert verify.record_problems({**original, "id": "trails-0000000000"})


def test_the_library_finds_puzzles_by_id_and_hands_out_copies():
    some = library.puzzles("lattice")[3]
    assert library.puzzle(some["id"]) == some
    library.puzzle(some["id"])["solution"].append("changed")
    assert library.puzzle(some["id"]) == some
    for wrong in ("lattice-nothing", 42, None):
        with pytest.raises(KeyError):
            library.puzzle(wrong)
    with pytest.raises(KeyError):
        library.puzzles("chess")


def test_ids_are_the_position_and_stable():
    p = library.puzzles("gamma")[0]
    assert puzzle_id("gamma", p["options"], p["moves"]) == p["id"]
    assert puzzle_id("gamma", p["options"], p["moves"] + ["skip"]) != p["id"]


def test_the_command_writes_the_same_file_twice_from_a_seed(tmp_path, capsys):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["generate", "--game", "trails", "--count", "2", "--seed", "5", "--out", str(first)]) == 0
    assert main(["generate", "--game", "trails", "--count", "2", "--seed", "5", "--out", str(second)]) == 0
    assert first.read_text() == second.read_text()
    data = json.loads(first.read_text())
    assert data["game"] == "trails" and data["seed"] == 5 and data["budget"] == budget_of("trails").to_dict()
    assert data["scale"] == {"k": analysis.thresholds("trails")["k"]}
    assert len(data["puzzles"]) == 2
    assert [verify.record_problems(p) for p in data["puzzles"]] == [[], []]
    assert "2 puzzles of trails written" in capsys.readouterr().out


def test_a_run_stopped_half_way_goes_on_to_the_same_puzzles(tmp_path):
    saved = []
    whole = generate("trails", 3, seed=5, found_so_far=lambda found, played: saved.append((list(found), played)))
    first, played = saved[0]
    assert len(first) < 3 and generate("trails", 3, seed=5, resume=(first, played)) == whole
    out = tmp_path / "t.json"
    assert main(["generate", "--game", "trails", "--count", "1", "--seed", "5", "--out", str(out)]) == 0
    with pytest.raises(SystemExit):             # another seed's file is not this run's
        main(["generate", "--game", "trails", "--count", "1", "--seed", "6", "--out", str(out), "--resume"])


def test_a_players_game_is_cut_from_its_stored_analysis():
    """The server's way: a finished game and the analysis it already has (ai.analysis.analyse, seats as
    strings once stored as JSON)."""
    budget = budget_of("trails")
    moves = play("trails", {}, (1, 3), seed=11, nodes=budget.play)
    stored = json.loads(json.dumps(analysis.analyse("trails", {}, moves, max_nodes=budget.scan)))
    found = cut("trails", {}, moves, stored, budget=budget, limit=2)
    assert found, "this game has a puzzle"
    for p in found:
        assert verify.record_problems(p) == [] and verify.search_problems(p, budget) == []
        assert p["moves"] == moves[:len(p["moves"])]


def test_cut_refuses_an_illegal_game_and_skips_a_game_of_three():
    with pytest.raises(ValueError):
        cut("trails", {}, ["down", "down", "sideways"])
    board = games.get("gamma").new(width=3, height=3, players=3)
    board.push("0,0")
    assert cut("gamma", {"width": 3, "height": 3, "players": 3}, board.moves, {"start": 0, "plies": []}) == []


def test_the_criterion():
    assert criterion.clearly_best([("a", 1000), ("b", 1000 - criterion.MARGIN)])
    assert not criterion.clearly_best([("a", 1000), ("b", 1001 - criterion.MARGIN)])
    assert not criterion.clearly_best([("a", criterion.DECISIVE - 1), ("b", -1000)])
    assert not criterion.clearly_best([("a", 1000)])              # one legal move: nothing to find
