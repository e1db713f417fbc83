"""The one error type the doors turn into JSON: {"error": <machine word>, "reason": <sentence>}."""
from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, status: int, error: str, reason: str, **extra):
        super().__init__(reason)
        self.status = status
        self.error = error
        self.reason = reason
        self.extra = extra

    def to_dict(self) -> dict:
        return {"error": self.error, "reason": self.reason, **self.extra}


def bad_request(reason: str, error: str = "bad-request") -> ServiceError:
    return ServiceError(400, error, reason)


def not_found(what: str = "match") -> ServiceError:
    return ServiceError(404, "not-found", f"There is no such {what}.")
