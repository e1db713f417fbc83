"""The narrative part of the documentation site that scripts/docs.py builds: a front page that is a guide for a
game's author (docs/engine.md: the contract, with its examples), then a page per game (what the lobby says of
it, its section of docs/games.md, its engine's own words, its modules), and only then pdoc's reference of every
module, whose flat list moves from index.html to modules.html.

The pages are drawn with pdoc's own Jinja environment, frame and styles (scripts/docs_templates/guide.html.jinja2),
so that the guide and the reference read as one site, and their Markdown is rendered by pdoc's own renderer.
"""
from __future__ import annotations

import html
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_HEADING = re.compile(r"^## (?P<title>.+) \(`(?P<name>[a-z0-9_]+)`\)\s*$", re.M)


@dataclass
class GamePage:
    name: str
    title: str
    summary: str
    rules_for_programs: str   # the game's section of docs/games.md (Markdown)
    engine_words: str         # the docstring of the game's package (Markdown)
    modules: list[str]        # the game's modules that have a reference page


def games_md_sections(text: str) -> dict[str, str]:
    """Each game's section of docs/games.md (`## Title (`name`)` up to the next `## `), by the game's name."""
    sections = {}
    for match in GAME_HEADING.finditer(text):
        following = text.find("\n## ", match.end())
        sections[match["name"]] = text[match.end():following if following != -1 else len(text)].strip()
    return sections


def game_pages(documented: list[str]) -> list[GamePage]:
    """One page for each of Quadrille's games, in the lobby's order."""
    import games

    sections = games_md_sections((ROOT / "docs" / "games.md").read_text(encoding="utf-8"))
    pages = []
    for name in games.listed():
        game = games.get(name)
        package = games.package(name)
        pages.append(GamePage(
            name=name, title=game.title, summary=game.summary, rules_for_programs=sections.get(name, ""),
            engine_words=importlib.import_module(package).__doc__ or "",
            modules=[module for module in documented if module == package or module.startswith(package + ".")]))
    return pages


def module_link(root: str, module: str) -> str:
    return f'<a href="{root}{module.replace(".", "/")}.html"><code>{html.escape(module)}</code></a>'


def front_page(pages: list[GamePage]) -> str:
    """The guide: the engine contract, then the games, then where the reference is."""
    from pdoc.render_helpers import to_html

    contract = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    games_list = "".join(
        f'<li><a href="guide/{page.name}.html">{html.escape(page.title)}</a> (<code>{page.name}</code>): '
        f"{html.escape(page.summary)}</li>" for page in pages)
    reference = ("<li>The contract: " + module_link("", "games") + ", " + module_link("", "games.base") + "</li>"
                 "<li>The server's services: " + module_link("", "quadrille") + " (the match service, clocks, "
                 "storage, timers, presence, the computer)</li>"
                 '<li><a href="modules.html">Every module</a>, with a search box</li>')
    return (str(to_html(contract))
            + '<h2 id="the-games">The games</h2><p>A page for each game: its rules as the lobby says them, its '
              "options, moves, endings and files, its engine's own notes, and its modules.</p>"
            + f"<ul>{games_list}</ul>"
            + '<h2 id="reference">Reference</h2><p>Every module\'s docstrings, as pdoc reads them:</p>'
            + f"<ul>{reference}</ul>")


def game_page(page: GamePage) -> str:
    from pdoc.render_helpers import to_html

    modules = "".join(f"<li>{module_link('../', module)}</li>" for module in page.modules)
    return (f"<h1>{html.escape(page.title)} (<code>{page.name}</code>)</h1>"
            f"<p>{html.escape(page.summary)}</p>"
            '<h2 id="for-programs">Options, moves and endings</h2>' + str(to_html(page.rules_for_programs))
            + '<h2 id="the-engine">The engine</h2>' + str(to_html(page.engine_words))
            + f'<h2 id="modules">Its modules</h2><ul>{modules}</ul>'
            + '<p><a href="../index.html">Back to the engine contract</a></p>')


def write(output: Path, documented: list[str]) -> None:
    """Move pdoc's module list to modules.html; write the guide's front page and its game pages."""
    import pdoc.render
    from pdoc.render_helpers import to_html

    (output / "index.html").replace(output / "modules.html")
    template = pdoc.render.env.get_template("guide.html.jinja2")
    pages = game_pages(documented)
    shown = [{"name": page.name, "title": page.title} for page in pages]
    toc = (to_html((ROOT / "docs" / "engine.md").read_text(encoding="utf-8")).toc_html
           + '<ul><li><a href="#the-games">The games</a></li><li><a href="#reference">Reference</a></li></ul>')
    (output / "index.html").write_text(template.render(
        title="Quadrille: the engine guide", root="", games=shown, toc=toc, body=front_page(pages)),
        encoding="utf-8")
    (output / "guide").mkdir(exist_ok=True)
    for page in pages:
        (output / "guide" / f"{page.name}.html").write_text(template.render(
            title=f"{page.title}: Quadrille's engine guide", root="../", games=shown, toc=None,
            body=game_page(page)), encoding="utf-8")
