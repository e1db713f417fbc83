"""The compiled catalogs of a language, for what is translated once per language rather than per request (a
game's data files: quadrille/catalog.py), and the language of the request at hand."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.support import Translations

from .languages import DEFAULT

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"  # quadrille/translations/<lang>/...

SERVER_DOMAINS = ("messages", "games")  # what the server and its templates read (js is the browser's)


@lru_cache(maxsize=None)
def for_language(language: str) -> Translations:
    """The server's catalogs of a language, merged (an English text that has no translation stays English)."""
    merged = Translations()
    for domain in SERVER_DOMAINS:
        merged.merge(Translations.load(str(TRANSLATIONS), [language], domain=domain))
    return merged


def request_language() -> str | None:
    """The language of the request at hand, or None for English or outside a request."""
    from flask import has_request_context
    if not has_request_context():
        return None
    from flask_babel import get_locale
    language = str(get_locale() or DEFAULT)
    return None if language == DEFAULT else language
