"""Pictures, lessons and rules pages: the doors of quadrille/guide.

    GET  /api/games/<name>/preview.svg?option=value…   the starting position with these options, as SVG
    GET  /learn/<name>                                 the tutorial page
    GET  /api/learn/<name>/steps/<k>                   step k of the lesson: its words and position
    POST /api/learn/<name>/steps/<k>  {"move"}         a learner's try, checked against the lesson and the engine
    GET  /rules/<name>                                 the rules page, with diagrams of positions reached by real moves

Nothing here stores anything: a lesson's positions are replayed from its data file (and cached).
"""
from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request
from markupsafe import Markup

import games

from .. import guide
from ..catalog import computer_levels
from ..errors import ServiceError, bad_request
from .http_api import json_body
from .pages import game_assets, parse_option

bp = Blueprint("learn", __name__)

MAX_MOVE = 200  # characters of a tried move (the longest real move is a Lattice capture chain)


def guided(name: str):
    if name not in guide.names():
        raise ServiceError(404, "not-found", "There is no such game.")
    return games.get(name)


@bp.get("/api/games/<name>/preview.svg")
def preview_svg(name):
    """The game's starting position with the options of the query string, within the new-game form's range."""
    game = guided(name)
    options = {}
    for key, value in request.args.items():
        option = game.options.get(key)
        if option is None or option.kind == "text":
            raise bad_request(f"unknown option {key!r}", "bad-options")
        options[key] = parse_option(option, value)
        low_high = option.form
        if low_high and isinstance(options[key], int) and not low_high[0] <= options[key] <= low_high[1]:
            raise bad_request(f"option {key!r}: from {low_high[0]} to {low_high[1]} here", "bad-options")
    try:
        svg = guide.preview(name, options)
    except ValueError as exc:
        raise bad_request(str(exc), "bad-options")
    return Response(str(svg), mimetype="image/svg+xml")  # cached on the server, per options (guide.preview)


def lesson_data(name: str) -> dict:
    data = guide.lesson(name)
    if not data.get("steps"):
        abort(404)
    return data


@bp.get("/learn/<name>")
def learn_page(name):
    game = guided(name)
    data = lesson_data(name)
    first = guide.step(name, 0)
    outline = [{"title": s["title"], "id": s["id"]} for s in data["steps"]]
    page = {"game": name, "title": game.title, "steps": outline, "first": first, "end": data.get("end", "")}
    return render_template("learn.html", game=game.to_dict(), lesson=data, page=page, state=first["state"],
                           levels=[], assets=game_assets(name), words=guide.words(name))


@bp.get("/api/learn/<name>/steps/<int:index>")
def lesson_step(name, index):
    guided(name)
    try:
        return jsonify(guide.step(name, index))
    except guide.LessonError:
        raise ServiceError(404, "not-found", "There is no such step.")


@bp.post("/api/learn/<name>/steps/<int:index>")
def lesson_try(name, index):
    guided(name)
    move = json_body().get("move")
    if not isinstance(move, str) or not move or len(move) > MAX_MOVE:
        raise bad_request("move must be a move in the game's notation.")
    try:
        return jsonify(guide.attempt(name, index, move))
    except guide.LessonError:
        raise ServiceError(404, "not-found", "There is no such step.")


def diagram(name: str, options: dict | None = None, moves=(), marks=(), legal: bool = False, caption: str = "",
            **extra):
    """For rules pages: the picture of the position after `moves` (real moves, through the engine)."""
    board = guide.position(name, options or {}, moves)
    picture = guide.picture(name, board.view(), marks=marks, legal=legal, label=caption or None, **extra)
    return Markup(render_template("diagram.html", picture=picture, caption=caption))


@bp.get("/rules/<name>")
def rules_page(name):
    game = guided(name)
    return render_template("rules.html", game=game.to_dict(), name=name, words=guide.words(name),
                           levels=computer_levels(name), has_lesson=bool(guide.lesson(name).get("steps")),
                           diagram=lambda *a, **k: diagram(name, *a, **k))
