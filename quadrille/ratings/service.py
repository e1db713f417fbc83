"""Ratings per game (Glicko-2), updated when a rated match ends.

A challenge marked rated between two accounts registers its match here (`register`); the match service
tells the match bus when a match ends (matches/bus.py: `on_ended`, subscribed by quadrille/__init__.py), and
that rates the match once: `rated_matches.applied` is set by a conditional UPDATE in the same transaction as
the new ratings, so a second ask (the STATE's ratings, ratings/match_ratings.py; another process) rates
nothing twice. An aborted game rates nothing.

Gamma with more than two players is not rated: Glicko-2 rates pairs, and splitting a game of several players
into pairs counts one game as many, with outcomes that depend on each other (a kingmaker decides who wins
between two others); no multi-player rule is as sound and as simple to explain. Challenges refuse it.

What cannot be farmed (issue 22: three alt accounts resigned at move 0, 24 times in 1.4 s: 1500 -> 2013):

- **A game that ends before every player has moved is not rated**, whatever ended it (a resignation, a timeout
  claim, a flag): lichess rates no game of fewer than two plies (it aborts it). The match keeps its result as
  played; only its rating is treated as an aborted game's. Its verdict is `early`.
- **Rated games start from the standard position**: an option the engine marks as changing the start or as
  set only by imports (`Game.nonstandard`, e.g. Lattice's `start`) is refused in a rated challenge
  (`check_rated`), and a match with one is never registered.
- **A pair's rated games of a game count `pair_limit` a day** (RATED_GAMES_PER_PAIR, the last 24 hours, in
  `rating_history`): past it, a game between the same two accounts is played unrated (verdict `limit`), and a
  rated challenge says so at once (`rated-limit`). Glicko-2 treats each result as fresh evidence against an
  opponent of known strength; one opponent's tenth game of the day is not that, and a newcomer's first games
  move its rating most (a deviation of 350), so a few a day is where the evidence stops being new. Lichess
  instead watches for farming (short games between related new accounts, a bot's repeated line are not
  rated); a cap per pair is the rule that needs no guess about who is related.

Each rated match's `verdict` (rated | aborted | early | limit) says what its end did; `rated()` lists those
that count (or are still being played).
"""
from __future__ import annotations

import json
import logging
import time

from sqlalchemy import and_, delete, func, insert, or_, select, update

import games

from ..errors import ServiceError, bad_request
from ..i18n import _l, _ln
from ..infra.schema import (accounts_table, rated_matches_table, rating_history_table, ratings_table)
from .glicko2 import Rating, rate
from .match_ratings import MatchRatings, changes_of
from .standing import LeaderboardRule, leaderboard, opponents_by_game, provisional

log = logging.getLogger("quadrille.ratings")
TAU = 0.75  # lichess's
DAY = 86_400.0
COUNTING = ("rated",)  # verdicts that count against a pair's rated games of the day


class RatingService:
    def __init__(self, storage, pair_limit: int = 3, rule: LeaderboardRule = LeaderboardRule(), clock=time.time):
        """`pair_limit`: rated games of one game between the same two accounts in the last 24 hours (the
        RATED_GAMES_PER_PAIR setting); `rule`: who the leaderboards rank (standing.py); `clock`: wall-clock
        seconds (tests drive it)."""
        self.engine = storage.engine
        self.reading = storage.reading  # a connection for reads only
        self.pair_limit = pair_limit
        self.rule = rule
        self.clock = clock
        self.on_register = []  # called with each match registered (a cache of what was known of it goes)
        self.in_play = MatchRatings(self)  # what a rated match's STATE shows (match_ratings.py)

    # -- what may be rated ----------------------------------------------------------------------------
    def check_rated(self, game: games.Game, options: dict, accounts: list[int]) -> None:
        """A rated game between these accounts with these (normalised) options may be offered, or a clear
        error: 400 `bad-rated` when an option changes the start or is set only by imports, 409 `rated-limit`
        when the pair has played its rated games of the day."""
        nonstandard = game.nonstandard(options)
        if nonstandard:
            named = ", ".join(repr(name) for name in nonstandard)
            raise bad_request(_l("Rated games start from the standard position: the option %(named)s sets another "
                                 "start (an imported game's). Make the challenge unrated, or leave %(named)s out.",
                                 named=named), "bad-rated")
        if len(accounts) == 2:
            with self.reading() as conn:
                played = self._pair_games(conn, accounts[0], accounts[1], game.name)
            if played >= self.pair_limit:
                raise ServiceError(409, "rated-limit",
                                   _ln("You have played %(num)d rated game of %(title)s with this player in the last "
                                       "24 hours, the most that count: make this one unrated, or play it rated "
                                       "tomorrow.",
                                       "You have played %(num)d rated games of %(title)s with this player in the "
                                       "last 24 hours, the most that count: make this one unrated, or play it rated "
                                       "tomorrow.",
                                       played, title=game.title))

    def _pair_games(self, conn, a: int, b: int, game: str) -> int:
        """Rated games of `game` between accounts a and b in the last day: a's recent rows of that game
        (ix_rating_history_recent) that b's history shares (its primary key)."""
        theirs = rating_history_table.alias("theirs")
        return conn.execute(select(func.count()).select_from(rating_history_table).join(theirs, and_(
            theirs.c.account_id == b, theirs.c.game == game,
            theirs.c.match_id == rating_history_table.c.match_id)).where(
            rating_history_table.c.account_id == a, rating_history_table.c.game == game,
            rating_history_table.c.at > self.clock() - DAY)).scalar_one()

    def forget(self, conn, account_id: int) -> None:
        """A deleted account's ratings go (in the deletion's transaction); the games it played stay rated."""
        conn.execute(delete(ratings_table).where(ratings_table.c.account_id == account_id))

    def register(self, match_id: str, game: str, players: dict[int, int], options: dict | None = None) -> bool:
        """A rated match between two accounts: players is {seat: account id}. A match whose `options` leave
        the standard start is not registered (the challenge refused it already); False then."""
        if options is not None and games.get(game).nonstandard(options):
            log.warning("match %s not rated: it does not start from the standard position", match_id)
            return False
        with self.engine.begin() as conn:
            conn.execute(insert(rated_matches_table).values(
                match_id=match_id, game=game, players=json.dumps({str(k): v for k, v in players.items()}),
                applied=False))
        for registered in self.on_register:
            registered(match_id)
        return True

    def rated(self, match_ids) -> set[str]:
        """The matches among these that are rated: registered, and rated or still being played (not aborted,
        not ended before every player moved, not past the pair's limit)."""
        match_ids = list(match_ids)
        if not match_ids:
            return set()
        with self.reading() as conn:
            return set(conn.execute(select(rated_matches_table.c.match_id)
                                    .where(rated_matches_table.c.match_id.in_(match_ids),
                                           or_(rated_matches_table.c.verdict.is_(None),
                                               rated_matches_table.c.verdict.in_(COUNTING)))).scalars())

    # -- the listener ---------------------------------------------------------------------------------
    def on_ended(self, match_id: str, payload: dict) -> None:
        """The match bus's ENDED (matches/bus.py): rate the match (once, whoever asks: `apply`). A game that two
        accounts do not hold online is never rated (as match_ratings.py answers it): no read for it."""
        if not payload.get("online", True) or len(payload.get("accounts", (1, 2))) < 2:
            return
        self.apply(match_id, payload["outcome"], payload.get("movers") or [])

    def on_rematch(self, match_id: str, payload: dict) -> None:
        """The match bus's REMATCH: a rated match's rematch is rated too."""
        self._rematch(payload.get("from", ""), payload.get("match", ""), payload.get("seats", []))

    def _rematch(self, old: str, new: str, turned: list[int]) -> None:
        """A rematch of a rated match is rated too, each account in the seat its old one turned into (`turned`:
        the rematch's seat of each old seat, in order, as the match service turned them)."""
        with self.reading() as conn:
            row = conn.execute(select(rated_matches_table).where(rated_matches_table.c.match_id == old)).first()
        if row is None:
            return
        players = {turned[int(seat) - 1]: account for seat, account in json.loads(row.players).items()}
        self.register(new, row.game, players)

    def apply(self, match_id: str, outcome: dict, movers=None) -> bool:
        """Rate a finished match once; True when this call rated it. `movers`: the seat that played each move
        of its line (the STATE's), so that a game some player never moved in is not rated; None: not known
        (everyone counts as having moved)."""
        with self.engine.begin() as conn:
            row = conn.execute(select(rated_matches_table).where(rated_matches_table.c.match_id == match_id)).first()
            if row is None or row.applied:
                return False
            players = {int(seat): account for seat, account in json.loads(row.players).items()}
            verdict = self._verdict(conn, row.game, players, outcome, movers)
            claimed = conn.execute(update(rated_matches_table).where(rated_matches_table.c.match_id == match_id,
                                                                     rated_matches_table.c.applied == False)  # noqa: E712
                                   .values(applied=True, verdict=verdict))
            if claimed.rowcount != 1:
                return False  # another process rated it a moment ago
            if verdict != "rated":
                log.info("match %s (%s) not rated: %s", match_id, row.game, verdict)
                return False
            winners = set(outcome.get("winners") or [])
            (seat_a, a), (seat_b, b) = sorted(players.items())
            score_a = 0.5 if not winners or winners >= {seat_a, seat_b} else (1.0 if seat_a in winners else 0.0)
            now = self.clock()
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
                                                                 rd=new.rd, rating_before=before[account][0].rating,
                                                                 rd_before=before[account][0].rd))
        log.info("rated match %s (%s)", match_id, row.game)
        return True

    def _verdict(self, conn, game: str, players: dict[int, int], outcome: dict, movers) -> str:
        """What a rated match's end does to the ratings: rated, or why not (aborted, early, limit)."""
        if outcome.get("reason") == "aborted" or len(players) != 2:
            return "aborted"
        if movers is not None and not set(players) <= {seat for seat in movers if seat is not None}:
            return "early"  # a player never moved: as lichess, a game of fewer than two plies is not rated
        (a, b) = players.values()
        if self._pair_games(conn, a, b, game) >= self.pair_limit:
            return "limit"
        return "rated"

    @staticmethod
    def _current(conn, account: int, game: str) -> tuple[Rating, int, bool]:
        row = conn.execute(select(ratings_table).where(ratings_table.c.account_id == account,
                                                       ratings_table.c.game == game)).first()
        if row is None:
            return Rating(), 0, False
        return Rating(row.rating, row.rd, row.volatility), row.games, True

    # -- reading --------------------------------------------------------------------------------------
    def ratings_of(self, account_id: int) -> dict[str, dict]:
        """An account's rating in each game it was rated in, with what the leaderboards ask of it: `ranked`, and
        `missing` (what it lacks to be: standing.LeaderboardRule.missing)."""
        with self.reading() as conn:
            rows = conn.execute(select(ratings_table).where(ratings_table.c.account_id == account_id)
                                .order_by(ratings_table.c.game)).all()
            opponents = opponents_by_game(conn, account_id) if rows else {}
        now = self.clock()
        ratings = {}
        for r in rows:
            missing = self.rule.missing(r.rd, r.games, opponents.get(r.game, 0), r.updated, now)
            ratings[r.game] = {"rating": round(r.rating), "rd": round(r.rd), "games": r.games,
                               "provisional": provisional(r.rd), "opponents": opponents.get(r.game, 0),
                               "last_played": r.updated, "ranked": not missing, "missing": missing}
        return ratings

    def changes_of(self, account_id: int, match_ids) -> dict[str, dict]:
        """{match id: {"before", "after"}}: what each of these rated matches did to the account's rating."""
        return changes_of(self.reading, account_id, match_ids)

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
        """The best `limit` ranked players of a game (standing.py: never a provisional one)."""
        with self.reading() as conn:
            return leaderboard(conn, game, self.rule, self.clock(), limit)
