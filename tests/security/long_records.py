"""Long records of real games for the attacks on lists and imports: the longest games the engines allow,
made by legal moves (deterministic, no randomness), as an attacker would make them."""
from __future__ import annotations

import random

import games


def towers_record(actions: int = 2999, seed: int = 1) -> dict:
    """A Towers 10x10 record of `actions` actions (3,000 is Towers' move limit there) that has not ended: random
    legal actions, none that ends the game."""
    board = games.get("towers").new(size=10)
    rng = random.Random(seed)
    while len(board.moves) < actions:
        legal = board.legal_moves()
        rng.shuffle(legal)
        for move in legal:
            board.push(move)
            if board.outcome() is None:
                break
            board.pop()
        else:  # pragma: no cover - every position of this seed has an action that does not end the game
            raise RuntimeError("no action left that keeps the game going")
    return {"format": "quadrille-record", "game": "towers", "options": dict(board.options), "moves": board.moves}


def gamma_record(side: int = 40, players: int = 16) -> dict:
    """The longest Gamma there is on a side x side board: the first player fills every field, row by row, each
    pawn after the other players' passes (players - 1 of them, less than a round), with room for one area each."""
    fields = [f"{x},{y}" for y in range(side) for x in range(side)]
    moves = []
    for field in fields:
        moves.append(field)
        moves += ["skip"] * (players - 1)
    options = {"width": side, "height": side, "players": players, "areas": 100}
    limit = games.get("gamma").move_limit(options)
    return {"format": "quadrille-record", "game": "gamma", "options": options, "moves": moves[:min(len(moves), limit) - (players - 1)]}
