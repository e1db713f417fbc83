"""Import of the original's .ltc save files (rules/lattice.md §9.1, §9.3), with files written by hand from
the document's description of the format, and the export back to it."""
from __future__ import annotations

import json
import random

import pytest

import games
from games.lattice import ltc

# The 222 start as the original writes it: the <mycolor> line closes with </color>, the first <checker> of
# each list shares the line of its list tag, checkers are world x,y,z,isStar.
START_222 = """<mycolor>0.0,0.0,1.0,1.0</color>
<aicolor>1.0,0.0,0.0,1.0</aicolor>
<firstMove>my</firstMove>
<dimension>2,2,2</dimension>
<mycheckers><checker>-3,-3,-3,false</checker>
<checker>-3,1,-3,false</checker>
<checker>-1,-1,-3,false</checker>
<checker>-1,3,-3,false</checker>
<checker>1,-3,-3,false</checker>
<checker>1,1,-3,false</checker>
<checker>3,-1,-3,false</checker>
<checker>3,3,-3,false</checker>
</mycheckers>
<aicheckers><checker>-3,-1,3,false</checker>
<checker>-3,3,3,false</checker>
<checker>-1,-3,3,false</checker>
<checker>-1,1,3,false</checker>
<checker>1,-1,3,false</checker>
<checker>1,3,3,false</checker>
<checker>3,-3,3,false</checker>
<checker>3,1,3,false</checker>
</aicheckers>
<smart>2</smart>
<mode>2</mode>
"""

# A position in the middle of a game (lattice_cases.md case 9, after the move): stars, and captured pieces
# parked on the bench beside the lattice (x = -(dX+9) for "my", +(dX+9) for "ai", y = dY+10, z = -dZ-7, ...).
# A net game: uuid and gameId lines at the end. The computer ("ai") moves first.
MIDGAME_222 = """<mycolor>0.0,1.0,0.0,1.0</color>
<aicolor>1.0,0.6,0.0,1.0</aicolor>
<firstMove>ai</firstMove>
<dimension>2,2,2</dimension>
<mycheckers><checker>-3,-3,1,false</checker>
<checker>-3,1,-3,false</checker>
<checker>-1,3,-3,false</checker>
<checker>3,-3,3,true</checker>
<checker>3,3,1,false</checker>
<checker>-11,12,-9,false</checker>
<checker>-11,12,-8,false</checker>
<checker>-11,12,-7,false</checker>
</mycheckers>
<aicheckers><checker>-3,3,-1,false</checker>
<checker>-3,3,3,false</checker>
<checker>-1,-3,3,false</checker>
<checker>-1,-1,-3,true</checker>
<checker>-1,1,3,false</checker>
<checker>1,-1,3,false</checker>
<checker>11,12,-9,false</checker>
<checker>11,12,-8,false</checker>
</aicheckers>
<smart>32</smart>
<mode>4</mode>
<uuid>0b6f4c2e-1b7e-4c43-9c55-0f1f3b0e6a11</uuid>
<gameId>x42abc</gameId>
"""
MIDGAME_POS = "B:Aa3,Ac1,Bd1,Da4*,Dd3;T:Ad2,Ad4,Ba4,Bb1*,Bc4,Cb4;benchB:3;benchT:2"


def test_import_the_start_position():
    board = ltc.load(START_222)
    fresh = games.get("lattice").new()
    assert board.pos() == fresh.pos()
    assert board.turn == 1 and board.legal_moves() == fresh.legal_moves()
    assert board.options["size"] == "222" and board.options["first"] == 1
    assert (board.options["color_b"], board.options["color_t"]) == ("blue", "red")
    info = ltc.parse(START_222)
    assert info["smart"] == 2 and info["mode"] == 2 and info["uuid"] is None and info["game_id"] is None


def test_import_a_game_in_progress_with_stars_and_captured_pieces():
    board = ltc.load(MIDGAME_222)
    assert board.pos() == MIDGAME_POS
    assert board.bench == (3, 2) and board.on_board() == (5, 6)
    assert board.piece_at("Da4") == (1, True) and board.piece_at("Bb1") == (2, True)
    # no side to move in the file: the first mover ("ai" = T) resumes
    assert board.turn == 2 and board.options["first"] == 2
    assert (board.options["color_b"], board.options["color_t"]) == ("green", "orange")
    info = ltc.parse(MIDGAME_222)
    assert info["smart"] == 32 and info["mode"] == 4
    assert info["uuid"] == "0b6f4c2e-1b7e-4c43-9c55-0f1f3b0e6a11" and info["game_id"] == "x42abc"


def test_benched_piece_inside_the_z_range_is_still_captured():
    # seven captured B pieces: z slots -9 .. -3, the last ones inside |z| < 4, but x is off the lattice
    lines = START_222.split("\n")
    bench = [f"<checker>-11,12,{-9 + k},false</checker>" for k in range(7)]
    text = "\n".join(lines[:4] + ["<mycheckers><checker>-3,-3,-3,false</checker>"] + bench
                     + ["</mycheckers>"] + lines[13:])
    board = ltc.load(text)
    assert board.bench == (7, 0) and board.on_board() == (1, 8)


def test_imported_game_record_round_trip():
    board = ltc.load(MIDGAME_222)
    board.push(board.legal_moves()[0])
    record = json.loads(json.dumps(board.to_dict()))
    assert record["options"]["start"] == MIDGAME_POS
    again = games.from_dict(record)
    assert again.pos() == board.pos() and again.turn == board.turn and again.moves == board.moves
    assert again.legal_moves() == board.legal_moves()


@pytest.mark.parametrize("size,dims", [("322", "3,2,2"), ("223", "2,2,3"), ("323", "3,2,3"), ("333", "3,3,3")])
def test_import_every_size(size, dims):
    board = games.get("lattice").new(size=size)
    text = ltc.dump(board)
    assert f"<dimension>{dims}</dimension>" in text
    again = ltc.load(text)
    assert again.options["size"] == size and again.pos() == board.pos()


def test_windows_line_endings_and_options():
    board = ltc.load(START_222.replace("\n", "\r\n"), end_on_elimination=True)
    assert board.pos() == games.get("lattice").new().pos() and board.options["end_on_elimination"] is True


def test_colours_are_matched_to_the_eight_choices():
    text = START_222.replace("0.0,0.0,1.0,1.0</color>", "1.0,0.0,1.0,1.0</color>")
    text = text.replace("<aicolor>1.0,0.0,0.0,1.0", "<aicolor>0.0,1.0,1.0,1.0")
    opts = ltc.parse(text)["options"]
    assert (opts["color_b"], opts["color_t"]) == ("magenta", "cyan")
    # the original never writes two equal colours; if a file does, T gets another one
    same = START_222.replace("<aicolor>1.0,0.0,0.0,1.0", "<aicolor>0.0,0.0,1.0,1.0")
    opts = ltc.parse(same)["options"]
    assert opts["color_b"] == "blue" and opts["color_t"] == "red"


@pytest.mark.parametrize("edit,word", [
    (lambda t: t.replace("<dimension>2,2,2</dimension>\n", ""), "dimension"),
    (lambda t: t.replace("2,2,2", "4,4,4"), "dimension"),
    (lambda t: t.replace("<firstMove>my", "<firstMove>me"), "firstMove"),
    (lambda t: t.replace("-3,-3,-3,false", "-2,-3,-3,false"), "not on a node"),
    (lambda t: t.replace("-3,-3,-3,false", "-3,-1,-3,false"), "not on a node"),
    (lambda t: t.replace("-3,1,-3,false", "-3,-3,-3,false"), "two pieces"),
    (lambda t: t.replace("-3,-3,-3,false", "-3,-3,-3,maybe"), "isStar"),
    (lambda t: t.replace("-3,-3,-3,false", "-3,-3,false"), "isStar"),
    (lambda t: t.replace("-3,-3,-3,false", "a,-3,-3,false"), "numbers"),
    (lambda t: t[:t.index("<aicheckers>")], "aicheckers"),
    (lambda t: "<checker>1,1,1,false</checker>\n" + t, "outside"),
    (lambda t: "hello", "not an .ltc file"),
])
def test_malformed_files_are_refused_with_a_reason(edit, word):
    with pytest.raises(ValueError, match=word):
        ltc.load(edit(START_222))


def test_dump_writes_the_original_format():
    text = ltc.dump(ltc.load(MIDGAME_222))
    lines = text.splitlines()
    assert lines[0] == "<mycolor>0.0,1.0,0.0,1.0</color>"
    assert lines[1] == "<aicolor>1.0,0.6,0.0,1.0</aicolor>"
    assert lines[2:4] == ["<firstMove>ai</firstMove>", "<dimension>2,2,2</dimension>"]
    assert lines[4].startswith("<mycheckers><checker>") and "</mycheckers>" in lines
    assert "<checker>-11,12,-9,false</checker>" in lines and "<checker>11,12,-8,false</checker>" in lines
    assert ltc.load(text).pos() == MIDGAME_POS


@pytest.mark.parametrize("size", ["222", "322", "223", "323", "333"])
def test_dump_load_round_trip_on_random_positions(size):
    rng = random.Random(size)
    for _ in range(5):
        board = games.get("lattice").new(size=size, first=rng.choice((1, 2)))
        for _ in range(rng.randrange(200)):
            if board.turn is None:
                break
            board.push(rng.choice(board.legal_moves()))
        again = ltc.load(ltc.dump(board))
        assert again.pos() == board.pos()
        assert sum(again.bench) + sum(again.on_board()) == sum(board.bench) + sum(board.on_board())
