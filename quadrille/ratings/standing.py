"""Who is ranked: a rating is provisional while its deviation is high, and a game's leaderboard lists only
players whose rating is established, earned against enough different players, and kept up lately.

As lichess: a rating whose deviation (RD) is above 110 is provisional, shown with a "?", and provisional
players are not ranked; lichess's leaderboards also ask for 30 rated games and one in the last week. Here a
player is ranked in a game (`LeaderboardRule`, settings LEADERBOARD_GAMES, LEADERBOARD_OPPONENTS and
LEADERBOARD_ACTIVE_DAYS) when, in that game:

- the rating is not provisional: RD at most 110;
- they played at least 20 rated games,
- against at least 5 different accounts (an account deleted since still counts: its games stay rated);
- and the last of them in the last 30 days (a small arcade's players play less often than lichess's week).

What it takes, worked out with glicko2.py itself (per game, tau 0.75, as the service rates):

- An honest newcomer among established players (RD 50-100) with even results is no longer provisional after
  12-15 games; on a new site where everyone starts together (6 or 10 players, even chances), after 15-24
  (median 18). Twenty games is then the binding count; 3 rated games with each of 7 newcomers, won and lost
  in turn, leave an RD of 105: ranked after 21 games.
- A farm of 3 alts (issue 22: each side moves once, then the alt resigns; 3 a pair a day) is never ranked:
  it has 3 opponents. Winning every game also keeps the farmer provisional for ever: a win over a much
  weaker player is little evidence, so the RD stays high (189 after 9 wins, 154 after 30, 143 after 60, then
  it grows again with the volatility).
- A larger farm must lose to be established: with 5 alts (15 games a day) and one loss in 10 the farmer is
  ranked after 36 games (2.4 days) at about 1870; one loss in 20 takes 51 games (3.4 days), about 1940.
  More alts make it faster (20 alts: under a day), and the day's sign-ups per address (SIGNUP_RATE) are
  what bound the alts. The rule slows a farm to days and keeps the farmed rating where its own losses put it;
  stopping it outright takes moderation (lichess's), not arithmetic.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import select

from ..infra.schema import accounts_table, rated_matches_table, rating_history_table, ratings_table

PROVISIONAL_RD = 110  # lichess shows a rating with a "?" above this deviation
DAY = 86_400.0


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


@dataclass(frozen=True)
class LeaderboardRule:
    """What a player needs in a game to be ranked (the module's docstring says why these numbers)."""
    games: int = 20
    opponents: int = 5
    active_days: float = 30
    rd = PROVISIONAL_RD  # at most: not provisional (not a field: a rating's "?" means the same everywhere)

    def as_json(self) -> dict:
        return {"rd": self.rd, "games": self.games, "opponents": self.opponents, "days": self.active_days}

    def missing(self, rd: float, games: int, opponents: int, last_played: float, now: float) -> dict:
        """What a rating still lacks to be ranked, only what it lacks: `games` and `opponents` (how many more),
        `established` (true: the rating is still provisional), `recent` (true: no rated game lately). Empty when
        it is ranked."""
        missing: dict = {}
        if games < self.games:
            missing["games"] = self.games - games
        if opponents < self.opponents:
            missing["opponents"] = self.opponents - opponents
        if provisional(rd):
            missing["established"] = True
        if last_played < now - self.active_days * DAY:
            missing["recent"] = True
        return missing


def _opponents_in(players_json: str, account_id: int) -> set[int]:
    return {other for other in json.loads(players_json).values() if other != account_id}


def opponents_by_game(conn, account_id: int) -> dict[str, int]:
    """How many different accounts this account played rated games of each game against. The rows read are
    the distinct seatings of its rated matches (a few per opponent), not its games."""
    rows = conn.execute(select(rating_history_table.c.game, rated_matches_table.c.players).distinct()
                        .join(rated_matches_table, rated_matches_table.c.match_id == rating_history_table.c.match_id)
                        .where(rating_history_table.c.account_id == account_id)).all()
    seen: dict[str, set[int]] = {}
    for game, players in rows:
        seen.setdefault(game, set()).update(_opponents_in(players, account_id))
    return {game: len(opponents) for game, opponents in seen.items()}


# A rated match's players are stored as JSON {seat: account}: one opponent appears under at most 4 texts (which
# seat each took, and the key order a rematch writes), so 4 texts per opponent sought prove enough of them.
TEXTS_PER_OPPONENT = 4


def has_opponents(conn, account_id: int, game: str, needed: int) -> bool:
    """Whether the account played rated games of `game` against at least `needed` different accounts, reading
    no more distinct seatings than it takes to know (a farm of few alts has few, however many its games)."""
    query = (select(rated_matches_table.c.players).distinct()
             .join(rating_history_table, rated_matches_table.c.match_id == rating_history_table.c.match_id)
             .where(rating_history_table.c.account_id == account_id, rating_history_table.c.game == game))
    cap = needed * TEXTS_PER_OPPONENT
    texts = conn.execute(query.limit(cap)).scalars().all()
    opponents = set().union(*(_opponents_in(text, account_id) for text in texts))
    if len(texts) == cap and len(opponents) < needed:  # cannot be in the format written: read them all
        opponents = set().union(*(_opponents_in(text, account_id) for text in conn.execute(query).scalars()))
    return len(opponents) >= needed


def leaderboard(conn, game: str, rule: LeaderboardRule, now: float, limit: int) -> list[dict]:
    """The best `limit` ranked players of a game: established (not provisional), with enough rated games and
    a recent one (read from `ratings` alone, best first), then checked for enough different opponents."""
    candidates = (select(ratings_table.c.account_id, ratings_table.c.rating, ratings_table.c.rd,
                         ratings_table.c.games, accounts_table.c.name)
                  .join(accounts_table, accounts_table.c.id == ratings_table.c.account_id)
                  .where(ratings_table.c.game == game, ratings_table.c.rd <= PROVISIONAL_RD,
                         ratings_table.c.games >= rule.games, ratings_table.c.updated >= now - rule.active_days * DAY)
                  .order_by(ratings_table.c.rating.desc(), ratings_table.c.account_id))
    ranked: list[dict] = []
    offset = 0
    while len(ranked) < limit:
        page = conn.execute(candidates.offset(offset).limit(limit)).all()
        for row in page:
            if len(ranked) < limit and has_opponents(conn, row.account_id, game, rule.opponents):
                ranked.append({"rank": len(ranked) + 1, "name": row.name, "rating": round(row.rating),
                               "rd": round(row.rd), "games": row.games, "provisional": False})
        if len(page) < limit:
            break
        offset += limit
    return ranked
