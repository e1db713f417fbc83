"""The rules pages and the pictures of positions they and the new-game dialog show (quadrille/pictures.py).

    GET  /api/games/<name>/preview.svg?option=value…   the starting position with these options, as SVG
    GET  /rules/<name>                                 the rules page, with diagrams of positions reached by real moves
"""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request
from markupsafe import Markup

import games
from games.reasons import reason_of

from .. import catalog, pictures, tutorials
from ..catalog import computer_levels
from ..errors import ServiceError, bad_request
from ..i18n import _l
from .pages import parse_option

bp = Blueprint("rules", __name__)


def drawn(name: str):
    """The game of a picture's or rules page's URL; 404 for a game that draws no pictures."""
    if name not in pictures.names():
        raise ServiceError(404, "not-found", _l("There is no such game."))
    return games.get(name)


@bp.get("/api/games/<name>/preview.svg")
def preview_svg(name):
    """The game's starting position with the options of the query string, within the new-game form's range."""
    game = drawn(name)
    options = {}
    for key, value in request.args.items():
        if key == "lang":  # the language of the words (quadrille/i18n/web.py), not an option
            continue
        option = game.options.get(key)
        if option is None or option.kind == "text":
            raise bad_request(_l("unknown option '%(key)s'", key=key), "bad-options")
        options[key] = parse_option(option, value)
        low_high = option.form
        if low_high and isinstance(options[key], int) and not low_high[0] <= options[key] <= low_high[1]:
            raise bad_request(_l("option '%(key)s': from %(low)s to %(high)s here",
                                 key=key, low=low_high[0], high=low_high[1]), "bad-options")
    try:
        svg = pictures.preview(name, options)
    except ValueError as exc:
        raise bad_request(reason_of(exc), "bad-options")
    return Response(str(svg), mimetype="image/svg+xml")  # cached on the server, per options (pictures.preview)


def diagram(name: str, options: dict | None = None, moves=(), marks=(), legal: bool = False, caption: str = "",
            **extra):
    """For rules pages: the picture of the position after `moves` (real moves, through the engine)."""
    board = pictures.position(name, options or {}, moves)
    picture = pictures.picture(name, board.view(), marks=marks, legal=legal, label=caption or None, **extra)
    return Markup(render_template("diagram.html", picture=picture, caption=caption))


@bp.get("/rules/<name>")
def rules_page(name):
    game = drawn(name)
    if not (catalog.template_folder(name) / "rules.html").is_file():
        raise ServiceError(404, "not-found", _l("This game has no rules page."))
    return render_template("rules.html", game=game.to_dict(), name=name, words=catalog.words(name),
                           levels=computer_levels(name), has_lesson=name in tutorials.names(),
                           diagram=lambda *a, **k: diagram(name, *a, **k))
