"""How each game's evaluations behave: the measurements behind its analysis numbers (games/<g>/computer.py's
ANALYSIS, docs/analysis.md).

    PYTHONPATH=$PWD python bench/analysis_fit.py [--games 24] [--game trails] [--nodes N]

For each game it plays seeded games between the computer's levels 1 and 2 (a few random opening moves for
variety), then:

* k: the model's value of sampled positions (a search of N nodes, seat 1's side) against the final result
  (+1 won, -1 lost, 0 drawn), fitted by maximum likelihood with P(seat 1 wins) = (1 + tanh(value / k)) / 2,
  so that a score on the scale (HEURISTIC * tanh(value / k)) reads as the expected result, like lichess's
  winning chances;
* the noise: how much the mover's score drops when the move played is the analysis's own best move (it should
  be 0; what remains comes from searches of different depths before and after the move), and the drops of
  the moves the levels played, as percentiles on the scale with that k.

It prints the figures; the numbers in ANALYSIS are chosen from them by hand (docs/analysis.md says how).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
import ai.analysis as analysis  # noqa: E402
import games  # noqa: E402
from ai.model import WIN  # noqa: E402

OPTIONS = {"trails": {}, "lattice": {}, "towers": {}, "gamma": {}}
MAX_PLIES = 400


def play(game: str, seed: int):
    """A finished game between levels (seeded): (moves, result for seat 1 in [-1, 1]) or None."""
    rng = random.Random(seed)
    board = games.get(game).new(**OPTIONS[game])
    levels = {1: rng.choice((1, 2, 2)), 2: rng.choice((1, 2, 2))}
    opening = rng.randint(0, 4)
    while board.outcome() is None and len(board.moves) < MAX_PLIES:
        level = "random" if len(board.moves) < opening else levels[board.turn]
        board.push(ai.choose_move(board, level, seed=rng.randrange(10**9), max_nodes=1500, time_budget=None))
    outcome = board.outcome()
    if outcome is None:
        return None
    if not outcome.winners:
        return list(board.moves), 0.0
    return list(board.moves), (1.0 if outcome.winners == (1,) else -1.0 if 1 not in outcome.winners else 0.0)


def fit_k(samples: list) -> float:
    """The k of the best likelihood, on a grid."""
    best, best_k = -math.inf, None
    for k in [x * 0.5 for x in range(2, 401)]:
        ll = 0.0
        for v, r in samples:
            p = min(max((1 + math.tanh(v / k)) / 2, 1e-4), 1 - 1e-4)
            y = (1 + r) / 2
            ll += y * math.log(p) + (1 - y) * math.log(1 - p)
        if ll > best:
            best, best_k = ll, k
    return best_k


def percentiles(values: list, ps=(50, 75, 90, 95)) -> dict:
    if not values:
        return {}
    values = sorted(values)
    return {p: values[min(len(values) - 1, int(len(values) * p / 100))] for p in ps}


def measure(game: str, count: int, nodes: int, every: int) -> None:
    played = [g for g in (play(game, seed) for seed in range(count)) if g is not None]
    lengths = [len(m) for m, _ in played]
    print(f"{game}: {len(played)} games, {min(lengths)}-{max(lengths)} plies, results "
          f"{sum(r > 0 for _, r in played)}/{sum(r == 0 for _, r in played)}/{sum(r < 0 for _, r in played)}")
    samples, values = [], []
    for moves, result in played:
        board = games.get(game).new(**OPTIONS[game])
        for i, move in enumerate(moves):
            if i % every == 0 and board.outcome() is None:
                v = analysis.search_value(board, 1, nodes)[0]
                if abs(v) < WIN // 8:
                    samples.append((v, result))
                    values.append(abs(v))
            board.push(move)
    k = fit_k(samples)
    print(f"  {len(samples)} positions; |value| percentiles {percentiles(values)}; fitted k = {k}")
    noise, drops = [], []
    saved = analysis.thresholds
    analysis_numbers = {**analysis.thresholds(game), "k": k}
    analysis.thresholds = lambda name: analysis_numbers
    try:
        for moves, _ in played[: max(4, len(played) // 3)]:
            report = analysis.analyse(game, OPTIONS[game], moves[:80], max_nodes=nodes)
            for ply in report["plies"]:
                seat = ply["seat"]
                drop = before_for(report, ply["ply"], seat) - ply["evals"][str(seat)]
                (noise if ply["move"] == ply["best"] else drops).append(drop)
    finally:
        analysis.thresholds = saved
    print(f"  drop when the best move is played: {percentiles(noise)} ({len(noise)} moves)")
    print(f"  drop of the other moves played:    {percentiles(drops)} ({len(drops)} moves)")


def before_for(report: dict, ply: int, seat: int) -> int:
    """The seat's score before ply `ply` (1-based)."""
    if ply == 1:
        return report["start"] if seat == 1 else -report["start"]
    return report["plies"][ply - 2]["evals"][str(seat)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--game", choices=sorted(OPTIONS), action="append")
    parser.add_argument("--nodes", type=int, default=analysis.DEFAULT_NODES)
    parser.add_argument("--every", type=int, default=3, help="sample every n-th position for k")
    args = parser.parse_args()
    for game in args.game or sorted(OPTIONS):
        measure(game, args.games, args.nodes, args.every)


if __name__ == "__main__":
    main()
