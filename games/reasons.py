"""A reason an engine gives a person (an illegal move's), in English, that a server can say in another language.

An engine is pure: it knows no language but English and no request. So it writes each sentence as a template
with named values, and the `Reason` it makes is the English sentence (a plain `str`: logs, tests and doctests
read it as before) that also keeps its template and its values. The server looks the template up in its
catalogs (docs/translating.md, "For programmers") and fills the values in after translating, so a cell name or
a colour lands where the language puts it:

    >>> taken = Reason("%(cell)s is taken", cell="a1")
    >>> taken, taken.msgid, taken.params
    ('a1 is taken', '%(cell)s is taken', {'cell': 'a1'})
    >>> reason_n("the tower holds %(num)d pawn", "the tower holds %(num)d pawns", 3)
    'the tower holds 3 pawns'

`pybabel extract` finds the templates by these names (babel.cfg: `Reason`, `reason_n`, and `IllegalMove`, which
takes a template and its values itself): write the English as a string literal in the call, never an f-string.
A value that is itself a `Reason` is translated too: a reason within a reason, or a word of the catalog such as a
seat's colour (`Reason("Blue")`, marked with `N_` where the colours are defined); any other value (a cell, a
number, a move) is put in as it is.
"""
from __future__ import annotations


class Reason(str):
    msgid: str
    plural: str | None
    num: int | None
    params: dict

    def __new__(cls, msgid: str, plural: str | None = None, num: int | None = None, /, **params):
        if plural is not None:
            params.setdefault("num", num)
            english = msgid if num == 1 else plural
        else:
            english = msgid
        self = super().__new__(cls, english % params if params else english)
        self.msgid, self.plural, self.num, self.params = msgid, plural, num, params
        return self

    def __reduce__(self):
        return (_rebuilt, (type(self), self.msgid, self.plural, self.num, self.params))

    def to_dict(self) -> dict:
        """The reason as JSON, to cross a process boundary (a computer worker's answer); `from_dict` rebuilds it."""
        return {"msgid": self.msgid, "plural": self.plural, "num": self.num,
                "params": {key: value.to_dict() if isinstance(value, Reason) else value
                           for key, value in self.params.items()}}

    @classmethod
    def from_dict(cls, data) -> "Reason":
        params = {key: cls.from_dict(value) if isinstance(value, dict) else value
                  for key, value in (data.get("params") or {}).items()}
        if data.get("plural") is not None:
            params.pop("num", None)
        return cls(data["msgid"], data.get("plural"), data.get("num"), **params)


def _rebuilt(cls, msgid, plural, num, params):
    params = dict(params)
    if plural is not None:
        params.pop("num", None)
    return cls(msgid, plural, num, **params)


def reason_n(singular: str, plural: str, num: int, /, **params) -> Reason:
    """A reason whose words follow a number (`%(num)d`): each language chooses its own plural form."""
    return Reason(singular, plural, num, **params)


def as_reason(text) -> Reason:
    """A reason from whatever an engine wrote: a `Reason` as it is; a plain sentence (a fixed one, marked for
    the catalog) as a reason without values."""
    return text if isinstance(text, Reason) else Reason(str(text))


def bad_option(name: str, value, accepted) -> Reason:
    """An option's value refused (the ValueError of `Option.check` and its kin): the option as the API names it,
    the value as given, and what it accepts (itself a reason, said in the reader's language)."""
    return Reason("option %(name)s: got %(value)s, expected %(accepted)s", name=repr(name), value=repr(value),
                  accepted=accepted)


def reason_of(error: Exception):
    """What an engine's ValueError says, kept a `Reason` when it is one (so a door can translate it), else its
    text."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Reason) else str(error)
