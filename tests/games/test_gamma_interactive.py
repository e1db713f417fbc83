"""Gamma's interactive mode (rules/gamma.md §5, §6.3).

* every key script of shared/gamma_tests/jmolinski-ipp-2020-testy/interactive/ (955),
  twice: replayed on the turn-based GammaBoard with move notation (§5.3), and compiled
  to raw key bytes and fed to the real program in-process (`batch.run`), whose final
  board is scraped from its output; both must end with the expected board;
* the key decoder, the cursor, the turn order and the screen, by name;
* a real terminal (a pty): raw mode while playing, the prompt, Ctrl-D, Ctrl-C, a window
  resize, a window too small, and the terminal exactly as it was afterwards.
"""
from __future__ import annotations

import os
import re
import select
import signal
import struct
import sys
import time

import pytest

from tests.support.waiting import real_time_passes
from tests.support.paths import ROOT, SHARED
from tests.support import gamma_suites as suites
from games.gamma.batch import run
from games.gamma.engine import Gamma
from games.gamma.interactive import (DOWN, END, GOLDEN, LEFT, MOVE, RIGHT, SKIP, UP, KeyDecoder, Screen,
                                     Session, prompt)

INTERACTIVE = SHARED / "gamma_tests" / "jmolinski-ipp-2020-testy" / "interactive"
CASES = [pytest.param(p, id=str(p.relative_to(INTERACTIVE).with_suffix("")))
         for p in (suites.interactive_cases(INTERACTIVE) if INTERACTIVE.is_dir() else [])]


def test_the_suite_is_all_there():
    assert len(CASES) == 955


@pytest.mark.parametrize("path", CASES)
def test_replay_on_the_engine(path):
    commands, want = suites.load(path)
    assert suites.replay(commands) == want


@pytest.mark.parametrize("path", CASES)
def test_keys_through_the_program(path):
    commands, want = suites.load(path)
    result = run(suites.keys(commands))
    assert result.code == 0 and result.stderr == b""
    height = commands[0][2]
    board, summary = suites.final_board(result.stdout, height)
    assert board == want
    players = commands[0][3]
    counts = [board.count(str(p).encode()) for p in range(1, players + 1)]
    assert summary == [b"PLAYER %d %d" % (p, n) for p, n in enumerate(counts, 1)]


# ---------------------------------------------------------------------- key decoder
def decode(*chunks):
    decoder = KeyDecoder()
    return [k for chunk in chunks for k in decoder.keys(chunk)]


@pytest.mark.parametrize("data,keys", [
    (b"\x1b[A\x1b[B\x1b[C\x1b[D", [UP, DOWN, RIGHT, LEFT]),
    (b" gGcC\x04", [MOVE, GOLDEN, GOLDEN, SKIP, SKIP, END]),
    (b"\x1b ", [MOVE]),                        # hb test_esc_interactive: ESC then SPACE is a move
    (b"\x1b]A\x1b\x15A\x1b%A", []),            # hb arrows_test: none of these is an arrow
    (b"\x1b[c", [SKIP]),                       # after ESC [ a non-arrow byte is a fresh key
    (b"\x1b\x1b[A", [UP]),                     # a lone ESC before a real arrow
    (b"\x1b[\x1b[B", [DOWN]),
    (b"\x1bG\x1bc", [GOLDEN, SKIP]),
    (b"\x1b" * 100_000 + b" ", [MOVE]),        # sc escape_100k
    (bytes(b for b in range(256) if b not in (4, 27, 32, 99, 67, 103, 71)), []),
    (b"A[B\x1b[5~", []),
])
def test_key_decoder(data, keys):
    assert decode(data) == keys


def test_key_decoder_sequences_split_across_reads():
    assert decode(b"\x1b", b"[", b"A") == [UP]
    assert decode(b"\x1b[", b" ") == [MOVE]
    assert decode(b"\x1b", b"\x1b", b"[C") == [RIGHT]


# ---------------------------------------------------------------------- session
def test_cursor_starts_bottom_left_and_stops_at_the_walls():
    session = Session(Gamma(3, 2, 2, 2))
    assert (session.x, session.y) == (0, 0)
    for key in (LEFT, DOWN):
        session.key(key)
    assert (session.x, session.y) == (0, 0)
    for key in (RIGHT, RIGHT, RIGHT, UP, UP):
        session.key(key)
    assert (session.x, session.y) == (2, 1)


def test_turns_pass_only_on_success_and_cursor_stays():
    session = Session(Gamma(3, 1, 2, 1))
    session.key(MOVE)
    assert session.player == 2 and (session.x, session.y) == (0, 0)
    session.key(MOVE)                         # occupied: ignored, same player
    session.key(GOLDEN)                       # taking (0,0) is legal for player 2
    assert session.player == 1
    session.key(SKIP)
    assert session.player == 2


def test_game_over_when_nobody_can_move_ignores_further_keys():
    session = Session(Gamma(2, 1, 2, 1))
    for key in (MOVE, RIGHT, MOVE, GOLDEN, LEFT, GOLDEN):
        session.key(key)
    assert session.player is None and session.finished
    session.key(SKIP)
    assert session.summary() == b"21\nPLAYER 1 1\nPLAYER 2 1\n"


def test_ctrl_d_and_end_of_input_end_the_game():
    result = run(b"I 2 2 2 2\n \x04 ")
    assert suites.final_board(result.stdout, 2) == (b"..\n1.\n", [b"PLAYER 1 1", b"PLAYER 2 0"])
    result = run(b"I 2 2 2 2\n \x1b[C ")
    assert suites.final_board(result.stdout, 2) == (b"..\n12\n", [b"PLAYER 1 1", b"PLAYER 2 1"])


def test_players_who_cannot_move_are_skipped():
    session = Session(Gamma(3, 1, 3, 1))
    for key in (MOVE, RIGHT, MOVE, RIGHT, MOVE):
        session.key(key)
    assert session.player == 1                # the board is full; golden moves remain
    session.key(LEFT)
    session.key(GOLDEN)                       # player 1 takes (1,0)
    session.key(SKIP)                         # player 2 passes
    session.key(GOLDEN)                       # player 3 takes (1,0) back, joining its (2,0)
    assert session.player == 2                # player 1 (golden used, no free field) skipped


# ---------------------------------------------------------------------- screen
def test_prompt_line():
    game = Gamma(10, 10, 2, 3)
    assert prompt(game, 1) == "PLAYER 1 0 100"
    game.move(1, 0, 0)
    assert prompt(game, 2) == "PLAYER 2 0 99 G"
    assert prompt(game, 1) == "PLAYER 1 1 99"


def test_frame_shows_board_cursor_and_prompt():
    session = Session(Gamma(3, 2, 2, 1))
    session.key(MOVE)
    session.key(UP)
    frame = Screen(lambda b: None).frame(session).decode("ascii")
    assert frame.startswith("\x1b[H")
    assert "PLAYER 2 0 5 G" in frame
    assert "\x1b[1;7m.\x1b[0m" in frame       # the cursor on a field player 2 may take: reverse video
    assert "1\x1b[0m" in frame and "\x1b[31m1" in frame       # player 1 in its colour
    plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", frame)
    assert plain.split("\n")[:3] == ["...", "1..", "PLAYER 2 0 5 G"]


def test_frame_with_more_than_nine_players_separates_cells():
    session = Session(Gamma(3, 1, 12, 1))
    session.player = 12
    session.key(MOVE)
    plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", Screen(lambda b: None).frame(session).decode("ascii"))
    assert plain.split("\n")[0] == "12  .  ."
    assert Screen.needed(Gamma(3, 1, 12, 1))[0] >= 8


def test_program_leaves_alternate_screen_and_shows_cursor():
    result = run(b"I 2 2 2 2\n\x04")
    out = result.stdout
    assert out.index(b"\x1b[?1049h") < out.index(b"\x1b[?25l") < out.rindex(b"\x1b[?25h") < out.rindex(b"\x1b[?1049l")
    assert out.endswith(b"\x1b[?1049l..\n..\nPLAYER 1 0\nPLAYER 2 0\n")


# ---------------------------------------------------------------------- a real terminal
termios = pytest.importorskip("termios")
import fcntl  # noqa: E402


class Pty:
    """`python -m games.gamma` on a new pseudo-terminal as its controlling terminal."""

    def __init__(self, rows=24, cols=80):
        self.master, self.slave = os.openpty()
        self.resize(rows, cols)
        self.before = termios.tcgetattr(self.slave)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                os.setsid()
                fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
                for fd in (0, 1, 2):
                    os.dup2(self.slave, fd)
                os.close(self.master)
                os.chdir(ROOT)
                os.execv(sys.executable, [sys.executable, "-m", "games.gamma"])
            finally:
                os._exit(127)
        self.pid = pid
        self.out = b""
        self.code = None

    def resize(self, rows, cols):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def send(self, data: bytes):
        os.write(self.master, data)

    def expect(self, text: bytes, timeout=60.0) -> bool:
        start = len(self.out)
        end = time.monotonic() + timeout
        while text not in self.out[start:] and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    self.out += os.read(self.master, 65536)
                except OSError:
                    break
        return text in self.out[start:]

    def wait(self, timeout=60.0) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
                self.expect(b"\x00never", timeout=0.2)   # drain what is left
                return self.code
            self.expect(b"\x00never", timeout=0.05)
        try:
            with open(f"/proc/{self.pid}/status") as f:
                state = [line.strip() for line in f if line.startswith(("State", "SigBlk", "SigIgn", "SigCgt", "SigPnd", "ShdPnd"))]
            with open(f"/proc/{self.pid}/wchan") as f:
                state.append("wchan " + f.read())
        except OSError:
            state = []
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError(f"the program did not end: {state} {self.out[-300:]!r}")

    def attrs(self):
        return termios.tcgetattr(self.slave)

    def close(self):
        if self.code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty_game():
    terminals = []

    def start(**kw):
        t = Pty(**kw)
        terminals.append(t)
        return t
    yield start
    for t in terminals:
        t.close()


def test_terminal_game_raw_mode_prompt_ctrl_d_and_clean_terminal(pty_game):
    t = pty_game()
    t.send(b"I 4 3 2 2\n")
    assert t.expect(b"PLAYER 1 0 12"), t.out[-300:]
    during = t.attrs()
    assert not during[3] & termios.ICANON and not during[3] & termios.ECHO
    t.send(b" ")
    assert t.expect(b"PLAYER 2 0 11 G")
    t.send(b"\x1b[C ")
    assert t.expect(b"PLAYER 1 1 10 G")
    t.send(b"\x1b[A G")                       # player 1 moves to (1,1); the G is player 2's
    assert t.expect(b"PLAYER 1 1 ")
    t.send(b"\x04")
    assert t.wait() == 0
    assert t.attrs() == t.before
    tail = t.out.rsplit(b"\x1b[?1049l", 1)[1].replace(b"\r\n", b"\n")
    assert tail == b"....\n.2..\n12..\nPLAYER 1 1\nPLAYER 2 2\n"
    assert b"\x1b[?25h" in t.out


def test_terminal_ctrl_c_restores_the_terminal(pty_game):
    t = pty_game()
    t.send(b"I 3 3 2 2\n")
    assert t.expect(b"PLAYER 1 0 9")
    t.send(b" \x03")
    code = t.wait()
    assert code == 130
    assert t.attrs() == t.before
    assert t.out.rstrip().endswith(b"\x1b[?1049l")


def test_terminal_too_small_refuses_to_start(pty_game):
    t = pty_game(rows=10, cols=80)
    t.send(b"I 20 20 2 2\n")
    assert t.wait() == 1
    assert b"too small" in t.out and b"\x1b[?1049h" not in t.out
    assert t.attrs() == t.before


def test_terminal_resize_redraws_or_warns(pty_game):
    t = pty_game(rows=24, cols=80)
    t.send(b"I 30 8 2 2\n")
    assert t.expect(b"PLAYER 1 0 240")
    t.resize(5, 20)
    os.kill(t.pid, signal.SIGWINCH)
    assert t.expect(b"too small")
    t.resize(24, 80)
    os.kill(t.pid, signal.SIGWINCH)
    assert t.expect(b"PLAYER 1 0 240")
    t.send(b"\x04")
    assert t.wait() == 0 and t.attrs() == t.before


def test_terminal_ctrl_z_gives_the_terminal_back_and_takes_it_again(pty_game):
    """On SIGTSTP the program leaves the alternate screen and restores the terminal
    before stopping, and redraws in raw mode when continued. (Its process group here is
    orphaned, so the stop itself is discarded by the kernel and it continues at once.)"""
    t = pty_game()
    t.send(b"I 3 3 2 2\n")
    assert t.expect(b"PLAYER 1 0 9")
    mark = len(t.out)
    os.kill(t.pid, signal.SIGTSTP)

    def redrawn():
        after = t.out[mark:]
        return b"\x1b[?1049h" in after and b"Ctrl-D: end" in after.split(b"\x1b[?1049h", 1)[1]
    end = time.monotonic() + 60
    while not redrawn() and time.monotonic() < end:
        t.expect(b"\x00never", timeout=0.05)
    assert redrawn()
    after = t.out[mark:]
    left, back = after.index(b"\x1b[?1049l"), after.index(b"\x1b[?1049h")
    assert left < back < after.index(b"PLAYER 1 0 9", back)
    assert not t.attrs()[3] & termios.ICANON
    t.send(b" \x04")
    assert t.wait() == 0 and t.attrs() == t.before
    assert t.out.replace(b"\r\n", b"\n").endswith(b"...\n...\n1..\nPLAYER 1 1\nPLAYER 2 0\n")


def test_terminal_survives_a_storm_of_resizes_while_drawing(pty_game):
    """Window-change signals arriving while frames are being written: the program keeps
    going and ends cleanly. (Its handlers only take note; drawing stays in the main loop,
    since a handler writing to stdout in the middle of a write would be a reentrant call.)"""
    t = pty_game(rows=40, cols=120)
    t.send(b"I 60 20 9 100\n")
    assert t.expect(b"PLAYER 1 0 1200")
    for i in range(150):
        # nothing is read meanwhile: the program's writes block on a full terminal buffer
        t.send(b"\x1b[C \x1b[A" if i % 2 else b" c")
        os.kill(t.pid, signal.SIGWINCH)
        real_time_passes(0.002, "signals sent apart, not merged into one pending SIGWINCH of the real program")
    t.send(b"\x04")
    assert t.wait() == 0, t.out[-500:]
    assert t.attrs() == t.before
    tail = t.out.rsplit(b"\x1b[?1049l", 1)[1].replace(b"\r\n", b"\n")
    assert tail.count(b"\n") == 20 + 9
