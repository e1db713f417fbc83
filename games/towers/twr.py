"""The original Towers client's `.twr` save format, import and export.

A `.twr` file is one Racket-printed list:

    ("2.0" (tower-out) 5 "Player 1" "Player 2" "Human" "Human" (((move 0 4 0 3 1)) ((move 1 0 2 0 1) end) ()))

= (version rules size name1 name2 class1 class2 plies). Ply i (0-based) belongs to Player 1 when i is even; each
ply is a list of `(move xi yi xf yf k)`, `(import k)` and `end`, or the single-element ply `(resign)`; the last
ply is the one in progress (`()` right after a turn ended). Loading replays every ply through Quadrille's engine
and refuses the file, naming the ply and action, at the first action Quadrille's rules refuse.

Under attack: the reader takes linear time on any text and keeps its own stack (lists nested deeper than
`MAX_DEPTH` are refused); a file over `MAX_BYTES`, a board the original does not offer (over 10x10) and a game
longer than Towers' move limit (`games.get("towers").move_limit`) are refused before the replay, each with a
TwrError (a ValueError) that says what is wrong.

Pure functions, text in and text out:

    read(text)  -> TwrGame (board, names, classes, rules in file order, resigned seat, ...)
    load(text)  -> TowersBoard                      (read(text).board)
    dump(board, names=("P1", "P2"), classes=("Human", "Human"), resigned=None) -> str
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.base import IllegalMove, Outcome
from games.reasons import Reason, reason_n, reason_of
from games.savefiles import check_size
from games.towers.core import FORM_SIZES, RULE_ORDER, RULES, TowersBoard

VERSION = "2.0"
# The largest real save: the longest real game on the largest board the original offers (10x10), that is Towers'
# move limit of 300 x 10 = 3,000 actions (games/towers/__init__.py), every action at its longest
# ("(move 9 9 9 0 10)") and alone in its ply, with names of 100 characters and all seven rules: 60,367 bytes
# (tests/games/test_save_files.py builds it). Real games take 17 bytes an action or less (the reference's longest,
# g040: 261 actions, 4,376 bytes). 128 KB is twice the bound.
MAX_BYTES = 128 * 1024
MAX_DEPTH = 16   # lists nested deeper are refused: a .twr game nests them 4 deep (game, plies, ply, action)
PLAYER_CLASSES = ("Human", "Network", "AI-1", "Alpha-Beta", "Alpha-Beta TXT", "ServerTest", "Alpha-Beta simu")


class TwrError(ValueError):
    """A .twr text that cannot be read, or whose game Quadrille's rules refuse: its argument is a `Reason`
    (games/reasons.py), the English sentence that a door says in the reader's language."""


class Symbol(str):
    """A Racket symbol (as opposed to a string) read from a .twr text."""

    def __repr__(self) -> str:
        return str.__str__(self)


# ---------------------------------------------------------------------------------------------- reader

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "v": "\v", "f": "\f", "e": "\x1b",
            '"': '"', "\\": "\\", "'": "'", "0": "\0"}
_DELIMS = set("()[]\"; \t\r\n\f\v")
_CLOSE = {"(": ")", "[": "]"}
_HEX = set("0123456789abcdefABCDEF")


def _skip(text: str, pos: int) -> int:
    """The position of the next datum or delimiter after white space and `;` comments."""
    n = len(text)
    while pos < n:
        c = text[pos]
        if c.isspace():
            pos += 1
        elif c == ";":
            end = text.find("\n", pos)
            pos = n if end < 0 else end
        else:
            break
    return pos


def _string(text: str, pos: int) -> tuple[str, int]:
    """The string whose opening quote is at `pos`, and the position after its closing quote."""
    n = len(text)
    pos += 1
    out = []
    while True:
        if pos >= n:
            raise TwrError(Reason("unexpected end of file inside a string"))
        c = text[pos]
        if c == '"':
            return "".join(out), pos + 1
        if c != "\\":
            out.append(c)
            pos += 1
            continue
        if pos + 1 >= n:
            raise TwrError(Reason("unexpected end of file inside a string"))
        e = text[pos + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            pos += 2
        elif e in "uUx":
            j = pos + 2
            limit = {"u": 4, "U": 8, "x": 2}[e]
            while j < n and j - pos - 2 < limit and text[j] in _HEX:
                j += 1
            code = int(text[pos + 2:j], 16) if j > pos + 2 else -1
            if not 0 <= code <= 0x10FFFF:
                raise TwrError(Reason("at character %(pos)d: bad escape in a string", pos=pos))
            out.append(chr(code))
            pos = j
            if e == "x" and pos < n and text[pos] == ";":
                pos += 1
        elif e == "\n":
            pos += 2
        else:
            raise TwrError(Reason("at character %(pos)d: unknown escape %(escape)s in a string", pos=pos,
                                  escape="\\" + e))


def _atom(tok: str):
    """A token that is not a list or a string: `#t`/`#f`, an integer or a symbol (one leading quote dropped)."""
    if tok.startswith("'"):
        tok = tok[1:]
    if tok in ("#t", "#true"):
        return True
    if tok in ("#f", "#false"):
        return False
    try:
        return int(tok)
    except ValueError:
        return Symbol(tok)


def parse(text: str):
    """Read one Racket datum: lists (of `()` or `[]`), strings, integers, symbols, `#t`/`#f`.

    A text over `MAX_BYTES` is refused before it is read. The reader keeps its open lists on a stack of its
    own, not Python's, so it takes linear time on any text, and refuses lists nested deeper than `MAX_DEPTH`
    (a .twr game nests them 4 deep) with a TwrError, never a RecursionError."""
    if not isinstance(text, str):
        raise TwrError(Reason("a .twr file is text"))
    check_size(text, MAX_BYTES, Reason("Towers"))
    n = len(text)
    pos = 0
    stack: list[tuple[list, str, str]] = []   # the lists being read: (items, opening bracket, closing bracket)
    quoted = False                             # a lone `'` was read: a datum must follow
    while True:
        pos = _skip(text, pos)
        if stack and not quoted:
            if pos >= n:
                raise TwrError(Reason("unexpected end of file: a list is not closed with %(bracket)s",
                                      bracket=repr(stack[-1][2])))
            c = text[pos]
            if c in ")]":
                items, opening, close = stack.pop()
                if c != close:
                    raise TwrError(Reason("at character %(pos)d: %(bracket)s closes a list opened with "
                                          "%(opening)s", pos=pos, bracket=repr(c), opening=repr(opening)))
                pos += 1
                value = items
            else:
                value = None
        else:
            if pos >= n:
                raise TwrError(Reason("unexpected end of file"))
            c = text[pos]
            if c in ")]":
                raise TwrError(Reason("at character %(pos)d: unexpected %(bracket)s", pos=pos, bracket=repr(c)))
            value = None
        if value is None:
            quoted = False
            if c in "([":
                if len(stack) >= MAX_DEPTH:
                    raise TwrError(Reason("at character %(pos)d: lists nested more than %(depth)d deep (a .twr game "
                                          "nests them 4 deep)", pos=pos, depth=MAX_DEPTH))
                stack.append(([], c, _CLOSE[c]))
                pos += 1
                continue
            if c == '"':
                value, pos = _string(text, pos)
            else:
                start = pos
                while pos < n and text[pos] not in _DELIMS:
                    pos += 1
                tok = text[start:pos]
                if tok == "'":
                    quoted = True
                    continue
                value = _atom(tok)
        if stack:
            stack[-1][0].append(value)
            continue
        pos = _skip(text, pos)
        if pos != n:
            raise TwrError(Reason("at character %(pos)d: unexpected text after the game", pos=pos))
        return value


# ---------------------------------------------------------------------------------------------- writer

def _write_string(s: str) -> str:
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def action_to_sexpr(move: str) -> str:
    """`m0,4>0,3:1` -> `(move 0 4 0 3 1)`, `i2` -> `(import 2)`, `end` -> `end`."""
    if move == "end":
        return "end"
    if move.startswith("i"):
        return f"(import {int(move[1:])})"
    if move.startswith("m"):
        src, rest = move[1:].split(">")
        dst, k = rest.split(":")
        x1, y1 = src.split(",")
        x2, y2 = dst.split(",")
        return f"(move {int(x1)} {int(y1)} {int(x2)} {int(y2)} {int(k)})"
    raise ValueError(f"not a Towers move: {move!r}")


def plies_to_text(plies) -> str:
    """The .twr plies list: `(((move 0 4 0 3 1)) (end) ())`. A ply may be the string "resign"."""
    parts = []
    for ply in plies:
        if ply == "resign":
            parts.append("(resign)")
        else:
            parts.append("(" + " ".join(action_to_sexpr(m) for m in ply) + ")")
    return "(" + " ".join(parts) + ")"


def dump(board: TowersBoard, names=("P1", "P2"), classes=("Human", "Human"), resigned: int | None = None,
         version: str = VERSION) -> str:
    """The game as the original client writes it: one line, single spaces.

    `resigned` (1 or 2): the seat that resigned; the original can only record a resignation by the player to
    move, as the single-element ply `(resign)` replacing that player's turn in progress (the actions already
    played in that turn are not written, as in the original)."""
    if not isinstance(board, TowersBoard):
        raise TypeError("dump() takes a TowersBoard")
    if board._custom:
        raise ValueError("a board set up at a custom position has no .twr record")
    names, classes = tuple(names), tuple(classes)
    if len(names) != 2 or len(classes) != 2 or not all(isinstance(s, str) for s in names + classes):
        raise ValueError("names and classes are two strings each")
    plies: list = board.plies()
    if resigned is not None:
        if resigned not in (1, 2):
            raise ValueError("resigned must be the seat 1 or 2")
        if board.turn is None:
            raise ValueError("the game is already over: a resignation cannot be added")
        if resigned != board.turn:
            raise ValueError("the .twr format can only record a resignation by the player to move")
        plies[-1] = "resign"
        plies.append([])
    rules = "(" + " ".join(r for r in RULE_ORDER if r in board.rules) + ")"
    return (f"({_write_string(version)} {rules} {board.size} {_write_string(names[0])} {_write_string(names[1])} "
            f"{_write_string(classes[0])} {_write_string(classes[1])} {plies_to_text(plies)})")


# ---------------------------------------------------------------------------------------------- loading

@dataclass
class TwrGame:
    board: TowersBoard
    version: str
    size: int
    rules: list            # in the file's order
    names: tuple
    classes: tuple
    resigned: int | None = None   # the seat that resigned, if the record ends with (resign)
    plies: list = field(default_factory=list)  # the record as move strings per ply ("resign" for (resign))

    def outcome(self) -> Outcome | None:
        """The board's outcome, or the resignation's."""
        if self.resigned is not None:
            w = 3 - self.resigned
            return Outcome((w,), (1, 0) if w == 1 else (0, 1), "resign")
        return self.board.outcome()


def _cut(text: str, limit: int = 60) -> str:
    """A file's text quoted in an error message: cut when long."""
    return text if len(text) <= limit else text[:limit] + "..."


def _shown(x) -> str:
    """A datum as the file writes it, for an error message."""
    return _cut(_fmt(x))


def _fmt(x) -> str:
    if isinstance(x, list):
        return "(" + " ".join(_fmt(v) for v in x) + ")"
    if isinstance(x, bool):
        return "#t" if x else "#f"
    if isinstance(x, Symbol) or isinstance(x, int):
        return str(x)
    return _write_string(x)


def _action(board: TowersBoard, a) -> str:
    """A .twr action -> Quadrille notation (no legality check here)."""
    if a == "end" and isinstance(a, Symbol):
        return "end"
    if isinstance(a, list) and a and isinstance(a[0], Symbol):
        head = str(a[0])
        if head == "move" and len(a) == 6:
            x1, y1, x2, y2, k = a[1:]
            coords = (x1, y1, x2, y2)
            if all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in coords):
                if k is False:  # "#f" = the whole tower
                    if x1 < board.size and y1 < board.size:
                        k = abs(board.cell(x1, y1))
                if isinstance(k, int) and not isinstance(k, bool) and k >= 0:
                    return f"m{x1},{y1}>{x2},{y2}:{k}"
        elif head == "import" and len(a) == 2:
            k = a[1]
            if isinstance(k, int) and not isinstance(k, bool) and k >= 0:
                return f"i{k}"
    raise TwrError(Reason("%(action)s is not a Towers action (move, import or end)", action=_shown(a)))


def _refused_action(where: Reason, index: int, action: str, exc: IllegalMove) -> Reason:
    """An action of the file that Quadrille's rules refuse: where, which, and the engine's reason (and detail)."""
    detail = getattr(exc, "detail", "")
    if detail:
        return Reason("%(where)s, action %(index)d %(action)s is illegal: %(reason)s (%(detail)s)", where=where,
                      index=index, action=action, reason=exc.reason, detail=detail)
    return Reason("%(where)s, action %(index)d %(action)s is illegal: %(reason)s", where=where, index=index,
                  action=action, reason=exc.reason)


def read(text: str) -> TwrGame:
    """Parse a .twr text and replay it; TwrError names what is wrong (the ply and action for a refused one)."""
    data = parse(text)
    if not isinstance(data, list) or len(data) != 8:
        raise TwrError(Reason("a .twr game is a list of 8 items: version, rules, size, two names, two player "
                              "classes, plies"))
    version, rules, size, name1, name2, class1, class2, plies = data
    if not isinstance(version, str) or isinstance(version, Symbol):
        raise TwrError(Reason("the first item (the version) must be a string such as \"2.0\""))
    if not isinstance(rules, list) or not all(isinstance(r, Symbol) for r in rules):
        raise TwrError(Reason("the second item (the rules) must be a list of rule names"))
    rules = [str(r) for r in rules]
    for r in rules:
        if r not in RULES:
            raise TwrError(Reason("unknown rule %(rule)s; Towers rules are: %(rules)s", rule=repr(_cut(r)),
                                  rules=", ".join(RULE_ORDER)))
    if len(set(rules)) != len(rules):
        raise TwrError(Reason("a rule is listed twice"))
    if not isinstance(size, int) or isinstance(size, bool):
        raise TwrError(Reason("the third item (the board size) must be an integer"))
    if not FORM_SIZES[0] <= size <= FORM_SIZES[1]:
        # the engine takes bigger boards, but the original writes none, and each action of the replay keeps a
        # snapshot of the board: refused before the replay
        raise TwrError(Reason("the board size %(size)s is not one of the original's: %(low)d to %(high)d",
                              size=_cut(str(size), 12), low=FORM_SIZES[0], high=FORM_SIZES[1]))
    for is_name, s in ((True, name1), (True, name2), (False, class1), (False, class2)):
        if not isinstance(s, str) or isinstance(s, Symbol):
            raise TwrError(Reason("each player name must be a string") if is_name
                           else Reason("each player class must be a string"))
    if not isinstance(plies, list) or not all(isinstance(p, list) for p in plies):
        raise TwrError(Reason("the last item (the plies) must be a list of lists of actions"))
    try:
        board = TowersBoard({"size": size, "rules": rules})
    except ValueError as exc:
        said = reason_of(exc)    # an option refused: a Reason (games/reasons.py, bad_option), kept whole
        raise TwrError(said if isinstance(said, Reason) else _cut(said, 200)) from None
    from games.towers import GAME
    limit = GAME.move_limit(board.options)
    actions = sum(len(p) for p in plies)
    if actions > limit:      # refused before the replay: no real game is that long (see GAME.move_limit)
        # the numbers are written with thousands separators: `num` chooses the plural form, `actions` is said
        said, most = f"{actions:,}", f"{limit:,}"
        raise TwrError(reason_n("the game has %(actions)s action; a real Towers game on a %(size)dx%(size)d board "
                                "takes %(limit)s at most",
                                "the game has %(actions)s actions; a real Towers game on a %(size)dx%(size)d board "
                                "takes %(limit)s at most", actions, actions=said, size=size, limit=most))

    resigned = None
    record = []
    last = len(plies) - 1
    for i, ply in enumerate(plies):
        where = (Reason("ply %(ply)d (Player 1)", ply=i + 1) if i % 2 == 0
                 else Reason("ply %(ply)d (Player 2)", ply=i + 1))
        if board.turn is None:
            # after a winning capture or a draw only an empty ply in progress may follow
            if ply or i != last:
                raise TwrError(Reason("%(where)s: the game was already over", where=where))
            record.append([])
            continue
        if board.ply != i:
            raise TwrError(Reason("%(where)s: expected the turn of ply %(ply)d", where=where, ply=board.ply + 1))
        if len(ply) == 1 and isinstance(ply[0], Symbol) and ply[0] == "resign":
            resigned = board.current
            record.append("resign")
            rest = plies[i + 1:]
            if len(rest) > 1 or (rest and rest[0]):
                raise TwrError(Reason("%(where)s: the game goes on after a resignation", where=where))
            if rest:
                record.append([])
            break
        if not ply and i != last:
            raise TwrError(Reason("%(where)s: an empty ply in the middle of the game", where=where))
        moves = []
        for j, a in enumerate(ply):
            move = _action(board, a)
            if board.turn is not None and board.ply != i:
                raise TwrError(Reason("%(where)s, action %(index)d %(action)s: the turn had already ended "
                                      "(after an end or when the move points ran out)", where=where,
                                      index=j + 1, action=_shown(a)))
            try:
                board.push(move)
            except IllegalMove as exc:
                raise TwrError(_refused_action(where, j + 1, _shown(a), exc)) from None
            moves.append(move)
        record.append(moves)
        if i != last and board.turn is not None and board.ply == i:
            raise TwrError(Reason("%(where)s does not end the turn: it has move points left and no end", where=where))
    return TwrGame(board=board, version=version, size=size, rules=rules, names=(name1, name2),
                   classes=(class1, class2), resigned=resigned, plies=record)


def load(text: str) -> TowersBoard:
    """The board of a .twr game (see `read` for names, classes and a resignation)."""
    return read(text).board
