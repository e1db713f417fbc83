"""Running the public gamma test suites (shared/gamma_tests, rules/gamma.md §5.3 and §6), and the
suite's performance case (a snake of fields).

Test support, kept out of games/ because it reads files: used by the gamma tests and by
bench/gamma.py; the suites themselves are read from the shared folder, never copied.

* Batch tests: `X.in` -> expected `X.out`, `X.err` (missing = empty), exit code 0.
  `check_batch(path)` runs the program in-process (`batch.run`) and returns None or a
  description of the first difference.
* Interactive tests: `X.ivml` key scripts -> expected final board `X.vmr`. Two ways:
  `replay(commands)` drives the turn-based `GammaBoard` with move notation (the
  command level of §5.3); `keys(commands)` compiles the script to the raw bytes a
  person would type (arrows from the cursor's start at (0, 0), Ctrl-D at an END) for
  the real program, whose final board `final_board(stdout)` scrapes from its output.
"""
from __future__ import annotations

from pathlib import Path

from games.base import IllegalMove

ARROW = {"UP": b"\x1b[A", "DOWN": b"\x1b[B", "RIGHT": b"\x1b[C", "LEFT": b"\x1b[D"}


# ---------------------------------------------------------------------- batch
def batch_cases(root: Path) -> list[Path]:
    """Every `.in` file under root, recursively, sorted."""
    return sorted(Path(root).rglob("*.in"))


def expected(path: Path) -> tuple[bytes, bytes]:
    out = path.with_suffix(".out").read_bytes()
    err_path = path.with_suffix(".err")
    return out, err_path.read_bytes() if err_path.exists() else b""


def first_difference(name: str, got: bytes, want: bytes) -> str | None:
    if got == want:
        return None
    a = got.split(b"\n")
    b = want.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return f"{name} line {i}: got {x[:120]!r}, expected {y[:120]!r}"
    return f"{name}: got {len(a) - 1} lines, expected {len(b) - 1}"


def compare(stdout: bytes, stderr: bytes, code: int, want_out: bytes, want_err: bytes) -> str | None:
    if code != 0:
        return f"exit code {code}, expected 0"
    return first_difference("stdout", stdout, want_out) or first_difference("stderr", stderr, want_err)


def check_batch(path: Path) -> str | None:
    """Run one batch test in-process; None if it passes, else the first difference."""
    from games.gamma.batch import run
    want_out, want_err = expected(path)
    result = run(path.read_bytes())
    return compare(result.stdout, result.stderr, result.code, want_out, want_err)


# ---------------------------------------------------------------------- interactive
def ivml(text: str) -> list[tuple]:
    """The commands of an .ivml script: (NAME, int args...); blank and # lines skipped."""
    commands = []
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        name = parts[0]
        if name == "SETWAIT":
            continue
        commands.append((name, *map(int, parts[1:])))
    return commands


def interactive_cases(root: Path) -> list[Path]:
    return sorted(Path(root).rglob("*.ivml"))


def load(path: Path) -> tuple[list[tuple], bytes]:
    """(commands, expected final board) of one interactive test."""
    return ivml(path.read_text(encoding="ascii")), path.with_suffix(".vmr").read_bytes()


def replay(commands: list[tuple]) -> bytes:
    """Replay a script on the turn-based GammaBoard (§5.3): GOTO sets the cursor, MOVE,
    GOLDEN and SKIPTURN push `x,y`, `gx,y` and `skip` for the seat to act (an illegal
    one is ignored), arrows move within the walls, SENDCODE does nothing, END stops.
    Returns the final board printout."""
    from games.gamma import GAME
    board = None
    x = y = 0
    for name, *args in commands:
        if name == "START":
            w, h, p, a = args
            board = GAME.new(width=w, height=h, players=p, areas=a)
            continue
        if board is None or board.turn is None:
            break
        if name == "GOTO":
            x, y = args
        elif name == "UP":
            y = min(y + 1, board.core.height - 1)
        elif name == "DOWN":
            y = max(y - 1, 0)
        elif name == "RIGHT":
            x = min(x + 1, board.core.width - 1)
        elif name == "LEFT":
            x = max(x - 1, 0)
        elif name in ("MOVE", "GOLDEN"):
            try:
                board.push(("g" if name == "GOLDEN" else "") + f"{x},{y}")
            except IllegalMove:
                pass
        elif name in ("SKIPTURN", "SKIPTURNS"):
            for _ in range(args[0] if args else 1):
                if board.turn is None:
                    break
                board.push("skip")
        elif name == "END":
            break
    return board.board().encode("ascii") if board is not None else b""


def keys(commands: list[tuple]) -> bytes:
    """Compile a script to the bytes of standard input: the `I` line, then key strokes.
    The cursor starts on (0, 0) and stops at the walls, as in the program. G/g and C/c
    alternate, to exercise both cases."""
    out = bytearray()
    x = y = 0
    w = h = 1
    golden = skip = 0
    for name, *args in commands:
        if name == "START":
            w, h = args[0], args[1]
            out += b"I %d %d %d %d\n" % tuple(args)
        elif name == "GOTO":
            tx, ty = args
            out += (ARROW["RIGHT"] if tx > x else ARROW["LEFT"]) * abs(tx - x)
            out += (ARROW["UP"] if ty > y else ARROW["DOWN"]) * abs(ty - y)
            x, y = tx, ty
        elif name in ARROW:
            out += ARROW[name]
            if name == "UP":
                y = min(y + 1, h - 1)
            elif name == "DOWN":
                y = max(y - 1, 0)
            elif name == "RIGHT":
                x = min(x + 1, w - 1)
            else:
                x = max(x - 1, 0)
        elif name == "MOVE":
            out += b" "
        elif name == "GOLDEN":
            out += b"Gg"[golden % 2:golden % 2 + 1]
            golden += 1
        elif name in ("SKIPTURN", "SKIPTURNS"):
            for _ in range(args[0] if args else 1):
                out += b"cC"[skip % 2:skip % 2 + 1]
                skip += 1
        elif name == "SENDCODE":
            out.append(args[0])
        elif name == "END":
            out += b"\x04"
    return bytes(out)


def final_board(stdout: bytes, height: int) -> tuple[bytes, list[bytes]]:
    """(final board, PLAYER summary lines) printed by the interactive program after it
    has left the alternate screen."""
    from games.gamma.interactive import ALT_OFF
    tail = stdout.rsplit(ALT_OFF.encode("ascii"), 1)[-1]
    lines = tail.split(b"\n")
    board = b"".join(line + b"\n" for line in lines[:height])
    return board, [line for line in lines[height:] if line]


# ---------------------------------------------------------------------- the suite's performance case
def snake(w: int, h: int) -> list:
    """A boustrophedon snake: every other row full, joined at alternate ends; one area."""
    cells = []
    for row, y in enumerate(range(0, h, 2)):
        xs = range(w) if row % 2 == 0 else range(w - 1, -1, -1)
        cells += [(x, y) for x in xs]
        if y + 2 < h:
            cells.append((w - 1 if row % 2 == 0 else 0, y + 1))
    return cells
