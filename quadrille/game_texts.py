"""A game's own words in a player's language: its lobby words, its lesson and its rules (docs/translating.md,
*The games' own words*).

English is the source and lives where it always did (games/<name>/words.json, tutorial.json, templates/
rules.html and help.html). Each other language is a file beside it holding the words alone, nested as the
English file is, with the lists of steps and presets keyed by their `id`:

    games/<name>/words.de.json      {"pitch": ..., "options": {"size": {"label": ...}}, "presets": {"quick": {...}}}
    games/<name>/tutorial.de.json   {"title": ..., "steps": {"master-lock": {"title", "text", "hint", "done"}}}
    games/<name>/templates/rules.de.html, help.de.html

`localised(english, kind, translation)` lays a translation over the English data: moves, marks and options stay
the English file's, so a translator never copies a move. `text_fields(data, kind)` names every string a
translator writes (the tests hold each language to the same fields and placeholders). Pure but for
`language()`, which asks the request.
"""
from __future__ import annotations

import re

SOURCE = "en"
LANGUAGES = ("en", "de", "pl", "fr", "es", "ru")  # the order translations were written in, after the source

# The words of each kind of file, as paths: "*" is any key (an option, a seat, a value), "[]" a list of
# dicts keyed by "id" (presets, steps).
TEXT_PATHS = {
    "words": ("pitch", "order", "seats.*", "seat_notes.*", "options.*.label", "options.*.help", "options.*.unit",
              "options.*.values.*", "presets.[].name", "presets.[].about"),
    "tutorial": ("title", "intro", "controls", "keyboard", "end", "steps.[].title", "steps.[].text",
                 "steps.[].hint", "steps.[].done"),
}

TEXT_PATHS_OF_STEP = ("title", "text", "hint", "done")  # a lesson step's words; the rest of a step is data

PLACEHOLDER = re.compile(r"\{[a-z_]+\}|\d+(?:[×x,.]\d+)*")  # {name}s, and the numbers a sentence must keep


def language() -> str:
    """The language of the request being served ("en" outside one, or before the site chose one)."""
    try:
        from flask import has_request_context
        from flask_babel import get_locale
    except ImportError:
        return SOURCE
    if not has_request_context():
        return SOURCE
    try:
        locale = get_locale()
    except (KeyError, RuntimeError, AttributeError):  # Flask-Babel not set up on this app
        return SOURCE
    return locale.language if locale is not None and locale.language in LANGUAGES else SOURCE


def _walk(data, parts: list[str], prefix: tuple):
    if not parts:
        if isinstance(data, str):
            yield prefix, data
        return
    head, rest = parts[0], parts[1:]
    if head == "[]":
        for item in data if isinstance(data, list) else ():
            if isinstance(item, dict) and "id" in item:
                yield from _walk(item, rest, prefix + (item["id"],))
    elif head == "*":
        for key, value in (data.items() if isinstance(data, dict) else ()):
            yield from _walk(value, rest, prefix + (key,))
    elif isinstance(data, dict) and head in data:
        yield from _walk(data[head], rest, prefix + (head,))


def text_fields(data: dict, kind: str) -> dict[tuple, str]:
    """Every string a translator writes in a file of `kind` ("words", "tutorial"), by its path (ids for list
    items): {("steps", "master-lock", "text"): "Each turn ..."}. Works on the English file and on a translation
    alike, as both nest the same way once lists are keyed by id."""
    keyed = _keyed(data)
    found = {}
    for path in TEXT_PATHS[kind]:
        parts = path.replace("[]", "*").split(".")
        found.update(dict(_walk(keyed, parts, ())))
    return found


def _keyed(data):
    """The data with its lists of dicts that have ids turned into dicts by id (a translation's shape)."""
    if isinstance(data, dict):
        return {key: _keyed(value) for key, value in data.items()}
    if isinstance(data, list) and data and all(isinstance(item, dict) and "id" in item for item in data):
        return {item["id"]: _keyed(item) for item in data}
    return data


def localised(english: dict, kind: str, translation: dict | None) -> dict:
    """The English data with each of its words replaced by the translation's, where it has one."""
    if not translation:
        return english
    said = text_fields(translation, kind)
    return _replaced(english, (), {path: text for path, text in said.items()
                                   if path in text_fields(english, kind)})


def _replaced(data, path: tuple, said: dict):
    if isinstance(data, dict):
        return {key: _replaced(value, path + (key,), said) for key, value in data.items()}
    if isinstance(data, list):
        return [_replaced(item, path + (item["id"],) if isinstance(item, dict) and "id" in item else path + (k,),
                          said) for k, item in enumerate(data)]
    return said.get(path, data) if isinstance(data, str) else data


def placeholders(text: str) -> list[str]:
    """What a translation must keep of a sentence: its {name} placeholders and its numbers, sorted."""
    return sorted(PLACEHOLDER.findall(text))
