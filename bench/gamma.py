"""Gamma engine speed: moves/s and golden_possible probes/s on a 1000x1000 board, the snake, the suites.

    python bench/gamma.py              # everything (about a minute)
    python bench/gamma.py --size 300   # a smaller board
    python bench/gamma.py --only moves,probes

Figures (best of --repeat runs where a run is short; only the named operation is timed):

* moves: `Gamma.move` on a 1000x1000 board, 4 players.
  - "limit never binds": every field in random order, areas = 10^9 (a million successful moves), then undo
    of all of them (make/unmake);
  - "limit binds": a recorded legal game (areas = 100, each player growing its areas and opening new ones),
    replayed on a fresh board; then batch-style attempts (random player, random field: mostly refusals);
  - "push/pop": the same kind of legal game through the turn-based `GammaBoard` in move notation
    (parsing, area check, union-find, turn order with the automatic skip), then `pop` of every move.
* probes: `golden_possible` on that 1000x1000 board:
  - repeated (no move in between: cached), below the limit (O(1)), and at the limit after every move
    (contacts plus cut tables, the cache invalidated by each move).
* snake: 150x150, a one-area snake of 11,175 fields built move by move with a golden_possible probe of a
  player touching its middle after every move, then 3,000 repeated probes (the part-3 engine tests' shape).
* suites: the 2140 batch tests and the 955 interactive scripts in-process, and a few through the real
  command line (one interpreter start each).
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from games.gamma import GAME  # noqa: E402
from games.gamma.engine import Gamma  # noqa: E402
from tests.support.gamma_suites import snake  # noqa: E402

SHARED = os.path.join(os.path.dirname(ROOT), "shared")
SUITE = os.path.join(SHARED, "gamma_tests", "jmolinski-ipp-2020-testy")


def report(name: str, count: int, seconds: float, unit: str) -> None:
    rate = count / seconds if seconds > 0 else float("inf")
    print(f"  {name:<58} {rate:>12,.0f} {unit}/s   ({count:,} in {seconds:.3f} s)")


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


# ---------------------------------------------------------------------- recorded legal games
def legal_game(size: int, players: int, areas: int, rng: random.Random, fill: float) -> list:
    """A legal sequence of (player, x, y): each player mostly grows next to its fields, and
    opens a new area now and then while below the limit. Recorded on a scratch board."""
    game = Gamma(size, size, players, areas, undo=False)
    border = {p: [] for p in range(1, players + 1)}
    seq = []
    target = int(size * size * fill)
    stuck = 0
    p = 0
    while len(seq) < target and stuck < 50 * players:
        p = p % players + 1
        placed = False
        cand = border[p]
        for _ in range(8):
            if cand and (game.areas_of(p) >= areas or rng.random() < 0.97):
                i = rng.randrange(len(cand))
                x, y = cand[i]
                cand[i] = cand[-1]
                cand.pop()
            else:
                x, y = rng.randrange(size), rng.randrange(size)
            if game.move(p, x, y):
                placed = True
                break
        if not placed:
            stuck += 1
            continue
        stuck = 0
        seq.append((p, x, y))
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= nx < size and 0 <= ny < size and game.owner_at(nx, ny) == 0:
                cand.append((nx, ny))
    return seq


def turn_based_game(size: int, players: int, areas: int, rng: random.Random, plies: int) -> list:
    """A legal sequence of notation moves for GammaBoard (the turn order decides the player)."""
    board = GAME.new(width=size, height=size, players=players, areas=areas)
    core = board.core
    border = {p: [] for p in range(1, players + 1)}
    moves = []
    while len(moves) < plies and board.turn is not None:
        p = board.turn
        cand = border[p]
        move = "skip"
        for _ in range(8):
            if cand and (core.areas_of(p) >= areas or rng.random() < 0.97):
                i = rng.randrange(len(cand))
                x, y = cand[i]
                cand[i] = cand[-1]
                cand.pop()
            else:
                x, y = rng.randrange(size), rng.randrange(size)
            if core.can_move_normally(p, x, y):
                move = f"{x},{y}"
                for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if 0 <= nx < size and 0 <= ny < size and core.owner_at(nx, ny) == 0:
                        cand.append((nx, ny))
                break
        board.push(move)
        moves.append(move)
    return moves


# ---------------------------------------------------------------------- figures
def bench_moves(size: int, seed: int, repeat: int) -> None:
    print(f"moves on a {size}x{size} board, 4 players")
    rng = random.Random(seed)
    fields = [(x, y) for x in range(size) for y in range(size)]
    rng.shuffle(fields)
    players = [i % 4 + 1 for i in range(len(fields))]

    best_move = best_undo = None
    for _ in range(repeat):
        game = Gamma(size, size, 4, 10 ** 9)
        move = game.move

        def fill():
            ok = 0
            for p, (x, y) in zip(players, fields):
                ok += move(p, x, y)
            return ok
        t_move, ok = timed(fill)
        assert ok == len(fields)
        undo = game.undo
        t_undo, _ = timed(lambda: [undo() for _ in range(ok)])
        best_move = t_move if best_move is None else min(best_move, t_move)
        best_undo = t_undo if best_undo is None else min(best_undo, t_undo)
    report("move, limit never binds (every field, random order)", len(fields), best_move, "moves")
    report("undo of those moves", len(fields), best_undo, "moves")

    seq = legal_game(size, 4, 100, rng, fill=0.85)
    best = None
    for _ in range(repeat):
        game = Gamma(size, size, 4, 100)
        move = game.move
        t, ok = timed(lambda: sum(move(p, x, y) for p, x, y in seq))
        assert ok == len(seq)
        best = t if best is None else min(best, t)
    report("move, limit binds (recorded legal game, areas=100)", len(seq), best, "moves")
    attempts = [(rng.randint(1, 4), rng.randrange(size), rng.randrange(size)) for _ in range(len(seq))]
    t, ok = timed(lambda: sum(move(p, x, y) for p, x, y in attempts))
    report(f"batch-style attempts on that board ({ok:,} accepted)", len(attempts), t, "attempts")

    plies = min(len(seq), 300_000)
    moves = turn_based_game(size, 4, 100, rng, plies)
    best_push = best_pop = None
    for _ in range(max(1, repeat // 2)):
        board = GAME.new(width=size, height=size, players=4, areas=100)
        push = board.push
        t_push, _ = timed(lambda: [push(m) for m in moves])
        pop = board.pop
        t_pop, _ = timed(lambda: [pop() for _ in moves])
        best_push = t_push if best_push is None else min(best_push, t_push)
        best_pop = t_pop if best_pop is None else min(best_pop, t_pop)
    report("GammaBoard.push in notation (turn order, auto-skip)", len(moves), best_push, "moves")
    report("GammaBoard.pop", len(moves), best_pop, "moves")


def bench_probes(size: int, seed: int, repeat: int) -> None:
    print(f"golden_possible on a {size}x{size} board, 4 players")
    rng = random.Random(seed + 1)
    seq = legal_game(size, 4, 100, rng, fill=0.6)
    half = len(seq) // 2
    rest = seq[half:half + 100_000]

    def board(areas):
        game = Gamma(size, size, 4, areas)
        for p, x, y in seq[:half]:
            game.move(p, x, y)
        return game

    game = board(100)
    gp = game.golden_possible
    n = 200_000
    t, _ = timed(lambda: [gp(i % 4 + 1) for i in range(n)])
    report("repeated probes, no move in between (cached)", n, t, "probes")

    def after_moves(areas, probes_per_move):
        """(seconds of the probes alone, probes, players at the limit): the same moves are
        timed with and without the probes on two identical boards."""
        best = None
        for _ in range(repeat):
            a, b = board(areas), board(areas)
            move, probe = a.move, a.golden_possible
            players = range(1, probes_per_move + 1)

            def with_probes():
                for p, x, y in rest:
                    move(p, x, y)
                    for q in players:
                        probe(q)
            t_all, _ = timed(with_probes)
            move_b = b.move
            t_moves, _ = timed(lambda: [move_b(p, x, y) for p, x, y in rest])
            t = max(t_all - t_moves, 1e-9)
            best = t if best is None else min(best, t)
        return best, len(rest) * probes_per_move, sum(a.areas_of(p) >= areas for p in range(1, 5))

    t, count, _ = after_moves(10 ** 9, 4)
    report("after every move, all 4 players, below the limit", count, t, "probes")
    t, count, at_limit = after_moves(100, 4)
    report(f"after every move, all 4 players ({at_limit} at the limit of 100)", count, t, "probes")




def bench_snake(repeat: int) -> None:
    print("snake 150x150 (player 1 one area, player 2 at its limit touching the middle)")
    best = None
    for _ in range(repeat):
        def run():
            game = Gamma(150, 150, 3, 1)
            game.move(2, 75, 1)
            probes = 0
            for x, y in snake(150, 150):
                if (x, y) != (75, 1):
                    game.move(1, x, y)
                    game.golden_possible(2)
                    probes += 1
            for _ in range(3000):
                assert game.golden_possible(2) is False
                probes += 1
            return probes
        t, probes = timed(run)
        best = t if best is None else min(best, t)
    print(f"  11,175 moves + {probes:,} probes: {best:.3f} s")


def bench_suites() -> None:
    from tests.support import gamma_suites as suites
    from games.gamma.batch import run
    batch = os.path.join(SUITE, "batch")
    if not os.path.isdir(batch):
        print("suites: shared/gamma_tests not found, skipped")
        return
    print("public suites")
    cases = suites.batch_cases(batch)
    t, fails = timed(lambda: sum(suites.check_batch(p) is not None for p in cases))
    print(f"  batch, in-process: {len(cases)} tests, {len(cases) - fails} pass, {t:.2f} s")
    inter = suites.interactive_cases(os.path.join(SUITE, "interactive"))
    loaded = [suites.load(p) for p in inter]
    t, fails = timed(lambda: sum(suites.replay(c) != want for c, want in loaded))
    print(f"  interactive, replayed on GammaBoard: {len(loaded)} scripts, {len(loaded) - fails} pass, {t:.2f} s")

    def keys():
        bad = 0
        for commands, want in loaded:
            out = run(suites.keys(commands)).stdout
            bad += suites.final_board(out, commands[0][2])[0] != want
        return bad
    t, fails = timed(keys)
    print(f"  interactive, raw keys through the program: {len(loaded)} scripts, {len(loaded) - fails} pass, {t:.2f} s")
    sample = cases[:: max(1, len(cases) // 20)]

    def cli():
        bad = 0
        for p in sample:
            want_out, want_err = suites.expected(p)
            proc = subprocess.run([sys.executable, "-m", "games.gamma"], input=p.read_bytes(),
                                  capture_output=True, cwd=ROOT, timeout=60)
            bad += (proc.stdout, proc.stderr, proc.returncode) != (want_out, want_err, 0)
        return bad
    t, fails = timed(cli)
    print(f"  batch, command line: {len(sample)} tests, {len(sample) - fails} pass, {t:.2f} s "
          f"({t / len(sample) * 1000:.0f} ms each; all {len(cases)} would take about {t / len(sample) * len(cases):.0f} s)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000, help="board side for moves and probes (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure, the best is reported (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="moves,probes,snake,suites", help="comma-separated: moves,probes,snake,suites")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    print(f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs")
    if "moves" in only:
        bench_moves(args.size, args.seed, args.repeat)
    if "probes" in only:
        bench_probes(args.size, args.seed, args.repeat)
    if "snake" in only:
        bench_snake(args.repeat)
    if "suites" in only:
        bench_suites()
    return 0


if __name__ == "__main__":
    sys.exit(main())
