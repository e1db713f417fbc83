"""The connection gate's own books (web/admission.py), without a server: how addresses are counted, who is cut
to make room near the descriptor limit, and which waiting connection is closed past WAITING_CONNECTIONS. The
attacks on a real server that these rules answer are test_connections.py's."""
from __future__ import annotations

from quadrille.infra.addresses import address_key
from quadrille.web.admission import ConnectionGate


# -- how addresses are counted ------------------------------------------------------------------------
def test_an_ipv6_client_is_its_64_and_an_ipv4_client_its_address():
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"  # IPv4 on a dual-stack socket
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("?") == "?"


# -- the descriptor reserve ---------------------------------------------------------------------------
def test_the_gate_cuts_the_newest_connection_of_the_address_holding_the_most():
    cut = []
    gate = ConnectionGate(per_address=None, reserve=0, limit=lambda: 6)
    tickets = {name: [gate.admit(address, lambda n=name, i=i: cut.append((n, i))) for i in range(count)]
               for name, address, count in (("many", "2001:db8::1", 4), ("some", "192.0.2.1", 2))}
    assert gate.descriptors == 6 and not cut
    # At the ceiling: the address holding the most waits; another is let in in place of its newest connection.
    assert gate.admit("2001:db8::2", lambda: None) is None  # the same /64 as "many"
    assert gate.admit("192.0.2.9", lambda: None) is not None and cut == [("many", 3)]
    gate.release(tickets["many"][3])  # its handler closes it: already forgotten
    assert gate.descriptors == 6 and gate.held_by("2001:db8::7") == 3


def test_the_gate_spares_the_proxy_and_never_cuts_its_connections():
    cut = []
    gate = ConnectionGate(per_address=2, reserve=0, limit=lambda: 6)
    proxied = [gate.admit("", lambda i=i: cut.append(("proxy", i)), proxy=True) for i in range(4)]
    assert all(proxied) and gate.descriptors == 4  # past the cap of 2: the proxy is no address
    direct = [gate.admit("192.0.2.1", lambda i=i: cut.append(("direct", i))) for i in range(3)]
    assert direct[2] is None and gate.descriptors == 6  # a direct client is capped
    # At the ceiling the proxy's new connection takes the place of the direct client's newest, never another
    # of its own; with no direct connection left to cut, it waits.
    assert gate.admit("", lambda: None, proxy=True) is not None and cut == [("direct", 1)]
    assert gate.admit("", lambda: None, proxy=True) is not None and cut == [("direct", 1), ("direct", 0)]
    assert gate.admit("", lambda: None, proxy=True) is None and gate.descriptors == 6
    assert gate.admit("192.0.2.9", lambda: None) is None  # a newcomer finds nothing but the proxy's: it waits
    gate.release(proxied[0])
    assert gate.descriptors == 5 and gate.admit("192.0.2.9", lambda: None) is not None


# -- the cap on waiting connections --------------------------------------------------------------------
def test_past_the_waiting_cap_the_oldest_waiting_connection_of_the_address_waiting_with_the_most_is_cut():
    cut = []
    gate = ConnectionGate(per_address=None, reserve=0, waiting_cap=4, limit=lambda: 100)

    def admit(name, address, proxy=False):
        return gate.admit(address, lambda: cut.append(name), proxy=proxy)
    many = [admit(f"many{i}", "192.0.2.1") for i in range(3)]
    some = admit("some", "192.0.2.2")
    assert gate.waiting_count() == 4 and not cut  # each waits for its first request from its accept
    # A newcomer waits in place of the oldest waiting connection of the address that waits with the most.
    newcomer = admit("newcomer", "192.0.2.3")
    assert cut == ["many0"] and gate.waiting_count() == 4 and gate.held_by("192.0.2.1") == 2
    gate.release(many[0])  # its handler closes it: already forgotten
    assert gate.descriptors == 4
    # A connection whose request has arrived whole waits no more, and makes room.
    gate.serving(some)
    gate.serving(newcomer)
    assert gate.waiting_count() == 2
    admit("another", "192.0.2.4")
    assert cut == ["many0"] and gate.waiting_count() == 3
    # After its answer a kept-alive connection waits again, and at the cap takes another's place.
    gate.waiting(some)
    gate.waiting(newcomer)
    assert cut == ["many0", "many1"] and gate.waiting_count() == 4
    # A trusted proxy's connections never count as waiting, and are never cut for it.
    proxied = [admit(f"proxy{i}", "", proxy=True) for i in range(3)]
    assert all(proxied) and gate.waiting_count() == 4 and cut == ["many0", "many1"]
    # Serving a connection that was cut, or waiting on it, changes nothing.
    gate.serving(many[1])
    gate.waiting(many[1])
    assert gate.waiting_count() == 4 and gate.held_by("192.0.2.1") == 1
