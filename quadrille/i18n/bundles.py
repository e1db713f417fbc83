"""The browser's catalogs, a few per language: a page loads only the words of the scripts it loads (issue 27: a
language adds a few KB to a first visit, not the 10 KB of every script's words; docs/translating.md, *Page
weight*). catalogs.py builds static/i18n/<lang>/<bundle>.js for each bundle below; web.py picks a page's. The scripts fall into groups: `common` (the header, dialogs, names, files: on
many pages), `pages` (the lobby, my games, the account, the players' pages), `board` (the board layer and the
move list), `match` (the match page), `study` (lessons, puzzles, the analysis board) and each game's renderer
(games/<g>/static/). A page's bundle is the first of `common`, `site`, `match`, `study`, `match-<game>`,
`study-<game>` that holds the groups of its scripts (web.py reads them from the rendered page), or else `all`.
Each js.po entry goes in the bundles of the files its `#:` lines name: every `I18n.t("...")` is written out in the
file that says it, so a page's scripts always find their words.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
GROUPS = (
    ("pages", re.compile(r"js/(lobby|new-game|my-games|account|players)$")),
    ("board", re.compile(r"js/(board/[^/]*|motion|match-moves)$")),
    ("match", re.compile(r"js/(match[^/]*|analysis-graph)$")),
    ("study", re.compile(r"js/(tutorial|puzzle|analysis-board)$")),
)
PAGE_KINDS = ("match", "study")


def script_group(name: str) -> str:
    """The group of a script by its static name (`js/lobby.js`, `js/board/grid.js`, `games/lattice-flat.js`)."""
    name = name.removesuffix(".js")
    if name.startswith("games/"):
        return name[len("games/"):].split("/")[0].split("-")[0]
    return next((group for group, pattern in GROUPS if pattern.match(name)), "common")


def served_name(location: str) -> str:
    """A source file's static name: static/js/x.js -> js/x.js, games/<g>/static/x.js -> games/x.js."""
    parts = location.split("/")
    if parts[0] == "games" and len(parts) > 3 and parts[2] == "static":
        return "games/" + "/".join(parts[3:])
    return location.removeprefix("static/")


@lru_cache(maxsize=1)
def game_groups() -> tuple[str, ...]:
    """The games with scripts of their own (games/<g>/static/*.js): read once, they do not change while serving."""
    return tuple(sorted({p.parent.parent.name for p in (ROOT / "games").glob("*/static/*.js")}))


def bundles() -> dict[str, set[str] | None]:
    """Each bundle of the browser's catalog and the script groups it holds (None: all of them)."""
    found: dict[str, set[str] | None] = {"common": {"common"}, "site": {"common", "pages"}}
    for kind in PAGE_KINDS:
        found[kind] = {"common", "board", kind}
    for kind in PAGE_KINDS:
        for game in game_groups():
            found[f"{kind}-{game}"] = {"common", "board", kind, game}
    found["all"] = None
    return found


def bundle_for(scripts) -> str:
    """The first bundle that holds the words of these scripts (static names)."""
    groups = {script_group(name) for name in scripts} | {"common"}
    return next(name for name, holds in bundles().items() if holds is None or groups <= holds)
