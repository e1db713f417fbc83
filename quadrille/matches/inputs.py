"""What the doors pass in, checked before a match is touched: numbers, names, moves."""
from __future__ import annotations

from ..errors import bad_request
from ..i18n import _l

MAX_MOVE_LENGTH = 200
MAX_NAME_LENGTH = 40


def integer(value, what: str, optional: bool = True) -> int | None:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_request(_l("%(what)s must be an integer.", what=what))
    return value


def clean_name(name) -> str | None:
    """A match's name, its runs of spaces made one; None for none."""
    if name is None or name == "":
        return None
    if not isinstance(name, str):
        raise bad_request(_l("The match name must be text."))
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME_LENGTH or not name.isprintable():
        raise bad_request(_l("The match name must be 1 to %(most)d printable characters.", most=MAX_NAME_LENGTH))
    return name


def move_text(move) -> str:
    if not isinstance(move, str) or not move or len(move) > MAX_MOVE_LENGTH:
        raise bad_request(_l("move must be a non-empty string in the game's notation."), "illegal-move")
    return move
