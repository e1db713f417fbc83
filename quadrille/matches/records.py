"""Records: a match exported (the JSON record, a game's own save file) and imported as a new match, and a
position along its line (stepping through a game).

    record(core, match_id)                         # the JSON record (format RECORD_FORMAT)
    import_record(core, record, mode, player)      # a new match continuing from a record
    export_file(core, match_id, extension) / import_file(core, extension, text, mode, player)
    position(core, match_id, ply)
"""
from __future__ import annotations

import games
from games import IllegalMove
from games.reasons import reason_of

from ..errors import ServiceError, bad_request
from ..i18n import _l
from . import seating
from .core import MatchCore
from .inputs import integer
from .state import seat_entry

RECORD_FORMAT = "quadrille-record"


def record(core: MatchCore, match_id) -> dict:
    match = core.load(match_id)
    with match.lock:
        row = match.row
        return {
            "format": RECORD_FORMAT, "format_version": 1,
            "match": row.id, "game": row.game, "options": dict(row.options), "mode": row.mode,
            "name": row.name, "created": row.created,
            "moves": list(match.board.moves), "outcome": match.outcome(), "version": match.version,
            "seats": [{k: v for k, v in seat_entry(match, s).items() if k != "taken"} for s in row.seats],
            "events": [{"seq": e.seq, "kind": e.kind, "seat": e.seat, "at": e.at, **e.data} for e in row.events],
        }


def import_record(core: MatchCore, record, mode="local", player=None) -> dict:
    """A new match that continues from an exported record (its game, options and moves)."""
    if not isinstance(record, dict):
        raise bad_request(_l("A record must be a JSON object with game, options and moves."), "bad-record")
    moves = record.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise bad_request(_l("moves must be a list of strings."), "bad-record")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise bad_request(_l("This is not a %(format)s file.", format=RECORD_FORMAT), "bad-record")
    try:
        return seating.create(core, record.get("game"), record.get("options") or {}, mode, player=player,
                              moves=moves, imported=True)
    except ServiceError as exc:
        if exc.error in ("bad-options", "unknown-game"):
            raise bad_request(exc.reason, "bad-record")
        raise


def _format(extension) -> tuple[games.Game, object]:
    for name in games.names():
        game = games.get(name)
        if extension in game.formats:
            return game, game.formats[extension]
    known = sorted(ext for name in games.names() for ext in games.get(name).formats)
    raise bad_request(_l("Files of this kind cannot be imported; known kinds: %(kinds)s.",
                         kinds=", ".join([".json", *("." + ext for ext in known)])),
                      "bad-record")


def import_file(core: MatchCore, extension, text, mode="local", player=None) -> dict:
    """A new match from a game's own save file (e.g. Lattice's .ltc, Towers' .twr)."""
    game, fmt = _format(extension)
    if not isinstance(text, str) or not text.strip():
        raise bad_request(_l("The file is empty."), "bad-record")
    try:
        board = fmt.load(text)
    except (ValueError, IllegalMove, KeyError, IndexError, RecursionError) as exc:
        raise bad_request(_l("This .%(extension)s file cannot be read: %(exc)s",
                             extension=extension, exc=exc.reason if isinstance(exc, IllegalMove) else reason_of(exc)),
                          "bad-record")
    return seating.create(core, game.name, dict(board.options), mode, player=player, moves=list(board.moves),
                          imported=True)


def export_file(core: MatchCore, match_id, extension) -> str:
    match = core.load(match_id)
    fmt = games.get(match.row.game).formats.get(extension)
    if fmt is None:
        raise ServiceError(404, "not-found", _l("%(game)s matches are not saved as .%(extension)s files.",
                                                game=match.row.game, extension=extension))
    with match.lock:
        return fmt.dump(match.board)


def position(core: MatchCore, match_id, ply) -> dict:
    """The position after `ply` moves of the current line: for stepping through a game (positions.py: from the
    nearest board kept along the line, never a replay from the start)."""
    match = core.load(match_id)
    ply = integer(ply, "ply", optional=False)
    with match.lock:
        moves = list(match.board.moves)
        options, line = dict(match.row.options), (match.id, match.line)
    if not 0 <= ply <= len(moves):
        raise bad_request(_l("ply must be from 0 to %(last)d.", last=len(moves)))
    board = core.positions.board_at(line, match.row.game, options, moves, ply)
    return {"match": match.id, "ply": ply, "plies": len(moves), "view": board.view(),
            "turn": board.turn, "moves": moves[:ply]}
