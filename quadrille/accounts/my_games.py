"""'My games': a player's matches as the original Towers server listed them (whose turn, last update, result,
finished ones on request), "your turn" first. An account's list comes from account_matches and its seat key;
an anonymous player's from the tokens their browser holds, sent by the page (never kept by the server).

A list never replays a match: the tokens are checked first, against the seats' stored hashes (one read of the
seats of every match named, each token hashed once and compared in constant time), and only the matches a token
holds a seat in are read, as their rows and summaries (quadrille/matches/summary.py: whose turn, outcome,
seats, the computer's seats, the clock's deadline), which the match service keeps with every event. So a list
costs three reads whatever the matches' lengths, and bogus tokens cost a hash each.
"""
from __future__ import annotations

import re

import games

from .. import option_words
from ..infra.tokens import seats_held, well_formed
from ..matches.summary import Summaries, options_of, seat_names
from .service import MAX_CLAIMS, AccountService, checked_tokens

# The most match tokens one request may name: what a page sends (static/js/players.js sends at most 500, the
# most an account takes over at once). A browser keeps a token for every match it played in localStorage,
# forever; 500 is over a month of fifteen games a day, far more than players hold, and a list of 500 costs a
# few milliseconds (three reads by key). A request naming more is refused (400) before anything is read.
MAX_TOKENS = MAX_CLAIMS
LISTED = 200  # the most recently active matches of an account that its list shows
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def entry(row, now: dict, seats: list, mine: list[int], rated: bool, clock_now: float) -> dict:
    """One line of the list, in the player's terms: `row` (storage.ListedRow) and `now` (its summary), `seats`
    (its seat rows), `mine` (the seats the player holds)."""
    names = seat_names(row, now, len(seats))
    seat_name = lambda seat: names[seat - 1] if 0 < seat <= len(names) else f"Player {seat}"  # noqa: E731
    computer = set(now["computer"])
    opponents = [{"seat": s.seat, "side": seat_name(s.seat), "name": "Computer" if s.seat in computer else s.name,
                  "taken": s.seat in computer or s.token_hash is not None}
                 for s in seats if s.seat not in mine]
    outcome, result = now["outcome"], None
    if outcome is not None:
        winners = outcome["winners"]
        if outcome["reason"] == "aborted":
            result = "aborted"
        elif not winners or set(winners) >= {s.seat for s in seats}:
            result = "draw"
        else:
            result = "win" if set(mine) & set(winners) else "loss"
    turn, clock, options = now["turn"], now["clock"], options_of(row, now)
    return {
        "match": row.id, "game": row.game, "title": games.get(row.game).title, "options": options,
        "options_words": option_words.describe(row.game, options),
        "mode": row.mode, "seats": mine, "sides": [seat_name(s) for s in mine], "opponents": opponents,
        "updated": row.updated, "started": now["started"], "turn": turn,
        "turn_name": seat_name(turn) if turn else None,
        "your_turn": turn is not None and turn in mine and outcome is None,
        "finished": outcome is not None, "result": result,
        "reason": outcome["reason"] if outcome else None, "rated": rated, "url": f"/m/{row.id}",
        "rating": None,  # a rated game that ended: the player's rating {"before", "after"} (account_games)
        # a game with a clock: its kind, and the seconds the player to move has left now (None: none runs)
        "clock": None if clock is None else {
            "kind": clock["kind"],
            "seconds_left": None if clock["deadline"] is None else round(max(clock["deadline"] - clock_now, 0.0), 2)},
    }


def ordered(entries: list[dict]) -> list[dict]:
    """Your turn first, then games going on, then finished ones; the most recent first within each."""
    return sorted(entries, key=lambda e: (not e["your_turn"], e["finished"], -(e["updated"] or 0)))


def account_games(accounts: AccountService, rated_of, account, finished: bool, most: int | None = None,
                  changes_of=None) -> list[dict]:
    """The account's games (its LISTED most recently active matches); `rated_of(match_ids)`: which of them are
    rated; `most`: only that many finished games, the newest (a profile: the look stops there);
    `changes_of(account id, match ids)`: what rated games did to its rating ({match id: {"before", "after"}},
    one read for the list: RatingService.changes_of)."""
    match_ids = accounts.match_ids(account.id, LISTED)
    holdings = [(match_id, account.seat_key) for match_id in match_ids]
    lines = games_of(accounts, rated_of(match_ids), holdings, finished, most)
    if changes_of is not None:
        changes = changes_of(account.id, [line["match"] for line in lines if line["rated"] and line["finished"]])
        for line in lines:
            line["rating"] = changes.get(line["match"])
    return lines


def token_games(accounts: AccountService, tokens, finished: bool) -> list[dict]:
    """A browser's games, from the tokens it sent ({match id: token}, at most MAX_TOKENS)."""
    return games_of(accounts, set(), list(checked_tokens(tokens).items()), finished)


def held_seats(storage, holdings) -> tuple[dict[str, list[int]], dict[str, list]]:
    """Which seats each token holds ({match id: seats}, only where it holds one), and the seats read: the
    tokens checked against the stored hashes before anything else of the matches is read."""
    holdings = [(m, t) for m, t in holdings if isinstance(m, str) and MATCH_ID.fullmatch(m) and well_formed(t)]
    seats = storage.seats_of_matches({m for m, _ in holdings})
    held = {}
    for match_id, token in holdings:
        mine = seats_held(token, ((s.seat, s.token_hash) for s in seats.get(match_id, ())))
        if mine:
            held[match_id] = mine
    return held, seats


def games_of(accounts: AccountService, rated_ids: set[str], holdings, finished: bool,
             most: int | None = None) -> list[dict]:
    """`most`: the first that many finished games of `holdings` (in their order) and nothing else."""
    service = accounts.matches
    held, seats = held_seats(service.storage, holdings)
    rows = service.storage.listed(held)
    summaries = Summaries(service).of(rows.values())
    clock_now = service.clocks.clock()
    entries = []
    for match_id, _token in holdings:
        now = summaries.get(match_id) if match_id in held else None
        if now is None:
            continue
        listed = [s for s in seats[match_id] if s.seat <= now["players"]]  # a started Gamma keeps its players
        mine = [seat for seat in held[match_id] if seat <= now["players"]]
        if not mine:
            continue
        line = entry(rows[match_id], now, listed, mine, match_id in rated_ids, clock_now)
        if most is not None:
            if line["finished"]:
                entries.append(line)
                if len(entries) == most:
                    break
        elif finished or not line["finished"]:
            entries.append(line)
    return ordered(entries)
