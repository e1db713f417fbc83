"""The analysis board: a line of moves of any game from its start, checked move by move on the engine, its
positions as STATEs (position_state.py) with every seat playable, and its export. Nothing is stored: the page
sends the line each time (web/analysis_board_pages.py is the door).

    checked(game, options, moves) -> Position    # or a ServiceError (400) with the engine's reason
    from_record(record, ply) -> (game, options, moves, ply)   # a match's line; 409 for an online game under way
    link_query(game, options, moves, ply) -> dict              # the board's address for that line
    export(position, extension) -> (filename, mimetype, text)  # the game's own save file, or the JSON record

Pure: no Flask here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import games
from games.reasons import reason_of

from .errors import ServiceError, bad_request
from .i18n import _l, _ln
from .matches.records import RECORD_FORMAT
from .matches.seating import within_form
from .analysis.service import under_way_online
from .position_state import BadLine, Line, position_state, replay

MAX_MOVE = 200        # characters of one move string (the longest real move is a Lattice capture chain)
MODE = "analysis"     # the STATE's mode on the board


@dataclass
class Position:
    game: games.Game
    options: dict      # normalised
    line: Line

    @property
    def moves(self) -> list[str]:
        return list(self.line.board.moves)

    def state(self) -> dict:
        """The STATE of the position at the end of the line: the moves of whichever seat is to move."""
        board = self.line.board
        return position_state(self.game.name, board, range(1, board.players + 1), movers=self.line.movers,
                              mode=MODE)


def game_named(name) -> games.Game:
    if not isinstance(name, str) or name not in games.names():
        raise bad_request(_l("game must be one of: %(choices)s.", choices=", ".join(games.names())), "unknown-game")
    return games.get(name)


def checked_options(game: games.Game, options) -> dict:
    """The options, normalised, within what this server offers (the new-game form's ranges)."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise bad_request(_l("options must be an object."), "bad-options")
    try:
        return game.normalise(within_form(game, dict(options)))
    except (ValueError, TypeError) as exc:
        raise bad_request(reason_of(exc), "bad-options")


def checked_moves(game: games.Game, options: dict, moves) -> list[str]:
    """The moves as a list of strings, no longer than a real game with these options can be."""
    moves = [] if moves is None else moves
    if not isinstance(moves, list) or not all(isinstance(m, str) and 0 < len(m) <= MAX_MOVE for m in moves):
        raise bad_request(_l("moves must be a list of the game's move strings (each 1 to %(most)d characters).", most=MAX_MOVE),
                          "bad-moves")
    limit = game.move_limit(options)
    if len(moves) > limit:
        raise bad_request(_ln("This line has %(num)d moves; a game of %(game)s with these options lasts at most %(limit)d.",
                              "This line has %(num)d moves; a game of %(game)s with these options lasts at most %(limit)d.",
                              len(moves), game=game.title, limit=limit), "too-many-moves")
    return moves


def checked(game_name, options, moves) -> Position:
    """The position after `moves` of a game of `game_name` with `options`, each move checked on the engine; a
    400 ServiceError says what is wrong (unknown-game, bad-options, bad-moves, too-many-moves, illegal-move:
    which move and the engine's reason)."""
    game = game_named(game_name)
    options = checked_options(game, options)
    moves = checked_moves(game, options, moves)
    try:
        return Position(game, options, replay(game.name, options, moves))
    except BadLine as exc:
        raise bad_request(exc.reason, exc.error)


def from_record(record: dict, ply=None) -> tuple[str, dict, list[str], int]:
    """A match's line (its record, matches/records.py) for the board: its game, options, moves and the ply to
    show (default: the end). 409 game-in-progress for an online game under way."""
    if under_way_online(record):
        raise ServiceError(409, "game-in-progress", _l("This game is still being played online: it can be analysed "
                                                       "once it is over."))
    moves = list(record["moves"])
    return record["game"], dict(record["options"]), moves, shown_ply(ply, len(moves))


def shown_ply(ply, length: int) -> int:
    """The ply asked for (a query string's text or an int), within the line; the end when absent."""
    if ply is None or ply == "":
        return length
    try:
        value = int(ply)
    except (TypeError, ValueError):
        raise bad_request(_l("ply must be a whole number of moves."), "bad-ply")
    if not 0 <= value <= length:
        raise bad_request(_l("ply must be from 0 to %(last)d.", last=length), "bad-ply")
    return value


def changed_options(game: games.Game, options: dict) -> dict:
    """Only the options that differ from the game's defaults: what a link needs to carry."""
    defaults = game.normalise({})
    return {k: v for k, v in options.items() if defaults.get(k) != v}


def link_query(game: games.Game, options: dict, moves: list[str], ply: int) -> dict:
    """The query string of the board's address for this line (`/analysis/<game>?...`): `options` as JSON (the
    changed ones), `moves` separated by spaces (move strings may hold commas: Gamma's "3,4"), `ply` the position
    shown when it is not the end."""
    query = {}
    short = changed_options(game, options)
    if short:
        query["options"] = json.dumps(short, separators=(",", ":"), sort_keys=True)
    if moves:
        query["moves"] = " ".join(moves)
    if ply != len(moves):
        query["ply"] = str(ply)
    return query


def export(position: Position, extension: str) -> tuple[str, str, str]:
    """The line as a file: `extension` one of the game's own save formats (games/<g>: `formats`, e.g. Towers'
    .twr) or "json" (the Quadrille record, which any game imports). 404 for a format the game does not have."""
    game = position.game
    if extension == "json":
        record = {"format": RECORD_FORMAT, "format_version": 1, "game": game.name, "options": position.options,
                  "moves": position.moves}
        return f"quadrille-{game.name}-analysis.json", "application/json", json.dumps(record, indent=1)
    fmt = game.formats.get(extension)
    if fmt is None:
        raise ServiceError(404, "not-found", _l("%(game)s lines are not saved as .%(extension)s files.", game=game.title,
                                                extension=extension))
    return f"quadrille-{game.name}-analysis.{extension}", "text/plain", fmt.dump(position.line.board)
