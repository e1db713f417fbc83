"""The originals' save files under attack: the `.ltc` (Lattice Checkers) reader takes linear time on any text,
refuses a file over the format's `MAX_BYTES` with a sentence for people, and still reads every real file exactly
as before.

Timing checks measure the best of a few runs (the machine is shared): twice the input must take less than 2.5
times as long (quadratic time gives 4 times), and an attack the size of the cap must be read well under a second.
The patterns of the previous version are kept below as oracles, to show that the new reader answers the same.
"""
from __future__ import annotations

import gc
import random
import re
import time

import pytest
from hypothesis import given, settings, strategies as st

import games
from games import savefiles
from games.lattice import ltc
from tests.games.test_lattice_ltc import MIDGAME_222, START_222


def best_time(fn, arg, repeat: int = 5) -> float:
    """The best time of `repeat` calls, with the garbage collector off (as timeit does): a full collection
    walks every object of the test process, whatever the reader does."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                fn(arg)
            except ValueError:
                pass
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def assert_linear(fn, make, n: int) -> None:
    """fn(make(2n)) takes less than 2.5 times as long as fn(make(n)) (best of 5, retried once)."""
    small, large = make(n), make(2 * n)
    for attempt in range(3):
        t1, t2 = best_time(fn, small), best_time(fn, large)
        if t2 < 2.5 * t1:
            return
    raise AssertionError(f"{len(small):,} characters: {t1 * 1000:.1f} ms, {len(large):,}: {t2 * 1000:.1f} ms "
                         f"({t2 / t1:.1f} times as long)")


def assert_fast(fn, text, seconds: float = 0.25) -> None:
    t = best_time(fn, text, repeat=3)
    assert t < seconds, f"{len(text):,} characters took {t:.3f} s"


# ------------------------------------------------------------------------------------------- sizes

def test_size_text():
    assert savefiles.size_text(300 * 1024) == "300 KB"
    assert savefiles.size_text(16 * 1024 + 1) == "17 KB"        # just over a cap never reads as the cap
    assert savefiles.size_text(1) == "1 KB"
    assert savefiles.size_text(3 * 1024 * 1024 // 2) == "1.5 MB"


@pytest.mark.parametrize("module,what,cap", [(ltc, "Lattice Checkers", "16 KB")])
def test_oversize_files_are_refused_with_a_sentence(module, what, cap):
    assert module.MAX_BYTES == int(cap.split()[0]) * 1024
    big = " " * (300 * 1024)
    with pytest.raises(ValueError) as exc:
        module.load(big)
    assert str(exc.value) == f"This file is 300 KB; a {what} save is at most {cap}."
    # one byte over, as text, as bytes, and in UTF-8 bytes rather than characters
    over = " " * (module.MAX_BYTES + 1)
    for text in (over, over.encode()):
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


# ------------------------------------------------------------------------------------------- .ltc

LTC_HEAD = "<dimension>2,2,2</dimension><mycheckers>"
LTC_ATTACKS = {
    # the issue's file: many <checker> and no </checker>
    "unclosed checkers": lambda n: LTC_HEAD + "<checker>" * (n // 9),
    # the scalar tags' pattern: many <tag> and no "</"
    "unclosed dimension": lambda n: "<dimension>" * (n // 11),
    "unclosed colour": lambda n: LTC_HEAD + "<aicheckers>" + "<mycolor>" * (n // 9),
    "unclosed uuid": lambda n: START_222.replace("</", "<").replace("<smart>", "<uuid>" * ((n - 900) // 6) + "<smart>", 1),
    # many complete checkers, all off the lattice
    "a long bench": lambda n: LTC_HEAD + "<checker>99,99,99,false</checker>" * (n // 33)
                              + "</mycheckers><aicheckers></aicheckers>",
    # a checker as long as the file
    "one long checker": lambda n: LTC_HEAD + "<checker>" + "1," * (n // 2) + "</checker>",
}


@pytest.mark.parametrize("attack", sorted(LTC_ATTACKS))
def test_ltc_reads_in_linear_time(attack, monkeypatch):
    monkeypatch.setattr(ltc, "MAX_BYTES", 1 << 30)
    assert_linear(ltc.load, LTC_ATTACKS[attack], 1 << 20)


@pytest.mark.parametrize("attack", sorted(LTC_ATTACKS))
def test_ltc_attack_at_the_cap_is_refused_quickly(attack):
    text = LTC_ATTACKS[attack](ltc.MAX_BYTES - 200)
    assert len(text) <= ltc.MAX_BYTES
    assert_fast(ltc.load, text, 0.05)


def test_the_issues_ltc_files_are_refused_at_once():
    for size in (144 * 1024, 1 << 20):
        text = LTC_ATTACKS["unclosed checkers"](size)
        assert_fast(ltc.load, text, 0.05)
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
