"""Where the server's CPU goes, one thing at a time: making a match, a player's connection, and a move, against
the configurations of bench/cluster.py ((a) one process on SQLite, (b)-(d) one to three processes on
PostgreSQL + Redis behind nginx).

    python bench/match_costs.py                          # (a) and (c): 200 matches, 200 connections, 30 games
    python bench/match_costs.py --configs a,b,c,d --games 60

One client does one thing at a time, so each figure is the cost of that thing alone, on a server that wakes up
for it. (A busy server handles several things each time it wakes and pays less for each: bench/cluster.py
measures that.) For each configuration, on a fresh cluster:
- **a match made** as bench/load.py's tables make theirs: created over HTTP, its second seat claimed over HTTP;
- **a connection** as a match page makes one: connect naming the match, `watch`, and leave;
- **a move**: the two seats of a match, connected, play random moves flat out (each answered before the next is
  sent); the CPU is counted from a game's first move to its last, the games' making and connections outside it.

Each is the server CPU summed over every server-side process, by role, as bench/cluster.py counts it. The last
columns say what a move costs all told when a game of 26 moves (about bench/load.py's random Trails games) or of
60 moves shares the cost of its making and of its two players' connections.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cluster import CONFIGS, roles, tree_cpu  # noqa: E402
from bench.load import Seat, http_from, new_match, table_address  # noqa: E402
from scripts.cluster import Cluster  # noqa: E402

GAME_LENGTHS = (26, 60)
SETTLE = 0.5  # seconds for the work a server defers (a room's presence message) to be done and counted


class Meter:
    """The CPU every server-side process of a cluster spent on something, in ms per unit, by role."""

    def __init__(self, cluster: Cluster):
        self.roles = roles(cluster)

    def now(self) -> dict[str, float]:
        return {role: tree_cpu(pids) for role, pids in self.roles.items()}

    @staticmethod
    def per_unit(start: dict, end: dict, units: int) -> dict[str, float]:
        return {role: round(1000 * (end[role] - start[role]) / units, 3) for role in start}


def new_seat(url: str, address: str) -> Seat:
    stats = {"latencies": [], "accepted": 0, "refused": 0, "running": True}
    return Seat(url, stats, 0.0, random.Random(address), address)


async def connections(meter: Meter, url: str, matches: list[tuple[str, str, str]]) -> dict[str, float]:
    """Connect, watch and leave, once per match."""
    seat = new_seat(url, table_address(1))
    try:
        start = meter.now()
        for match, token, _ in matches:
            await seat.join(match, token, 1)
            await seat.sio.disconnect()
        await asyncio.sleep(SETTLE)
        return Meter.per_unit(start, meter.now(), len(matches))
    finally:
        await seat.http.close()


async def moves(meter: Meter, url: str, games: int) -> tuple[dict[str, float], int]:
    """`games` games played flat out: the CPU of their moves only, and how many moves they had."""
    address = table_address(2)
    http = http_from(address)
    blue, red = new_seat(url, address), new_seat(url, address)
    spent = {role: 0.0 for role in meter.roles}
    played = 0
    try:
        for _ in range(games):
            match, blue_token, red_token = new_match(http, url)
            await red.join(match, red_token, 2)
            state = await blue.join(match, blue_token, 1)
            await asyncio.sleep(SETTLE)  # the room's presence message, outside the count
            before, start = blue.stats["accepted"] + red.stats["accepted"], meter.now()
            await blue.on_state(state)
            while not (blue.over.is_set() and red.over.is_set()):
                await asyncio.sleep(0.002)
            for seat in (blue, red):
                if seat.moving is not None:
                    await asyncio.wait([seat.moving], timeout=30)  # the last move's acknowledgement
            end = meter.now()
            played += blue.stats["accepted"] + red.stats["accepted"] - before
            for role in spent:
                spent[role] += end[role] - start[role]
            await blue.leave()
            await red.leave()
    finally:
        await blue.http.close()
        await red.http.close()
    return {role: round(1000 * s / played, 3) for role, s in spent.items()}, played


def measure(cluster: Cluster, matches: int, games: int) -> dict:
    meter = Meter(cluster)
    http = http_from(table_address(0))
    new_match(http, cluster.url)  # the first request of a process pays for its imports and caches
    start = meter.now()
    made = [new_match(http, cluster.url) for _ in range(matches)]
    time.sleep(SETTLE)
    match_cost = Meter.per_unit(start, meter.now(), matches)
    connection_cost = asyncio.run(connections(meter, cluster.url, made))
    move_cost, played = asyncio.run(moves(meter, cluster.url, games))
    result = {"match": match_cost, "connection": connection_cost, "move": move_cost, "moves_played": played}
    for length in GAME_LENGTHS:
        result[f"move_in_{length}"] = round(total(move_cost) + (total(match_cost) + 2 * total(connection_cost))
                                            / length, 3)
    return result


def total(cost: dict[str, float]) -> float:
    return sum(cost.values())


def run(config: dict, matches: int, games: int, async_mode: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="quadrille-costs-") as tmp:
        os.chmod(tmp, 0o755)
        cluster = Cluster(Path(tmp), config["processes"], database=config["database"], queue=config["queue"],
                          async_mode=async_mode, durable=True)
        cluster.start()
        try:
            return measure(cluster, matches, games)
        finally:
            cluster.stop()


def by_role(cost: dict[str, float]) -> str:
    return " / ".join(f"{cost.get(role, 0.0):.2f}" for role in ("app", "postgresql", "redis", "nginx"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="a,c")
    parser.add_argument("--matches", type=int, default=200, help="matches made, and as many connections")
    parser.add_argument("--games", type=int, default=30, help="games played for the cost of a move")
    parser.add_argument("--async-mode", choices=["gevent", "eventlet"], default="gevent")
    args = parser.parse_args()
    rows = []
    for name in [name.strip() for name in args.configs.split(",")]:
        result = run(CONFIGS[name], args.matches, args.games, args.async_mode)
        rows.append((CONFIGS[name]["label"], result))
        print(json.dumps({"config": CONFIGS[name]["label"], **result}), flush=True)
    print()
    print("server CPU in ms (app / PostgreSQL / Redis / nginx)")
    print("| configuration | a match made (2 HTTP requests) | a connection | a move | a move all told, "
          + " / ".join(f"{n}-move games" for n in GAME_LENGTHS) + " |")
    print("| --- | --- | --- | --- | --- |")
    for label, r in rows:
        print(f"| {label} | {total(r['match']):.2f} ({by_role(r['match'])}) | {total(r['connection']):.2f} "
              f"({by_role(r['connection'])}) | {total(r['move']):.2f} ({by_role(r['move'])}) | "
              + " / ".join(f"{r[f'move_in_{n}']:.2f}" for n in GAME_LENGTHS) + " |")


if __name__ == "__main__":
    main()
