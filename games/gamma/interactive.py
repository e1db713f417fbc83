"""Gamma's interactive mode (the assignment's `I w h p a`): a full-screen game in an ANSI terminal.

After `I w h p a` standard input carries key strokes: the arrows move the cursor,
SPACE places a pawn, G makes the golden move, C gives up the turn, Ctrl-D (or the end
of input) ends the game. Players move in order 1, 2, ..., skipping those who cannot
move; the game also ends when nobody can move. At the end the final board and one
`PLAYER p busy` line per player are printed on the normal screen.

The screen is drawn with ANSI escape codes on the alternate screen, so the terminal is
left as it was found. In a real terminal the input is switched to non-canonical,
no-echo mode (Ctrl-C and Ctrl-Z still work and restore the terminal) and the program
refuses to start in a window too small for the board.

Parts, so that the tests can drive them without a terminal:
  KeyDecoder  bytes -> keys, never swallowing a meaningful byte after ESC
  Session     the game, the cursor and the turn order
  Screen      frames as ANSI text
  Terminal    termios and window size of a real terminal (None when not a tty)
  play()      the main loop
"""
from __future__ import annotations

import os
import select
import signal
from typing import Callable

from games.gamma.engine import Gamma

ESC = 27
UP, DOWN, RIGHT, LEFT, MOVE, GOLDEN, SKIP, END = "up", "down", "right", "left", "move", "golden", "skip", "end"
_ARROWS = {ord("A"): UP, ord("B"): DOWN, ord("C"): RIGHT, ord("D"): LEFT}
_KEYS = {32: MOVE, ord("g"): GOLDEN, ord("G"): GOLDEN, ord("c"): SKIP, ord("C"): SKIP, 4: END}


class KeyDecoder:
    """Turns raw bytes into keys. ESC [ A..D are arrows; after a lone ESC (or ESC [)
    the next byte is handled again as a fresh key, so ESC SPACE is still a move and
    ESC ESC [ A is still an arrow. Every other byte is ignored."""

    def __init__(self) -> None:
        self.state = 0   # 0: fresh, 1: after ESC, 2: after ESC [

    def keys(self, data: bytes):
        state = self.state
        for b in data:
            if state == 2:
                state = 0
                key = _ARROWS.get(b)
                if key is not None:
                    self.state = 0
                    yield key
                    continue
                # not an arrow: b is handled again as a fresh key below
            elif state == 1:
                state = 0
                if b == 91:      # [
                    state = 2
                    continue
            if b == ESC:
                state = 1
                continue
            key = _KEYS.get(b)
            if key is not None:
                self.state = 0
                yield key
        self.state = state


class Session:
    """The state of an interactive game: whose turn, where the cursor is."""

    def __init__(self, game: Gamma):
        self.game = game
        self.x = 0
        self.y = 0          # the cursor starts on (0, 0), the bottom-left field
        self.player: int | None = 1 if game.can_play(1) else game.next_player(1)
        self.ended = False  # Ctrl-D or end of input

    @property
    def finished(self) -> bool:
        return self.ended or self.player is None

    def key(self, key: str) -> None:
        if self.finished:
            return
        game = self.game
        if key == UP:
            if self.y + 1 < game.height:
                self.y += 1
        elif key == DOWN:
            if self.y > 0:
                self.y -= 1
        elif key == RIGHT:
            if self.x + 1 < game.width:
                self.x += 1
        elif key == LEFT:
            if self.x > 0:
                self.x -= 1
        elif key == MOVE:
            if game.move(self.player, self.x, self.y):
                self.player = game.next_player(self.player)
        elif key == GOLDEN:
            if game.golden_move(self.player, self.x, self.y):
                self.player = game.next_player(self.player)
        elif key == SKIP:
            self.player = game.next_player(self.player)
        elif key == END:
            self.ended = True

    def feed(self, decoder: KeyDecoder, data: bytes) -> None:
        for key in decoder.keys(data):
            self.key(key)
            if self.finished:
                return

    def summary(self) -> bytes:
        """The final board and one `PLAYER p busy` line per player."""
        game = self.game
        lines = [b"PLAYER %d %d\n" % (p, game.busy_fields(p)) for p in range(1, game.players + 1)]
        return game.board_bytes() + b"".join(lines)


# ---------------------------------------------------------------------- drawing
CSI = "\x1b["
ALT_ON = "\x1b[?1049h"
ALT_OFF = "\x1b[?1049l"
HIDE = "\x1b[?25l"
SHOW = "\x1b[?25h"
RESET = "\x1b[0m"
_PALETTE = (31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96)
HELP = "arrows: cursor  space: place  G: golden move  C: skip turn  Ctrl-D: end"


def prompt(game: Gamma, player: int) -> str:
    """The line under the board: PLAYER p busy free, and G if the golden move is possible."""
    text = f"PLAYER {player} {game.busy_fields(player)} {game.free_fields(player)}"
    return text + " G" if game.golden_possible(player) else text


class Screen:
    """Draws a session as ANSI text: each player in a colour, the player to move in bold,
    the fields he may take bright and the others dim, the cursor in reverse video."""

    def __init__(self, write: Callable[[bytes], object]):
        self.write = write

    @staticmethod
    def needed(game: Gamma) -> tuple[int, int]:
        """(columns, rows) a window needs for the board, the prompt and the help line."""
        wd = len(str(game.players))
        cols = game.width if game.players <= 9 else game.width * (wd + 1) - 1
        return max(cols, len(HELP), len(f"PLAYER {game.players} {game.width * game.height} "
                                         f"{game.width * game.height} G")), game.height + 2

    def enter(self) -> None:
        self.write((ALT_ON + HIDE + CSI + "2J").encode("ascii"))

    def leave(self) -> None:
        self.write((RESET + SHOW + ALT_OFF).encode("ascii"))

    def too_small(self, game: Gamma, size: tuple[int, int]) -> None:
        cols, rows = self.needed(game)
        text = f"The window is too small: the board needs {cols}x{rows}, it is {size[0]}x{size[1]}."
        self.write((CSI + "H" + CSI + "2J" + text).encode("ascii"))

    def frame(self, session: Session) -> bytes:
        game = session.game
        p = session.player
        rows = game.rows()
        wide = game.players > 9
        wd = len(str(game.players))
        xy = game.xy
        free = {xy(c) for c in game.move_targets(p)} if p is not None and game.free_fields(p) else set()
        out = [CSI + "H"]
        for y in range(game.height - 1, -1, -1):
            row = rows[y]
            parts = []
            for x, q in enumerate(row):
                if q == 0:
                    text = ".".rjust(wd) if wide else "."
                    style = "1" if (x, y) in free else "2"
                else:
                    text = str(q).rjust(wd) if wide else str(q)
                    colour = _PALETTE[(q - 1) % len(_PALETTE)]
                    style = f"1;4;{colour}" if q == p else str(colour)
                if x == session.x and y == session.y:
                    style += ";7"
                parts.append(f"{CSI}{style}m{text}{RESET}")
            out.append((" " if wide else "").join(parts) + CSI + "K\n")
        out.append((prompt(game, p) if p is not None else "GAME OVER") + CSI + "K\n")
        out.append(HELP + CSI + "K" + CSI + "J")
        return "".join(out).encode("ascii")

    def draw(self, session: Session) -> None:
        self.write(self.frame(session))


# ---------------------------------------------------------------------- the terminal
class Terminal:
    """A real terminal on standard input: non-canonical, no-echo mode and the window size."""

    def __init__(self, fd: int, out_fd: int | None):
        self.fd = fd
        self.out_fd = out_fd
        self.saved = None

    @classmethod
    def open(cls, fd: int, stdout) -> "Terminal | None":
        try:
            if not os.isatty(fd):
                return None
            import termios  # noqa: F401  (POSIX only)
        except (ImportError, OSError):
            return None
        try:
            out_fd = stdout.fileno()
            if not os.isatty(out_fd):
                out_fd = None
        except (AttributeError, ValueError, OSError):
            out_fd = None
        return cls(fd, out_fd)

    def size(self) -> tuple[int, int] | None:
        if self.out_fd is None:
            return None
        try:
            s = os.get_terminal_size(self.out_fd)
        except OSError:
            return None
        return s.columns, s.lines

    def raw(self) -> None:
        import termios
        if self.saved is None:
            self.saved = termios.tcgetattr(self.fd)
        mode = termios.tcgetattr(self.fd)
        mode[0] &= ~(termios.IXON | termios.ICRNL)           # iflag: Ctrl-S/Ctrl-Q are keys
        mode[3] &= ~(termios.ICANON | termios.ECHO)          # lflag: key by key, no echo; ISIG stays
        mode[6][termios.VMIN] = 1
        mode[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)

    def restore(self) -> None:
        import termios
        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)


def play(game: Gamma, pending_input: bytes, read: Callable[[], bytes], out: Callable[[bytes], object],
         err: Callable[[bytes], object], flush: Callable[[], object] = lambda: None,
         terminal: Terminal | None = None) -> int:
    """Play an interactive game on `game`. `pending_input` holds the input already read after
    the `I` line; `read()` returns more (b"" at the end). Returns the exit code."""
    session = Session(game)
    screen = Screen(out)
    decoder = KeyDecoder()
    if terminal is not None:
        size = terminal.size()
        cols, rows = Screen.needed(game)
        if size is not None and (size[0] < cols or size[1] < rows):
            err(f"The terminal is too small for a {game.width}x{game.height} board: it needs "
                f"{cols} columns and {rows} lines, it has {size[0]}x{size[1]}.\n".encode("ascii"))
            flush()
            return 1

    def redraw() -> None:
        size = terminal.size() if terminal is not None else None
        cols, rows = Screen.needed(game)
        if size is not None and (size[0] < cols or size[1] < rows):
            screen.too_small(game, size)
        else:
            screen.draw(session)
        flush()

    # Signal handlers only note what happened; signal.set_wakeup_fd wakes the select()
    # below, and the main loop does the drawing, so no handler ever writes while the main
    # code is writing (a reentrant write to stdout would raise).
    pending: set = set()
    handlers = {}
    wake = None
    old_wakeup = None

    def on_terminate(signum, frame) -> None:
        raise SystemExit(128 + signum)

    def attend() -> None:
        while pending:
            kind = pending.pop()
            if kind == "stop":
                # Ctrl-Z: give the terminal back, stop, and take it again when continued.
                screen.leave()
                flush()
                terminal.restore()
                signal.signal(signal.SIGTSTP, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGTSTP)
                signal.signal(signal.SIGTSTP, lambda signum, frame: pending.add("stop"))
                terminal.raw()
                screen.enter()
            else:
                out((CSI + "2J").encode("ascii"))
            redraw()

    def next_input() -> bytes | None:
        """The next keys, b"" at the end, None when woken by a signal."""
        if wake is None:
            return read()
        ready, _, _ = select.select([terminal.fd, wake[0]], [], [])
        if wake[0] in ready:
            try:
                while os.read(wake[0], 512):
                    pass
            except (BlockingIOError, InterruptedError):
                pass
            return None
        return read()

    try:
        if terminal is not None:
            terminal.raw()
            for name, handler in (("SIGWINCH", lambda signum, frame: pending.add("resize")),
                                  ("SIGTSTP", lambda signum, frame: pending.add("stop")),
                                  ("SIGTERM", on_terminate), ("SIGHUP", on_terminate)):
                sig = getattr(signal, name, None)
                if sig is not None:
                    try:
                        handlers[sig] = signal.signal(sig, handler)
                    except (ValueError, OSError):   # not the main thread
                        pass
            if handlers:
                wake = os.pipe()
                os.set_blocking(wake[0], False)
                os.set_blocking(wake[1], False)
                old_wakeup = signal.set_wakeup_fd(wake[1], warn_on_full_buffer=False)
        screen.enter()
        redraw()
        data = pending_input
        while True:
            if data:
                session.feed(decoder, data)
                if session.finished:
                    break
                redraw()
            attend()
            data = next_input()
            if data is None:
                continue
            if not data:
                break
    finally:
        if wake is not None:
            signal.set_wakeup_fd(old_wakeup)
            os.close(wake[0])
            os.close(wake[1])
        for sig, old in handlers.items():
            signal.signal(sig, old)
        screen.leave()
        flush()
        if terminal is not None:
            terminal.restore()
    out(session.summary())
    flush()
    return 0
