"""The server-rendered pages: the lobby, a match, and the embeddable match for iframes."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, g, render_template, request

import games
from games.notation import cell_name, file_name

from ..i18n import _l, translated
from .. import catalog, pictures, tutorials
from ..errors import ServiceError
from ..catalog import describe, installed_games, level_words

bp = Blueprint("pages", __name__)
# The boards' templates name cells as the move list does (STATE's move_names) and draw those coordinates.
bp.add_app_template_global(cell_name, "cell_name")
bp.add_app_template_global(file_name, "file_name")


def playable(name: str) -> bool:
    """A game is playable in the browser once its renderer exists: games/<name>/static/<name>.js, served as
    games/<name>.js (web/game_files.py)."""
    return (catalog.static_folder(name) / f"{name}.js").is_file()


def game_assets(name: str) -> dict:
    """A renderer's own files beside its <name>.js: a stylesheet and extra scripts (e.g. three.js)."""
    static = catalog.static_folder(name)
    css = static / f"{name}.css"
    manifest = static / f"{name}.scripts"  # one static-relative path per line, loaded before the renderer
    scripts = [line.strip() for line in manifest.read_text().splitlines() if line.strip()] if manifest.is_file() else []
    return {"css": f"games/{name}.css" if css.is_file() else None, "scripts": scripts}


def option_fields(game, words: dict) -> list[dict]:
    """The new-game options as the dialog shows them: a label and a sentence in player words, the range the
    server offers, and whether the option is folded away under "More options"."""
    said = words.get("options", {})
    advanced = set(words.get("advanced", ()))
    fields = []
    for name, opt in game.options.items():
        if opt.kind == "text":
            continue  # set only by an imported save file
        w = said.get(name, {})
        low, high = (opt.form or opt.range or (None, None))
        values = w.get("values", {})
        choices = [{"value": c, "label": values.get(str(c), str(c).replace("-", " ").capitalize())}
                   for c in (opt.choices or ())]
        fields.append({"name": name, "kind": opt.kind, "label": w.get("label", opt.help or name),
                       "help": w.get("help", ""), "default": opt.default, "min": low, "max": high,
                       "choices": choices, "advanced": name in advanced,
                       "numeric": all(isinstance(c, int) for c in (opt.choices or ("x",)))})
    return fields


def presets(game, words: dict) -> list[dict]:
    """Named presets, each with every option filled in (the engine's defaults for the rest)."""
    found = []
    for p in words.get("presets", ()):
        try:
            options = game.normalise(p["options"])
        except ValueError:
            continue  # a preset the engine refuses is left out (tests/platform/test_lobby.py catches it)
        found.append({**p, "options": {k: v for k, v in options.items() if game.options[k].kind != "text"}})
    return found


def lobby_games() -> list[dict]:
    entries = []
    for game in installed_games():
        name = game.name
        entry = {**describe(game), "playable": playable(name), "warnings": game.warnings({})}
        if name in pictures.names():
            words = catalog.words(name)
            found = presets(game, words)
            entry.update(words=words, pitch=words.get("pitch", ""), picture=pictures.tile_picture(name),
                         start_picture=pictures.preview(name, found[0]["options"] if found else {}),
                         fields=option_fields(game, words), presets=found,
                         has_lesson=name in tutorials.names(),
                         level_words=level_words(name))
        else:
            entry.update(words={}, pitch=game.summary, picture=None, start_picture=None, fields=[], presets=[],
                         has_lesson=False, level_words=[])
        entries.append(entry)
    return sorted(entries, key=lambda g: not g["playable"])  # stable: the registry's order (games.listed)


def dialog_data(entries: list[dict]) -> dict:
    """What the new-game dialog's script needs of each playable game (templates/new_game_dialog.html)."""
    return {g["name"]: {"title": g["title"], "seats": g["seats"],
                        "presets": [{"id": p["id"], "options": p["options"]} for p in g["presets"]]}
            for g in entries if g["playable"]}


@bp.get("/")
def lobby():
    entries = lobby_games()
    return render_template("lobby.html", games=entries, games_data=dialog_data(entries))


def render_match(match_id: str, embed: bool):
    service = current_app.extensions["quadrille"]
    try:
        state = service.state(match_id)
    except ServiceError:
        abort(404)
    game = games.get(state["game"])
    return render_template("match.html", state=state, game=game.to_dict(), embed=embed,
                           levels=level_words(state["game"]),
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
        return render_template("error.html", reason=translated(_l("These options do not make a game: %(why)s.",
                                                                        why=str(exc)))), 400
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
