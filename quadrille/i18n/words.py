"""Words a person reads, made where no request is at hand (a service's error reasons), translated at the door.

    raise ServiceError(404, "unknown-player", _l("There is no player called “%(name)s”.", name=name))
    raise ServiceError(429, "rate-limited", _ln("You may send %(num)d report a day.",
                                                "You may send %(num)d reports a day.", REPORTS_PER_DAY))

`_l` and `_ln` give a `Words`: a plain `str`, in English (so logs, the admin commands and every test that reads
it see the English), that remembers its message and its values. The doors (the HTTP API's and the pages' error
handlers, the Socket.IO acknowledgements) call `translated(words)`, which looks the message up in the request's
language and fills the values in there; the `error` code beside it never changes. The placeholders are gettext's
Python ones, `%(name)s` and `%(num)d` (Babel checks that a translation keeps them); `pybabel extract` finds
both functions by name (babel.cfg).
"""
from __future__ import annotations


class Words(str):
    msgid: str
    plural: str | None
    num: int | None
    params: dict

    def __new__(cls, msgid: str, plural: str | None = None, num: int | None = None, **params):
        if plural is not None:
            params.setdefault("num", num)
            english = msgid if num == 1 else plural
        else:
            english = msgid
        self = super().__new__(cls, english % params if params else english)
        self.msgid, self.plural, self.num, self.params = msgid, plural, num, params
        return self

    def translated(self) -> str:
        """In the request's language; a value that is itself marked words (a reason within a reason) too."""
        from flask_babel import gettext, ngettext
        params = {key: translated(value) if isinstance(value, Words) else value for key, value in self.params.items()}
        if self.plural is not None:
            params.pop("num", None)  # Flask-Babel's ngettext fills %(num)d from its own argument
            return ngettext(self.msgid, self.plural, self.num, **params)
        return gettext(self.msgid, **params)


def _l(msgid: str, **params) -> Words:
    return Words(msgid, **params)


def _ln(singular: str, plural: str, num: int, **params) -> Words:
    return Words(singular, plural, num, **params)


def N_(msgid: str) -> str:
    """Marks a sentence for translation where it is written (a table of messages, a constant) and leaves it as
    it is: whoever shows it looks it up (`translated`, or `_l(msgid, **values)`)."""
    return msgid


def translated(text) -> str:
    """Words in the language of the request at hand (English outside one). A plain string is looked up as it
    is: a marked message (`N_`) is found, anything else stays as it was written."""
    if text is None:
        return text
    from flask import has_request_context
    if not has_request_context():
        return str(text)
    if isinstance(text, Words):
        return text.translated()
    if isinstance(text, str):
        # gettext's own lookup, without Flask-Babel's %-formatting (a plain reason may hold a % sign)
        from flask_babel import get_translations
        return get_translations().ugettext(text)
    return text
