"""Where the server's CPU goes, one thing at a time: making a match, a player's connection, and a move, against
the configurations of bench/cluster.py ((a) one process on SQLite, (b)-(d) one to three processes on
PostgreSQL + Redis behind nginx).

    python bench/match_costs.py                          # (a) and (c): 200 matches, 200 connections, 30 games
    python bench/match_costs.py --configs a,b,c,d --rounds 3   # each configuration three times, interleaved:
                                                             # each thing's median

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
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cluster import CONFIGS, cpu_by_role, fresh_cluster  # noqa: E402
from bench.load import Seat, http_from, new_match, table_address  # noqa: E402
from scripts.cluster import Cluster  # noqa: E402

GAME_LENGTHS = (26, 60)
SETTLE = 0.5  # seconds for the work a server defers (a room's presence message) to be done and counted


class Meter:
    """The CPU every server-side process of a cluster spent on something, in ms per unit, by role."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster

    def now(self) -> dict[str, float]:
        return cpu_by_role(self.cluster)

    @staticmethod
    def spent(start: dict, end: dict) -> dict[str, float]:
        return {role: end[role] - start.get(role, 0.0) for role in end}

    @staticmethod
    def per_unit(start: dict, end: dict, units: int) -> dict[str, float]:
        return {role: round(1000 * s / units, 3) for role, s in Meter.spent(start, end).items()}


class HeldSeat(Seat):
    """A seat that moves only once `go` is set: a STATE that reaches it while the game is being set up (a
    process that did not broadcast the match's version sends it to the room when a player arrives) must not
    start the game before its moves are counted."""

    def __init__(self, url: str, address: str):
        stats = {"latencies": [], "accepted": 0, "refused": 0, "running": True}
        super().__init__(url, stats, 0.0, random.Random(address), address)
        self.go = asyncio.Event()

    async def play(self, state):
        await self.go.wait()
        await super().play(state)


async def connections(meter: Meter, url: str, matches: list[tuple[str, str, str]]) -> dict[str, float]:
    """Connect, watch and leave, once per match."""
    seat = HeldSeat(url, table_address(1))
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
    blue, red = HeldSeat(url, address), HeldSeat(url, address)
    spent: dict[str, float] = {}
    played = 0
    try:
        for _ in range(games):
            match, blue_token, red_token = new_match(http, url)
            for seat in (blue, red):
                seat.go.clear()
            await red.join(match, red_token, 2)
            await blue.on_state(await blue.join(match, blue_token, 1))
            await asyncio.sleep(SETTLE)  # the room's presence message, outside the count
            before, start = blue.stats["accepted"] + red.stats["accepted"], meter.now()
            for seat in (blue, red):
                seat.go.set()
            while not (blue.over.is_set() and red.over.is_set()):
                await asyncio.sleep(0.002)
            for seat in (blue, red):
                if seat.moving is not None:
                    await asyncio.wait([seat.moving], timeout=30)  # the last move's acknowledgement
            end = meter.now()
            played += blue.stats["accepted"] + red.stats["accepted"] - before
            if blue.stats["refused"] or red.stats["refused"]:
                raise SystemExit("the server refused a move: these figures would not be a game's")
            for role, seconds in Meter.spent(start, end).items():
                spent[role] = spent.get(role, 0.0) + seconds
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
    return {"match": match_cost, "connection": connection_cost, "move": move_cost, "moves_played": played}


def all_told(result: dict, length: int) -> float:
    """A move's cost in games of `length` moves, each sharing its making and its two players' connections."""
    return total(result["move"]) + (total(result["match"]) + 2 * total(result["connection"])) / length


def medians(results: list[dict]) -> dict:
    """Of a configuration's rounds, each thing's median (the round with its median total, whole, so that its
    split by role belongs together)."""
    return {thing: sorted((r[thing] for r in results), key=total)[(len(results) - 1) // 2]
            for thing in ("match", "connection", "move")}


def total(cost: dict[str, float]) -> float:
    return sum(cost.values())


def run(config: dict, matches: int, games: int, async_mode: str) -> dict:
    with fresh_cluster(config, async_mode) as cluster:
        return measure(cluster, matches, games)


def by_role(cost: dict[str, float]) -> str:
    return " / ".join(f"{cost.get(role, 0.0):.2f}" for role in ("app", "postgresql", "redis", "nginx"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="a,c")
    parser.add_argument("--matches", type=int, default=200, help="matches made, and as many connections")
    parser.add_argument("--games", type=int, default=30, help="games played for the cost of a move")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run the configurations this many times, interleaved, and report each thing's median: "
                             "this machine's speed drifts by a quarter within an hour")
    parser.add_argument("--async-mode", choices=["gevent", "eventlet"], default="gevent")
    args = parser.parse_args()
    names = [name.strip() for name in args.configs.split(",")]
    runs: dict[str, list[dict]] = {name: [] for name in names}
    for _ in range(args.rounds):
        for name in names:
            result = run(CONFIGS[name], args.matches, args.games, args.async_mode)
            runs[name].append(result)
            print(json.dumps({"config": CONFIGS[name]["label"], **result}), flush=True)
    print()
    print("server CPU in ms (app / PostgreSQL / Redis / nginx)" + (f", medians of {args.rounds} rounds"
                                                                   if args.rounds > 1 else ""))
    print("| configuration | a match made (2 HTTP requests) | a connection | a move | a move all told, "
          + " / ".join(f"{n}-move games" for n in GAME_LENGTHS) + " |")
    print("| --- | --- | --- | --- | --- |")
    for name in names:
        r = medians(runs[name])
        print(f"| {CONFIGS[name]['label']} | {total(r['match']):.2f} ({by_role(r['match'])}) | "
              f"{total(r['connection']):.2f} ({by_role(r['connection'])}) | {total(r['move']):.2f} "
              f"({by_role(r['move'])}) | " + " / ".join(f"{all_told(r, n):.2f}" for n in GAME_LENGTHS) + " |")


if __name__ == "__main__":
    main()
