"""Who wins when a player's time runs out, per game (decided from each game's rules, docs/games.md):

- **Trails and Towers, Towers**: the player whose time ran out loses. The opponent can always still win in
  these games (a trail can still be run; a master can still be captured while both are on the board).
- **Lattice Checkers**: the player whose time ran out loses, unless the opponent has no piece left, neither on
  the board nor on its bench: it can never score again, so it cannot win, and the game is a draw (the rules
  have draws: equal scores).
- **Gamma**: the player whose time ran out loses. With more than two players the game ends there (it does not
  go on without them: the engine knows no empty seat), and the winners are the other players with the most
  fields, the scores those of the position.

These ask the engine (`board.can_still_win(seat)`, `scores`), never re-implement a rule.
"""
from __future__ import annotations


def flag_result(game: str, board, flagged: int) -> dict:
    """The match's result when `flagged`'s time ran out (the shape of every result: winners, scores, reason)."""
    seats = list(range(1, board.players + 1))
    others = [s for s in seats if s != flagged]
    scores = list(board.scores()) if hasattr(board, "scores") else []
    result = {"reason": "time", "flagged": flagged, "scores": scores}
    if len(others) == 1:
        draw = not board.can_still_win(others[0])
        return {**result, "winners": [] if draw else others}
    best = max(scores[s - 1] for s in others) if scores else None
    return {**result, "winners": [s for s in others if scores and scores[s - 1] == best] if scores else others}
