"""What people may be called: the one place for the rules of seat names and account names.

A name is shown to other people (a seat's player, an account), so it must not pose as someone or something
else. Both kinds of name go through here: the match service checks a guest's seat name (`seat_name`), the
accounts check a new user name (`account_name`), and the accounts table keeps each name's `key` in a unique
column, so that no two accounts can look alike.

- **Normalised**: NFKC (compatibility forms become plain ones: fullwidth `Ａnn` is `Ann`), runs of white
  space become one space, none at either end.
- **Nothing invisible or out of line**: control and format characters, line and paragraph separators,
  private-use, surrogate and unassigned code points (Unicode categories Cc, Cf, Zl, Zp, Co, Cs, Cn, which take
  in the right-to-left marks and overrides and the zero-width characters), every default-ignorable code point
  (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 among them) and the braille blank U+2800 are refused,
  not removed: a name that needs them to look like something is not wanted.
- **The site's own words are reserved**: "Computer", "deleted player", "admin" and the like are what the
  pages write themselves or what a person would take for the site's, so nobody may take them (nor a
  look-alike of them).
- **Look-alikes**: `key(name)` is Unicode's confusable skeleton (UTS #39, ICU's SpoofChecker), case folded
  and skeletoned again, so that `ann`, `Ann`, `аnn` (Cyrillic a) and `ANN` share a key, and so do `annl`,
  `ann1` and `annI`, or `m` and `rn`. Two names with one key look alike.
- **Accounts** keep their ASCII names (letters, digits, `-` and `_`): between such names the key merges case,
  `l`/`I`/`1`, `O`/`0` and `rn`/`m`, as UTS #39 lists them (it lists neither `vv`/`w` nor `cl`/`d`). A
  guest's seat name whose key is an account's key is refused (`looks_like_account` says so), unless the
  requester is that account; a seat an account holds is marked in the STATE (`"account": true`).

Pages isolate every name in `<bdi>`, so that a right-to-left name cannot reorder the words around it.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable

import icu

from .errors import bad_request
from .i18n.words import _l

MAX_SEAT_NAME = 40                                # characters of a seat's name, after normalising
SEAT_ERROR = "bad-request"                        # a seat name's refusal, as the match API has always said
ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_-]{2,20}")
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
BLANK_LOOKING = frozenset({"\u2800"})             # braille pattern blank: a symbol (So) that draws nothing
# What the pages write themselves: a person's name must not read as one of them.
RESERVED = ("Computer", "deleted player", "ai", "free", "taken", "you", "me", "a friend", "a player",
            "anonymous", "guest", "nobody", "quadrille", "admin", "administrator", "moderator", "system",
            "server")
_CHECKER = icu.SpoofChecker()
_DEFAULT_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


def skeleton(text: str) -> str:
    """UTS #39's skeleton: two strings with one skeleton are confusable (ICU's implementation and data)."""
    return _CHECKER.getSkeleton(0, text)


def key(name: str) -> str:
    """The name's look-alike key: its skeleton, case folded, skeletoned again (a capital's look-alike is often
    listed for its small letter, and case folding makes `I` an `i`, so `annI` must become `annl` first)."""
    return skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())


def _reserved_keys() -> frozenset:
    # ("Player 2" is not among them: it is what a seat is called until its player names it, and typing it
    # names nobody else.)
    words = list(RESERVED) + [f"Computer {n}" for n in range(1, 10)] + [f"Computer ({n})" for n in range(1, 10)]
    return frozenset(key(word) for word in words)


RESERVED_KEYS = _reserved_keys()


def invisible(char: str) -> bool:
    """Whether a character is refused in a name: it draws nothing, or it changes how the text around it is
    laid out or read (format characters such as the right-to-left marks)."""
    return (unicodedata.category(char) in REFUSED_CATEGORIES or char in BLANK_LOOKING
            or icu.Char.hasBinaryProperty(char, _DEFAULT_IGNORABLE))


def normalise(text: str) -> str:
    """NFKC, white space collapsed: the form a name is kept and shown in."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def reserved(name: str) -> bool:
    return key(name) in RESERVED_KEYS


def seat_name(value, looks_like_account: Callable[[str], bool] | None = None) -> str | None:
    """A seat's player name as a guest typed it, normalised; None when none was given. 400 `bad-request` (as every malformed field of a match request) when it
    is not text, too long, has an invisible or control character, is one of the site's words, or
    (`looks_like_account(key)` true) looks like an account's name."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise bad_request(_l("The player name must be text."), SEAT_ERROR)
    name = normalise(value)
    if not name or len(name) > MAX_SEAT_NAME:
        raise bad_request(_l("The player name must be 1 to %(most)d characters.", most=MAX_SEAT_NAME), SEAT_ERROR)
    if any(invisible(char) for char in name):
        raise bad_request(_l("The player name has an invisible or control character; type letters, digits and "
                             "punctuation only."), SEAT_ERROR)
    if reserved(name):
        raise bad_request(_l("'%(name)s' is a word the site uses itself; choose another player name.",
                             name=name), SEAT_ERROR)
    if looks_like_account is not None and looks_like_account(key(name)):
        raise bad_request(_l("'%(name)s' is, or looks like, the name of a player with an account; choose another "
                             "player name (or log in, if it is yours).", name=name), SEAT_ERROR)
    return name


def account_name(name) -> str:
    """A new account's user name: 2 to 20 ASCII letters, digits, `-` and `_`, not one of the site's words.
    (That it looks like no other account's name is the accounts table's unique `name_skeleton`, which holds
    `key(name)`.) 400 `bad-name` otherwise."""
    if not isinstance(name, str) or not ACCOUNT_NAME.fullmatch(name):
        raise bad_request(_l("A user name has 2 to 20 characters: letters, digits, - and _."), "bad-name")
    if reserved(name):
        raise bad_request(_l("'%(name)s' is a word the site uses itself; choose another user name.",
                             name=name), "bad-name")
    return name
