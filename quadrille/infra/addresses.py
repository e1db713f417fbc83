"""Who an address budget counts: one client address, as budgets see it.

An IPv4 address is one client. An IPv6 client is handed a whole /64 by its provider (RFC 6177; the
interface identifier is its own choice), so budgets keyed by the full address would let it take a fresh
address, and a fresh budget, at will: an IPv6 address counts as its /64. An IPv4-mapped IPv6 address
(::ffff:1.2.3.4, as a dual-stack socket reports IPv4 clients) counts as its IPv4 address.
"""
from __future__ import annotations

import ipaddress

IPV6_PREFIX = 64


def address_key(addr) -> str:
    """The budget key of a client address: the address itself for IPv4, its /64 network for IPv6 (written as
    `2001:db8::/64`); anything that is not an address (a missing one, a Unix socket's) is kept as it is."""
    if not isinstance(addr, str) or not addr:
        return "?"
    try:
        parsed = ipaddress.ip_address(addr.split("%", 1)[0])  # a zone index (fe80::1%eth0) names no network
    except ValueError:
        return addr
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)
