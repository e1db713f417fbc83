"""The languages Quadrille ships, and which one a request gets.

The order of precedence: `?lang=` in the address (an embed, a shared link), then a logged-in member's own
setting, then the `lang` cookie (a guest who chose in the language menu), then the browser's Accept-Language
(Babel's negotiation), then English.
"""
from __future__ import annotations

from babel import Locale, negotiate_locale

DEFAULT = "en"
# code -> the language's name in its own words (the menu shows each language as its speakers write it)
LANGUAGES = {
    "en": "English",
    "pl": "Polski",
    "fr": "Français",
    "ru": "Русский",
    "de": "Deutsch",
    "es": "Español",
}
SHIPPED = tuple(LANGUAGES)
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600


def known(code) -> str | None:
    """A shipped language's code from what a person sent (`pl`, `PL`, `pl-PL`, `pl_PL`), or None."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    code = code.strip().replace("_", "-").lower()
    if code in LANGUAGES:
        return code
    primary = code.split("-", 1)[0]
    return primary if primary in LANGUAGES else None


def from_accept_language(accept_language) -> str | None:
    """The best shipped language for an Accept-Language header (werkzeug's parsed one), or None. Babel's
    negotiation matches `pl-PL` to `pl` through its aliases; a bare primary tag is tried after it."""
    wanted = [tag.replace("-", "_") for tag, _quality in accept_language] if accept_language else []
    if not wanted:
        return None
    found = negotiate_locale(wanted, list(SHIPPED), sep="_")
    if found:
        return found
    for tag in wanted:
        if (code := known(tag)) is not None:
            return code
    return None


def choose(query=None, account=None, cookie=None, accept_language=None) -> str:
    for candidate in (query, account, cookie):
        if (code := known(candidate)) is not None:
            return code
    return from_accept_language(accept_language) or DEFAULT


def direction(code: str) -> str:
    return Locale.parse(code).character_order == "right-to-left" and "rtl" or "ltr"
