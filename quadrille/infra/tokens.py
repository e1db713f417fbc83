"""Seat tokens: 192 random bits, only a SHA-256 hash is ever stored, compared in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


MAX_TOKEN_LENGTH = 128


def well_formed(token) -> bool:
    """Tokens are short printable ASCII (ours are URL-safe base64); anything else holds no seat. This also
    keeps text that cannot be encoded (a lone surrogate) away from the hash."""
    return isinstance(token, str) and 0 < len(token) <= MAX_TOKEN_LENGTH and token.isascii() and token.isprintable()


def seats_held(token, seat_hashes) -> list[int]:
    """The seats whose stored hash is this token's: `seat_hashes` is (seat, hash or None) pairs.
    The token is hashed once, then compared with every hash in constant time."""
    if not well_formed(token):
        return []
    digest = hash_token(token)
    return [seat for seat, stored in seat_hashes if stored and hmac.compare_digest(digest, stored)]
