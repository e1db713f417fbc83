"""What the readers of the originals' save files share (``games/lattice/ltc.py``, ``games/towers/twr.py``): a
size cap checked before any parsing, with a sentence a player understands.

Each format module sets ``MAX_BYTES``, generous above the largest real save of its original (the module says
how that was computed) but small, so that an import never holds the server for long.
"""
from __future__ import annotations

from games.reasons import Reason


def size_text(n: int) -> Reason:
    """A file size for people: ``300 KB``, ``1.5 MB`` (1 KB = 1024 bytes; KB rounded up, so that a file just
    over a cap never reads as the cap itself); a `Reason`, so that the unit is said in the reader's language."""
    if n < 1024 * 1024:
        return Reason("%(size)s KB", size=str(-(-n // 1024)))
    megabytes = f"{n / (1024 * 1024):.1f}"
    return Reason("%(size)s MB", size=megabytes)


def byte_size(text) -> int:
    """The size in bytes of a file given as bytes or as text (UTF-8)."""
    if isinstance(text, (bytes, bytearray)):
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def check_size(text, max_bytes: int, what: str) -> None:
    """ValueError ("This file is 300 KB; a Towers save is at most 64 KB.", a `Reason`) when `text` (str or
    bytes) is over `max_bytes`; `what` names the game's saves (the game's title: a `Reason`, to be translated)."""
    if not isinstance(text, (str, bytes, bytearray)):
        return                      # the reader refuses it with its own reason
    if len(text) <= max_bytes // 4 or byte_size(text) <= max_bytes:
        return
    raise ValueError(Reason("This file is %(size)s; a %(game)s save is at most %(limit)s.",
                            size=size_text(byte_size(text)), game=what, limit=size_text(max_bytes)))
