"""Each game's renderer and templates, served from its own package (docs/new-game.md).

- **Static files**: the files of `games/<name>/static/` are the site's `games/<file>`: `games/trails/static/
  trails.js` is `/static/games/trails.<hash>.js`, named by its content and precompressed with every other static
  file (web/assets.py mounts each game's folder under `games/`; a name two games share is refused at start-up).
- **Templates**: `games/<name>/<file>` (the match page's `games/trails/board.html`, the rules page's
  `games/trails/rules.html`) is `games/<name>/templates/<file>`, through the Jinja loader below.

Why not a Flask Blueprint per game, with its own static_folder and template_folder: a blueprint's static files
would be served by a view of its own, beside the content-hashed, precompressed `static` endpoint that the HTTP
budgets exempt by name, and every blueprint's template folder joins one flat namespace, where the four games'
`board.html` would shadow each other. The games' folders are found from the registry (games.folder), so an
engine never imports Flask and a game added by games.register is served like Quadrille's own.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader, TemplateNotFound

import games

from .. import catalog

PREFIX = "games"  # a game's files are static/games/<file> and templates games/<name>/<file>


def static_mounts() -> list[tuple[str, Path]]:
    """(prefix, folder) for every game's static folder: what web/assets.py serves beside static/."""
    return [(f"{PREFIX}/", folder) for name in games.listed() if (folder := catalog.static_folder(name)).is_dir()]


class GameTemplates(BaseLoader):
    """`<name>/<file>` -> games/<name>/templates/<file> (behind the `games/` prefix)."""

    def get_source(self, environment, template):
        name, _, rest = template.partition("/")
        if name not in games.names() or not rest:
            raise TemplateNotFound(template)
        return FileSystemLoader(str(catalog.template_folder(name))).get_source(environment, rest)

    def list_templates(self):
        found = []
        for name in games.names():
            folder = catalog.template_folder(name)
            found += [f"{name}/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*.html")]
        return sorted(found)


def install(app: Flask) -> None:
    """The site's templates/ first, then each game's own."""
    app.jinja_loader = ChoiceLoader([app.jinja_loader, PrefixLoader({PREFIX: GameTemplates()})])
