"""How often one move enters the engine and looks at presence inside the match core, and a cProfile of it.

    python bench/move_passes.py               # the counts per move, over a game of Trails played online
    python bench/move_passes.py --profile 40  # and the profile of the moves (top 25 by own time)

A move is played as both doors play it (MatchService.play with the seat's token and the version); the engine's
board methods (push, pop, legal_moves, view, outcome, copy) and every public method of presence are counted
while it runs. tests/platform/test_move_passes.py asserts the counts; this prints them.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from quadrille.infra.presence import MemoryPresence  # noqa: E402
from quadrille.matches.store import Storage  # noqa: E402
from quadrille.matches import MatchService  # noqa: E402

ENGINE = ("push", "pop", "legal_moves", "view", "outcome", "copy")


class Counting:
    """Counts calls to the board class's engine methods and to a presence's public methods while switched on."""

    def __init__(self, board_class, presence):
        self.calls, self.on, self.depth, self.undo = Counter(), False, 0, []
        for name in ENGINE:
            self._wrap(board_class, name, f"engine.{name}", cls=True)
        for name in dir(presence):
            if not name.startswith("_") and callable(getattr(presence, name)):
                self._wrap(presence, name, f"presence.{name}", cls=False)

    def _wrap(self, owner, name, label, cls):
        original = getattr(owner, name)
        self.undo.append((owner, name, owner.__dict__.get(name) if cls else None))

        def counted(*args, **kwargs):
            if self.on and not self.depth:  # a call from outside (not one the engine or presence makes itself)
                self.calls[label] += 1
            self.depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                self.depth -= 1
        setattr(owner, name, counted)

    def remove(self) -> None:
        for owner, name, original in reversed(self.undo):
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)

    def engine(self) -> int:
        return sum(n for label, n in self.calls.items() if label.startswith("engine."))

    def presence(self) -> int:
        return sum(n for label, n in self.calls.items() if label.startswith("presence."))


def online_match(service: MatchService, game: str = "trails", options=None):
    """An online match of two seats, both taken: (match id, tokens by seat)."""
    created = service.create(game, options or {"size": 7}, "online")
    friend = service.claim_seat(created["match"], invite=created["invite_secret"])
    return created["match"], {1: created["token"], 2: friend["token"]}


def pick(state: dict) -> str:
    """A legal move that makes games last (the same every run): the legal moves taken in turn."""
    return state["legal"][state["version"] % len(state["legal"])]


def count(moves: int = 20) -> tuple[Counter, int]:
    """The calls made by `moves` moves (fewer if the game ends), and how many moves were played."""
    with tempfile.TemporaryDirectory() as tmp:
        presence = MemoryPresence()
        service = MatchService(Storage.sqlite(f"{tmp}/passes.db"), presence=presence)
        match_id, tokens = online_match(service)
        counting = Counting(games.get("trails").board_class, presence)
        played = 0
        for _ in range(moves):
            state = service.state(match_id)
            if state["turn"] is None:
                break
            counting.on = True
            service.play(match_id, tokens[state["turn"]], pick(state), state["version"])
            counting.on = False
            played += 1
        counting.remove()
        service.storage.close()
        return counting.calls, played


def play_moves(moves: int, profiler=None) -> float:
    """Play `moves` moves (new matches as games end); the CPU seconds they took (this process's CPU time, which
    a loaded machine's other processes do not inflate), profiled with `profiler` if given."""
    cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        service = MatchService(Storage.sqlite(f"{tmp}/profile.db"))
        played = 0
        while played < moves:
            match_id, tokens = online_match(service)
            while played < moves:
                state = service.state(match_id)
                if state["turn"] is None:
                    break
                if profiler is not None:
                    profiler.enable()
                started = time.process_time()
                service.play(match_id, tokens[state["turn"]], pick(state), state["version"])
                cpu += time.process_time() - started
                if profiler is not None:
                    profiler.disable()
                played += 1
        service.storage.close()
    return cpu


def profile(moves: int) -> None:
    play_moves(min(moves, 50))  # warm up (imports, the engine's tables)
    cpu = play_moves(moves)
    print(f"\n{moves} moves: {cpu / moves * 1000:.3f} ms of CPU a move in the match core (unprofiled, SQLite)")
    profiler = cProfile.Profile(time.process_time)
    play_moves(moves, profiler)
    stats = pstats.Stats(profiler)
    print(f"{moves} moves profiled: {stats.total_tt / moves * 1000:.3f} ms of CPU a move (profiled)")
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--profile", type=int, default=0, help="profile this many moves")
    args = parser.parse_args()
    calls, played = count(args.moves)
    print(f"{played} moves; per move:")
    for label, n in sorted(calls.items()):
        print(f"  {label:28} {n / played:6.2f}")
    engine_entries = sum(n for label, n in calls.items() if label.startswith("engine.")) / played
    looks = sum(n for label, n in calls.items() if label.startswith("presence.")) / played
    print(f"  engine calls {engine_entries:.2f}, presence calls {looks:.2f} a move")
    if args.profile:
        profile(args.profile)


if __name__ == "__main__":
    main()
