"""Engine speed through the engine contract: legal_moves() calls/s, push+pop pairs/s, random-playout moves/s.

    python bench/engines.py                                   # every game whose engine imports
    python bench/engines.py --game trails --options '{"size": 11}' --seconds 3

All three figures walk seeded random games from the start to the end (one per line of output per game):

* legal_moves: at every position of the walk, `legal_moves()` is called --repeat times; only those calls are
  timed. An engine that caches the legal list per position is measured with its cache, as the AI would use it.
* push+pop: at every position, every legal move is pushed and popped again (a 1-ply search); only the
  pairs are timed.
* playout: `rng.choice(board.legal_moves())` then `push`, ply after ply until the game ends; a new board is
  built for every game (that rebuild is timed too). This is the figure the computer opponents buy strength with.

A game whose engine is not written yet (no module, a module without GAME yet, or NotImplementedError) is
skipped with a message.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import games  # noqa: E402

perf = time.perf_counter


def _walk(game, options: dict, rng: random.Random, max_plies: int):
    """Yield every position of one seeded random game (the same board object, before each move)."""
    board = game.new(**options)
    for _ in range(max_plies):
        if board.turn is None:
            return
        yield board
        legal = board.legal_moves()
        if not legal:
            raise RuntimeError(f"{game.name}: turn is {board.turn} but there is no legal move")
        board.push(rng.choice(legal))


def bench_legal(game, options: dict, seconds: float, seed: int, repeat: int, max_plies: int) -> tuple[int, float]:
    rng = random.Random(seed)
    calls, spent, t_end = 0, 0.0, perf() + seconds
    while perf() < t_end:
        for board in _walk(game, options, rng, max_plies):
            legal_moves = board.legal_moves
            t0 = perf()
            for _ in range(repeat):
                legal_moves()
            spent += perf() - t0
            calls += repeat
    return calls, spent


def bench_push_pop(game, options: dict, seconds: float, seed: int, max_plies: int) -> tuple[int, float]:
    rng = random.Random(seed)
    pairs, spent, t_end = 0, 0.0, perf() + seconds
    while perf() < t_end:
        for board in _walk(game, options, rng, max_plies):
            legal = board.legal_moves()
            push, pop = board.push, board.pop
            t0 = perf()
            for move in legal:
                push(move)
                pop()
            spent += perf() - t0
            pairs += len(legal)
    return pairs, spent


def bench_playout(game, options: dict, seconds: float, seed: int, max_plies: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    choice = rng.choice
    moves = n_games = 0
    t0 = perf()
    t_end = t0 + seconds
    while perf() < t_end:
        board = game.new(**options)
        legal_moves, push = board.legal_moves, board.push
        for _ in range(max_plies):
            if board.turn is None:
                break
            push(choice(legal_moves()))
            moves += 1
        n_games += 1
    return moves, n_games, perf() - t0


def bench_game(game, options: dict, args) -> str:
    calls, t_legal = bench_legal(game, options, args.seconds, args.seed, args.repeat, args.max_plies)
    pairs, t_pairs = bench_push_pop(game, options, args.seconds, args.seed + 1, args.max_plies)
    moves, n_games, t_play = bench_playout(game, options, args.seconds, args.seed + 2, args.max_plies)
    return (f"{game.name:8} {json.dumps(options, separators=(',', ':'))}  "
            f"legal_moves {calls / t_legal:12,.0f} calls/s  "
            f"push+pop {pairs / t_pairs:11,.0f} pairs/s  "
            f"playout {moves / t_play:10,.0f} moves/s  "
            f"({n_games:,} games, {moves / max(n_games, 1):.1f} plies/game)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=games.names(),
                    help="a game to measure (repeatable); default: every game whose engine imports")
    ap.add_argument("--options", default="{}", help="JSON object of options for the new boards, e.g. '{\"size\": 11}'")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per figure per game (default 2)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    ap.add_argument("--repeat", type=int, default=20, help="legal_moves() calls per position (default 20)")
    ap.add_argument("--max-plies", type=int, default=100_000, help="cut a game that runs longer than this")
    args = ap.parse_args(argv)
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        ap.error(f"--options is not JSON: {exc}")
    if not isinstance(options, dict):
        ap.error("--options must be a JSON object")

    print(f"python {sys.version.split()[0]}, {args.seconds:g} s per figure, seed {args.seed}")
    failed = False
    for name in args.game or games.names():
        try:
            game = games.get(name)
        except (ImportError, AttributeError) as exc:  # no module yet, or a module without GAME yet
            print(f"{name:8} skipped: the engine is not written yet ({exc})", flush=True)
            continue
        except Exception as exc:
            print(f"{name:8} FAILED to import: {type(exc).__name__}: {exc}", flush=True)
            failed = True
            continue
        try:
            game_options = game.normalise(options)
        except ValueError as exc:  # options meant for another game
            print(f"{name:8} skipped: {exc}", flush=True)
            failed = failed or bool(args.game)
            continue
        try:
            print(bench_game(game, game_options, args), flush=True)
        except NotImplementedError as exc:
            print(f"{name:8} skipped: the engine is incomplete ({exc or 'NotImplementedError'})", flush=True)
        except Exception as exc:  # a broken engine: say so and measure the others
            print(f"{name:8} FAILED: {type(exc).__name__}: {exc}", flush=True)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
