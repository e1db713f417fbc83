"""Words a person reads, made where no request is at hand (a service's error reasons), translated at the door.

    raise ServiceError(404, "unknown-player", _l("There is no player called “%(name)s”.", name=name))
    raise ServiceError(429, "rate-limited", _ln("You may send %(num)d report a day.",
                                                "You may send %(num)d reports a day.", REPORTS_PER_DAY))

`_l` and `_ln` give a `Words`: a plain `str`, in English (so logs, the admin commands and every test that reads
it see the English), that remembers its message and its values. It is the server's kind of the engines' `Reason`
(games/reasons.py: an illegal move's reason, made the same way far from any request), and both are said alike.
The doors (the HTTP API's and the pages' error handlers, the Socket.IO acknowledgements) call
`translated(words)`, which looks the message up in the request's language and fills the values in there; a
Socket.IO refusal answered before any request context exists uses `in_language(words, language)` with the
socket's language. The `error` code beside it never changes. The placeholders are gettext's
Python ones, `%(name)s` and `%(num)d` (Babel checks that a translation keeps them); `pybabel extract` finds
both functions by name (babel.cfg).
"""
from __future__ import annotations

from babel.lists import format_list

from games.reasons import Reason

from .languages import DEFAULT
from .translations import for_language


class Words(Reason):
    """Marked words of the server: a `Reason` (games/reasons.py, the engines' own kind), translated by the door."""

    def translated(self) -> str:
        """In the request's language; a value that is itself marked words (a reason within a reason) too."""
        return translated(self)


class Listed(Words):
    """Words that name several things, "Blue, Red and Green": each item is translated, then the items are joined
    as the reader's language lists them (Babel's `format_list`: "Niebieski, Czerwony i Zielony")."""

    def __new__(cls, items):
        items = tuple(items)
        english = format_list([str(item) for item in items], locale=DEFAULT) if items else ""
        self = str.__new__(cls, english)
        # as a plain Reason, the English list (whatever reads msgid and params without knowing lists)
        self.msgid, self.plural, self.num, self.params = english, None, None, {}
        self.items = items
        return self

    def __reduce__(self):
        return (Listed, (self.items,))

    def said(self, catalog, language: str) -> str:
        return format_list([_say(item, catalog, language) for item in self.items], locale=language or DEFAULT)


def _l(msgid: str, **params) -> Words:
    return Words(msgid, **params)


def _ln(singular: str, plural: str, num: int, **params) -> Words:
    return Words(singular, plural, num, **params)


def N_(msgid: str) -> str:
    """Marks a sentence for translation where it is written (a table of messages, a constant) and leaves it as
    it is: whoever shows it looks it up (`translated`, or `_l(msgid, **values)`)."""
    return msgid


def translated(text) -> str:
    """Words in the language of the request at hand (English outside one). A `Reason` (a service's `_l`, an
    engine's refusal) is looked up by its template, its values filled in after; a plain string is looked up as it
    is: a marked message (`N_`) is found, anything else stays as it was written."""
    if text is None:
        return text
    from flask import has_request_context
    if not has_request_context() or not isinstance(text, str):
        return str(text) if isinstance(text, str) else text
    from flask_babel import get_locale, get_translations
    return _say(text, get_translations(), str(get_locale() or DEFAULT))


def in_language(text, language: str | None) -> str:
    """Words in a language named outside any request (a Socket.IO refusal answered before its handler runs)."""
    if text is None or not isinstance(text, str) or not language or language == DEFAULT:
        return text if text is None or not isinstance(text, str) else str(text)
    return _say(text, for_language(language), language)


def _say(text: str, catalog, language: str = DEFAULT) -> str:
    """`text` in the language of a gettext catalog (Babel's Translations), `language` its name (for lists)."""
    if isinstance(text, Listed):
        return text.said(catalog, language)
    if not text:
        return str(text)  # never look up "": gettext answers it with the catalog's header
    if not isinstance(text, Reason):
        # gettext's own lookup, without %-formatting (a plain reason may hold a % sign)
        return catalog.ugettext(text)
    params = {key: _say(value, catalog, language) if isinstance(value, Reason) else value
              for key, value in text.params.items()}
    if text.plural is not None:
        said = catalog.ungettext(text.msgid, text.plural, text.num)
    else:
        said = catalog.ugettext(text.msgid)
    try:
        return said % params if params else said
    except (KeyError, ValueError, TypeError):  # a broken translation (the check refuses them): the English
        return str(text)
