"""Who a request's client is, as every rule per address counts it: the budgets (web/rate_limits.py), the
sockets' caps and budgets (web/sockets.py) and the owner of a match against the computer, whose matches
COMPUTER_MATCHES_PER_ADDRESS caps and whose searches take turns with other owners' (computer/pool.py).

It is the address the request came from once a trusted proxy's X-Forwarded-For has been believed, or anyone
else's dropped (web/security.py), keyed by infra/addresses.address_key: an IPv4 address is one client, an
IPv6 client is its /64 (a subscriber picks any address inside it at will)."""
from __future__ import annotations

from flask import request

from ..infra.addresses import address_key


def client_address() -> str:
    return address_key(request.remote_addr)
