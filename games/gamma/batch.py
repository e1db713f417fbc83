"""The assignment's text program: batch mode, and the hand-off to interactive mode.

    python -m games.gamma < game.in

Standard input is read as raw bytes and split into lines on b"\\n" only, as the
assignment's program does: the inputs contain NUL, 0xFF, \\r, \\v and invalid UTF-8.
A `B w h p a` line starts batch mode (`OK n`), an `I w h p a` line interactive mode (see
interactive.py); after
that the mode cannot change. Every malformed or misplaced line gives `ERROR n` on
standard error and nothing else; standard error carries nothing but those lines.

`run(data)` runs the whole program in-process on a bytes input (the tests use it);
`main()` is the real command line.
"""
from __future__ import annotations

import io
import os
import re
import sys
from typing import Callable, NamedTuple

from games.gamma.engine import UINT32_MAX, Gamma

_WS = rb"[ \t\v\f\r]"          # C isspace() without \n; nothing else is whitespace
_NUM = rb"([0-9]+)"


def _pattern(letter: bytes, count: int) -> re.Pattern:
    if count == 0:
        return re.compile(letter + _WS + rb"*")
    return re.compile(letter + (_WS + rb"+" + _NUM) * count + _WS + rb"*")


_PATTERNS = {
    ord("B"): _pattern(b"B", 4),
    ord("I"): _pattern(b"I", 4),
    ord("m"): _pattern(b"m", 3),
    ord("g"): _pattern(b"g", 3),
    ord("b"): _pattern(b"b", 1),
    ord("f"): _pattern(b"f", 1),
    ord("q"): _pattern(b"q", 1),
    ord("p"): _pattern(b"p", 0),
}
_HASH = ord("#")
_B = ord("B")
_I = ord("I")


def parse_line(line: bytes) -> tuple | None:
    """(command byte, numbers...) for a well-formed command line, else None.

    The line has no trailing newline. Empty lines and comments are the caller's
    business (they are not commands)."""
    if not line:
        return None
    pattern = _PATTERNS.get(line[0])
    if pattern is None:
        return None
    m = pattern.fullmatch(line)
    if m is None:
        return None
    values = []
    for digits in m.groups():
        if len(digits) > 10 and len(digits.lstrip(b"0")) > 10:
            return None
        value = int(digits)
        if value > UINT32_MAX:
            return None
        values.append(value)
    return (line[0], *values)


class Interactive(Exception):
    """Raised by Batch.line when an `I` line starts an interactive game."""

    def __init__(self, game: Gamma):
        super().__init__("interactive")
        self.game = game


class Batch:
    """The line state machine: no game yet, then batch mode."""

    def __init__(self, out: Callable[[bytes], object], err: Callable[[bytes], object],
                 old_golden_possible: bool = False):
        self.out = out
        self.err = err
        self.old_golden_possible = old_golden_possible
        self.game: Gamma | None = None
        self.number = 0

    def error(self) -> None:
        self.err(b"ERROR %d\n" % self.number)

    def line(self, line: bytes) -> None:
        """Process one line (without its newline). Raises Interactive on a valid `I`."""
        self.number += 1
        if not line or line[0] == _HASH:
            return
        cmd = parse_line(line)
        if cmd is None:
            return self.error()
        op = cmd[0]
        game = self.game
        if game is None:
            if op != _B and op != _I:
                return self.error()
            try:
                game = Gamma(*cmd[1:], undo=False)
            except ValueError:
                return self.error()
            game.old_golden_possible = self.old_golden_possible
            if op == _I:
                raise Interactive(game)
            self.game = game
            self.out(b"OK %d\n" % self.number)
            return
        if op == 109:    # m
            self.out(b"1\n" if game.move(*cmd[1:]) else b"0\n")
        elif op == 103:  # g
            self.out(b"1\n" if game.golden_move(*cmd[1:]) else b"0\n")
        elif op == 98:   # b
            self.out(b"%d\n" % game.busy_fields(cmd[1]))
        elif op == 102:  # f
            self.out(b"%d\n" % game.free_fields(cmd[1]))
        elif op == 113:  # q
            self.out(b"1\n" if game.golden_possible(cmd[1]) else b"0\n")
        elif op == 112:  # p
            self.out(game.board_bytes())
        else:            # B or I once a game is running
            self.error()

    def last_line(self, fragment: bytes) -> None:
        """An unterminated final line: ERROR whatever it holds, as the oracle does."""
        self.number += 1
        if fragment:
            self.error()


def serve(read: Callable[[], bytes], out: Callable[[bytes], object], err: Callable[[bytes], object],
          flush: Callable[[], object] = lambda: None, terminal=None, old_golden_possible: bool = False) -> int:
    """Run the program: `read()` returns the next chunk of standard input (b"" at EOF).
    Returns the exit code. `old_golden_possible` is only for the part-2 test folder."""
    batch = Batch(out, err, old_golden_possible)
    buf = b""
    while True:
        chunk = read()
        if not chunk:
            break
        buf = buf + chunk if buf else chunk
        pos = 0
        find = buf.find
        try:
            while True:
                nl = find(b"\n", pos)
                if nl < 0:
                    break
                line = buf[pos:nl]
                pos = nl + 1
                batch.line(line)
        except Interactive as start:
            from games.gamma.interactive import play
            flush()
            return play(start.game, buf[pos:], read, out, err, flush=flush, terminal=terminal)
        buf = buf[pos:]
        flush()
    batch.last_line(buf)
    flush()
    return 0


class Result(NamedTuple):
    stdout: bytes
    stderr: bytes
    code: int


def run(data: bytes, *, chunk: int | None = None, old_golden_possible: bool = False) -> Result:
    """Run the program in-process on `data` as standard input.

    `chunk` feeds the input in pieces of that size, as a pipe would (default: all at once);
    `old_golden_possible` switches `q` to the part-2 meaning (for the old test folder)."""
    out: list = []
    err: list = []
    if chunk is None:
        pieces = [bytes(data)]
    else:
        pieces = [bytes(data[i:i + chunk]) for i in range(0, len(data), chunk)]
    pieces.reverse()

    def read() -> bytes:
        return pieces.pop() if pieces else b""

    code = serve(read, out.append, err.append, old_golden_possible=old_golden_possible)
    return Result(b"".join(out), b"".join(err), code)


def main() -> int:
    """The command line: standard input as raw bytes, results on stdout, errors on stderr."""
    stdout = sys.stdout.buffer
    stderr = sys.stderr.buffer
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        fd = None
    if fd is None:
        def read() -> bytes:
            return sys.stdin.buffer.read1(65536) if sys.stdin is not None else b""
    else:
        def read() -> bytes:
            return os.read(fd, 65536)
    terminal = None
    if fd is not None:
        from games.gamma.interactive import Terminal
        terminal = Terminal.open(fd, stdout)

    def flush() -> None:
        stdout.flush()
        stderr.flush()

    try:
        return serve(read, stdout.write, stderr.write, flush=flush, terminal=terminal)
    except MemoryError:
        stderr.write(b"out of memory\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        except OSError:
            pass
        return 1
