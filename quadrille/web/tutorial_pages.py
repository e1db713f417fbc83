"""The tutorials' doors (quadrille/tutorials.py): the tutorial page, and each step and try of it.

    GET  /learn/<name>                                 the tutorial page
    GET  /api/learn/<name>/steps/<k>                   step k of the tutorial: its words and position
    POST /api/learn/<name>/steps/<k>  {"move"}         a learner's try, checked against the tutorial and the engine

Nothing here stores anything: a tutorial's positions are replayed from its data file (and cached).
"""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template

import games

from .. import catalog, tutorials
from ..errors import ServiceError, bad_request
from ..i18n import _l, translated
from .http_api import json_body
from .pages import game_assets

bp = Blueprint("tutorials", __name__)

MAX_MOVE = 200  # characters of a tried move (the longest real move is a Lattice capture chain)


def taught(name: str):
    """The game of a tutorial's URL; 404 for an unknown game (and tutorial_data's for one without a tutorial)."""
    if name not in games.names():
        raise ServiceError(404, "not-found", _l("There is no such game."))
    return games.get(name)


def tutorial_data(name: str) -> dict:
    data = tutorials.tutorial(name)
    if not data.get("steps"):
        abort(404)
    return data


@bp.get("/learn/<name>")
def tutorial_page(name):
    game = taught(name)
    data = tutorial_data(name)
    first = tutorials.step(name, 0)
    outline = [{"title": s["title"], "id": s["id"]} for s in data["steps"]]
    page = {"game": name, "title": game.title, "steps": outline, "first": first, "end": data.get("end", "")}
    return render_template("tutorial.html", game=game.to_dict(), lesson=data, page=page, state=first["state"],
                           levels=[], assets=game_assets(name), words=catalog.words(name))


@bp.get("/api/learn/<name>/steps/<int:index>")
def tutorial_step(name, index):
    taught(name)
    try:
        return jsonify(tutorials.step(name, index))
    except tutorials.TutorialError:
        raise ServiceError(404, "not-found", _l("There is no such step."))


@bp.post("/api/learn/<name>/steps/<int:index>")
def tutorial_try(name, index):
    taught(name)
    move = json_body().get("move")
    if not isinstance(move, str) or not move or len(move) > MAX_MOVE:
        raise bad_request(_l("move must be a move in the game's notation."))
    try:
        verdict = tutorials.attempt(name, index, move)
        if "reason" in verdict:  # in the page's language (quadrille/i18n/words.py)
            verdict["reason"] = translated(verdict["reason"])
        return jsonify(verdict)
    except tutorials.TutorialError:
        raise ServiceError(404, "not-found", _l("There is no such step."))
