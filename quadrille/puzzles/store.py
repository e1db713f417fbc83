"""The puzzles' SQL (tables in infra/schema.py, migration 0014): puzzles' ratings, accounts' puzzle ratings and
the results of attempts.

A rating row is changed by compare-and-set on its `plays` (the number of rated results, which every change
raises by one): two results of the same puzzle at the same moment, in two processes, both count, on SQLite
and on PostgreSQL alike, without a lock held across the Glicko-2 arithmetic (`update_rating` retries).
"""
from __future__ import annotations

from typing import Callable

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..infra.schema import puzzle_attempts_table, puzzle_player_ratings_table, puzzle_ratings_table
from ..ratings.glicko2 import Rating

RETRIES = 8  # compare-and-set attempts before a result is given up as unrated (never under real load)


class Lost(RuntimeError):
    """A rating row changed under us RETRIES times in a row."""


class PuzzleStore:
    def __init__(self, storage):
        self.engine = storage.engine
        self.reading = storage.reading

    # -- reads ----------------------------------------------------------------------------------------------
    def puzzle_ratings(self, ids=None) -> dict[str, dict]:
        """{puzzle id: {"rating", "rd", "volatility", "plays", "wins"}} of the rated puzzles (among `ids`)."""
        query = select(puzzle_ratings_table)
        if ids is not None:
            query = query.where(puzzle_ratings_table.c.puzzle_id.in_(list(ids)))
        with self.reading() as conn:
            return {row.puzzle_id: {"rating": row.rating, "rd": row.rd, "volatility": row.volatility,
                                    "plays": row.plays, "wins": row.wins} for row in conn.execute(query)}

    def player_rating(self, account_id: int) -> dict | None:
        with self.reading() as conn:
            row = conn.execute(select(puzzle_player_ratings_table).where(
                puzzle_player_ratings_table.c.account_id == account_id)).first()
        return None if row is None else {"rating": row.rating, "rd": row.rd, "volatility": row.volatility,
                                         "plays": row.plays, "wins": row.wins}

    def recent(self, solver: dict, since: float) -> set[str]:
        """The puzzles this solver ({"account": id} or {"client": key}) has a result of since `since`."""
        with self.reading() as conn:
            return set(conn.execute(select(puzzle_attempts_table.c.puzzle_id).where(
                _solver(solver), puzzle_attempts_table.c.at >= since)).scalars())

    def has_result(self, solver: dict, puzzle_id: str, since: float | None = None) -> bool:
        """Whether this solver has a result of this puzzle (since `since`, or ever)."""
        query = select(func.count()).select_from(puzzle_attempts_table).where(
            _solver(solver), puzzle_attempts_table.c.puzzle_id == puzzle_id)
        if since is not None:
            query = query.where(puzzle_attempts_table.c.at >= since)
        with self.reading() as conn:
            return conn.execute(query).scalar_one() > 0

    # -- writes ---------------------------------------------------------------------------------------------
    def record(self, solver: dict, puzzle_id: str, correct: bool, rated: bool, at: float,
               forget_before: float | None = None) -> None:
        """A result; for a guest, its results older than `forget_before` go at the same time (a guest's rows
        are kept only as long as they decide something: what is served, what is rated)."""
        with self.engine.begin() as conn:
            conn.execute(insert(puzzle_attempts_table).values(
                account_id=solver.get("account"), client=solver.get("client"), puzzle_id=puzzle_id,
                correct=correct, rated=rated, at=at))
            if forget_before is not None and "client" in solver:
                conn.execute(delete(puzzle_attempts_table).where(
                    puzzle_attempts_table.c.client == solver["client"], puzzle_attempts_table.c.at < forget_before))

    def update_puzzle(self, puzzle_id: str, start: Rating, change: Callable[[Rating], Rating], won: bool) -> Rating:
        """The puzzle's rating changed by `change` (from `start` when it has no row yet); `won`: the solver was
        wrong (the puzzle "won"). Returns the new rating."""
        return _update(self.engine, puzzle_ratings_table, puzzle_ratings_table.c.puzzle_id, puzzle_id, start,
                       change, won, {})

    def update_player(self, account_id: int, start: Rating, change: Callable[[Rating], Rating], won: bool,
                      at: float) -> Rating:
        return _update(self.engine, puzzle_player_ratings_table, puzzle_player_ratings_table.c.account_id,
                       account_id, start, change, won, {"updated": at})

    def forget(self, conn, account_id: int) -> None:
        """A deleted account's puzzle rating and results go (in the deletion's transaction)."""
        conn.execute(delete(puzzle_player_ratings_table).where(puzzle_player_ratings_table.c.account_id == account_id))
        conn.execute(delete(puzzle_attempts_table).where(puzzle_attempts_table.c.account_id == account_id))


def _solver(solver: dict):
    if solver.get("account") is not None:
        return puzzle_attempts_table.c.account_id == solver["account"]
    return and_(puzzle_attempts_table.c.account_id.is_(None), puzzle_attempts_table.c.client == solver["client"])


def _update(engine, table, key_column, key, start: Rating, change, won: bool, extra: dict) -> Rating:
    """Compare-and-set of one rating row on its `plays` (the module's docstring)."""
    for _ in range(RETRIES):
        with engine.connect() as conn:
            row = conn.execute(select(table).where(key_column == key)).first()
        if row is None:
            new = change(start)
            try:
                with engine.begin() as conn:
                    conn.execute(insert(table).values(**{key_column.name: key}, rating=new.rating, rd=new.rd,
                                                      volatility=new.volatility, plays=1, wins=int(won), **extra))
            except IntegrityError:
                continue  # another result made the row a moment ago: read it and go again
            return new
        new = change(Rating(row.rating, row.rd, row.volatility))
        with engine.begin() as conn:
            done = conn.execute(update(table).where(key_column == key, table.c.plays == row.plays).values(
                rating=new.rating, rd=new.rd, volatility=new.volatility, plays=row.plays + 1,
                wins=row.wins + int(won), **extra)).rowcount
        if done == 1:
            return new
    raise Lost(f"{table.name} {key}")
