"""What a challenge's answers are refused with: one that does not exist, one already closed, and one the
challenged player does not take (without saying why: a blocked challenger is told nothing more)."""
from __future__ import annotations

from ..errors import ServiceError
from ..i18n import _l


def not_found() -> ServiceError:
    return ServiceError(404, "not-found", _l("There is no such challenge."))


def closed(status: str) -> ServiceError:
    reason = {"accepted": _l("This challenge was accepted; it cannot be answered now."),
              "declined": _l("This challenge was declined; it cannot be answered now."),
              "cancelled": _l("This challenge was cancelled; it cannot be answered now."),
              "expired": _l("This challenge was expired; it cannot be answered now.")}.get(status)
    return ServiceError(409, "challenge-closed", reason or _l("This challenge is closed; it cannot be answered now."))


def not_accepted() -> ServiceError:
    # A blocked challenger learns nothing more than this: not that it is blocked, nor by whom.
    return ServiceError(403, "not-accepted", _l("Your challenge was not accepted."))
