"""Invites: who may take a free seat of a match, and who may see it in the public list.

An online match is created with a visibility its creator chooses:

- `private` (the default): unlisted. Only the holder of its invite secret takes a free seat; its plain
  address, a guess or a spectator only ever watches.
- `public`: listed, to watch; a seat still needs the invite secret.
- `open`: listed, and a free seat is anyone's (an "anyone may join" seek).

Local matches, matches against the computer, demos and embedded games are always private.

The invite secret is a seat token's kin: 192 random bits, of which only a SHA-256 hash is kept (in the
match's `meta`, which no answer and no record shows), compared in constant time, never logged. It travels in
the invite link's fragment (`/m/<id>#join=<secret>`): browsers never send a fragment to a server, never put
it in a Referer, and never log it; the page reads it and sends it with `claim`.

By-name play keeps its own secret: the shared match name lets the second player in (MatchService.join_by_name).
A match of a release before invites has no secret: its free seat goes to whoever opens its address, as the
links its creator already sent promised.
"""
from __future__ import annotations

import hmac

from ..errors import ServiceError, bad_request
from ..i18n import _l
from .store import LISTED, VISIBILITIES
from ..infra.tokens import hash_token, new_token, well_formed

__all__ = ["LISTED", "VISIBILITIES", "new_invite", "visibility_for", "check_claim", "invite_link"]

FRAGMENT = "join"


def new_invite() -> tuple[str, str]:
    """A new invite secret and the hash to keep of it."""
    secret = new_token()
    return secret, hash_token(secret)


def visibility_for(visibility, mode: str) -> str:
    """The creator's choice, checked: only online matches may be listed or open to anyone."""
    if visibility is None:
        return "private"
    if visibility not in VISIBILITIES:
        raise bad_request(_l("visibility must be one of: %(choices)s.",
                             choices=", ".join(VISIBILITIES)), "bad-visibility")
    if visibility != "private" and mode != "online":
        raise bad_request(_l("Only online matches can be listed or open to anyone."), "bad-visibility")
    return visibility


def check_claim(visibility: str, meta: dict, secret) -> None:
    """Let a claim of a free seat through, or refuse it (403 invite-required) without a valid invite."""
    if visibility == "open" or "invite" not in meta:  # a seek, or a match made before invites
        return
    if well_formed(secret) and hmac.compare_digest(hash_token(secret), meta["invite"]):
        return
    raise ServiceError(403, "invite-required",
                       _l("Only a player with this match's invite link can take a seat; you can watch it. Ask a "
                          "player to send you the link."))


def invite_link(match_url: str, secret: str | None) -> str | None:
    """The address a friend opens: the match's page, with the secret in the fragment."""
    return f"{match_url}#{FRAGMENT}={secret}" if secret else None
