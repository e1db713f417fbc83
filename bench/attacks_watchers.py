"""Watchers (issue 22, finding 8) for bench/attacks.py, at the default settings: 600 watchers of the largest
STATE while its player acts, and watchers that never read. The attacks are tests/security/test_watchers.py's.

At the defaults one socket of a player may send 100 events in 20 s (SOCKET_PLAYER_EVENTS), so the player here
acts 90 times a socket: for the review's thousands of actions it takes a fresh socket for each 90, as an
attacker would (its address may send 30,000 events in 20 s)."""
from __future__ import annotations

import copy

from bench.attacks_kit import Attack
from tests.support.clients import ATTACKER, RawSocket
from tests.security.test_watchers import Player, crowd_acts, ended, non_reader, rss_mb

ACTIONS_A_SOCKET = 90


def act_from_fresh_sockets(player: Player, url: str, actions: int) -> None:
    """`actions` actions in the player's match, ACTIONS_A_SOCKET from each of a series of its sockets."""
    for _ in range(0, actions, ACTIONS_A_SOCKET):
        hand = copy.copy(player)
        hand.sock = RawSocket(url, ATTACKER)
        assert hand.sock.call("watch", {"match": player.match, "token": player.token})["ok"]
        hand.act(ACTIONS_A_SOCKET, 5)
        hand.close()


def never_reading(url: str, pid: int, silent: int, actions: int) -> dict:
    """The review's attack: `silent` watchers that never read a match of the attacker's own, in which it then
    acts `actions` times; how much the server (process `pid`) grew, and whether it dropped the silent ones."""
    player = Player(url)
    watchers = [non_reader(url, "127.0.0.13", player.match) for _ in range(silent)]
    player.close()  # its first socket would be one more that does not read while the others act
    before = rss_mb(pid)
    act_from_fresh_sockets(player, url, actions)
    grown = rss_mb(pid) - before
    dropped = sum(ended(sock, 5) for sock in watchers)
    return {"actions": actions, "grown_mb": round(grown, 1), "dropped": dropped, "silent": silent}


ATTACKS = [
    Attack("watchers-600", "8", "600 watchers (10 an address) of a 40x40, 16-player Gamma while its player acts "
           f"{ACTIONS_A_SOCKET} times", lambda t, s: (crowd_acts, (t.url, 600, ACTIONS_A_SOCKET, 5)),
           lambda r: f"{r['actions']} actions in {r['seconds']:.1f} s ({1000 * r['seconds'] / r['actions']:.1f} ms "
                     "each, every STATE 37 KB to 600 sockets)"),
    Attack("never-reading", "8", "5 watchers that never read, while the player acts 1,080 times",
           lambda t, s: (never_reading, (t.url, t.pid, 5, 1080)),
           lambda r: f"the server grew {r['grown_mb']} MB over {r['actions']} actions; {r['dropped']} of "
                     f"{r['silent']} silent watchers disconnected"),
]
