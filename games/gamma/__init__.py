"""Gamma: the University of Warsaw IPP 2019/20 assignment game (its rules: docs/games.md, *Gamma*, and /rules/gamma).

A width x height board, any number of players, at most `areas` connected areas per
player, one golden move each. `GammaBoard` is the turn-based engine of the engine
contract (docs/engine.md); `games.gamma.engine.Gamma` is the assignment's own API
(move, golden move, busy/free fields, golden possible, board), which the batch and
interactive programs (`python -m games.gamma`) use directly.

Notation (docs/games.md, *Gamma*): `x,y` occupies the empty field (x, y), x the
column, y the row, y = 0 the bottom row; `gx,y` is the golden move onto (x, y); `skip`
passes. Numbers are plain decimal without leading zeros. Players who cannot move at
all are skipped inside `push`; when nobody can move the game is over, and so it is when
no pawn can be placed and every player still able to make a golden move passed, one
after the other (games/gamma/passes.py: the web game's stand-in for the terminal's Ctrl-D).
"""
from __future__ import annotations

import re

from games.base import Board, Game, IllegalMove, Option, Outcome, Reason
from games.notation import cell_name, gamma_names
from games.gamma.engine import MAX_PLAYERS, UINT32_MAX, Gamma
from games.gamma.passes import passes_end

__all__ = ["GAME", "GammaBoard", "Gamma"]

MAX_SIDE = 1000          # every in-range width x height fits engine.MAX_FIELDS
_MOVE = re.compile(r"(g?)(0|[1-9][0-9]{0,9}),(0|[1-9][0-9]{0,9})")


class GammaBoard(Board):
    """The turn-based game: players 1, 2, ..., players, 1, ... (skipping those who cannot move)."""

    game_name = "gamma"

    def __init__(self, options: dict):
        self.options = dict(options)
        self.players = options["players"]
        self.core = Gamma(options["width"], options["height"], options["players"], options["areas"])
        self._moves: list[str] = []
        self._turns: list[int] = []      # the seat that played each move
        self._turn: int | None = 1
        self._passers: list = []          # per move: the seat that began the run of passes it ends, else None
        self._legal_cache = None          # ((board version, seat), sorted legal moves)

    # ------------------------------------------------------------------ contract (docs/engine.md)

    def _parse(self, move) -> tuple:
        """('skip',) or (golden: bool, x, y); IllegalMove if malformed."""
        if not isinstance(move, str):
            raise IllegalMove("a move is a string, got %(kind)s", kind=type(move).__name__)
        if move == "skip":
            return ("skip",)
        m = _MOVE.fullmatch(move)
        if m is None:
            raise IllegalMove("%(move)s is not a gamma move: expected x,y (a field), gx,y (a golden move) or skip",
                              move=repr(move))
        return (bool(m[1]), int(m[2]), int(m[3]))

    def is_legal(self, move) -> bool:
        """Cheap legality test of one move for the seat to act (no list of all moves)."""
        p = self._turn
        if p is None:
            return False
        try:
            parsed = self._parse(move)
        except IllegalMove:
            return False
        if len(parsed) == 1:
            return True
        golden, x, y = parsed
        if golden:
            return self.core.can_move_golden(p, x, y)
        return self.core.can_move_normally(p, x, y)

    def push(self, move: str) -> None:
        """Play `x,y`, `gx,y` or `skip` for the seat to act; then the next seat that can move has the turn.
        A refusal names the field as the board does (columns a, b, ..., rows 1, 2, ... from the bottom).

            >>> board = GAME.new(width=3, height=1, players=2, areas=1)
            >>> board.push("0,0"); board.push("2,0")
            >>> board.push("g2,0")                  # Blue's golden move onto Orange's field at c1
            Traceback (most recent call last):
            games.base.IllegalMove: taking c1 would give Blue more than 1 area
        """
        p = self._turn
        parsed = self._parse(move)
        if p is None:
            raise IllegalMove("the game is over")
        core = self.core
        if len(parsed) == 3:
            golden, x, y = parsed
            if golden:
                if not core.golden_move(p, x, y):
                    raise IllegalMove(core.why_not_golden(p, x, y, *self._naming()))
            elif not core.move(p, x, y):
                raise IllegalMove(core.why_not_move(p, x, y, *self._naming()))
        first = self._first_passer(p) if len(parsed) == 1 else None
        self._moves.append(move)
        self._turns.append(p)
        self._passers.append(first)
        nxt = core.next_player(p)
        self._turn = None if first is not None and passes_end(core, nxt, first) else nxt

    def _naming(self) -> tuple:
        """How a refusal names a field and a player: as the move list ("c5") and the pages ("Orange") do. A
        player is a word of the catalog (their colour), which a server says in the person's language."""
        names = GAME.seat_names(self.options)
        return (lambda x, y: cell_name(x, y + 1),
                lambda seat: Reason(names[seat - 1]) if 0 < seat <= len(names) else Reason("player %(number)d",
                                                                                            number=seat))

    def pop(self) -> str:
        """Take back the last move (the assignment's engine undoes a field; a skip changes no field).

            >>> board = GAME.new(width=3, height=1)
            >>> board.push("1,0"); board.push("skip")
            >>> board.pop(), board.pop(), board.turn, board.moves
            ('skip', '1,0', 1, [])
        """
        if not self._moves:
            raise IndexError("no move to take back")
        move = self._moves.pop()
        self._turn = self._turns.pop()
        self._passers.pop()
        if move != "skip":
            self.core.undo()
        return move

    def _first_passer(self, p: int) -> int:
        """The seat whose pass began the run of passes that a pass by `p` continues (`p` itself if it begins one)."""
        earlier = self._passers[-1] if self._passers else None
        return p if earlier is None else earlier

    def legal_moves(self) -> list[str]:
        """`skip`, every empty field the seat to act may take, and its golden moves, sorted as strings.

            >>> board = GAME.new(width=3, height=1, players=2, areas=1)
            >>> board.push("0,0")
            >>> board.legal_moves()                 # Orange: the two empty fields, or Blue's a1 by a golden move
            ['1,0', '2,0', 'g0,0', 'skip']
        """
        p = self._turn
        if p is None:
            return []
        core = self.core
        key = (core.version, p)
        cached = self._legal_cache
        if cached is not None and cached[0] == key:
            return list(cached[1])
        xy = core.xy
        moves = ["skip"]
        for c in core.move_targets(p):
            x, y = xy(c)
            moves.append(f"{x},{y}")
        for c in core.golden_targets(p):
            x, y = xy(c)
            moves.append(f"g{x},{y}")
        moves.sort()
        self._legal_cache = (key, moves)
        return list(moves)

    def scores(self) -> tuple:
        busy = self.core.busy_fields
        return tuple(busy(q) for q in range(1, self.players + 1))

    def outcome(self) -> Outcome | None:
        """None while someone can move. Then every player with the most fields wins (a tie has several
        winners, never a draw): `stuck` when nobody can move, `passed` when no pawn could be placed and
        every player still able to make a golden move skipped it, one after the other.

            >>> board = GAME.new(width=3, height=1, players=2, areas=1)
            >>> for move in ["0,0", "2,0", "1,0", "skip", "skip"]:
            ...     board.push(move)
            >>> board.outcome()
            Outcome(winners=(1,), scores=(2, 1), reason='passed')
        """
        if self._turn is not None:
            return None
        scores = self.scores()
        best = max(scores)
        winners = tuple(q for q, s in enumerate(scores, 1) if s == best)
        # A pass never leaves the passer without a move, so a game that ended on a pass ended by the rule of passes.
        ended_by_passes = bool(self._moves) and self._moves[-1] == "skip"
        return Outcome(winners, scores, "passed" if ended_by_passes else "stuck")

    def copy(self) -> "GammaBoard":
        other = object.__new__(GammaBoard)
        other.options = dict(self.options)
        other.players = self.players
        other.core = self.core.clone()
        other._moves = list(self._moves)
        other._turns = list(self._turns)
        other._passers = list(self._passers)
        other._turn = self._turn
        other._legal_cache = self._legal_cache
        return other

    def view(self) -> dict:
        """Everything a browser needs to draw the position.

        `cells[y][x]` is the seat on field (x, y), 0 if empty; y = 0 is the bottom row
        (draw the rows in reverse). `legal` lists the fields ([x, y]) the seat to act may
        take with a normal move, `golden` those a golden move may take; `stats[i]` is
        seat i + 1's busy fields, free fields (as the assignment counts them), areas, and
        whether its golden move is used or possible now.

            >>> board = GAME.new(width=3, height=1, players=2, areas=1)
            >>> board.push("0,0")
            >>> view = board.view()
            >>> view["cells"], view["legal"], view["golden"]
            ([[1, 0, 0]], [[1, 0], [2, 0]], [[0, 0]])
        """
        core = self.core
        p = self._turn
        xy = core.xy
        stats = [{
            "seat": q,
            "busy": core.busy_fields(q),
            "free": core.free_fields(q),
            "areas": core.areas_of(q),
            "golden_used": core.golden_used(q),
            "golden_possible": core.golden_possible(q),
        } for q in range(1, self.players + 1)]
        outcome = self.outcome()
        return {
            "game": "gamma",
            "width": core.width,
            "height": core.height,
            "players": self.players,
            "areas": core.max_areas,
            "origin": "bottom-left",
            "cells": core.rows(),
            "turn": p,
            "stats": stats,
            "legal": [list(xy(c)) for c in core.move_targets(p)] if p is not None else [],
            "golden": [list(xy(c)) for c in core.golden_targets(p)] if p is not None else [],
            "moves": len(self._moves),
            "last": self._moves[-1] if self._moves else None,
            "over": p is None,
            "outcome": outcome.to_dict() if outcome is not None else None,
        }

    # ------------------------------------------------------------------ the assignment's queries
    def busy_fields(self, player: int) -> int:
        return self.core.busy_fields(player)

    def free_fields(self, player: int) -> int:
        return self.core.free_fields(player)

    def golden_possible(self, player: int) -> bool:
        return self.core.golden_possible(player)

    def board(self) -> str:
        """The assignment's board printout (top row first)."""
        return self.core.board()


def _notes(options: dict) -> list[str]:
    notes = []
    fields = options["width"] * options["height"]
    if options["players"] > fields:
        notes.append(f"{options['players']} players on {fields} fields: some players will never place a pawn.")
    if options["areas"] >= fields:
        notes.append("The area limit is at least the number of fields, so it never binds.")
    return notes


SKIP_SLACK = 100   # moves beyond the structural bound of _longest: rounds where everybody passed


# What players call each seat: the colours games/gamma/static/gamma.css draws them in (a colour-blind-safe palette of
# 16, each field also marked with its player's letter). Beyond 16 players a seat is "Player N".
def N_(word: str) -> str:
    """A word marked for the `games` catalog (babel.cfg), said in the player's language where it is shown."""
    return word


COLOUR_NAMES = (N_("Blue"), N_("Orange"), N_("Pink"), N_("Sky"), N_("Red"), N_("Yellow"), N_("Indigo"), N_("Wine"),
                N_("Teal"), N_("Olive"), N_("Purple"), N_("Brown"), N_("Sand"), N_("Black"), N_("Grey"), N_("Rose"))


def _seat_names(options: dict) -> list[str]:
    return list(COLOUR_NAMES[:options["players"]])


def _longest(options: dict) -> int:
    """The most moves of a real game: players x (fields + players + 1) + SKIP_SLACK.

    A normal move fills an empty field and no field is ever emptied (a golden move changes the owner of a taken
    field), so a game has at most `fields` normal moves, and at most `players` golden moves (one each). `skip`
    is always legal, so only the players decide how often they pass; in a real game somebody places a pawn
    every round: at most players - 1 passes in a row (a whole round of passes leaves the same position with the
    same player to move). So a game holds at most fields + players placements, with players - 1 passes before
    each and after the last: players x (fields + players + 1). SKIP_SLACK adds room for a few whole rounds of
    passes, which matter on the smallest boards (2x2: 14 + 100)."""
    fields = options["width"] * options["height"]
    players = options["players"]
    return players * (fields + players + 1) + SKIP_SLACK


GAME = Game(
    name="gamma",
    title="Gamma",
    seats=(1, MAX_PLAYERS),
    options={
        # `form` is what the web game offers; the engine (and the batch mode) take far more.
        "width": Option(10, "int", range=(1, MAX_SIDE), form=(2, 40), help="columns of the board"),
        "height": Option(10, "int", range=(1, MAX_SIDE), form=(2, 40), help="rows of the board"),
        "players": Option(2, "int", range=(1, MAX_PLAYERS), form=(2, 16), help="number of players"),
        "areas": Option(3, "int", range=(1, UINT32_MAX), form=(1, 100),
                        help="the most connected areas a player may own at any moment"),
    },
    board_class=GammaBoard,
    summary=("Take turns to put pawns on empty fields, but never own more than the allowed number of "
             "connected areas. Once per game you may make a golden move: take a field from another "
             "player, as long as nobody ends up over the limit. Players who cannot move are skipped; "
             "when nobody can move, or no field is left and every player skips the golden move in a row, "
             "whoever holds the most fields wins."),
    notes=_notes,
    longest=_longest,
    notation=gamma_names,
    names=_seat_names,
    draws=False,  # a tie gives several winners, never a draw (docs/games.md, *Gamma*)
)
