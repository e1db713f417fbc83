"""What a picture of a position says to a screen reader (its aria-label), in the reader's language (issue 27).

Each game's games/<name>/picture.py says it (`label_words(view)`, a `Reason` of games/reasons.py: the English
text that remembers its message and values; the engines are pure and know no language); this module translates it in the
request's language (the `games` catalog), and English outside a request (tests, the admin commands).
`language()` is part of the pictures' cache keys: the same position drawn for a German page says German words.
"""
from __future__ import annotations

from games.reasons import Reason

from .i18n import DEFAULT, translated
from .i18n.translations import request_language


def language() -> str:
    """The request's language, or English outside one."""
    return request_language() or DEFAULT


def label(picture_module, view: dict) -> str | None:
    """The picture's words in the request's language; None for a game whose picture.py says none (it then
    draws its own)."""
    words = getattr(picture_module, "label_words", None)
    if words is None:
        return None
    said = words(view)
    return translated(said) if isinstance(said, Reason) else str(said)
