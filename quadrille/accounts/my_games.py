"""'My games': a player's matches as the original Towers server listed them (whose turn, last update, result,
finished ones on request), "your turn" first. An account's list comes from account_matches and its seat key;
an anonymous player's from the tokens their browser holds, sent by the page (never kept by the server)."""
from __future__ import annotations

from ..errors import ServiceError
from .service import AccountService, checked_tokens


def entry(state: dict, mine: list[int], updated: float | None, rated: bool) -> dict:
    """One line of the list, in the player's terms."""
    outcome = state.get("outcome")
    names = state.get("seat_names") or []
    seat_name = lambda seat: names[seat - 1] if 0 < seat <= len(names) else f"Player {seat}"  # noqa: E731
    opponents = [{"seat": s["seat"], "side": seat_name(s["seat"]),
                  "name": s["name"] if s["kind"] == "human" else "Computer", "taken": s["taken"]}
                 for s in state["seats"] if s["seat"] not in mine]
    result = None
    if outcome is not None:
        winners = outcome.get("winners") or []
        if outcome.get("reason") == "aborted":
            result = "aborted"
        elif not winners or set(winners) >= set(s["seat"] for s in state["seats"]):
            result = "draw"
        else:
            result = "win" if set(mine) & set(winners) else "loss"
    turn = state.get("turn")
    clock = state.get("clock")
    running = clock.get("running") if clock and outcome is None else None
    return {
        "match": state["match"], "game": state["game"], "title": state["title"], "options": state["options"],
        "mode": state["mode"], "seats": mine, "sides": [seat_name(s) for s in mine], "opponents": opponents,
        "updated": updated, "started": state.get("started", True), "turn": turn,
        "turn_name": seat_name(turn) if turn else None,
        "your_turn": turn is not None and turn in mine and outcome is None,
        "finished": outcome is not None, "result": result,
        "reason": outcome.get("reason") if outcome else None, "rated": rated, "url": f"/m/{state['match']}",
        # a game with a clock: its kind, and the seconds the player to move has left now (None: none runs)
        "clock": None if clock is None else {"kind": clock["kind"],
                                              "seconds_left": clock["left"][running - 1] if running else None},
    }


def ordered(entries: list[dict]) -> list[dict]:
    """Your turn first, then games going on, then finished ones; the most recent first within each."""
    return sorted(entries, key=lambda e: (not e["your_turn"], e["finished"], -(e["updated"] or 0)))


LISTED = 200  # the most recently active matches of an account that its list shows


def account_games(accounts: AccountService, rated_of, account, finished: bool, most: int | None = None) -> list[dict]:
    """The account's games (its LISTED most recently active matches); `rated_of(match_ids)`: which of them are
    rated; `most`: only that many finished games, the newest (a profile: the look stops there)."""
    match_ids = accounts.match_ids(account.id, LISTED)
    holdings = [(match_id, account.seat_key) for match_id in match_ids]
    return games_of(accounts, rated_of(match_ids), holdings, finished, most)


def token_games(accounts: AccountService, tokens, finished: bool) -> list[dict]:
    return games_of(accounts, set(), list(checked_tokens(tokens).items()), finished)


def games_of(accounts: AccountService, rated_ids: set[str], holdings, finished: bool,
             most: int | None = None) -> list[dict]:
    """`most`: the first that many finished games of `holdings` (in their order) and nothing else."""
    matches = accounts.matches
    updated = accounts.updated([m for m, _ in holdings if isinstance(m, str)])
    entries = []
    for match_id, token in holdings:
        if match_id not in updated:
            continue
        try:
            state, mine = matches.state_and_seats(match_id, token)
        except ServiceError:
            continue
        if not mine:
            continue
        line = entry(state, mine, updated.get(match_id), match_id in rated_ids)
        if most is not None:
            if line["finished"]:
                entries.append(line)
                if len(entries) == most:
                    break
        elif finished or not line["finished"]:
            entries.append(line)
    return ordered(entries)
