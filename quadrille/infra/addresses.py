"""Client addresses as budgets and caps count them: an IPv4 address is one client, an IPv6 client is its /64.

An IPv6 subscriber is usually given a whole /64 (often a /56 or more), and picks any address inside it at will:
keyed by the full address, one machine could open a fresh budget with every connection."""
from __future__ import annotations

import ipaddress
from functools import lru_cache

IPV6_PREFIX = 64


def address_key(addr: str | None) -> str:
    """The IPv4 address itself, or the IPv6 /64 prefix (`2001:db8:1:2::/64`) that holds `addr`. An IPv4 address
    mapped into IPv6 (`::ffff:192.0.2.1`, from a dual-stack socket) is that IPv4 address. Anything else that
    does not parse is returned as it is; no address at all (None, or a Unix socket's empty one) is "?"."""
    if not isinstance(addr, str) or not addr:
        return "?"
    if ":" not in addr:
        return addr  # IPv4 (or nothing): the common case, without parsing
    return _ipv6_key(addr)


@lru_cache(maxsize=4096)
def _ipv6_key(addr: str) -> str:
    try:
        ip = ipaddress.IPv6Address(addr.split("%", 1)[0])  # a zone index (fe80::1%eth0) is not part of the key
    except ValueError:
        return addr
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
