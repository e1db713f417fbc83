"""`python -m quadrille.puzzles generate --game G --count N [--seed S] [--out PATH]`: cut N puzzles of game G
from seeded computer games and write them (by default to the game's own games/<G>/puzzles.json, the file the
server ships). The same seed writes the same file. A line per source game says how far it got.

`python -m quadrille.puzzles check [--game G]`: check every shipped puzzle (verify.py), the searches included,
on the scale its file was cut with: the tests check every record and a sample of the searches; this checks
the searches of all."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import games
from ai import analysis

from . import library, verify
from .generate import budget_of
from .source import generate


def dump(game: str, puzzles: list, header: dict) -> str:
    """The file's text: its header, then one puzzle a line (small diffs when it is generated again)."""
    head = json.dumps({"game": game, **header}, sort_keys=True)[:-1]
    lines = ",\n".join("  " + json.dumps(p, sort_keys=True, separators=(", ", ": ")) for p in puzzles)
    return f'{head}, "puzzles": [\n{lines}\n]}}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m quadrille.puzzles",
                                     description="Puzzles cut from the computer's games (docs/puzzles.md).")
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="generate a game's puzzles and write them")
    make.add_argument("--game", required=True, choices=[g for g in games.names() if games.part(g, "puzzles")])
    make.add_argument("--count", type=int, required=True, help="how many puzzles")
    make.add_argument("--seed", type=int, default=0, help="the seed of the source games (default 0)")
    make.add_argument("--out", type=Path, help="the file to write (default: the game's puzzles.json)")
    make.add_argument("--per-game", type=int, default=3, help="puzzles cut from one source game at most")
    make.add_argument("--jobs", type=int, default=1, help="worker processes (the file is the same with any)")
    make.add_argument("--resume", action="store_true",
                      help="go on from the file a run with the same arguments left half way")
    check = commands.add_parser("check", help="check the shipped puzzles, the searches included")
    check.add_argument("--game", choices=library.games_with_puzzles(), help="one game (default: all)")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check_shipped([args.game] if args.game else library.games_with_puzzles())
    if args.count < 1:
        parser.error("--count must be at least 1")
    budget = budget_of(args.game)
    out = args.out or library.path_of(args.game)
    header = {"seed": args.seed, "count": args.count, "per_game": args.per_game, "budget": budget.to_dict(),
              "scale": {"k": analysis.thresholds(args.game)["k"]}}

    def save(puzzles: list, played: int) -> None:
        """The file as it stands (rewritten whole after every game that added puzzles: a long run stopped half
        way keeps what it found, and `--resume` goes on from there)."""
        partial = out.with_name(out.name + ".part")
        partial.write_text(dump(args.game, puzzles, {**header, "games": played}), encoding="utf-8")
        partial.replace(out)

    resume = ((), 0)
    if args.resume and out.is_file():
        before = json.loads(out.read_text(encoding="utf-8"))
        if {k: before.get(k) for k in header} != header or "games" not in before:
            parser.error(f"{out} was not written by a run with these arguments: it cannot be resumed")
        resume = (before["puzzles"], before["games"])
    found = generate(args.game, args.count, args.seed, budget=budget, per_game=args.per_game,
                     progress=lambda line: print(line, flush=True), found_so_far=save, jobs=args.jobs,
                     resume=resume)
    if not out.is_file():
        save(found, 0)                     # no game gave a puzzle: an empty file, from the start again
    print(f"{len(found)} puzzles of {args.game} written to {out}", flush=True)
    return 0 if len(found) >= args.count else 1


def check_shipped(names: list[str]) -> int:
    """Every problem of every shipped puzzle of these games, printed; 1 when there is any."""
    bad = 0
    for game in names:
        budget = verify.shipped_budget(game)
        shipped = library.puzzles(game)
        for puzzle in shipped:
            with verify.recorded_scale(game):
                problems = verify.record_problems(puzzle) or verify.search_problems(puzzle, budget)
            for problem in problems:
                print(f"{puzzle['id']}: {problem}", flush=True)
            bad += bool(problems)
        print(f"{game}: {len(shipped)} puzzles checked", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
