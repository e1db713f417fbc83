"""Seat tokens: 192 random bits, only a SHA-256 hash is ever stored, compared in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seats_held(token, seat_hashes) -> list[int]:
    """The seats whose stored hash is this token's: `seat_hashes` is (seat, hash or None) pairs.
    The token is hashed once, then compared with every hash in constant time."""
    if not isinstance(token, str) or not token:
        return []
    digest = hash_token(token)
    return [seat for seat, stored in seat_hashes if stored and hmac.compare_digest(digest, stored)]
