"""The original client's `.twr` save format (towers.md §9): reader, writer, replay with named refusals.
(The 70 reference games' records are round-tripped in test_towers_reference.py.)"""
from __future__ import annotations

import random

import pytest

import games
from games.towers import twr

TOWERS = games.get("towers")

DOC_EXAMPLE = ('("2.0" (tower-out) 5 "Player 1" "Player 2" "Human" "Human"\n'
               ' (((move 0 4 0 3 1)) ((move 1 0 2 0 1)) ((move 0 3 0 2 1)) ((move 0 0 0 1 1) end) '
               '((move 0 3 0 2 1)) ()))')


def header(rules="()", size=5):
    return f'("2.0" {rules} {size} "P1" "P2" "Human" "Human" '


def test_registered_as_the_games_file_format():
    assert TOWERS.formats["twr"] is twr and "twr" in TOWERS.to_dict()["formats"]
    assert issubclass(twr.TwrError, ValueError)


def test_doc_example():
    g = twr.read(DOC_EXAMPLE)
    assert g.version == "2.0" and g.rules == ["tower-out"] and g.size == 5
    assert g.names == ("Player 1", "Player 2") and g.classes == ("Human", "Human") and g.resigned is None
    assert g.board.moves == ["m0,4>0,3:1", "m1,0>2,0:1", "m0,3>0,2:1", "m0,0>0,1:1", "end", "m0,3>0,2:1"]
    assert g.plies == [["m0,4>0,3:1"], ["m1,0>2,0:1"], ["m0,3>0,2:1"], ["m0,0>0,1:1", "end"], ["m0,3>0,2:1"], []]
    assert g.board.turn == 2 and g.outcome() is None
    # written back on one line with single spaces
    assert twr.dump(g.board, g.names, g.classes) == DOC_EXAMPLE.replace("\n", "")
    assert twr.load(DOC_EXAMPLE).state() == g.board.state()


def test_parse():
    assert twr.parse('(a "b" 1 (2 [3]) #t #f "q\\"\\\\\\n")') == ["a", "b", 1, [2, [3]], True, False, 'q"\\\n']
    assert isinstance(twr.parse("(a)")[0], twr.Symbol) and not isinstance(twr.parse('("a")')[0], twr.Symbol)
    assert twr.parse("; comment\n (1 ; more\n 2)") == [1, 2]
    assert twr.parse('"\\u00e9\\x41;"') == "\u00e9A"
    for bad in ["(", ")", "(1 2", '"abc', "(1]", "(1) 2", "", '"\\q"']:
        with pytest.raises(twr.TwrError):
            twr.parse(bad)


def test_names_are_escaped_and_round_trip():
    b = TOWERS.new(size=5)
    b.push("m0,3>0,2:1")
    names = ('Ann "the Ace"', "C:\\path\nnext")
    text = twr.dump(b, names=names, classes=("AI-1", "Alpha-Beta"))
    assert text == ('("2.0" () 5 "Ann \\"the Ace\\"" "C:\\\\path\\nnext" "AI-1" "Alpha-Beta" '
                    '(((move 0 3 0 2 1)) ()))')
    g = twr.read(text)
    assert g.names == names and g.classes == ("AI-1", "Alpha-Beta") and g.board.moves == b.moves


def test_rules_written_in_the_dialog_order():
    b = TOWERS.new(size=6, rules=["no-master-win", "tower-out", "import-first"])
    assert twr.dump(b).startswith('("2.0" (tower-out import-first no-master-win) 6 "P1" "P2" "Human" "Human" ')
    assert twr.dump(TOWERS.new()).endswith("(()))")


def test_ends_of_game():
    # a draw: the four passes, then the empty ply
    b = TOWERS.new(size=5)
    for _ in range(4):
        b.push("end")
    assert twr.dump(b).endswith("((end) (end) (end) (end) ()))")
    assert twr.read(twr.dump(b)).board.outcome().reason == "draw-passes"


def test_win_record_with_and_without_trailing_empty_ply():
    b = TOWERS.new(size=6, rules=["master-at-corner"])
    for m in ["m0,4>0,2:1", "m5,1>5,3:1", "m0,2>0,1:1", "end", "m4,1>4,3:1", "m0,1>0,0:1"]:
        b.push(m)
    assert b.outcome().winners == (1,) and b.plies()[-1] == ["m0,1>0,0:1"]
    text = twr.dump(b)
    assert text.endswith("((move 4 1 4 3 1)) ((move 0 1 0 0 1))))")
    assert twr.read(text).board.outcome().winners == (1,)
    # the original client's auto-end-turn may have appended an empty ply: accepted
    assert twr.read(text[:-2] + " ()))").board.state() == b.state()
    with pytest.raises(twr.TwrError, match="already over"):
        twr.read(text[:-2] + " (end)))")


def test_resign():
    b = TOWERS.new(size=5)
    b.push("m0,3>0,2:1")
    text = twr.dump(b, resigned=2)
    assert text.endswith("(((move 0 3 0 2 1)) (resign) ()))")
    g = twr.read(text)
    assert g.resigned == 2 and g.outcome() == ((1,), (1, 0), "resign") and g.board.outcome() is None
    assert g.plies == [["m0,3>0,2:1"], "resign", []]
    assert twr.dump(g.board, resigned=g.resigned) == text
    # after actions in the same turn: the original writes (resign) in place of the turn
    b = TOWERS.new(size=7)
    b.push("m0,5>0,4:1")
    assert twr.dump(b, resigned=1).endswith("((resign) ()))")
    with pytest.raises(ValueError, match="player to move"):
        twr.dump(b, resigned=2)
    for _ in range(4):
        b.push("end")
    b.push("end")
    with pytest.raises(ValueError, match="over"):
        twr.dump(b, resigned=1)
    with pytest.raises(twr.TwrError, match="after a resignation"):
        twr.read(header() + "((resign) ((move 0 1 0 2 1))))")


@pytest.mark.parametrize("text,match", [
    ('("2.0" () 5 "P1" "P2" "Human" "Human")', "8 items"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" () extra)', "8 items"),
    ('(2.0 () 5 "P1" "P2" "Human" "Human" ())', "version"),
    ('("2.0" (no-lock) 5 "P1" "P2" "Human" "Human" ())', "unknown rule 'no-lock'"),
    ('("2.0" (tower-out tower-out) 5 "P1" "P2" "Human" "Human" ())', "twice"),
    ('("2.0" () 4 "P1" "P2" "Human" "Human" ())', "size"),
    ('("2.0" () "5" "P1" "P2" "Human" "Human" ())', "size"),
    ('("2.0" () 5 P1 "P2" "Human" "Human" ())', "name"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (end))', "plies"),
    # k > height: the original accepted it (a bug); Quadrille names the ply and the action
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (((move 0 3 0 2 2))))',
     r"ply 1 \(Player 1\), action 1 \(move 0 3 0 2 2\) is illegal: Cannot move more pawns"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (((move 0 3 0 2 1)) ((move 0 1 0 2 1) (import 1))))',
     r"ply 2 \(Player 2\), action 2 \(import 1\).*turn had already ended"),
    ('("2.0" () 6 "P1" "P2" "Human" "Human" (((move 0 4 0 3 1)) ()))', "does not end the turn"),
    ('("2.0" () 6 "P1" "P2" "Human" "Human" (() ()))', "empty ply in the middle"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (((jump 0 3 0 2 1))))', r"\(jump 0 3 0 2 1\) is not a Towers action"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (((move 0 3 0 -2 1))))', "not a Towers action"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (((move 0 3 0 7 1))))', "off the board"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" (((import 1))))', "master's cell is locked"),
    ('("2.0" () 5 "P1" "P2" "Human" "Human" ((end) (end) (end) (end) (end)))', "already over"),
])
def test_refused_files(text, match):
    with pytest.raises(twr.TwrError, match=match):
        twr.read(text)


def test_whole_tower_written_as_false():
    # "#f" in an input means the whole tower (towers.md §4.1)
    g = twr.read(header(size=6) + "(((move 0 4 0 3 #f) (move 0 3 0 2 #f)) ()))")
    assert g.board.moves == ["m0,4>0,3:1", "m0,3>0,2:1"]


def test_mid_turn_save():
    b = TOWERS.new(size=8)
    for m in ["m0,6>0,5:1", "end", "m0,1>0,2:1"]:
        b.push(m)
    text = twr.dump(b)
    assert text.endswith("(((move 0 6 0 5 1) end) ((move 0 1 0 2 1))))")
    g = twr.read(text)
    assert g.board.turn_moves() == ["m0,1>0,2:1"] and g.board.move_points == 3


def test_dump_refuses_custom_positions_and_other_boards():
    from games.towers import TowersBoard
    b = TowersBoard.from_position(5, (), board=[[0, 0, -1, 0, 0]] + [[0] * 5] * 3 + [[0, 0, 1, 0, 0]],
                                  masters=[(2, 4), (2, 0)], reserve=(1, 1))
    with pytest.raises(ValueError, match="custom"):
        twr.dump(b)
    with pytest.raises(ValueError, match="custom"):
        b.to_dict()
    assert b.copy().state() == b.state()
    with pytest.raises(TypeError):
        twr.dump("not a board")
    with pytest.raises(ValueError):
        twr.dump(TOWERS.new(), names=("only one",))


@pytest.mark.parametrize("seed", range(12))
def test_random_games_round_trip(seed):
    rng = random.Random(seed)
    size = rng.randint(5, 10)
    rules = sorted(rng.sample(sorted(twr.RULES), rng.randint(0, 3)))
    b = TOWERS.new(size=size, rules=rules)
    for _ in range(rng.randint(0, 250)):
        if b.turn is None:
            break
        b.push(rng.choice(b.legal_moves()))
    text = twr.dump(b, names=(f"A{seed}", "B"), classes=("Human", "Network"))
    g = twr.read(text)
    assert g.board.moves == b.moves and g.board.state() == b.state() and g.board.view() == b.view()
    assert g.plies == b.plies()
    assert twr.dump(g.board, g.names, g.classes) == text
