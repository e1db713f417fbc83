"""Passwords: Argon2id through argon2-cffi, with its recommended parameters (RFC 9106's second choice).

`verify_or_dummy` spends the same time whether or not the account exists: for an unknown name it verifies
against a hash of a password nobody has, so that login's timing never tells whether a name is taken."""
from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()


@cache
def _dummy() -> str:
    """A hash of a password nobody has: only its verification time matters. Made on the first unknown name
    rather than at import, so that a process (or a test) that never checks one never pays an Argon2 hash."""
    return _hasher.hash("a password nobody has: only its verification time matters")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_or_dummy(stored_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored_hash or _dummy(), password) and stored_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    return _hasher.check_needs_rehash(stored_hash)
