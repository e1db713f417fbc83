"""Playing puzzles: which puzzle a solver gets next, the daily puzzle, and an attempt checked and rated.

    service = PuzzleService(storage, secret, repeat_after=30 * 86400, guest_budget=lambda client: True)
    service.next(solver, game=None, guest=None)      # near the solver's rating, not one it had lately
    service.daily(date)                              # the same puzzle for everyone on a UTC date
    service.attempt(puzzle_id, moves, solver, guest)  # lines.check, then the ratings on the first result

A solver is an account (`Solver(account=id)`) or a guest, known by its address keyed with the site's secret
(`Solver(client=...)`, never the address itself). Rated once per puzzle per solver: an account's first result
ever, a guest address's first within `repeat_after` (its rows are forgotten after that), and a guest's only
while `guest_budget(client)` admits it (a bot that hammers attempts from one address stops moving puzzles).
The HTTP door budgets the attempts themselves (PUZZLE_ATTEMPT_RATE).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import random
import time
from dataclasses import dataclass
from datetime import date as Date

from ..errors import ServiceError
from ..i18n import _l
from ..ratings.glicko2 import Rating
from . import library, lines, ratings
from .store import Lost, PuzzleStore

log = logging.getLogger("quadrille.puzzles")
NEAREST = 12  # the next puzzle is drawn among this many of the nearest ratings (so a reload is not the same)


@dataclass(frozen=True)
class Solver:
    account: int | None = None
    client: str | None = None

    @property
    def key(self) -> dict:
        return {"account": self.account} if self.account is not None else {"client": self.client}


def client_key(secret: str, address: str) -> str:
    """A guest's address as the puzzles' rows keep it: an HMAC under the site's secret (not reversible by
    trying every IPv4 address)."""
    return hmac.new(secret.encode(), b"puzzles:" + address.encode(), hashlib.sha256).hexdigest()[:48]


class PuzzleService:
    def __init__(self, storage, secret: str, repeat_after: float = 30 * 86400.0, guest_budget=None,
                 clock=time.time, rng: random.Random | None = None):
        self.store = PuzzleStore(storage)
        self.secret = secret
        self.repeat_after = repeat_after
        self.guest_budget = guest_budget or (lambda client: True)
        self.clock = clock
        self.rng = rng or random.Random()
        self._daily: tuple = (None, None)  # (date, puzzle id)

    def solver(self, account_id: int | None, address: str) -> Solver:
        return Solver(account=account_id) if account_id is not None else Solver(client=client_key(self.secret, address))

    # -- which puzzle ---------------------------------------------------------------------------------------
    def puzzle(self, puzzle_id: str) -> dict:
        try:
            return library.puzzle(puzzle_id)
        except KeyError:
            raise ServiceError(404, "unknown-puzzle", _l("There is no such puzzle.")) from None

    def current_rating(self, puzzle: dict) -> dict:
        row = self.store.puzzle_ratings([puzzle["id"]]).get(puzzle["id"])
        if row is None:
            return ratings.shown(ratings.puzzle_start(puzzle.get("rating")), plays=0)
        return ratings.shown(Rating(row["rating"], row["rd"], row["volatility"]), plays=row["plays"])

    def solver_rating(self, solver: Solver, guest=None) -> dict:
        """The solver's puzzle rating: an account's stored one, or the guest's as sent (checked)."""
        if solver.account is None:
            return ratings.shown(ratings.guest_rating(guest))
        row = self.store.player_rating(solver.account)
        if row is None:
            return ratings.shown(Rating(), plays=0)
        return ratings.shown(Rating(row["rating"], row["rd"], row["volatility"]), plays=row["plays"])

    def next(self, solver: Solver, game: str | None = None, guest=None) -> dict:
        """A puzzle near the solver's rating (of `game`, or of a game drawn at random), not one it had a result
        of lately (unless it had them all); the answer carries its rating and the solver's."""
        offered = library.games_with_puzzles()
        if game is not None and game not in offered:
            raise ServiceError(404, "unknown-game", _l("There are no puzzles of that game."))
        if not offered:
            raise ServiceError(404, "no-puzzles", _l("No puzzles are installed."))
        game = game or self.rng.choice(offered)
        mine = self.solver_rating(solver, guest)
        pool = library.puzzles(game)
        recent = self.store.recent(solver.key, self.clock() - self.repeat_after)
        fresh = [p for p in pool if p["id"] not in recent] or pool
        known = self.store.puzzle_ratings([p["id"] for p in fresh])

        def distance(p):
            current = known[p["id"]]["rating"] if p["id"] in known else ratings.puzzle_start(p.get("rating")).rating
            return abs(current - mine["rating"])
        nearest = sorted(fresh, key=distance)[:NEAREST]
        return self.served(self.rng.choice(nearest), mine)

    def daily(self, day: Date) -> dict:
        """The daily puzzle of a UTC date, served (the same for everyone)."""
        return {**self.served(self.daily_puzzle(day)), "date": day.isoformat()}

    def daily_puzzle(self, day: Date) -> dict:
        """The daily puzzle's record: drawn from every game's puzzles by the date alone (kept for the day: the
        lobby asks on every visit)."""
        if self._daily[0] == day:
            return library.puzzle(self._daily[1])
        ids = sorted(p["id"] for game in library.games_with_puzzles() for p in library.puzzles(game))
        if not ids:
            raise ServiceError(404, "no-puzzles", _l("No puzzles are installed."))
        index = int.from_bytes(hashlib.sha256(day.isoformat().encode()).digest()[:8], "big") % len(ids)
        self._daily = (day, ids[index])
        return library.puzzle(ids[index])

    def served(self, puzzle: dict, mine: dict | None = None) -> dict:
        answer = {**lines.shown(puzzle), "rating": self.current_rating(puzzle)}
        if mine is not None:
            answer["you"] = mine
        return answer

    # -- an attempt -----------------------------------------------------------------------------------------
    def attempt(self, puzzle_id: str, moves, solver: Solver, guest=None) -> dict:
        """The solver's moves so far checked (lines.check); on a result (solved, or a wrong move) the solution
        is answered, and the ratings change if it is the solver's first result of this puzzle."""
        puzzle = self.puzzle(puzzle_id)
        moves = checked_moves(moves)
        guest_rating = ratings.guest_rating(guest) if solver.account is None else None
        try:
            answer = lines.check(puzzle, moves)
        except lines.IllegalLine as exc:
            raise ServiceError(400, "bad-moves", exc.reason) from None
        if not answer["done"]:
            return answer
        answer["solution"] = puzzle["solution"]
        answer.update(self._result(puzzle, solver, answer["correct"], guest_rating))
        return answer

    def _result(self, puzzle: dict, solver: Solver, correct: bool, guest_rating: Rating | None) -> dict:
        now = self.clock()
        guest = solver.account is None
        first = not self.store.has_result(solver.key, puzzle["id"], since=now - self.repeat_after if guest else None)
        rated = first and (not guest or self.guest_budget(solver.client))
        before = guest_rating if guest else self._account_rating(solver.account)
        after = before
        if rated:
            try:
                start = ratings.puzzle_start(puzzle.get("rating"))
                puzzle_now = self.store.puzzle_ratings([puzzle["id"]]).get(puzzle["id"])
                opponent = (Rating(puzzle_now["rating"], puzzle_now["rd"], puzzle_now["volatility"])
                            if puzzle_now else start)
                if guest:
                    after = ratings.solver_after(before, opponent, correct)
                else:
                    after = self.store.update_player(
                        solver.account, Rating(), lambda mine: ratings.solver_after(mine, opponent, correct),
                        correct, now)
                self.store.update_puzzle(
                    puzzle["id"], start, lambda theirs: ratings.puzzle_after(theirs, before, correct, guest),
                    not correct)
            except Lost:
                log.warning("puzzle %s: a result left unrated (its rating row kept changing)", puzzle["id"])
                rated, after = False, before
        self.store.record(solver.key, puzzle["id"], correct, rated, now,
                          forget_before=now - self.repeat_after if guest else None)
        return {"rated": rated, "rating": ratings.shown(after), "change": round(after.rating - before.rating, 1),
                "puzzle_rating": self.current_rating(puzzle)}

    def _account_rating(self, account_id: int) -> Rating:
        row = self.store.player_rating(account_id)
        return Rating() if row is None else Rating(row["rating"], row["rd"], row["volatility"])


def checked_moves(moves) -> list[str]:
    """The attempt's moves, or 400 `bad-moves`: a non-empty list of move strings, not too many, not too long."""
    if (not isinstance(moves, list) or not moves or len(moves) > lines.MAX_MOVES
            or not all(isinstance(m, str) and 0 < len(m) <= lines.MAX_MOVE_LENGTH for m in moves)):
        raise ServiceError(400, "bad-moves", _l("moves must be a list of 1 to %(most)d moves in the game's notation: "
                                                "the solver's own moves so far.", most=lines.MAX_MOVES))
    return moves
