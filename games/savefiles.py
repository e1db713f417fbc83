"""What the readers of the originals' save files share (``games/lattice/ltc.py``, ``games/towers/twr.py``): a
size cap checked before any parsing, with a sentence a player understands.

Each format module sets ``MAX_BYTES``, generous above the largest real save of its original (the module says
how that was computed) but small, so that an import never holds the server for long.
"""
from __future__ import annotations


def size_text(n: int) -> str:
    """A file size for people: ``300 KB``, ``1.5 MB`` (1 KB = 1024 bytes; KB rounded up, so that a file just
    over a cap never reads as the cap itself)."""
    if n < 1024 * 1024:
        return f"{-(-n // 1024)} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def byte_size(text) -> int:
    """The size in bytes of a file given as bytes or as text (UTF-8)."""
    if isinstance(text, (bytes, bytearray)):
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def check_size(text, max_bytes: int, what: str) -> None:
    """ValueError ("This file is 300 KB; a Towers save is at most 64 KB.") when `text` (str or bytes) is over
    `max_bytes`; `what` names the game's saves."""
    if not isinstance(text, (str, bytes, bytearray)):
        return                      # the reader refuses it with its own reason
    if len(text) <= max_bytes // 4 or byte_size(text) <= max_bytes:
        return
    raise ValueError(f"This file is {size_text(byte_size(text))}; a {what} save is at most "
                     f"{size_text(max_bytes)}.")
