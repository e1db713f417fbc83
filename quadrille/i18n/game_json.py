"""A game's data files in the players' languages: the words of games/<name>/words.json and tutorial.json.

The files stay as they are, in English, beside the game; their sentences are msgids of the `games` catalog,
found by `extract` (babel.cfg's `[quadrille.i18n.game_json:extract: games/*/*.json]`) and translated where the
server reads them (quadrille/catalog.py: `words(name)`, `tutorial(name)` answer in the request's language). Why
the catalogs rather than a words.pl.json beside each file: a translator then works in one kind of file, with the
same tools (Poedit, Weblate) and checks (placeholders, plurals, "untranslated" and "fuzzy") as every other
string, and a changed English sentence shows up as untranslated in each language instead of silently staying
old in five copies of the file.

Which strings are words a person reads is said by their key, below; everything else (ids, moves, options' values,
cells) is data and is never touched. A new kind of text in a data file needs its key here.
"""
from __future__ import annotations

import json

# a string under one of these keys is text ("title": "Learn Towers")
TEXT_KEYS = frozenset({
    "pitch", "order", "label", "help", "unit", "name", "about",            # words.json
    "title", "intro", "controls", "keyboard", "end", "text", "hint", "done", "caption",  # tutorial.json
})
# every string inside a mapping under one of these keys is text ("seats": {"1": "Blue", "2": "Red"})
TEXT_MAPS = frozenset({"seats", "seat_notes", "values"})


def texts(data, path=()):
    """(path, text) for every text of a data file, in the file's order."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str):
                if key in TEXT_KEYS or (path and path[-1] in TEXT_MAPS):
                    yield (*path, key), value
            else:
                yield from texts(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from texts(value, (*path, index))


def translated(data, gettext):
    """A copy of a data file with each text put through `gettext` (a missing translation stays English)."""
    def walk(value, path):
        if isinstance(value, dict):
            return {key: (gettext(item) if isinstance(item, str) and item and
                          (key in TEXT_KEYS or (path and path[-1] in TEXT_MAPS)) else walk(item, (*path, key)))
                    for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item, (*path, index)) for index, item in enumerate(value)]
        return value
    return walk(data, ())


def extract(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for a game's data file: each text, with its place in the file as a comment
    for the translator (`steps/3/hint`)."""
    raw = fileobj.read().decode("utf-8")
    data = json.loads(raw)
    for path, text in texts(data):
        if not text:
            continue
        at = raw.find(json.dumps(text, ensure_ascii=False)[1:-1])
        lineno = raw.count("\n", 0, at) + 1 if at >= 0 else 1
        yield lineno, None, text, ["/".join(str(part) for part in path)]
