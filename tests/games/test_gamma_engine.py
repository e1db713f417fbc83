"""The gamma engine: the official engine tests (rules/gamma_api_cases.md) as data, the
rules document's edge cases as named tests, and the engine contract of GammaBoard."""
from __future__ import annotations

import json
import re
import tracemalloc

import pytest
from test_gamma_properties import Model

import games
from games.base import IllegalMove, Outcome
from games.gamma import GAME, GammaBoard
from games.gamma.engine import MAX_FIELDS, MAX_PLAYERS, UINT32_MAX, Gamma
from tests.support.paths import SHARED
from tests.support.gamma_suites import snake

T, F = True, False


# ---------------------------------------------------------------------- official scenarios, as data
def run_steps(steps):
    """Steps: ("new", w, h, p, a) then (call, args..., expected); calls are the C API's."""
    game = None
    for i, step in enumerate(steps):
        name, *args = step
        if name == "new":
            game = Gamma(*args)
            continue
        *args, want = args
        got = {
            "move": lambda p, x, y: game.move(p, x, y),
            "golden": lambda p, x, y: game.golden_move(p, x, y),
            "busy": lambda p: game.busy_fields(p),
            "free": lambda p: game.free_fields(p),
            "gp": lambda p: game.golden_possible(p),
            "board": lambda: game.board(),
        }[name](*args)
        assert got == want, f"step {i}: {name}{tuple(args)} = {got!r}, expected {want!r}"
    return game


def moves(player, fields):
    return [("move", player, x, y, T) for x, y in fields]


def board_text(*rows):
    return "".join(r + "\n" for r in rows)


EXAMPLE = [
    ("new", 10, 10, 2, 3),
    ("move", 1, 0, 0, T), ("busy", 1, 1), ("busy", 2, 0), ("free", 1, 99), ("free", 2, 99), ("gp", 1, F),
    ("move", 2, 3, 1, T), ("busy", 1, 1), ("busy", 2, 1), ("free", 1, 98), ("free", 2, 98),
    ("move", 1, 0, 2, T), ("move", 1, 0, 9, T),
    ("move", 1, 5, 5, F),
    ("free", 1, 6),
    ("move", 1, 0, 1, T), ("free", 1, 95),
    ("move", 1, 5, 5, T), ("move", 1, 6, 6, F),
    ("busy", 1, 5), ("free", 1, 10),
    ("move", 2, 2, 1, T), ("move", 2, 1, 1, T), ("free", 1, 9), ("free", 2, 92),
    ("move", 2, 0, 1, F),
    ("gp", 2, T),
    ("golden", 2, 0, 1, F),
    ("golden", 2, 5, 5, T),
    ("gp", 2, F),
    ("move", 2, 6, 6, T),
    ("busy", 1, 4), ("free", 1, 91), ("busy", 2, 5), ("free", 2, 13),
    ("golden", 1, 3, 1, T),
    ("busy", 1, 5), ("free", 1, 8), ("busy", 2, 4), ("free", 2, 10),
    ("board", board_text("1.........", "..........", "..........", "......2...", ".....2....",
                         "..........", "..........", "1.........", "1221......", "1.........")),
]

GOLDEN_3 = [("new", 6, 3, 2, 2)] + moves(1, [(0, 1), (2, 1)]) + moves(2, [(3, 0), (3, 1), (3, 2)])


def border_steps():
    edge = [(x, 0) for x in range(6)] + [(5, y) for y in range(1, 5)] + [(x, 4) for x in range(4, -1, -1)] + [(0, 3)]
    steps = [("new", 6, 5, 4, 4)]
    steps += [("move", i % 4 + 1, x, y, T) for i, (x, y) in enumerate(edge)]
    steps += [("move", 1, 0, 2, F), ("move", 2, 0, 1, F), ("move", 3, 0, 2, F), ("move", 4, 0, 1, F),
              ("move", 4, 0, 2, T), ("move", 1, 0, 1, T), ("golden", 3, 2, 4, F), ("golden", 4, 4, 4, T),
              ("board", board_text("321442", "4....1", "4....4", "1....3", "123412")),
              ("busy", 1, 5), ("free", 1, 4), ("busy", 2, 4), ("free", 2, 2),
              ("busy", 3, 3), ("free", 3, 12), ("busy", 4, 6), ("free", 4, 6)]
    return steps


def areas_steps():
    steps = [("new", 31, 37, 1, 42)]
    for i in range(21):
        steps += [("move", 1, i, i, T), ("move", 1, i + 2, i, T)]
    steps += [("move", 1, 0, 2, F), ("move", 1, 0, 4, F)]
    steps += [("move", 1, i + 1, i, T) for i in range(9)]
    steps += [("move", 1, 0, i, T) for i in range(2, 37, 2)]
    steps += [("move", 1, 4, 0, F), ("move", 1, 6, 0, F)]
    return steps


def tree_steps():
    """The 84 moves of the `tree` scenario are read from gamma_api_cases.md itself."""
    text = (SHARED / "rules" / "gamma_api_cases.md").read_text(encoding="utf-8")
    section = text.split("## tree", 1)[1].split("\n## ", 1)[0]
    listing = section.split("in this order:", 1)[1].split("\n*", 1)[0]
    fields = [(int(x), int(y)) for x, y in re.findall(r"\((\d+),(\d+)\)", listing)]
    assert len(fields) == 84
    return [("new", 16, 15, 3, 2)] + moves(1, fields) + [
        ("move", 1, 2, 5, F), ("golden", 3, 9, 10, F), ("move", 1, 9, 12, T), ("golden", 3, 9, 10, T),
        ("move", 2, 7, 6, T), ("golden", 1, 7, 6, T), ("golden", 2, 9, 12, T), ("move", 1, 9, 7, F)]


API_CASES = {
    "example": EXAMPLE,
    "minimal": [("new", 1, 1, 1, 1), ("move", 1, 0, 0, T), ("busy", 1, 1), ("free", 1, 0)],
    "normal_move_1": [("new", 2, 2, 2, 2), ("move", 1, 0, 0, T), ("move", 2, 1, 0, T), ("move", 1, 1, 1, T),
                      ("move", 2, 0, 1, T), ("busy", 1, 2), ("free", 1, 0), ("busy", 2, 2), ("free", 2, 0)],
    "normal_move_2": [("new", 5, 5, 2, 4)] + moves(1, [(2, 1), (2, 3), (1, 2), (3, 2)]) + [
        ("move", 2, 2, 2, T), ("busy", 1, 4), ("free", 1, 8), ("busy", 2, 1), ("free", 2, 20)]
        + moves(2, [(1, 1), (3, 3), (1, 3)]) + [("busy", 1, 4), ("free", 1, 5), ("busy", 2, 4), ("free", 2, 6)],
    "normal_move_3": [("new", 5, 5, 5, 1), ("move", 2, 1, 2, T), ("move", 4, 2, 1, T), ("move", 5, 3, 2, T),
                      ("move", 3, 2, 2, T), ("move", 1, 2, 3, T)]
        + [("busy", p, 1) for p in range(1, 6)] + [("free", p, f) for p, f in zip(range(1, 6), (3, 3, 0, 3, 3))],
    "golden_move_1": [("new", 10, 10, 3, 2), ("move", 1, 4, 5, T), ("move", 2, 5, 5, T), ("move", 3, 4, 6, T),
                      ("move", 1, 5, 6, T), ("move", 2, 3, 5, T), ("move", 3, 4, 4, T), ("golden", 1, 3, 5, T),
                      ("busy", 1, 3), ("free", 1, 5), ("busy", 2, 1), ("free", 2, 94), ("busy", 3, 2), ("free", 3, 5)],
    "golden_move_2": [("new", 7, 5, 3, 2), ("move", 1, 2, 2, T), ("move", 2, 4, 2, T), ("move", 3, 3, 2, T),
                      ("move", 1, 6, 4, T), ("move", 2, 0, 0, T), ("move", 1, 1, 2, T), ("golden", 1, 3, 2, T),
                      ("busy", 1, 4), ("free", 1, 9), ("busy", 2, 2), ("free", 2, 5), ("busy", 3, 0), ("free", 3, 29)],
    "golden_move_3": GOLDEN_3 + [("golden", 1, 3, 1, T), ("busy", 1, 3), ("free", 1, 6), ("busy", 2, 2), ("free", 2, 4)],
    "golden_move_4": GOLDEN_3 + [("move", 2, 5, 0, T), ("golden", 1, 3, 1, F),
                                 ("busy", 1, 2), ("free", 1, 5), ("busy", 2, 4), ("free", 2, 6)],
    "golden_move_5": [("new", 6, 3, 2, 2)] + moves(1, [(0, 0), (0, 2)]) + moves(2, [(3, 0), (3, 1), (3, 2)]) + [
        ("golden", 1, 3, 1, F), ("busy", 1, 2), ("free", 1, 3), ("busy", 2, 3), ("free", 2, 13)],
    "golden_possible_1": [("new", 10, 10, 3, 1)] + moves(2, [(1, 1), (1, 2), (1, 3)]) + [
        ("gp", 1, T), ("golden", 1, 1, 2, F), ("golden", 1, 2, 2, F), ("golden", 1, 1, 1, T)],
    # the part-1 assertion golden_possible(1) = true is OLD-q; the final meaning gives false
    "golden_possible_2": [("new", 9, 9, 2, 2)] + moves(2, [(1, 1), (1, 2), (1, 3)]) + moves(1, [(5, 4), (4, 5)]) + [
        ("gp", 1, F), ("golden", 1, 1, 1, F), ("golden", 1, 1, 2, F), ("golden", 1, 1, 3, F)],
    "areas": areas_steps(),
    "border": border_steps(),
    "hb_final_golden_possible": [("new", 2, 3, 2, 1)] + moves(1, [(0, 0), (0, 1), (1, 0)]) + [
        ("gp", 2, T), ("gp", 1, F), ("golden", 2, 0, 0, F), ("gp", 2, T), ("move", 2, 1, 2, T), ("gp", 2, F),
        ("move", 2, 1, 1, T), ("gp", 2, T)],
}


@pytest.mark.parametrize("name", sorted(API_CASES))
def test_api_case(name):
    run_steps(API_CASES[name])


def test_api_case_tree():
    run_steps(tree_steps())


@pytest.mark.parametrize("name", sorted(API_CASES))
def test_api_case_matches_brute_force(name):
    """Every official scenario again, with all counts checked against the model after each step."""
    game = model = None
    for step in API_CASES[name]:
        if step[0] == "new":
            game, model = Gamma(*step[1:]), Model(*step[1:])
        elif step[0] == "move":
            assert game.move(*step[1:4]) == model.move(*step[1:4])
        elif step[0] == "golden":
            assert game.golden_move(*step[1:4]) == model.golden(*step[1:4])
        for p in range(1, model.players + 1):
            assert (game.busy_fields(p), game.free_fields(p), game.golden_possible(p)) == \
                   (model.busy(p), model.free(p), model.golden_possible(p))


def test_api_params_zero_is_refused():
    for args in ((0, 0, 0, 0), (0, 10, 2, 2), (10, 0, 2, 2), (10, 10, 0, 2), (10, 10, 2, 0)):
        with pytest.raises(ValueError, match="must be positive"):
            Gamma(*args)


def test_api_params_invalid_arguments_give_false_or_zero():
    game = Gamma(10, 10, 2, 2)
    for p in (0, 3, UINT32_MAX):
        assert not game.move(p, 5, 5) and not game.golden_move(p, 5, 5)
        assert game.busy_fields(p) == 0 and game.free_fields(p) == 0 and not game.golden_possible(p)
    for x, y in ((10, 5), (UINT32_MAX, 5), (5, 10), (5, UINT32_MAX)):
        assert not game.move(1, x, y) and not game.golden_move(1, x, y)
    assert game.board() == "..........\n" * 10


def test_api_many_players_board_format():
    """10 000 players on 100x100 (allowed); more than 9 players: cells right-aligned to the
    width of the largest player number, one space between cells (Decision 3)."""
    game = Gamma(100, 100, 10000, 1)
    for x in range(100):
        for y in range(100):
            assert game.move(x * 100 + y + 1, x, y)
    rows = game.board().split("\n")
    assert len(rows) == 101 and rows[-1] == ""
    assert rows[0] == " ".join(str(x * 100 + 100).rjust(5) for x in range(100))
    assert rows[99] == " ".join(str(x * 100 + 1).rjust(5) for x in range(100))


def test_board_format_more_than_nine_players_with_empty_fields():
    game = Gamma(3, 2, 12, 1)
    assert game.move(7, 1, 0) and game.move(12, 2, 0)
    assert game.board() == " .  .  .\n .  7 12\n"


def test_api_many_games_independent():
    shapes = [((7, 9, 2, 4), 8), ((11, 21, 2, 4), 8), ((47, 3, 2, 4), 6), ((2, 99, 2, 2), 4)]
    live = [(Gamma(*shape), shape, free) for shape, free in shapes for _ in range(42)]
    for game, (w, h, _, _), _ in live:
        for x, y in ((0, 0), (0, h - 1), (w - 1, 0), (w - 1, h - 1)):
            assert game.move(1, x, y)
        assert not game.move(1, w, h - 1) and not game.move(1, w - 1, h)
    for game, (w, h, _, _), free in live:
        assert game.busy_fields(1) == 4 and game.free_fields(1) == free
        assert game.busy_fields(2) == 0 and game.free_fields(2) == w * h - 4


BIG = (UINT32_MAX, 2, 5, 1 << 16, (1 << 24) + 1)


@pytest.mark.parametrize("w,h,p,a", [
    (UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX), (UINT32_MAX, 1, 2, 2), (1, UINT32_MAX, 2, 2),
    (1 << 16, 1 << 16, 2, 2), ((1 << 24) + 1, 2, 2, 2), (2, 2, UINT32_MAX, 2), (5, 5, 2, UINT32_MAX),
    (1000, 1000, 1000, 1000), (100, 100, 100, 100), (10, 10, 10, 10), (2, 5, 1 << 16, 5),
])
def test_api_big_board_fails_cleanly_or_works(w, h, p, a):
    """Either a clean ValueError at once (never MemoryError, never a long allocation: refused before a
    megabyte is allocated) or a working game: free = w*h, four corners, then free = w*h - 4 and busy = 4."""
    tracemalloc.start()
    try:
        game = Gamma(w, h, p, a)
    except ValueError as exc:
        allocated = tracemalloc.get_traced_memory()[1]
        assert "at most" in str(exc)
        assert allocated < 1 << 20, allocated
        assert (w * h > MAX_FIELDS) or p > MAX_PLAYERS
        return
    finally:
        tracemalloc.stop()
    assert game.free_fields(p) == w * h
    for x, y in {(0, 0), (0, h - 1), (w - 1, 0), (w - 1, h - 1)}:
        assert game.move(p, x, y)
    assert game.busy_fields(p) == 4 and game.free_fields(p) == w * h - 4


def test_api_big_board_required_sizes_work():
    for size in (1000, 100, 10):
        Gamma(size, size, size, size)


def test_api_middle_board_strips_work_whenever_squares_do():
    for size in (8000, 4000, 2000, 1000, 500, 250, 125):
        try:
            Gamma(size, size, 2, 2)
        except ValueError:
            continue
        strip = (size - 1) ** 2
        for w, h in ((strip, 1), (1, strip)):
            game = Gamma(w, h, 2, 2)
            assert game.move(1, w - 1, h - 1) and game.free_fields(2) == strip - 1


# ---------------------------------------------------------------------- rules doc edge cases, by name
def test_refused_sizes_give_a_clear_error():
    with pytest.raises(ValueError, match=r"4294967295x4294967295 board has .* fields; at most"):
        Gamma(UINT32_MAX, UINT32_MAX, 2, 2)
    with pytest.raises(ValueError, match="too many; at most"):
        Gamma(10, 10, MAX_PLAYERS + 1, 2)
    with pytest.raises(ValueError, match="at most 4294967295"):
        Gamma(10, 10, 2, UINT32_MAX + 1)


def test_players_may_exceed_fields_and_areas_may_exceed_fields():
    game = Gamma(2, 1, 5, 100)
    assert game.move(5, 0, 0) and game.move(4, 1, 0)
    assert game.free_fields(3) == 0 and not game.move(3, 0, 0)
    assert game.golden_possible(3)


def test_move_onto_own_or_occupied_field_is_refused():
    game = Gamma(3, 3, 2, 9)
    assert game.move(1, 1, 1)
    assert not game.move(1, 1, 1) and not game.move(2, 1, 1)


def test_move_new_areas_counts_distinct_neighbour_areas():
    """areas(p) + 1 - k with k the number of *distinct* own areas around the field."""
    game = Gamma(3, 3, 1, 2)
    assert game.move(1, 0, 1) and game.move(1, 0, 0) and game.move(1, 1, 0)  # an L: one area
    assert game.move(1, 2, 2)          # second area
    assert game.move(1, 1, 1)          # touches the L twice (one area) -> still 2 areas
    assert game.areas_of(1) == 2
    assert game.move(1, 1, 2)          # joins both -> 1 area
    assert game.areas_of(1) == 1


def test_free_fields_at_limit_counts_shared_neighbours_once():
    game = Gamma(10, 10, 2, 3)
    for x, y in ((0, 0), (0, 2), (0, 9)):
        assert game.move(1, x, y)
    assert game.free_fields(1) == 6     # (0,1) touches two areas, counted once


def test_golden_refused_on_empty_own_and_after_use():
    game = Gamma(4, 1, 2, 4)
    assert game.move(1, 0, 0) and game.move(2, 1, 0) and game.move(2, 3, 0)
    assert not game.golden_move(1, 2, 0)      # empty
    assert not game.golden_move(1, 0, 0)      # own
    assert game.golden_move(1, 1, 0)
    assert not game.golden_move(1, 3, 0)      # only one golden move per game
    assert not game.golden_possible(1)


def test_failed_golden_move_does_not_use_it_up():
    game = Gamma(3, 1, 2, 1)
    assert game.move(2, 0, 0) and game.move(2, 1, 0) and game.move(2, 2, 0)
    assert not game.golden_move(1, 1, 0)      # splits player 2 into two areas
    assert game.golden_move(1, 0, 0)


def test_victim_split_into_four_pieces():
    game = Gamma(3, 3, 2, 4)
    for x, y in ((1, 0), (0, 1), (2, 1), (1, 2)):
        assert game.move(2, x, y)
    assert game.move(2, 1, 1)                 # a plus: 1 area
    assert game.golden_move(1, 1, 1)          # 4 pieces, limit 4: allowed
    assert game.areas_of(2) == 4


def test_victim_split_beyond_the_limit_is_refused():
    game = Gamma(3, 3, 2, 3)
    for x, y in ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2)):
        assert game.move(2, x, y)
    assert not game.golden_move(1, 1, 1)      # 4 pieces > 3
    assert not game.golden_used(1)
    assert game.golden_possible(1) and game.golden_move(1, 1, 0)   # an arm's end is fine


def test_golden_possible_old_meaning_is_not_used():
    """Part-1 meaning (unused and somebody else has a field) would say true here."""
    game = Gamma(9, 9, 2, 2)
    for x, y in ((1, 1), (1, 2), (1, 3)):
        game.move(2, x, y)
    game.move(1, 5, 4)
    game.move(1, 4, 5)
    assert game.busy_fields(2) > 0 and not game.golden_used(1)
    assert not game.golden_possible(1)


def test_golden_possible_needs_another_players_field():
    game = Gamma(3, 3, 2, 2)
    assert not game.golden_possible(1)
    game.move(1, 0, 0)
    assert not game.golden_possible(1) and game.golden_possible(2)


def test_board_rows_top_first_y0_printed_last():
    game = Gamma(3, 2, 2, 2)
    game.move(1, 0, 0)
    game.move(2, 2, 1)
    assert game.board() == "..2\n1..\n"


def test_width_times_height_needs_64_bits():
    with pytest.raises(ValueError):
        Gamma(1 << 31, 1 << 31, 2, 2)   # 2^62 fields: refused, not wrapped around


# ---------------------------------------------------------------------- snakes (the suite's performance case)


def test_golden_possible_snake_interior_contacts_only_is_false():
    game, model = Gamma(9, 5, 2, 1), Model(9, 5, 2, 1)
    for x, y in snake(9, 5):
        assert game.move(1, x, y) and model.move(1, x, y)
    assert game.move(2, 4, 1) and model.move(2, 4, 1)      # touches (4,0) and (4,2): cut fields
    assert game.golden_possible(2) is False == model.golden_possible(2)
    assert game.golden_targets(2) == []
    # a run touching three or more cut fields of the same snake (the cut table path)
    game2 = Gamma(9, 5, 2, 1)
    for x, y in snake(9, 5):
        game2.move(1, x, y)
    for x in range(2, 7):
        assert game2.move(2, x, 1)
    assert not game2.golden_possible(2)


def test_golden_possible_ring_fields_are_not_cut_fields():
    """Taking a field of a ring leaves its neighbours connected (the searches meet)."""
    game, model = Gamma(5, 5, 2, 1), Model(5, 5, 2, 1)
    ring = [(x, 0) for x in range(5)] + [(4, y) for y in range(1, 5)] + \
           [(x, 4) for x in range(3, -1, -1)] + [(0, y) for y in range(3, 0, -1)]
    for x, y in ring:
        assert game.move(1, x, y) and model.move(1, x, y)
    assert game.move(2, 2, 1) and model.move(2, 2, 1)
    assert game.golden_possible(2) and model.golden_possible(2)
    assert game.golden_move(2, 2, 0)
    assert game.areas_of(1) == 1


def connected_order(cells, start):
    """The cells in BFS order from `start`, so that each one touches an earlier one."""
    cells = set(cells)
    order, seen = [start], {start}
    for x, y in order:
        for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if n in cells and n not in seen:
                seen.add(n)
                order.append(n)
    assert len(order) == len(cells)
    return order


@pytest.mark.parametrize("size", [5, 7])
def test_golden_possible_three_way_junction_merging_searches(size):
    """Player 2's only contact (c, size-2) has three neighbours of player 1 that stay joined
    around c's sides: three searches that merge into one."""
    c = size // 2
    game, model = Gamma(size, size, 2, 1), Model(size, size, 2, 1)
    shape = [(x, y) for x in range(size) for y in range(size) if y < size - 1 or x not in (c - 1, c, c + 1)]
    for x, y in connected_order(shape, (0, 0)):
        assert game.move(1, x, y) and model.move(1, x, y)
    assert game.move(2, c, size - 1) and model.move(2, c, size - 1)
    assert game.golden_possible(2) and model.golden_possible(2)
    assert sorted(game.xy(cell) for cell in game.golden_targets(2)) == \
        sorted(cell for cell in model.owner if model.can_golden(2, *cell))
    assert game.golden_move(2, c, size - 2) and game.areas_of(1) == 1


def test_snake_150_with_thousands_of_probes_is_fast():
    """The part-3 engine tests' snake: 150x150, about 11 000 moves, thousands of
    golden_possible probes, both between moves (the cut table grows with the snake) and
    repeated without moves (cached). Checked against the slow golden_targets list. Its speed is measured by
    `python bench/gamma.py --only snake`, not here."""
    game = Gamma(150, 150, 3, 1)
    cells = snake(150, 150)
    assert len(cells) > 11_000
    game.move(2, 75, 1)                       # player 2 at its limit, touching the snake's middle
    probes = 0
    for i, (x, y) in enumerate(cells):
        if (x, y) == (75, 1):
            continue
        assert game.move(1, x, y)
        if i % 4 == 0:
            assert game.golden_possible(2) is False   # only cut fields of the snake touch it
            assert game.golden_possible(3) is True    # below its limit
            probes += 2
    for _ in range(2000):
        assert game.golden_possible(2) is False
        probes += 1
    assert probes > 7000
    assert game.golden_targets(2) == []


# ---------------------------------------------------------------------- the contract (GammaBoard)
def test_registry_and_game():
    game = games.get("gamma")
    assert game is GAME and game.name == "gamma" and game.title == "Gamma"
    assert game.seats[0] == 1 and game.seats[1] >= 10_000
    assert set(game.options) == {"width", "height", "players", "areas"}
    assert game.options["players"].range[0] == 1 and game.options["players"].range[1] >= 10_000
    json.dumps(game.to_dict())
    board = game.new()
    assert isinstance(board, GammaBoard) and board.game_name == "gamma"
    assert board.options == {"width": 10, "height": 10, "players": 2, "areas": 3}
    assert board.players == 2 and board.turn == 1 and board.moves == [] and board.outcome() is None


@pytest.mark.parametrize("options,name", [
    ({"width": 0}, "width"), ({"height": 1001}, "height"), ({"players": 0}, "players"),
    ({"areas": 0}, "areas"), ({"areas": "3"}, "areas"), ({"colour": 1}, "colour"),
])
def test_bad_options_name_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        GAME.new(**options)


def test_notation_and_legal_moves_at_start():
    board = GAME.new(width=3, height=2, players=2, areas=1)
    legal = board.legal_moves()
    assert legal == sorted(["skip"] + [f"{x},{y}" for x in range(3) for y in range(2)])
    board.push("2,1")
    assert board.turn == 2 and board.moves == ["2,1"]
    assert "g2,1" in board.legal_moves() and "2,1" not in board.legal_moves()
    assert board.view()["cells"] == [[0, 0, 0], [0, 0, 1]]


@pytest.mark.parametrize("move", [
    "", "1", "1,", ",1", "01,2", "1,02", "+1,2", "-1,2", "1, 2", " 1,2", "1,2 ", "G1,2", "g 1,2",
    "1,2,3", "skip ", "SKIP", "pass", "x,y", "١,٢", "1_0,2", "99999999999,1", "1" * 5000 + ",1", None, 12,
])
def test_malformed_moves_raise_and_change_nothing(move):
    board = GAME.new(width=3, height=3)
    board.push("1,1")
    before = (board.view(), board.moves, board.turn)
    with pytest.raises(IllegalMove):
        board.push(move)
    assert (board.view(), board.moves, board.turn) == before
    assert not board.is_legal(move)


@pytest.mark.parametrize("move,reason", [
    ("1,1", "b2 is taken"), ("3,0", "d1 is off the"), ("0,3", "a4 is off the"), ("g0,0", "a1 is empty"),
    ("g1,1", "b2 is already Blue's"),
])
def test_illegal_moves_say_why(move, reason):
    """The reasons name fields as the move list and the board's coordinates do, and players by their colours."""
    board = GAME.new(width=3, height=3, players=2, areas=1)
    board.push("1,1")
    board.push("2,2")
    with pytest.raises(IllegalMove, match=reason):
        board.push(move)


def test_illegal_move_reasons_for_areas_and_golden_used():
    board = GAME.new(width=5, height=1, players=2, areas=1)
    for m in ("0,0", "4,0", "1,0", "3,0"):
        board.push(m)
    with pytest.raises(IllegalMove, match="more than 1 area$"):
        board.push("g3,0")          # player 1 at its limit, (3,0) touches none of its fields
    board.push("2,0")
    board.push("g2,0")              # player 2 takes the middle: its areas join
    board.push("skip") if board.turn == 1 else None
    assert board.core.golden_used(2)


def test_pop_returns_the_move_and_raises_at_start():
    board = GAME.new()
    with pytest.raises(IndexError):
        board.pop()
    board.push("skip")
    assert board.turn == 2
    assert board.pop() == "skip" and board.turn == 1


def test_players_who_cannot_move_are_skipped_inside_push():
    board = GAME.new(width=3, height=1, players=3, areas=1)
    for m in ("0,0", "1,0", "2,0"):
        board.push(m)
    assert board.turn == 1                     # full board, but player 1 has a golden move
    board.push("g1,0")
    assert board.turn == 2
    board.push("skip")
    assert board.turn == 3
    board.push("g1,0")                         # player 3 joins (1,0) to its (2,0)
    # player 1 has used its golden move and has no free field: skipped
    assert board.turn == 2
    assert board.core.free_fields(1) == 0 and not board.core.golden_possible(1)


def test_game_ends_when_nobody_can_move_and_ties_share_the_win():
    board = GAME.new(width=2, height=1, players=2, areas=1)
    for m in ("0,0", "1,0", "g1,0", "g1,0"):
        board.push(m)
    assert board.turn is None and board.legal_moves() == []
    assert board.outcome() == Outcome((1, 2), (1, 1), "stuck")
    with pytest.raises(IllegalMove, match="over"):
        board.push("skip")
    view = board.view()
    assert view["over"] and view["outcome"] == {"winners": [1, 2], "scores": [1, 1], "reason": "stuck"}
    assert board.pop() == "g1,0" and board.turn == 2 and board.outcome() is None


def test_single_winner_has_the_most_fields():
    board = GAME.new(width=3, height=1, players=2, areas=1)
    for m in ("0,0", "2,0", "1,0"):
        board.push(m)
    # player 2 at (2,0) can take (1,0): (0,0) stays one area
    while board.turn is not None:
        board.push(board.legal_moves()[0])
    out = board.outcome()
    assert out.scores == tuple(board.core.busy_fields(p) for p in (1, 2))
    assert out.winners == tuple(p for p in (1, 2) if out.scores[p - 1] == max(out.scores))


def test_view_is_json_ready_and_complete():
    board = GAME.new(width=4, height=3, players=3, areas=1)
    board.push("0,0")
    board.push("3,2")
    view = board.view()
    json.dumps(view)
    assert view["width"] == 4 and view["height"] == 3 and view["turn"] == 3
    assert view["cells"][0] == [1, 0, 0, 0] and view["cells"][2] == [0, 0, 0, 2]
    assert view["origin"] == "bottom-left" and view["moves"] == 2 and view["last"] == "3,2"
    assert [s["busy"] for s in view["stats"]] == [1, 1, 0]
    assert view["stats"][2]["golden_possible"] and not view["stats"][2]["golden_used"]
    assert sorted(map(tuple, view["golden"])) == [(0, 0), (3, 2)]
    assert len(view["legal"]) == 10
    assert not view["over"] and view["outcome"] is None


def test_to_dict_round_trip():
    board = GAME.new(width=5, height=4, players=3, areas=2)
    for m in ("0,0", "1,1", "2,2", "skip", "g0,0"):
        board.push(m)
    record = board.to_dict()
    assert record == {"game": "gamma", "options": {"width": 5, "height": 4, "players": 3, "areas": 2},
                      "moves": ["0,0", "1,1", "2,2", "skip", "g0,0"]}
    again = games.from_dict(json.loads(json.dumps(record)))
    assert again.view() == board.view() and again.legal_moves() == board.legal_moves()
    record["moves"].append("9,9")
    with pytest.raises(IllegalMove):
        games.from_dict(record)


def test_gamma_specific_queries_on_the_board():
    board = GAME.new(width=3, height=3, players=2, areas=1)
    board.push("1,1")
    assert board.busy_fields(1) == 1 and board.free_fields(1) == 4 and board.free_fields(2) == 8
    assert board.golden_possible(2) and not board.golden_possible(1)
    assert board.board() == "...\n.1.\n...\n"


def test_moves_property_is_a_copy():
    board = GAME.new()
    board.push("0,0")
    board.moves.append("junk")
    assert board.moves == ["0,0"]
