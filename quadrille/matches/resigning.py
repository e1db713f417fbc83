"""Who may resign a match, and who wins when they do: the one place that decides it, for the service's
`resign` and for the STATE's `resignable`, which the match page draws the *Resign* button from.

- Online, a two-player game under way may be resigned, once it can no longer be aborted (before every player
  has moved the page offers *Abort* instead; the request is still accepted then, as before). With more
  players an online game goes on without the one who leaves, so it is not resigned.
- Against the computer, every game under way may be resigned, whatever the game and the number of seats: the
  computer's seats win (the person's other seats lose with the resigning one). A demo (the computer holds
  every seat) has nobody to resign.
- On one screen there is nobody to resign to: restart instead.
"""
from __future__ import annotations

from ..i18n.words import N_


def refusal(match) -> str | None:
    """Why the people of `match` may not resign it, whatever its position; None when they may."""
    mode = match.row.mode
    if mode == "local":
        return N_("In a local game, restart instead of resigning.")
    if mode == "ai":
        return None if match.humans() else N_("Nobody plays against the computer here: it plays every seat.")
    if match.board.players != 2:
        return N_("Resigning is for two-player games.")
    return None


def resignable(match, abortable: bool) -> bool:
    """For the STATE: a person seated in this game under way may resign it now (`abortable`: the game may
    still be aborted, which the page offers instead)."""
    return (match.outcome() is None and match.begun() and not (abortable and match.row.mode == "online")
            and refusal(match) is None)


def winners(match, seat: int) -> list[int]:
    """The seats that win when `seat` resigns: the computer's against the computer, else every other seat."""
    if match.row.mode == "ai":
        return sorted(match.computer)
    return [s for s in range(1, match.board.players + 1) if s != seat]


def recorded_winners(data: dict, players: int) -> list[int]:
    """The winners a stored `resign` event gives (events before `winners` was recorded: every other seat)."""
    if "winners" in data:
        return list(data["winners"])
    return [s for s in range(1, players + 1) if s != data["seat"]]
