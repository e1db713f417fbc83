"""The games' own words and the pages' JavaScript in every language (docs/translating.md, *The games' own words*).

Each game's lobby words, lesson steps, rules page, help and board have every sentence translated in each shipped
language's `games` catalog with the English sentence's structure kept: its placeholders, its HTML tags and its
numbers (cell names such as Dd1 and counts such as "2 areas" are the lesson's facts, never the translator's to
change). Every string the JavaScript marks is in each language's `js` catalog, every plural form written. And a
page asked for a language shows it: a lesson's step and hint, a rules page, the notation's words and the seats'
colours (a test each for the tables the JavaScript keeps).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

import games
from games import notation
from quadrille.i18n import catalogs, game_json
from quadrille.i18n.languages import DEFAULT, SHIPPED

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in SHIPPED if lang != DEFAULT]
GAMES = [name for name in games.names() if (games.folder(name) / "tutorial.json").is_file()]


@lru_cache(maxsize=None)
def templates():
    return catalogs.extract(ROOT)


@lru_cache(maxsize=None)
def translations(lang: str, domain: str) -> dict:
    return {m.id: m for m in catalogs.read(lang, domain) if m.id}


def structure(text: str, placeholders: str) -> tuple:
    """What a translation keeps of a sentence: placeholders, HTML tags and numbers (1, 6×6, Dd1's 1)."""
    return (sorted(re.findall(placeholders, text)), sorted(re.findall(r"<[^>]+>", text)),
            sorted(re.findall(r"\d+", text)))


def forms(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


def _checked(lang: str, domain: str, wanted: list, placeholders: str) -> list[str]:
    said = translations(lang, domain)
    problems = []
    for msgid in wanted:
        message = said.get(msgid)
        english = msgid if isinstance(msgid, str) else msgid[0]
        if message is None:
            problems.append(f"missing: {english[:70]!r}")
            continue
        if message.fuzzy or not all(forms(message)):
            problems.append(f"untranslated or fuzzy: {english[:70]!r}")
            continue
        english_forms = msgid if isinstance(msgid, tuple) else (msgid,)
        for text in forms(message):
            # a plural form may drop the count a language says in words ("one seat"), never add or change one
            theirs, ours = structure(text, placeholders), structure(english_forms[-1], placeholders)
            if theirs[1] != ours[1] or not set(theirs[0]) <= set(ours[0]) \
                    or (not isinstance(msgid, tuple) and (theirs[0], theirs[2]) != (ours[0], ours[2])):
                problems.append(f"changed placeholders, tags or numbers: {english[:60]!r} -> {text[:60]!r}")
    return problems


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_word_of_the_games_is_translated_with_its_structure(lang):
    """words.json, tutorial.json (every step of every lesson), rules.html, help.html, board.html, the colours."""
    wanted = [m.id for m in templates()["games"] if m.id]
    for name in GAMES:
        for kind in ("words", "tutorial"):
            data = json.loads((games.folder(name) / f"{kind}.json").read_text(encoding="utf-8"))
            wanted += [text for _, text in game_json.texts(data) if text]
    assert not _checked(lang, "games", list(dict.fromkeys(wanted)), r"%\(\w+\)[sd]")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_the_javascript_marks_is_in_the_js_catalog(lang):
    wanted = [m.id for m in templates()["js"] if m.id]
    assert len(wanted) > 300  # the match page, the lobby, the lessons and the four renderers
    assert not _checked(lang, "js", wanted, r"\{\w+\}")


def test_a_lesson_speaks_the_language_asked_for(client):
    step = client.get("/api/learn/towers/steps/0?lang=de").get_json()
    assert step["title"] == "Zugpunkte und ein gesperrter Meister" and "1 Feld × 1 Stein = 1 Punkt" in step["text"]
    assert step["state"]["moves"] == [] and step["marks"]  # the moves and marks are the English lesson's
    tried = client.post("/api/learn/towers/steps/0?lang=pl", json={"move": "m0,4>0,3:1"}).get_json()
    assert tried["verdict"] == "other" and tried["hint"].startswith("Przeciągnij pionek z kolumny 4")


def test_a_rules_page_speaks_the_language_asked_for(client):
    page = client.get("/rules/gamma?lang=pl").get_data(as_text=True)
    assert '<html lang="pl"' in page
    assert "Złoty ruch" in page and "Nikt nie może się już ruszyć: A ma 13 pól, B 12, i A wygrywa." in page
    assert "The golden move" not in page and page.count("<figure") == 3  # the same diagrams, drawn by the engine
    german = client.get("/rules/towers?lang=de").get_data(as_text=True)
    assert "<b>Meister</b>" in german and "Jeder Meister beginnt in der rechten hinteren Ecke" in german


def _js(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def test_the_page_translates_every_word_the_notation_makes():
    """games/notation.py names moves in English words ("c11 tower", "import 1"); static/js/board/grid.js turns
    each of its patterns into the page's language: every word a game's notation can make has its pattern."""
    patterns = [re.compile(js.replace("\\\\", "\\")) for js in re.findall(r"\[/(\^[^/]+\$)/,", _js("static/js/board/grid.js"))]
    made = [notation.towers_name("i2", 6), notation.towers_name("end", 6), notation.lattice_name("+Ab1"),
            notation.gamma_name("g2,3"), notation.gamma_name("skip"),
            *notation.trails_names(_trails_board_with_a_tower_taken())]
    worded = [name for name in made if re.search(r"[a-z]{3,}", name)]
    assert len(worded) == 6 and all(any(p.fullmatch(name) for p in patterns) for name in worded), worded
    ids = {m.id for m in templates()["js"]}
    assert {"{cell} tower", "import {count}", "end", "return {node}", "{cell} golden", "skip"} <= ids


def _trails_board_with_a_tower_taken():
    board = games.get("trails").new(size=7)
    for move in ["down", "up", "down", "up", "right", "left", "right"]:
        board.push(move)
    assert any(took for _, _, took in board.targets())
    return board


def test_the_page_names_every_seat_colour_the_engines_use():
    from games.gamma import COLOUR_NAMES
    from games.lattice.board import COLORS
    table = re.search(r"const COLOURS = \{(.*?)\};", _js("static/js/board/grid.js"), re.S).group(1)
    named = set(re.findall(r"(\w+): I18n\.t\(\"(\w+)\"\)", table))
    assert all(key == word for key, word in named)
    assert set(COLOUR_NAMES) | {c.capitalize() for c in COLORS} <= {key for key, _ in named}
