"""What moderation accepts, checked before anything changes: a report's reason and words, a match id, a game,
a match name, a note. Each refusal is a ServiceError with a clear reason (400 unless it says otherwise)."""
from __future__ import annotations

import re

import games

from ..i18n.words import N_
from ..errors import ServiceError, bad_request
from ..i18n import _l
from ..matches.inputs import clean_name

# A report's reason: a short list, so that the moderators' page can group them; the reporter's words go beside.
REASONS = {
    "cheating": N_("Cheating (help from a program or another person)"),
    "stalling": N_("Stalling or leaving games to run the clock"),
    "name": N_("An offensive name (the account's, or a match's)"),
    "harassment": N_("Harassment (unwanted challenges, abusive games)"),
    "other": N_("Something else"),
}
MAX_TEXT = 500           # a report's own words
MAX_NOTE = 200           # a moderator's note on an action (shown in the audit log)
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def reason(value) -> str:
    if value not in REASONS:
        raise bad_request(_l("reason must be one of: %(choices)s.", choices=", ".join(REASONS)), "bad-reason")
    return value


def text(value, limit: int = MAX_TEXT, what: str = "text") -> str | None:
    """Optional words: None or text of at most `limit` characters (blank counts as none)."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise bad_request(_l("%(what)s must be text of at most %(limit)s characters.",
                             what=what, limit=limit), f"bad-{what}")
    return value.strip() or None


def match_id(value) -> str:
    if not isinstance(value, str) or not MATCH_ID.fullmatch(value):
        raise ServiceError(404, "not-found", _l("There is no such match."))
    return value


def game(value) -> str:
    if not isinstance(value, str) or value not in games.names():
        raise bad_request(_l("game must be one of: %(choices)s.", choices=", ".join(games.names())), "bad-game")
    return value


def match_name(value) -> str:
    """A by-name match's name, as by-name play keys it (lower case)."""
    try:
        name = clean_name(value)
    except ServiceError as exc:
        raise bad_request(exc.reason, "bad-name")
    if name is None:
        raise bad_request(_l("Name the match."), "bad-name")
    return name.lower()


def target(account_name, match) -> tuple:
    """A report names an account, a match, or both (a player in that match); never neither."""
    if account_name is None and match is None:
        raise bad_request(_l("Report a player (account) or a match (match)."), "bad-target")
    if account_name is not None and not isinstance(account_name, str):
        raise bad_request(_l("account must be a player's name."), "bad-player")
    return account_name, (match_id(match) if match is not None else None)
