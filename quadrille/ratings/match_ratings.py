"""The ratings a rated match shows: each player's rating beside their name while it is played, and once it is
rated, each seat's rating before and after it (the "+12" of the result screen and of my games).

    MatchRatings(ratings).extras(match)   # what the STATE adds (MatchService.state_extras): {} or
                                          # {"seat_ratings": {"1": {"rating", "provisional"}, ...},
                                          #  "ratings": {"1": {"before", "after", "provisional"}, ...}}  (rated)
    changes_of(reading, account_id, ids)  # {match id: {"before", "after"}} of an account's rated matches

A STATE is built for every move, so nothing here reads the database per move:

- a match that two accounts do not hold (`Match.accounts`: every guest's game, every game against the computer)
  is never rated, and is answered without a read;
- the others are read once per process: whether they are registered as rated, and their players' ratings at
  that moment (`seat_ratings`, the rating a player brings to the game, as lichess shows beside the names);
  the answer is kept for the match (a bounded cache), and forgotten when the rating service registers the
  match (a challenge registers its match after its seats are taken, a rematch after it is made);
- once the match has an outcome, the first STATE rates it (`RatingService.apply`, which rates a match once
  whoever asks: the listener that used to be first finds it done) and reads the result once: so the very STATE
  that says who won carries the rating change, on the HTTP API and on every socket.

A match rated in another process meanwhile is read as rated there. A match that ended unrated (aborted, before
both players moved, past the pair's rated games of the day) shows no ratings at all, as an unrated game.
"""
from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from sqlalchemy import select

from ..infra.schema import rated_matches_table, rating_history_table, ratings_table
from .glicko2 import DEFAULT_RATING, DEFAULT_RD
from .standing import provisional

log = logging.getLogger("quadrille.ratings")
CACHED_MATCHES = 4096  # rated (or account against account) matches whose answer a process keeps


@dataclass
class _Rated:
    players: dict                     # seat -> account id
    seats: dict                       # the STATE's seat_ratings
    result: dict | None = None        # the STATE's ratings, once read
    unrated: bool = False             # it ended, and was not rated
    lock: threading.Lock = field(default_factory=threading.Lock)


class MatchRatings:
    def __init__(self, ratings, size: int = CACHED_MATCHES):
        """`ratings`: the RatingService (its storage's reads, and `apply` to rate a finished match)."""
        self.ratings = ratings
        self.size = size
        self._known: OrderedDict[str, _Rated | None] = OrderedDict()
        self._lock = threading.Lock()
        ratings.on_register.append(self.forget)

    def forget(self, match_id: str) -> None:
        with self._lock:
            self._known.pop(match_id, None)

    def extras(self, match) -> dict:
        """What the match's STATE adds: nothing for a match that is not rated. A failure (the database away)
        leaves the ratings out of this STATE, never the STATE out (it may be a move's)."""
        if match.row.mode != "online" or len(match.accounts) < 2:
            return {}
        try:
            return self._extras(match)
        except Exception:
            log.exception("the ratings of match %s could not be read", match.id)
            return {}

    def _extras(self, match) -> dict:
        rated = self._rated(match.id, match.row.game)
        if rated is None:
            return {}
        outcome = match.outcome()
        if outcome is None:
            return {"seat_ratings": rated.seats}
        with rated.lock:
            if rated.result is None and not rated.unrated:
                self._settle(rated, match.id, outcome, list(match.move_seats))
        if rated.unrated:
            return {}
        return {"seat_ratings": rated.seats, "ratings": rated.result} if rated.result else {}

    # -- reading, once a match -----------------------------------------------------------------------
    def _rated(self, match_id: str, game: str) -> _Rated | None:
        with self._lock:
            if match_id in self._known:
                self._known.move_to_end(match_id)
                return self._known[match_id]
        found = self._read(match_id, game)
        with self._lock:
            self._known[match_id] = found
            while len(self._known) > self.size:
                self._known.popitem(last=False)
        return found

    def _read(self, match_id: str, game: str) -> _Rated | None:
        with self.ratings.reading() as conn:
            row = conn.execute(select(rated_matches_table.c.players, rated_matches_table.c.verdict,
                                      rated_matches_table.c.applied)
                               .where(rated_matches_table.c.match_id == match_id)).first()
            if row is None or row.verdict not in (None, "rated"):
                return None
            players = {int(seat): account for seat, account in json.loads(row.players).items()}
            if row.applied:  # it ended (its verdict is null if it ended before migration 0010)
                result, seats = _result(conn, match_id, players)
                return _Rated(players, seats, result) if result else None
            current = {r.account_id: r for r in conn.execute(
                select(ratings_table.c.account_id, ratings_table.c.rating, ratings_table.c.rd)
                .where(ratings_table.c.account_id.in_(list(players.values())), ratings_table.c.game == game))}
        seats = {}
        for seat, account in sorted(players.items()):
            r = current.get(account)
            rating, rd = (r.rating, r.rd) if r is not None else (DEFAULT_RATING, DEFAULT_RD)
            seats[str(seat)] = {"rating": round(rating), "provisional": provisional(rd)}
        return _Rated(players, seats)

    def _settle(self, rated: _Rated, match_id: str, outcome: dict, movers: list) -> None:
        """The match ended: rate it (once, whoever asks first) and read what it did."""
        self.ratings.apply(match_id, outcome, movers)
        with self.ratings.reading() as conn:
            row = conn.execute(select(rated_matches_table.c.verdict, rated_matches_table.c.applied)
                               .where(rated_matches_table.c.match_id == match_id)).first()
            if row is None or not row.applied:
                return  # (not rated yet: asked again with the next STATE)
            result, seats = _result(conn, match_id, rated.players) if row.verdict in (None, "rated") else ({}, {})
        if result:
            rated.result, rated.seats = result, seats
        else:
            rated.unrated = True  # aborted, early, past the pair's limit (or both accounts deleted since)


def _result(conn, match_id: str, players: dict) -> tuple[dict, dict]:
    """The STATE's ratings of a rated match, {"<seat>": {"before", "after", "provisional"}} ("provisional": the
    rating after it still is), and its seat_ratings (the ratings the players brought to it), from each player's
    history row (a deleted account's is gone: its seat is left out)."""
    rows = {r.account_id: r for r in conn.execute(
        select(rating_history_table.c.account_id, rating_history_table.c.rating, rating_history_table.c.rd,
               rating_history_table.c.rating_before, rating_history_table.c.rd_before)
        .where(rating_history_table.c.match_id == match_id))}
    result, seats = {}, {}
    for seat, account in sorted(players.items()):
        r = rows.get(account)
        if r is not None and r.rating_before is not None:
            result[str(seat)] = {"before": round(r.rating_before), "after": round(r.rating),
                                 "provisional": provisional(r.rd)}
            seats[str(seat)] = {"rating": round(r.rating_before), "provisional": provisional(r.rd_before)}
    return result, seats


def changes_of(reading, account_id: int, match_ids) -> dict[str, dict]:
    """What each of these rated matches did to the account's rating: {match id: {"before", "after"}}."""
    match_ids = list(match_ids)
    if not match_ids:
        return {}
    with reading() as conn:
        rows = conn.execute(select(rating_history_table.c.match_id, rating_history_table.c.rating,
                                   rating_history_table.c.rating_before)
                            .where(rating_history_table.c.account_id == account_id,
                                   rating_history_table.c.match_id.in_(match_ids))).all()
    return {r.match_id: {"before": round(r.rating_before), "after": round(r.rating)}
            for r in rows if r.rating_before is not None}
