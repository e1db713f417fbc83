"""Round-robin matches between the computer levels of one game, with win rates and 95% Wilson intervals.

    python bench/tournament.py --game trails --games 40 --budget 0.2
    python bench/tournament.py --game lattice --games 40 --budget 0.3 --pairs 3:classic-3,3:classic-2
    python bench/tournament.py --game gamma --games 30 --options '{"players": 3}' --jobs 2

Each pairing "A:B" plays --games games, A taking every seat in turn (both seat orders for two players; with
more players A holds one seat and B all the others). A game that reaches --max-plies moves is a draw. The
win rate is A's wins over all games (draws count as not won), with its 95% Wilson score interval.

Default pairings (the issue's targets): 3:2, 2:1, 1:random, and 3 against each classic level the game has.
--budget is level 3's time budget per move (levels 1 and 2 stop at their own small caps, or sooner);
--nodes gives level 3 a node cap instead, for reproducible runs.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ai  # noqa: E402
import games  # noqa: E402

TARGETS = {("3", "2"): 0.75, ("2", "1"): 0.75, ("1", "random"): 0.90}


def target(a: str, b: str) -> float | None:
    if (a, b) in TARGETS:
        return TARGETS[(a, b)]
    if a == "3" and b.startswith("classic"):
        return 0.90
    return None


def level_id(text: str):
    return int(text) if text.isdigit() else text


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(task: dict) -> dict:
    """One game: returns A's result ("win", "draw", "loss"), the plies and the seconds each side thought."""
    game = games.get(task["game"])
    board = game.new(**task["options"])
    seats = {s: task["b"] for s in range(1, board.players + 1)}
    seats[task["a_seat"]] = task["a"]
    think = {"a": 0.0, "b": 0.0}
    plies = 0
    while board.turn is not None and plies < task["max_plies"]:
        seat = board.turn
        level = level_id(seats[seat])
        kwargs = {}
        if level == 3:
            if task["nodes"]:
                kwargs["max_nodes"] = task["nodes"]
            else:
                kwargs["time_budget"] = task["budget"]
        elif level in (1, 2):
            kwargs["time_budget"] = task["budget"]
        t0 = time.monotonic()
        move = ai.choose_move(board, level, seed=task["seed"] * 100_003 + plies, **kwargs)
        think["a" if seat == task["a_seat"] else "b"] += time.monotonic() - t0
        board.push(move)
        plies += 1
    outcome = board.outcome()
    if outcome is None or not outcome.winners:
        result = "draw"                      # the ply cap, or a drawn ending
    elif task["a_seat"] in outcome.winners:
        result = "win" if len(outcome.winners) == 1 else "draw"   # gamma's shared first place
    else:
        result = "loss"
    return {"pair": task["pair"], "result": result, "plies": plies, "think": think,
            "reason": outcome.reason if outcome else "max-plies"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True, choices=games.names())
    ap.add_argument("--games", type=int, default=40, help="games per pairing (default 40)")
    ap.add_argument("--budget", type=float, default=0.2, help="level 3's seconds per move (default 0.2)")
    ap.add_argument("--nodes", type=int, default=0, help="level 3's node cap per move instead of a time budget")
    ap.add_argument("--pairs", default="", help='pairings "A:B,A:B" (default: the issue\'s targets)')
    ap.add_argument("--options", default="{}", help="game options as JSON")
    ap.add_argument("--max-plies", type=int, default=2000, help="a game this long is a draw (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--json", default="", help="also write the results to this file")
    args = ap.parse_args(argv)

    options = json.loads(args.options)
    players = games.get(args.game).new(**options).players
    if args.pairs:
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    else:
        pairs = [("3", "2"), ("2", "1"), ("1", "random")]
        pairs += [("3", str(lv)) for lv in ai.LEVELS[args.game] if str(lv).startswith("classic")]
    tasks = []
    for a, b in pairs:
        for i in range(args.games):
            tasks.append({"game": args.game, "options": options, "a": a, "b": b, "pair": f"{a}:{b}",
                          "a_seat": 1 + i % players, "seed": args.seed * 1_000_003 + len(tasks),
                          "budget": args.budget, "nodes": args.nodes, "max_plies": args.max_plies})
    start = time.monotonic()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play_one, tasks))
    else:
        results = [play_one(t) for t in tasks]
    elapsed = time.monotonic() - start

    budget = f"level 3: {args.nodes} nodes a move" if args.nodes else f"level 3: {args.budget:g} s a move"
    print(f"{args.game} {json.dumps(options, separators=(',', ':'))}, {players} players, {args.games} games per "
          f"pairing, {budget}, {elapsed:.0f} s")
    header = f"{'pairing':<16} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'win rate':>9} {'95% Wilson':>15} " \
             f"{'target':>7} {'plies':>6} {'s/move A':>9} {'s/move B':>9}"
    print(header)
    print("-" * len(header))
    rows = []
    ok = True
    for a, b in pairs:
        pair = f"{a}:{b}"
        rs = [r for r in results if r["pair"] == pair]
        w = sum(r["result"] == "win" for r in rs)
        d = sum(r["result"] == "draw" for r in rs)
        lo, hi = wilson(w, len(rs))
        plies = sum(r["plies"] for r in rs)
        # a side's moves: about its share of the plies
        share = 1 / players
        ta = sum(r["think"]["a"] for r in rs) / max(1, plies * share)
        tb = sum(r["think"]["b"] for r in rs) / max(1, plies * (1 - share))
        goal = target(a, b)
        met = goal is None or w / max(1, len(rs)) >= goal
        ok = ok and met
        name = f"{a} vs {b}"
        goal_text = f">={goal:.0%}" if goal else "-"
        print(f"{name:<16} {len(rs):>5} {w:>4} {d:>4} {len(rs) - w - d:>4} {w / max(1, len(rs)):>9.1%} "
              f"{f'[{lo:.1%}, {hi:.1%}]':>15} {goal_text + ('' if met else '!'):>7} "
              f"{plies / max(1, len(rs)):>6.0f} {ta:>9.3f} {tb:>9.3f}")
        rows.append({"pair": pair, "games": len(rs), "wins": w, "draws": d, "losses": len(rs) - w - d,
                     "rate": w / max(1, len(rs)), "wilson": [lo, hi], "target": goal, "met": met})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"game": args.game, "options": options, "budget": args.budget, "nodes": args.nodes,
                       "games": args.games, "rows": rows}, f, indent=1)
    print("all targets met" if ok else "some targets missed (marked !)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
