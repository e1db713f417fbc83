"""The original app's ``.ltc`` save files: import, and an export for tests and
for players who take a position back to the app.

    from games.lattice import ltc
    board = ltc.load(text)          # a LatticeBoard at the saved position, the saved first mover to move
    info = ltc.parse(text)          # {"options": {...}, "smart": 2, "mode": 2, "uuid": None, "game_id": None}
    text = ltc.dump(board)          # the current position as an .ltc file

A file holds a position, not a history, and no side to move: as in the original, the imported game resumes
with ``firstMove`` to move. The position goes into the option ``start`` (a ``<pos>`` string), so the board's
JSON record (``to_dict``) rebuilds the imported game and the moves played after the import.

Format (the original writer): one tag per line; the ``<mycolor>`` line really closes with ``</color>``; the
first ``<checker>`` of each list is on the same line as ``<mycheckers>`` / ``<aicheckers>``; a checker is
``x,y,z,isStar`` in world coordinates (odd integers centred on 0); a captured piece is parked off the lattice
("bench" coordinates), so every out-of-bounds piece counts as captured. ``my`` is B (seat 1, bottom), ``ai``
is T (seat 2, top).
"""
from __future__ import annotations

import re

from games.lattice.board import COLORS, LatticeBoard, _pos_string
from games.lattice.geometry import SIZES, lattice
from games.reasons import Reason
from games.savefiles import check_size

# The largest real save: a 333 lattice (36 pieces a side) with every piece written at its longest, parked on
# the bench ("<checker>-12,13,-10,false</checker>"), in a net game (uuid and gameId lines of 36 characters) with
# Windows line endings: 2,860 bytes (tests/games/test_save_files.py builds it). 16 KB is over five times that.
MAX_BYTES = 16 * 1024

_SCALAR_TAGS = ("mycolor", "aicolor", "firstMove", "dimension", "smart", "mode", "soundVolume", "deltaVolume",
                "uuid", "gameId")
# Every tag the checker lists are made of; _tokens() pairs a <checker> with its </checker> by str.find.
_LIST_TAG = re.compile(r"<(/?)(mycheckers|aicheckers|checker)>")
_CLOSE_CHECKER = "</checker>"


def _short(value: str, limit: int = 40) -> str:
    """A file's text quoted in an error message, cut when long."""
    return value if len(value) <= limit else value[:limit] + "..."


def _tag(text: str, name: str) -> str | None:
    """The text between the first ``<name>`` and the next ``</`` (tolerant closing tag: the writer closes
    <mycolor> with </color>), stripped; None without one.

    The same answer as ``re.search("<name>(.*?)</", text, re.S)`` (if the first ``<name>`` has no ``</`` after
    it, no later one has), found with two ``str.find`` calls: linear time on any text, where the lazy pattern
    took quadratic time on many ``<name>`` and no ``</``."""
    start = text.find("<" + name + ">")
    if start < 0:
        return None
    start += len(name) + 2
    end = text.find("</", start)
    return text[start:end].strip() if end >= 0 else None


def _tokens(text: str):
    """The checker lists' tags in order: (closing, list name, None) for ``<mycheckers>``, ``</mycheckers>``,
    ``<aicheckers>``, ``</aicheckers>`` (closing is "" or "/"), and (None, None, body) for each
    ``<checker>body</checker>``.

    The same tokens as ``re.finditer(r"<(/?)(mycheckers|aicheckers)>|<checker>(.*?)</checker>", text, re.S)``
    (a stray ``</checker>`` and a ``<checker>`` never closed are skipped), in linear time: each ``<checker>`` is
    paired with the next ``</checker>`` by ``str.find`` from where the scan stands, and once no ``</checker>`` is
    left the remaining ``<checker>`` tags are skipped without a search. (The lazy pattern searched to the end
    of the text again for every unclosed ``<checker>``: quadratic time, minutes on a 1 MiB file.)"""
    pos = 0
    closable = True                      # a </checker> may still follow
    while True:
        m = _LIST_TAG.search(text, pos)
        if m is None:
            return
        closing, name = m.groups()
        pos = m.end()
        if name != "checker":
            yield closing, name, None
        elif not closing and closable:
            end = text.find(_CLOSE_CHECKER, pos)
            if end < 0:
                closable = False
            else:
                yield None, None, text[pos:end]
                pos = end + len(_CLOSE_CHECKER)


def _not_a_colour(what: str, value: str) -> Reason:
    return Reason("%(tag)s: %(value)s is not a colour r,g,b,a", tag=what, value=repr(_short(value)))


def _checker(body: str) -> str:
    """A <checker> element, quoted (cut when long) in an error message."""
    return f"<checker>{_short(body)}</checker>"


def _colour(value: str | None, default: str, what: str) -> str:
    if value is None:
        return default
    try:
        rgba = [float(c) for c in value.split(",")]
    except ValueError:
        raise ValueError(_not_a_colour(what, value)) from None
    if len(rgba) not in (3, 4):
        raise ValueError(_not_a_colour(what, value))
    return min(COLORS, key=lambda name: sum((a - b) ** 2 for a, b in zip(COLORS[name], rgba[:3])))


def parse(text: str) -> dict:
    """Read an .ltc file. Returns {"options", "smart", "mode", "uuid", "game_id"}; ValueError with a reason.

    ``options`` are the engine options (size, first, color_b, color_t, start): pass them to
    ``games.get("lattice").new(**options)``. A file over ``MAX_BYTES`` is refused before it is read; the
    reading takes linear time on any text.
    """
    check_size(text, MAX_BYTES, Reason("Lattice Checkers"))
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(Reason("not an .ltc file: it is not UTF-8 text")) from None
    if not isinstance(text, str):
        raise ValueError(Reason("an .ltc file is text"))
    dim = _tag(text, "dimension")
    if dim is None:
        raise ValueError(Reason("not an .ltc file: no <dimension> tag"))
    size = "".join(p.strip() for p in dim.split(","))
    if size not in SIZES:
        tag = f"<dimension>{_short(dim)}</dimension>"
        raise ValueError(Reason("%(tag)s: the lattice sizes are %(sizes)s", tag=tag,
                                sizes=", ".join(",".join(s) for s in SIZES)))
    g = lattice(size)

    first_tag = _tag(text, "firstMove")
    if first_tag is None:
        first = 1
    elif first_tag in ("my", "ai"):
        first = 1 if first_tag == "my" else 2
    else:
        tag = f"<firstMove>{_short(first_tag)}</firstMove>"
        raise ValueError(Reason("%(tag)s: expected 'my' or 'ai'", tag=tag))

    color_b = _colour(_tag(text, "mycolor"), "blue", "<mycolor>")
    color_t = _colour(_tag(text, "aicolor"), "red", "<aicolor>")
    if color_b == color_t:          # the original forbids it; keep B's and give T the usual other colour
        color_t = "red" if color_b != "red" else "blue"

    cells = [0] * g.cells
    bench = [0, 0, 0]
    seen = {1: False, 2: False}
    section = None
    for closing, name, body in _tokens(text):
        if name:
            section = None if closing else (1 if name == "mycheckers" else 2)
            if not closing:
                seen[section] = True
            continue
        if section is None:
            raise ValueError(Reason("%(tag)s outside <mycheckers> and <aicheckers>", tag=_checker(body)))
        fields = [f.strip() for f in body.split(",")]
        if len(fields) != 4 or fields[3].lower() not in ("true", "false"):
            raise ValueError(Reason("%(tag)s: expected x,y,z,isStar", tag=_checker(body)))
        try:
            x, y, z = (int(float(f)) if float(f).is_integer() else None for f in fields[:3])
        except ValueError:
            raise ValueError(Reason("%(tag)s: coordinates must be numbers", tag=_checker(body))) from None
        if None in (x, y, z):
            raise ValueError(Reason("%(tag)s: coordinates must be integers", tag=_checker(body)))
        n = g.from_world(x, y, z)
        if n is None:
            bench[section] += 1                      # off the lattice: a captured piece
            continue
        if cells[n]:
            raise ValueError(Reason("%(tag)s: two pieces on node %(node)s", tag=_checker(body), node=g.label[n]))
        star = fields[3].lower() == "true"
        cells[n] = (1 if section == 1 else -1) * (2 if star else 1)
    for side, tag in ((1, "<mycheckers>"), (2, "<aicheckers>")):
        if not seen[side]:
            raise ValueError(Reason("not an .ltc file: no %(tag)s list", tag=tag))

    def _int(name):
        v = _tag(text, name)
        try:
            return int(v) if v is not None else None
        except ValueError:
            return None

    return {
        "options": {"size": size, "first": first, "color_b": color_b, "color_t": color_t,
                    "start": _pos_string(g, cells, bench)},
        "smart": _int("smart"),
        "mode": _int("mode"),
        "uuid": _tag(text, "uuid"),
        "game_id": _tag(text, "gameId"),
    }


def load(text: str, **options) -> LatticeBoard:
    """An .ltc file's position as a new board (``first`` to move). Extra options (e.g. end_on_elimination)
    are passed on; ValueError for a malformed file."""
    from games.lattice import GAME
    opts = parse(text)["options"]
    opts.update(options)
    return GAME.new(**opts)


def dump(board: LatticeBoard, *, smart: int = 2, mode: int = 2) -> str:
    """The board's current position as an .ltc file, the way the original writes it.

    Like the original, the file keeps no side to move (``firstMove`` is the game's first mover) and no
    history; a pending return is not representable. Captured pieces are parked on the bench beside the
    lattice: x = -(dX+9) for B, +(dX+9) for T, y = dY+10, z = -dZ-7, -dZ-6, ...
    """
    g = board._g
    dX, dY, dZ = g.dims
    opts = board.options

    def rgba(name):
        return ",".join(f"{c:.1f}" for c in COLORS[name]) + ",1.0"

    lines = [f"<mycolor>{rgba(opts['color_b'])}</color>",
             f"<aicolor>{rgba(opts['color_t'])}</aicolor>",
             f"<firstMove>{'my' if opts['first'] == 1 else 'ai'}</firstMove>",
             f"<dimension>{dX},{dY},{dZ}</dimension>"]
    cells = board._cells
    for side, tag, sign in ((1, "mycheckers", 1), (2, "aicheckers", -1)):
        items = []
        for n in g.nodes:
            v = cells[n] * sign
            if v > 0:
                x, y, z = g.world(n)
                items.append(f"<checker>{x},{y},{z},{'true' if v == 2 else 'false'}</checker>")
        bx = (dX + 9) * (-1 if side == 1 else 1)
        for k in range(board._bench[side]):
            items.append(f"<checker>{bx},{dY + 10},{-dZ - 7 + k},false</checker>")
        if items:
            lines.append(f"<{tag}>" + items[0])
            lines.extend(items[1:])
            lines.append(f"</{tag}>")
        else:
            lines.append(f"<{tag}>")
            lines.append(f"</{tag}>")
    lines.append(f"<smart>{smart}</smart>")
    lines.append(f"<mode>{mode}</mode>")
    return "\n".join(lines) + "\n"
