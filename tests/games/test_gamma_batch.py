"""Gamma's batch mode, byte for byte (rules/gamma.md §4, §6.2).

* every test of shared/gamma_tests/jmolinski-ipp-2020-testy/batch/ (2140), in-process
  through `games.gamma.batch.run`: stdout and stderr equal, exit code 0;
* the part-2 folder: `bk/mode_test4` (a 0xFF line) under the final meaning, and all 79
  with the old meaning of `q` switched on (so `q` is the only difference);
* a few files through the real command line, `python -m games.gamma`;
* the parser's edge cases by name.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT, SHARED
from tests.support import gamma_suites as suites
from games.gamma.batch import parse_line, run

SUITE = SHARED / "gamma_tests" / "jmolinski-ipp-2020-testy"
BATCH = SUITE / "batch"
OLD = SUITE / "batch_part2_old_golden_possible"


def cases(root: Path) -> list:
    found = suites.batch_cases(root) if root.is_dir() else []
    return [pytest.param(p, id=str(p.relative_to(root).with_suffix(""))) for p in found]


BATCH_CASES = cases(BATCH)
OLD_CASES = cases(OLD)


def test_the_suites_are_all_there():
    assert len(BATCH_CASES) == 2140
    assert len(OLD_CASES) == 79


@pytest.mark.parametrize("path", BATCH_CASES)
def test_batch(path):
    problem = suites.check_batch(path)
    assert problem is None, problem


def test_part2_mode_test4_byte_ff_line():
    """A line starting with 0xFF is an ERROR and reading continues (final semantics too)."""
    assert suites.check_batch(OLD / "bk" / "mode_test4.in") is None


@pytest.mark.parametrize("path", OLD_CASES)
def test_part2_with_old_golden_possible(path):
    want_out, want_err = suites.expected(path)
    result = run(path.read_bytes(), old_golden_possible=True)
    problem = suites.compare(result.stdout, result.stderr, result.code, want_out, want_err)
    assert problem is None, problem


def test_part2_differs_only_in_q_under_the_final_meaning():
    """78 of the 79 old tests fail with the final golden_possible, and only on `q` lines."""
    failing = 0
    for param in OLD_CASES:
        path = param.values[0]
        data = path.read_bytes()
        new = run(data).stdout.split(b"\n")
        old = run(data, old_golden_possible=True).stdout.split(b"\n")
        assert len(new) == len(old)
        if new != old:
            failing += 1
            # every differing output line is a 0/1 answer
            assert all(a in (b"0", b"1") and b in (b"0", b"1") for a, b in zip(new, old) if a != b)
    assert failing == 78


CLI_FILES = ["testy_przykladowe/example1", "testy_przykladowe/example2", "bk/mode_test3", "bk/empty",
             "bk/empty1", "bk/brail_blank", "hb/test_argumenty"]


def nul_file() -> str:
    for path in sorted((BATCH / "jm" / "parser_errors_2").glob("*.in")):
        if b"\0" in path.read_bytes():
            return str(path.relative_to(BATCH).with_suffix(""))
    raise AssertionError("no test with a NUL byte")


@pytest.mark.parametrize("name", CLI_FILES + ["NUL"])
def test_command_line(name):
    """The real program: stdin as raw bytes, exact stdout and stderr (no RuntimeWarning), exit 0."""
    path = BATCH / ((nul_file() if name == "NUL" else name) + ".in")
    want_out, want_err = suites.expected(path)
    proc = subprocess.run([sys.executable, "-m", "games.gamma"], input=path.read_bytes(),
                          capture_output=True, timeout=30, cwd=ROOT)
    problem = suites.compare(proc.stdout, proc.stderr, proc.returncode, want_out, want_err)
    assert problem is None, problem


def test_command_line_byte_ff_and_chunks():
    path = OLD / "bk" / "mode_test4.in"
    want_out, want_err = suites.expected(path)
    proc = subprocess.run([sys.executable, "-m", "games.gamma"], input=path.read_bytes(),
                          capture_output=True, timeout=30, cwd=ROOT)
    assert (proc.stdout, proc.stderr, proc.returncode) == (want_out, want_err, 0)


@pytest.mark.parametrize("chunk", [1, 2, 7, 4096])
def test_input_in_pieces_gives_the_same_result(chunk):
    """Lines split across reads (as from a pipe or a terminal) are joined correctly."""
    for name in ("testy_przykladowe/example1", "testy_przykladowe/example2", "bk/lenny_test"):
        path = BATCH / (name + ".in")
        assert run(path.read_bytes(), chunk=chunk) == run(path.read_bytes())


# ---------------------------------------------------------------------- the parser, by name
def out_err(data: bytes) -> tuple[bytes, bytes]:
    result = run(data)
    assert result.code == 0
    return result.stdout, result.stderr


GAME = b"B 4 3 2 2\n"


@pytest.mark.parametrize("line,ok", [
    (b"m 1 2 3", True), (b"m\t1\v2\f3\r", True), (b"m 1 2 3 \t", True), (b"m  01 002 0003", True),
    (b"m1 2 3", False), (b"m 1 2", False), (b"m 1 2 3 4", False), (b"m -1 2 3", False), (b"m +1 2 3", False),
    (b"m 1 2 3x", False), (b"m 4294967295 0 0", True), (b"m 4294967296 0 0", False),
    (b"m 1 2 " + b"0" * 100 + b"3", True), (b"m 1 2 " + b"9" * 10000, False), (b"m 1\x002 3", False),
    (b"m\xc2\xa01 2 3", False), (b"m 1\x1c2 3", False), (b"m 1 2 \xd9\xa3", False),
    (b"p", True), (b"p \t\r", True), (b"p1", False), (b"p 1", False), (b"q1", False), (b"q 1", True),
    (b"b 1 1", False), (b"M 1 2 3", False), (b"B 1 2 3 4", True), (b"I 1 2 3 4", True), (b"B 1 2 3", False),
    (b" ", False), (b"\r", False), (b"\xff", False), (b"@ komentarz", False),
])
def test_parse_line(line, ok):
    assert (parse_line(line) is not None) == ok


def test_out_of_range_arguments_print_zero_not_error():
    out, err = out_err(GAME + b"m 1 4 0\nm 1 0 3\nm 0 0 0\nm 3 0 0\ng 1 9 9\nb 0\nf 3\nq 4294967295\n")
    assert out == b"OK 1\n" + b"0\n" * 8 and err == b""


def test_commands_before_a_game_are_errors():
    out, err = out_err(b"m 1 1 1\np\nb 1\n" + GAME + b"b 1\n")
    assert out == b"OK 4\n0\n" and err == b"ERROR 1\nERROR 2\nERROR 3\n"


def test_mode_cannot_change_after_start():
    out, err = out_err(GAME + b"B 4 3 2 2\nI 4 3 2 2\nB 0 0 0 0\n")
    assert out == b"OK 1\n" and err == b"ERROR 2\nERROR 3\nERROR 4\n"


def test_zero_or_refused_parameters_are_errors_and_the_game_may_start_later():
    out, err = out_err(b"B 0 2 2 2\nB 4294967295 4294967295 2 2\nB 2 2 4294967295 2\n" + GAME)
    assert out == b"OK 4\n" and err == b"ERROR 1\nERROR 2\nERROR 3\n"


def test_comments_and_empty_lines_count_but_print_nothing():
    out, err = out_err(b"# comment \xff\x00\n\n" + GAME + b"#m 1 1 1\n\nm 1 1 1\n")
    assert out == b"OK 3\n1\n" and err == b""


def test_whitespace_only_lines_are_errors():
    out, err = out_err(GAME + b" \n\t\n\r\n")
    assert err == b"ERROR 2\nERROR 3\nERROR 4\n" and out == b"OK 1\n"


def test_only_newline_splits_lines():
    out, err = out_err(GAME + b"m 1 0 0\rm 1 1 1\n")      # one line with a \r in it: invalid
    assert err == b"ERROR 2\n"
    out, err = out_err(GAME + b"m 1 0 0\r\n")              # \r as trailing whitespace: fine
    assert out == b"OK 1\n1\n" and err == b""


def test_empty_inputs():
    assert out_err(b"") == (b"", b"")
    assert out_err(b"\n") == (b"", b"")
    assert out_err(b" ") == (b"", b"ERROR 1\n")


def test_unterminated_last_line_is_an_error_whatever_it_holds():
    assert out_err(GAME + b"m 1 0 0") == (b"OK 1\n", b"ERROR 2\n")
    assert out_err(GAME + b"# comment") == (b"OK 1\n", b"ERROR 2\n")


def test_board_printout_is_verbatim():
    out, _ = out_err(GAME + b"m 1 0 0\nm 2 3 2\np\n")
    assert out == b"OK 1\n1\n1\n...2\n....\n1...\n"


def test_golden_possible_cached_answers_follow_the_board():
    out, _ = out_err(b"B 3 1 2 1\nm 2 0 0\nm 2 1 0\nm 2 2 0\nq 1\nq 1\ng 1 1 0\ng 1 0 0\nq 1\nq 2\n")
    assert out == b"OK 1\n1\n1\n1\n1\n1\n0\n1\n0\n1\n"


def test_interactive_start_switches_to_keys():
    """After a valid `I` line the rest of the input is key strokes, not lines."""
    result = run(b"x\nI 2 1 2 1\n \x1b[C \x04m 1 1 1\n")
    assert result.code == 0 and result.stderr == b"ERROR 1\n"
    board, summary = suites.final_board(result.stdout, 1)
    assert board == b"12\n" and summary == [b"PLAYER 1 1", b"PLAYER 2 1"]
