"""The one error type the doors turn into JSON: {"error": <machine word>, "reason": <sentence>}.

The reason is written in English where the error is raised, marked for translation (`_l`, quadrille/i18n/words.py),
and translated into the request's language by the door that answers (`to_dict`, the error pages); the `error`
code never changes with the language.
"""
from __future__ import annotations

from games.reasons import Reason

from .i18n.words import _l, translated


class ServiceError(Exception):
    def __init__(self, status: int, error: str, reason: str, **extra):
        super().__init__(reason)
        self.status = status
        self.error = error
        self.reason = reason
        self.extra = extra

    def to_dict(self) -> dict:
        """The answer a door sends, its reason in the language of the request at hand."""
        # a value beside the reason that is words too (an engine's longer explanation, `detail`) is said alike
        extra = {key: translated(value) if isinstance(value, Reason) else value for key, value in self.extra.items()}
        return {"error": self.error, "reason": translated(self.reason), **extra}


def bad_request(reason: str, error: str = "bad-request") -> ServiceError:
    return ServiceError(400, error, reason)


def not_found() -> ServiceError:
    return ServiceError(404, "not-found", _l("There is no such match."))
