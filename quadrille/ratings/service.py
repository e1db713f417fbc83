"""Ratings per game (Glicko-2), updated when a rated match ends.

A challenge marked rated between two accounts registers its match here (`register`); the match service
tells its listeners about every STATE (quadrille/__init__.py wires `on_match_event` beside the broadcast),
and the first STATE with an outcome rates the match once: `rated_matches.applied` is set by a conditional
UPDATE in the same transaction as the new ratings, so a STATE sent again (a timer, another process) rates
nothing twice. An aborted game rates nothing.

Gamma with more than two players is not rated: Glicko-2 rates pairs, and splitting a game of several players
into pairs counts one game as many, with outcomes that depend on each other (a kingmaker decides who wins
between two others); no multi-player rule is as sound and as simple to explain. Challenges refuse it.
"""
from __future__ import annotations

import json
import logging
import time

from sqlalchemy import delete, insert, select, update

from ..infra.player_tables import (accounts_table, rated_matches_table, rating_history_table, ratings_table)
from .glicko2 import Rating, rate

log = logging.getLogger("quadrille.ratings")
TAU = 0.75  # lichess's
PROVISIONAL_RD = 110  # lichess shows a rating with a "?" above this deviation


class RatingService:
    def __init__(self, storage):
        self.engine = storage.engine
        self.reading = storage.reading  # a connection for reads only

    def forget(self, conn, account_id: int) -> None:
        """A deleted account's ratings go (in the deletion's transaction); the games it played stay rated."""
        conn.execute(delete(ratings_table).where(ratings_table.c.account_id == account_id))

    def register(self, match_id: str, game: str, players: dict[int, int]) -> None:
        """A rated match between two accounts: players is {seat: account id}."""
        with self.engine.begin() as conn:
            conn.execute(insert(rated_matches_table).values(
                match_id=match_id, game=game, players=json.dumps({str(k): v for k, v in players.items()}),
                applied=False))

    def rated(self, match_ids) -> set[str]:
        match_ids = list(match_ids)
        if not match_ids:
            return set()
        with self.reading() as conn:
            return set(conn.execute(select(rated_matches_table.c.match_id)
                                    .where(rated_matches_table.c.match_id.in_(match_ids))).scalars())

    # -- the listener ---------------------------------------------------------------------------------
    def on_match_event(self, match_id: str, event: str, payload: dict) -> None:
        if event == "rematch":
            self._rematch(payload.get("from", ""), payload.get("match", ""), payload.get("seats", []))
            return
        outcome = payload.get("outcome") if event == "state" else None
        if not outcome:
            return
        self.apply(match_id, outcome)

    def _rematch(self, old: str, new: str, turned: list[int]) -> None:
        """A rematch of a rated match is rated too, each account in the seat its old one turned into (`turned`:
        the rematch's seat of each old seat, in order, as the match service turned them)."""
        with self.reading() as conn:
            row = conn.execute(select(rated_matches_table).where(rated_matches_table.c.match_id == old)).first()
        if row is None:
            return
        players = {turned[int(seat) - 1]: account for seat, account in json.loads(row.players).items()}
        self.register(new, row.game, players)

    def apply(self, match_id: str, outcome: dict) -> bool:
        """Rate a finished match once; True when this call rated it."""
        with self.engine.begin() as conn:
            row = conn.execute(select(rated_matches_table).where(rated_matches_table.c.match_id == match_id)).first()
            if row is None or row.applied:
                return False
            if outcome.get("reason") == "aborted":
                conn.execute(update(rated_matches_table).where(rated_matches_table.c.match_id == match_id)
                             .values(applied=True))
                return False
            claimed = conn.execute(update(rated_matches_table).where(rated_matches_table.c.match_id == match_id,
                                                                     rated_matches_table.c.applied == False)  # noqa: E712
                                   .values(applied=True))
            if claimed.rowcount != 1:
                return False  # another process rated it a moment ago
            players = {int(seat): account for seat, account in json.loads(row.players).items()}
            if len(players) != 2:
                return False
            winners = set(outcome.get("winners") or [])
            (seat_a, a), (seat_b, b) = sorted(players.items())
            score_a = 0.5 if not winners or winners >= {seat_a, seat_b} else (1.0 if seat_a in winners else 0.0)
            now = time.time()
            before = {account: self._current(conn, account, row.game) for account in (a, b)}
            after = {a: rate(before[a][0], [(before[b][0], score_a)], tau=TAU),
                     b: rate(before[b][0], [(before[a][0], 1 - score_a)], tau=TAU)}
            for account, new in after.items():
                if conn.execute(select(accounts_table.c.id).where(accounts_table.c.id == account)).first() is None:
                    continue  # deleted meanwhile
                values = dict(rating=new.rating, rd=new.rd, volatility=new.volatility,
                              games=before[account][1] + 1, updated=now)
                if before[account][2]:
                    conn.execute(update(ratings_table).where(ratings_table.c.account_id == account,
                                                             ratings_table.c.game == row.game).values(**values))
                else:
                    conn.execute(insert(ratings_table).values(account_id=account, game=row.game, **values))
                conn.execute(insert(rating_history_table).values(account_id=account, game=row.game,
                                                                 match_id=match_id, at=now, rating=new.rating,
                                                                 rd=new.rd))
        log.info("rated match %s (%s)", match_id, row.game)
        return True

    @staticmethod
    def _current(conn, account: int, game: str) -> tuple[Rating, int, bool]:
        row = conn.execute(select(ratings_table).where(ratings_table.c.account_id == account,
                                                       ratings_table.c.game == game)).first()
        if row is None:
            return Rating(), 0, False
        return Rating(row.rating, row.rd, row.volatility), row.games, True

    # -- reading --------------------------------------------------------------------------------------
    def ratings_of(self, account_id: int) -> dict[str, dict]:
        with self.reading() as conn:
            rows = conn.execute(select(ratings_table).where(ratings_table.c.account_id == account_id)
                                .order_by(ratings_table.c.game)).all()
        return {r.game: {"rating": round(r.rating), "rd": round(r.rd), "games": r.games,
                         "provisional": r.rd > PROVISIONAL_RD} for r in rows}

    def history_of(self, account_id: int) -> dict[str, list[dict]]:
        with self.reading() as conn:
            rows = conn.execute(select(rating_history_table).where(rating_history_table.c.account_id == account_id)
                                .order_by(rating_history_table.c.at)).all()
        history: dict[str, list[dict]] = {}
        for r in rows:
            history.setdefault(r.game, []).append({"match": r.match_id, "at": r.at, "rating": round(r.rating),
                                                   "rd": round(r.rd)})
        return history

    def leaderboard(self, game: str, limit: int = 50) -> list[dict]:
        with self.reading() as conn:
            rows = conn.execute(select(ratings_table.c.rating, ratings_table.c.rd, ratings_table.c.games,
                                       accounts_table.c.name)
                                .join(accounts_table, accounts_table.c.id == ratings_table.c.account_id)
                                .where(ratings_table.c.game == game)
                                .order_by(ratings_table.c.rating.desc()).limit(limit)).all()
        return [{"rank": i + 1, "name": r.name, "rating": round(r.rating), "rd": round(r.rd), "games": r.games,
                 "provisional": r.rd > PROVISIONAL_RD} for i, r in enumerate(rows)]
