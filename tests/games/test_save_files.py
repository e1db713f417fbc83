"""The originals' save files under attack: `.ltc` (Lattice Checkers) and `.twr` (Towers) readers take linear time
on any text, refuse a file over their format's `MAX_BYTES` with a sentence for people, refuse deep nesting with a
ValueError (never a RecursionError), and still read every real file exactly as before.

"Linear" and "quick" are counted, not timed (tests/games/parse_work.py: the lines of Python the reader runs plus
the characters its scans in C pass over), so a busy machine changes nothing: four times the input must take at
most 5 % more work per character (quadratic time gives four times as much), and an attack the size of the cap
a bounded number of steps per character. bench/save_file_parsing.py measures the seconds.
The readers of the previous version are kept below as oracles, to show that the new ones answer the same.
"""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

import games
from games import savefiles
from games.lattice import ltc
from games.towers import twr
from tests.games.parse_work import assert_plain_patterns, work_of
from tests.support.paths import SHARED, read_jsonl
from tests.games.test_lattice_ltc import MIDGAME_222, START_222

TOWERS_GAMES = read_jsonl(SHARED / "reference" / "towers.jsonl")


def assert_linear(fn, make, n: int, module) -> None:
    """fn(make(4n)) does at most 5 % more work per character than fn(make(n)): linear work gives the same,
    quadratic four times as much."""
    small, large = make(n), make(4 * n)
    w1, w4 = work_of(fn, small, module), work_of(fn, large, module)
    per1, per4 = w1.total / len(small), w4.total / len(large)
    assert per4 <= 1.05 * per1 + 0.01, f"{len(small):,} characters: {w1}, {len(large):,}: {w4}"


def assert_bounded(fn, text, module, per_character: float) -> None:
    """fn(text) does at most `per_character` steps a character (a reading of the whole cap in well under a
    second: bench/save_file_parsing.py)."""
    work = work_of(fn, text, module)
    assert work.total <= per_character * len(text), f"{len(text):,} characters: {work}"


def test_the_readers_patterns_cannot_backtrack():
    # what makes the count of characters scanned a count of the work done
    for module in (ltc, twr):
        assert_plain_patterns(module)


# ------------------------------------------------------------------------------------------- sizes

def test_size_text():
    assert savefiles.size_text(300 * 1024) == "300 KB"
    assert savefiles.size_text(16 * 1024 + 1) == "17 KB"        # just over a cap never reads as the cap
    assert savefiles.size_text(1) == "1 KB"
    assert savefiles.size_text(3 * 1024 * 1024 // 2) == "1.5 MB"


@pytest.mark.parametrize("module,what,cap", [(ltc, "Lattice Checkers", "16 KB"), (twr, "Towers", "128 KB")])
def test_oversize_files_are_refused_with_a_sentence(module, what, cap):
    assert module.MAX_BYTES == int(cap.split()[0]) * 1024
    big = " " * (300 * 1024)
    with pytest.raises(ValueError) as exc:
        module.load(big)
    assert str(exc.value) == f"This file is 300 KB; a {what} save is at most {cap}."
    # one byte over, as text, as bytes, and in UTF-8 bytes rather than characters
    over = " " * (module.MAX_BYTES + 1)
    for text in (over, over.encode()):
        if module is twr and isinstance(text, bytes):
            continue                                   # the .twr reader takes text only
        with pytest.raises(ValueError, match="is at most"):
            module.load(text)
    wide = "é" * (module.MAX_BYTES // 2 + 1)           # fewer characters than the cap, more bytes
    with pytest.raises(ValueError, match="is at most"):
        module.load(wide)


def test_the_lattice_cap_is_far_above_the_largest_real_save():
    # a 333 lattice, all 72 pieces parked on the bench (the longest checker lines), a net game with 36-character
    # ids, Windows line endings: the largest file the original writes
    lattice = games.get("lattice")
    board = lattice.new(size="333", start="B:;T:;benchB:36;benchT:36")
    text = ltc.dump(board, smart=32, mode=4) + f"<uuid>{'u' * 36}</uuid>\n<gameId>{'g' * 36}</gameId>\n"
    text = text.replace("\n", "\r\n")
    assert len(text.encode()) == 2860
    assert 5 * len(text) < ltc.MAX_BYTES
    assert ltc.load(text).bench == (36, 36)
    # the pieces on the lattice write shorter lines than the bench
    full = ltc.dump(lattice.new(size="333"), smart=32, mode=4).replace("\n", "\r\n")
    assert len(full) < len(text)


def test_the_towers_cap_holds_the_longest_real_game():
    # the move limit of the largest board the original offers, every action at its longest and alone in its
    # ply, names of 100 characters, every rule: an upper bound of the largest real .twr
    limit = games.get("towers").move_limit({"size": 10})
    names = '"' + "n" * 100 + '"'
    rules = "(" + " ".join(twr.RULE_ORDER) + ")"
    plies = "(" + " ".join(["((move 9 9 9 0 10))"] * limit) + " ())"
    text = f'("2.0" {rules} 10 {names} {names} "Alpha-Beta simu" "Alpha-Beta simu" {plies})'
    assert len(text) == 60_367
    assert len(text) < twr.MAX_BYTES / 2
    assert isinstance(twr.parse(text), list)
    # the reference games take 17 bytes an action or less
    for g in TOWERS_GAMES:
        actions = sum(len(t["actions"]) for t in g["turns"])
        assert len(g["twr"]) <= 200 + 17 * actions, g["id"]


# ------------------------------------------------------------------------------------------- .ltc

LTC_HEAD = "<dimension>2,2,2</dimension><mycheckers>"
LTC_ATTACKS = {
    # the issue's file: many <checker> and no </checker>
    "unclosed checkers": lambda n: LTC_HEAD + "<checker>" * (n // 9),
    # the scalar tags' pattern: many <tag> and no "</"
    "unclosed dimension": lambda n: "<dimension>" * (n // 11),
    "unclosed colour": lambda n: LTC_HEAD + "<aicheckers>" + "<mycolor>" * (n // 9),
    "unclosed uuid": lambda n: START_222.replace("</", "<").replace("<smart>",
                                                                  "<uuid>" * ((n - 900) // 6) + "<smart>", 1),
    # many complete checkers, all off the lattice
    "a long bench": lambda n: LTC_HEAD + "<checker>99,99,99,false</checker>" * (n // 33)
                              + "</mycheckers><aicheckers></aicheckers>",
    # a checker as long as the file
    "one long checker": lambda n: LTC_HEAD + "<checker>" + "1," * (n // 2) + "</checker>",
}


@pytest.mark.parametrize("attack", sorted(LTC_ATTACKS))
def test_ltc_reads_in_linear_time(attack, monkeypatch):
    monkeypatch.setattr(ltc, "MAX_BYTES", 1 << 30)
    assert_linear(ltc.load, LTC_ATTACKS[attack], 1 << 15, ltc)


@pytest.mark.parametrize("attack", sorted(LTC_ATTACKS))
def test_ltc_attack_at_the_cap_is_refused_quickly(attack):
    text = LTC_ATTACKS[attack](ltc.MAX_BYTES - 200)
    assert len(text) <= ltc.MAX_BYTES
    assert_bounded(ltc.load, text, ltc, 12)


def test_the_issues_ltc_files_are_refused_at_once():
    for size in (144 * 1024, 1 << 20):
        text = LTC_ATTACKS["unclosed checkers"](size)
        work = work_of(ltc.load, text, ltc)
        assert work.scanned == 0 and work.lines < 50, work         # refused before a character is read
        with pytest.raises(ValueError, match="a Lattice Checkers save is at most 16 KB"):
            ltc.load(text)


def test_ltc_errors_quote_a_long_text_cut_short():
    body = "1," * 1000
    with pytest.raises(ValueError) as exc:
        ltc.load(LTC_HEAD + f"<checker>{body}</checker>")
    assert len(str(exc.value)) < 100 and "expected x,y,z,isStar" in str(exc.value)
    with pytest.raises(ValueError, match="not UTF-8"):
        ltc.load(START_222.encode() + b"\xff")
    assert ltc.load(START_222.encode()).pos() == games.get("lattice").new().pos()


# The previous version's patterns, as oracles.
def old_tag(text, name):
    m = re.search(r"<" + name + r">(.*?)</", text, re.S)
    return m.group(1).strip() if m else None


OLD_TOKEN = re.compile(r"<(/?)(mycheckers|aicheckers)>|<checker>(.*?)</checker>", re.S)

LTC_PIECES = ["<checker>", "</checker>", "<mycheckers>", "</mycheckers>", "<aicheckers>", "</aicheckers>",
              "<dimension>", "</dimension>", "</", "<", ">", "1,1,1,false", "2,2,2", "my", "\n", "x", "<uuid>",
              "</color>", "<mycolor>", "<checker"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LTC_PIECES), max_size=40))
def test_ltc_scans_as_the_previous_patterns(pieces):
    text = "".join(pieces)
    assert list(ltc._tokens(text)) == [m.groups() for m in OLD_TOKEN.finditer(text)]
    for name in ("dimension", "mycolor", "uuid", "checker"):
        assert ltc._tag(text, name) == old_tag(text, name)


def test_real_ltc_files_read_as_before():
    for text in (START_222, MIDGAME_222, START_222.replace("\n", "\r\n")):
        assert list(ltc._tokens(text)) == [m.groups() for m in OLD_TOKEN.finditer(text)]
    rng = random.Random(5)
    for size in ("222", "322", "223", "323", "333"):
        board = games.get("lattice").new(size=size)
        for _ in range(rng.randrange(150)):
            if board.turn is None:
                break
            board.push(rng.choice(board.legal_moves()))
        text = ltc.dump(board)
        assert list(ltc._tokens(text)) == [m.groups() for m in OLD_TOKEN.finditer(text)]
        assert ltc.load(text).pos() == board.pos()


# ------------------------------------------------------------------------------------------- .twr

HEADER = '("2.0" () 6 "P1" "P2" "Human" "Human" '
TWR_ATTACKS = {
    "deep nesting": lambda n: "(" * (n // 2) + ")" * (n // 2),
    "unclosed nesting": lambda n: "(" * n,
    "quote chain": lambda n: "' " * (n // 2) + "1",
    "unclosed string": lambda n: '"' + "a" * n,
    "escapes": lambda n: '"' + "\\x41;" * (n // 5) + '"',
    "comments": lambda n: "; comment\n" * (n // 10) + "1",
    "a long symbol": lambda n: "(" + "a" * n + ")",
    "long numbers": lambda n: "(" + ("9" * 4000 + " ") * (n // 4001 - 1) + ")",
    "a wide action": lambda n: HEADER + "((" + "(move " + "1 " * (n // 2 - 30) + "))))",
    "many empty plies": lambda n: HEADER + "(" + "() " * (n // 3) + "))",
    "many passes": lambda n: HEADER + "(" + "(end) " * (n // 6) + "))",
}


@pytest.mark.parametrize("attack", sorted(TWR_ATTACKS))
def test_twr_reads_in_linear_time(attack, monkeypatch):
    monkeypatch.setattr(twr, "MAX_BYTES", 1 << 30)
    monkeypatch.setattr(twr, "MAX_DEPTH", 1 << 30)   # let the nesting attacks nest all the way
    assert_linear(twr.load, TWR_ATTACKS[attack], 1 << 13, twr)


@pytest.mark.parametrize("attack", sorted(TWR_ATTACKS))
def test_twr_attack_at_the_cap_is_refused_quickly(attack):
    text = TWR_ATTACKS[attack](twr.MAX_BYTES - 100)
    assert len(text) <= twr.MAX_BYTES
    assert_bounded(twr.load, text, twr, 24)
    with pytest.raises(ValueError):
        twr.load(text)


def test_a_long_real_game_at_the_cap_is_read_quickly():
    # the longest game the server allows on 10x10, every turn a move there and back, read and replayed
    limit = games.get("towers").move_limit({"size": 10})
    board = games.get("towers").new(size=10, rules=["no-first-lock-master"])
    there, back = "m0,8>0,7:1", "m0,7>0,8:1"
    p2 = ("m0,1>0,2:1", "m0,2>0,1:1")
    i = 0
    while len(board.moves) < limit - 2:
        for m in ((there if i % 2 == 0 else back), "end", p2[i % 2], "end"):
            board.push(m)
        i += 1
    text = twr.dump(board)
    assert len(text) < twr.MAX_BYTES and board.turn is not None
    assert_bounded(twr.load, text, twr, 30)      # read and replayed: about 23 steps a character
    assert twr.load(text).moves == board.moves


def test_twr_refuses_boards_and_games_no_real_save_holds_before_the_replay():
    with pytest.raises(twr.TwrError, match="the board size 11 is not one of the original's: 5 to 10"):
        twr.read('("2.0" () 11 "P1" "P2" "Human" "Human" (()))')
    with pytest.raises(twr.TwrError, match="the board size 32 is not one"):
        twr.read('("2.0" () 32 "P1" "P2" "Human" "Human" (()))')
    # one action over the move limit: refused by counting, nothing replayed (the actions are not even legal)
    text = HEADER + "(" + "((jump)) " * 1801 + "()))"
    with pytest.raises(twr.TwrError, match="the game has 1,801 actions; a real Towers game on a 6x6 board takes "
                                           "1,800 at most"):
        twr.read(text)
    with pytest.raises(twr.TwrError, match="not a Towers action"):    # at the limit: read, and refused for the
        twr.read(HEADER + "(" + "((jump)) " * 1800 + "()))")          # first action


@pytest.mark.parametrize("text", ["(" * 5000, "(" * 5000 + ")" * 5000, "[" * 5000, HEADER + "(" * 5000])
def test_deep_nesting_is_a_value_error(text):
    with pytest.raises(ValueError) as exc:
        twr.load(text)
    assert not isinstance(exc.value, RecursionError)
    assert isinstance(exc.value, twr.TwrError)
    assert f"lists nested more than {twr.MAX_DEPTH} deep (a .twr game nests them 4 deep)" in str(exc.value)


def test_quote_chains_and_odd_escapes():
    assert twr.parse("' " * 5000 + "a") == "a"
    with pytest.raises(twr.TwrError, match="unexpected end of file"):
        twr.parse("(' ")
    with pytest.raises(twr.TwrError, match=r"unexpected '\)'"):
        twr.parse("(' )")
    with pytest.raises(twr.TwrError, match="bad escape"):
        twr.parse('"\\UFFFFFFFF"')                    # beyond Unicode: was a bare ValueError from chr()
    with pytest.raises(twr.TwrError, match="not closed"):
        twr.parse("(; a comment that ends the file")


def test_twr_errors_quote_a_long_text_cut_short():
    with pytest.raises(twr.TwrError) as exc:
        twr.read(HEADER + "((" + "(move " + "1 " * 5000 + "))))")
    assert "is not a Towers action" in str(exc.value) and len(str(exc.value)) < 150
    with pytest.raises(twr.TwrError) as exc:
        twr.read(f'("2.0" ({"x" * 5000}) 6 "P1" "P2" "Human" "Human" (()))')
    assert "unknown rule" in str(exc.value) and len(str(exc.value)) < 250
    with pytest.raises(twr.TwrError) as exc:                # a 4,000-digit size
        twr.read(f'("2.0" () {"9" * 4000} "P1" "P2" "Human" "Human" (()))')
    assert "size" in str(exc.value) and len(str(exc.value)) < 250
    with pytest.raises(twr.TwrError, match="Unreadable move"):   # a 4,000-digit coordinate
        twr.read(HEADER + f"(((move {'9' * 4000} 4 0 3 1))))")


# The previous version's reader (recursive), verbatim, as an oracle.
def old_parse(text: str):
    if not isinstance(text, str):
        raise twr.TwrError("a .twr file is text")
    pos = 0
    n = len(text)

    def skip() -> None:
        nonlocal pos
        while pos < n:
            c = text[pos]
            if c.isspace():
                pos += 1
            elif c == ";":
                while pos < n and text[pos] != "\n":
                    pos += 1
            else:
                break

    def datum():
        nonlocal pos
        skip()
        if pos >= n:
            raise twr.TwrError("unexpected end of file")
        c = text[pos]
        if c in "([":
            close = twr._CLOSE[c]
            pos += 1
            items = []
            while True:
                skip()
                if pos >= n:
                    raise twr.TwrError(f"unexpected end of file: a list is not closed with {close!r}")
                if text[pos] in ")]":
                    if text[pos] != close:
                        raise twr.TwrError(f"at character {pos}: {text[pos]!r} closes a list opened with {c!r}")
                    pos += 1
                    return items
                items.append(datum())
        if c in ")]":
            raise twr.TwrError(f"at character {pos}: unexpected {c!r}")
        if c == '"':
            pos += 1
            out = []
            while True:
                if pos >= n:
                    raise twr.TwrError("unexpected end of file inside a string")
                c = text[pos]
                if c == '"':
                    pos += 1
                    return "".join(out)
                if c == "\\":
                    if pos + 1 >= n:
                        raise twr.TwrError("unexpected end of file inside a string")
                    e = text[pos + 1]
                    if e in twr._ESCAPES:
                        out.append(twr._ESCAPES[e])
                        pos += 2
                    elif e in "uUx":
                        j = pos + 2
                        limit = {"u": 4, "U": 8, "x": 2}[e]
                        while j < n and j - pos - 2 < limit and text[j] in "0123456789abcdefABCDEF":
                            j += 1
                        if j == pos + 2:
                            raise twr.TwrError(f"at character {pos}: bad escape in a string")
                        out.append(chr(int(text[pos + 2:j], 16)))
                        pos = j
                        if e == "x" and pos < n and text[pos] == ";":
                            pos += 1
                    elif e == "\n":
                        pos += 2
                    else:
                        raise twr.TwrError(f"at character {pos}: unknown escape \\{e} in a string")
                else:
                    out.append(c)
                    pos += 1
        start = pos
        while pos < n and text[pos] not in twr._DELIMS:
            pos += 1
        tok = text[start:pos]
        if tok == "'":
            return datum()
        return twr._atom(tok)  # atoms are read as before: only the nesting changed

    value = datum()
    skip()
    if pos != n:
        raise twr.TwrError(f"at character {pos}: unexpected text after the game")
    return value


def typed(x):
    """A datum with its types spelled out (a Symbol equals a string of the same text)."""
    if isinstance(x, list):
        return [typed(v) for v in x]
    return (type(x).__name__, x)


def outcome(fn, text):
    try:
        return ("ok", typed(fn(text)))
    except twr.TwrError as exc:
        return ("error", str(exc))


TWR_PIECES = ["(", ")", "[", "]", " ", "\n", "'", '"', "\\", "\\n", "\\x41;", "\\u00e9", ";", "a", "1", "-2",
              "#t", "#f", "move", "end", "'a"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TWR_PIECES), max_size=30))
def test_twr_reads_as_the_previous_reader(pieces):
    text = "".join(pieces)
    assert outcome(twr.parse, text) == outcome(old_parse, text)


def test_every_reference_twr_reads_as_before():
    for g in TOWERS_GAMES:
        text = g["twr"]
        value = twr.parse(text)
        assert typed(value) == typed(old_parse(text)), g["id"]
        assert twr._fmt(value) == text, g["id"]        # the reader keeps every datum: written back, the same text
