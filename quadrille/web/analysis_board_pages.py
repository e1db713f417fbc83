"""The analysis board's doors (quadrille/analysis_board.py): the page, each position of a line, and its export.

    GET  /analysis/<game>?options=<json>&moves=<m1+m2+...>&ply=<k>   the board on that line (options may also be
                                                                     the new-game form's fields, `size=7&...`)
    GET  /analysis/from/<match>?ply=<k>            a finished match's line (or a game on one screen, or an
                                                   imported one): redirects to the board's own address;
                                                   409 game-in-progress for an online game under way
    POST /api/analysis/board/state  {"game", "options", "moves"}     the STATE after those moves (every seat's
                                                                     moves playable), or 400 with the reason
    GET  /api/analysis/board/export?game=&options=&moves=&format=    the line as a file (the game's own format
                                                                     where it has one, else `json`)

Nothing is kept on the server: the page sends the whole line each time. The evaluation is another door's
(`POST /api/analysis/position`, run on the computer workers). Budgets: web/rate_limits.py (ANALYSIS_BOARD_RATE).
"""
from __future__ import annotations

import json
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

from .. import analysis_board, catalog
from ..errors import bad_request
from ..i18n import _l
from .http_api import json_body, service
from .pages import game_assets, parse_option

bp = Blueprint("analysis_board", __name__)

RESERVED = ("options", "moves", "ply", "format", "game", "lang")  # query fields that are not a game's option (lang: the page's language)


def query_options(game) -> dict:
    """The options of a board's address: `options` as a JSON object, or the new-game form's fields one by one."""
    text = request.args.get("options")
    if text is not None:
        try:
            options = json.loads(text)
        except ValueError:
            raise bad_request(_l("options must be a JSON object, e.g. {\"size\": 7}."), "bad-options")
        return options
    options = {}
    for key, value in request.args.items():
        if key in RESERVED:
            continue
        option = game.options.get(key)
        if option is None:
            raise bad_request(_l("unknown option '%(key)s'", key=key), "bad-options")
        options[key] = parse_option(option, value)
    return options


def query_moves() -> list[str]:
    """The moves of a board's address: the engine's move strings separated by spaces (a move string may hold
    commas, Gamma's "3,4", never a space)."""
    return request.args.get("moves", "").split()


def query_position(name) -> analysis_board.Position:
    game = analysis_board.game_named(name)
    return analysis_board.checked(game.name, query_options(game), query_moves())


@bp.get("/analysis/<game>")
def board_page(game):
    position = query_position(game)
    ply = analysis_board.shown_ply(request.args.get("ply"), len(position.moves))
    line_state = position.state()
    shown = line_state if ply == len(position.moves) else analysis_board.checked(
        game, position.options, position.moves[:ply]).state()
    name = position.game.name
    page = {"game": name, "title": position.game.title, "options": position.options,
            "link_options": analysis_board.changed_options(position.game, position.options),
            "line": position.moves, "ply": ply, "line_state": line_state, "state": shown,
            "formats": sorted(position.game.formats)}
    return render_template("analysis_board.html", game=position.game.to_dict(), page=page, state=shown,
                           assets=game_assets(name), words=catalog.words(name))


@bp.get("/analysis/from/<match_id>")
def board_from_match(match_id):
    record = service().record(match_id)
    game, options, moves, ply = analysis_board.from_record(record, request.args.get("ply"))
    position = analysis_board.checked(game, options, moves)
    query = analysis_board.link_query(position.game, position.options, position.moves, ply)
    return redirect(url_for("analysis_board.board_page", game=game) + ("?" + urlencode(query) if query else ""))


@bp.post("/api/analysis/board/state")
def board_state():
    body = json_body()
    position = analysis_board.checked(body.get("game"), body.get("options"), body.get("moves"))
    return jsonify(position.state())


@bp.get("/api/analysis/board/export")
def board_export():
    position = query_position(request.args.get("game"))
    filename, mimetype, text = analysis_board.export(position, request.args.get("format", "json"))
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
