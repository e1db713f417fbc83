"""The puzzles' doors (quadrille/puzzles/service.py): the pages and their JSON.

    GET  /puzzles[?id=<id>]                   mixed puzzles (the games in turn at random), or that puzzle first
    GET  /puzzles/<game>[?id=<id>]            one game's puzzles
    GET  /puzzles/daily                       the daily puzzle
    GET  /api/puzzles/next[?game=<g>]         the next puzzle for whoever asks (a guest sends its rating:
                                              rating, rd, volatility in the query)
    GET  /api/puzzles/daily                   the daily puzzle (the same for everyone on a UTC date)
    GET  /api/puzzles/<id>                    one puzzle, as next answers it
    POST /api/puzzles/<id>/attempt            {"moves": [...the solver's moves so far], "rating"?: a guest's}

An account is the session's or the API token's; anyone else is a guest, whose rating the browser keeps.
Attempts are budgeted per address (PUZZLE_ATTEMPT_RATE, web/rate_limits.py), a guest's rated results too
(PUZZLE_GUEST_RATED_RATE, here): past it a result is answered but rated no more.
"""
from __future__ import annotations

import logging
from datetime import datetime, timezone

from flask import Blueprint, current_app, render_template, request, jsonify

import games

from .. import catalog
from ..errors import ServiceError
from ..i18n import _l
from ..puzzles import library
from ..puzzles.theme_words import theme_names
from .clients import client_address
from .http_api import json_body
from .pages import game_assets
from .sessions import current_account

bp = Blueprint("puzzle_pages", __name__)
log = logging.getLogger("quadrille.puzzles")
GUEST_FIELDS = ("rating", "rd", "volatility")


def service():
    return current_app.extensions["quadrille.puzzles"]


def solver():
    account = current_account(required=False)
    return service().solver(account.id if account is not None else None, client_address())


def today():
    return datetime.now(timezone.utc).date()


def guest_from_query() -> dict | None:
    """A guest's rating sent in the query string (numbers, checked by the service), or None."""
    sent = {}
    for name in GUEST_FIELDS:
        if name in request.args:
            text = request.args[name]
            try:
                sent[name] = float(text)
            except ValueError:
                raise ServiceError(400, "bad-rating", _l("%(name)s must be a number.", name=name)) from None
    return sent or None


def puzzle_game(name: str) -> str:
    if name not in library.games_with_puzzles():
        raise ServiceError(404, "unknown-game", _l("There are no puzzles of that game."))
    return name


# -- JSON ---------------------------------------------------------------------------------------------------
@bp.get("/api/puzzles/next")
def next_puzzle():
    game = request.args.get("game") or None
    if game is not None:
        puzzle_game(game)
    return jsonify(service().next(solver(), game, guest_from_query()))


@bp.get("/api/puzzles/daily")
def daily_puzzle():
    return jsonify(service().daily(today()))


@bp.get("/api/puzzles/<puzzle_id>")
def one_puzzle(puzzle_id):
    return jsonify(service().served(service().puzzle(puzzle_id)))


@bp.post("/api/puzzles/<puzzle_id>/attempt")
def attempt(puzzle_id):
    body = json_body()
    return jsonify(service().attempt(puzzle_id, body.get("moves"), solver(), body.get("rating")))


# -- pages --------------------------------------------------------------------------------------------------
@bp.get("/puzzles")
def mixed_page():
    return page("mixed", None, request.args.get("id"))


@bp.get("/puzzles/daily")
def daily_page():
    return page("daily", None, None)


@bp.get("/puzzles/<name>")
def game_page(name):
    return page("game", puzzle_game(name), request.args.get("id"))


def page(mode: str, game: str | None, puzzle_id: str | None):
    """The puzzle page: the first puzzle chosen here (the one asked for, the day's, or the next for this
    solver), drawn by its game's renderer; the page's script asks for the next ones."""
    puzzles = service()
    if mode == "daily":
        first = puzzles.daily(today())
    elif puzzle_id:
        first = puzzles.served(puzzles.puzzle(puzzle_id))
        if game is not None and first["game"] != game:
            raise ServiceError(404, "unknown-puzzle", _l("There is no such puzzle of this game."))
    else:
        first = puzzles.next(solver(), game)
    first.setdefault("you", puzzles.solver_rating(solver()))
    theme_words = theme_names(first.get("themes", []))
    name = first["game"]
    shown = games.get(name)
    data = {"mode": mode, "game": game, "puzzle": first, "account": current_account(required=False) is not None,
            "titles": {g: games.get(g).title for g in library.games_with_puzzles()},
            "sides": catalog.words(name).get("seats", {})}
    return render_template("puzzles.html", data=data, game=shown.to_dict(), state=first["state"], levels=[],
                           assets=game_assets(name), page_game=games.get(game).title if game else None,
                           theme_words=theme_words)


# -- the lobby's daily puzzle tile and links (templates/lobby.html) ----------------------------------------
@bp.app_template_global("daily_puzzle")
def daily_tile() -> dict | None:
    """What the lobby's "Daily puzzle" tile says: the day's puzzle's game and rating; None without puzzles
    (or when its rating cannot be read: the lobby is drawn without the tile, never not at all)."""
    try:
        daily = service().daily_puzzle(today())
    except ServiceError:
        return None
    except Exception:
        log.exception("the daily puzzle could not be read for the lobby")
        return None
    return {"title": games.get(daily["game"]).title, "rating": round(service().current_rating(daily)["rating"]),
            "themes": theme_names(daily["themes"])}


@bp.app_template_global("puzzle_games")
def puzzle_games() -> list[str]:
    return library.games_with_puzzles()
