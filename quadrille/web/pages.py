"""The server-rendered pages: the lobby, a match, and the embeddable match for iframes."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, g, render_template, request

import games

from ..errors import ServiceError
from ..catalog import computer_levels, describe, installed_games

bp = Blueprint("pages", __name__)


def playable(name: str) -> bool:
    """A game is playable in the browser once its renderer exists in static/games/."""
    return (Path(current_app.static_folder) / "games" / f"{name}.js").is_file()


def game_assets(name: str) -> dict:
    """A renderer's own files beside static/games/<name>.js: a stylesheet and extra scripts (e.g. three.js)."""
    static = Path(current_app.static_folder)
    css = static / "games" / f"{name}.css"
    manifest = static / "games" / f"{name}.scripts"  # one static-relative path per line, loaded before the renderer
    scripts = [line.strip() for line in manifest.read_text().splitlines() if line.strip()] if manifest.is_file() else []
    return {"css": f"games/{name}.css" if css.is_file() else None, "scripts": scripts}


def lobby_games() -> list[dict]:
    entries = []
    for game in installed_games():
        name = game.name
        entries.append({**describe(game), "playable": playable(name), "warnings": game.warnings({})})
    return sorted(entries, key=lambda g: (not g["playable"], g["title"]))


@bp.get("/")
def lobby():
    return render_template("lobby.html", games=lobby_games())


def render_match(match_id: str, embed: bool):
    service = current_app.extensions["quadrille"]
    try:
        state = service.state(match_id)
    except ServiceError:
        abort(404)
    game = games.get(state["game"])
    return render_template("match.html", state=state, game=game.to_dict(), embed=embed,
                           levels=computer_levels(state["game"]),
                           playable=playable(state["game"]), assets=game_assets(state["game"]))


@bp.get("/m/<match_id>")
def match_page(match_id):
    return render_match(match_id, embed=False)


@bp.get("/embed/<match_id>")
def embed_page(match_id):
    return render_match(match_id, embed=True)


@bp.get("/embed/new/<game_name>")
def embed_new(game_name):
    """A local (hot-seat) game inside an iframe, options from the query string.

    This page creates nothing itself: its script (static/js/embed.js) reopens the game this frame played last
    with these options, remembered in the frame's own storage (no cookie), so that a reader who reloads the
    host page finds their game where they left it; or, the first time, creates one (POST /api/matches) and
    remembers it. Bad options are refused here, at once.
    """
    if game_name not in games.names():
        abort(404)
    game = games.get(game_name)
    options = {}
    for key, value in request.args.items():
        option = game.options.get(key)
        if option is None:
            continue
        options[key] = parse_option(option, value)
    try:
        options = current_app.extensions["quadrille"].offered_options(game, options)
    except ValueError as exc:
        return render_template("error.html", reason=f"These options do not make a game: {exc}."), 400
    g.carries_token = True  # never cached: each visit decides afresh which game the frame opens
    return render_template("embed_new.html", game=game.to_dict(), options=options)


def parse_option(option, text: str):
    """Query-string text to an option value of the right type (left as text if it does not parse)."""
    if option.kind == "int":
        try:
            return int(text)
        except ValueError:
            return text
    if option.kind == "bool":
        return {"true": True, "1": True, "false": False, "0": False}.get(text.lower(), text)
    if option.kind == "list":
        return [item for item in text.split(",") if item]
    return text
