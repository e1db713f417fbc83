"""The games' own words in every language (quadrille/game_texts.py, docs/translating.md): each game's lobby
words, lesson and rules page exist in every language with the English file's structure (the same steps,
presets and options, the same placeholders and numbers, the same diagrams in the same order), and nothing a
player reads was left in English."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import games
from quadrille import catalog, game_texts

TRANSLATED = game_texts.LANGUAGES[1:]
GAMES = [name for name in games.names() if (games.folder(name) / "tutorial.json").is_file()]
KINDS = ("words", "tutorial")
SAME_IN_EVERY_LANGUAGE = 2  # words: a string this short may stay as it is ("Gamma", "Quick 6×6" in a language that says so)


def english(name: str, kind: str) -> dict:
    return json.loads((games.folder(name) / f"{kind}.json").read_text(encoding="utf-8"))


def translation(name: str, kind: str, language: str) -> dict:
    path = games.folder(name) / f"{kind}.{language}.json"
    assert path.is_file(), f"{path} is missing: every game's {kind} is translated into {language}"
    return json.loads(path.read_text(encoding="utf-8"))


def untranslated(source: str, text: str) -> bool:
    """A sentence of several words left exactly as the English has it."""
    return text.strip() == source.strip() and len(source.split()) > SAME_IN_EVERY_LANGUAGE


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", GAMES)
def test_each_game_file_has_every_field_in_every_language(name, kind, language):
    source = game_texts.text_fields(english(name, kind), kind)
    said = game_texts.text_fields(translation(name, kind, language), kind)
    assert sorted(said) == sorted(source), "the same steps, presets, options and fields as the English"
    for path, text in said.items():
        assert text.strip(), f"{'.'.join(path)} is empty"
        assert game_texts.placeholders(text) == game_texts.placeholders(source[path]), \
            f"{'.'.join(path)}: the numbers and {{placeholders}} of the English: {source[path]!r} -> {text!r}"
        assert not untranslated(source[path], text), f"{'.'.join(path)} is still English: {text!r}"


FIGURE = re.compile(r"figures\.(\w+)\(")
CAPTION = re.compile(r'figures\.\w+\("([^"]*)"\)')


def rules_text(name: str, language: str) -> str:
    path = games.folder(name) / "templates" / f"rules.{language}.html"
    assert path.is_file(), f"{path} is missing: every game's rules page is translated into {language}"
    return path.read_text(encoding="utf-8")


def tags(html: str) -> list[str]:
    return re.findall(r"<(h2|section|ul|li|p)\b", html)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", GAMES)
def test_each_rules_page_has_the_same_diagrams_and_shape_in_every_language(name, language):
    source, said = rules_text(name, "en"), rules_text(name, language)
    assert FIGURE.findall(said) == FIGURE.findall(source), "the same diagrams, in the same order"
    assert tags(said) == tags(source), "the same sections, paragraphs and lists"
    for caption, english_caption in zip(CAPTION.findall(said), CAPTION.findall(source)):
        assert not untranslated(english_caption, caption), f"a caption is still English: {caption!r}"
    english_sentences = set(re.findall(r"[A-Z][^.<>{}]{30,}\.", source))
    left = [s for s in re.findall(r"[A-Z][^.<>{}]{30,}\.", said) if s in english_sentences]
    assert not left, f"sentences still in English: {left[:3]}"


def test_a_translation_changes_the_words_and_never_the_moves():
    """The lesson a German page reads is the English lesson's moves, marks and options with German words."""
    for name in GAMES:
        source, german = catalog.tutorial(name, "en"), catalog.tutorial(name, "de")
        assert [s["id"] for s in german["steps"]] == [s["id"] for s in source["steps"]]
        for theirs, ours in zip(german["steps"], source["steps"]):
            assert {k: v for k, v in theirs.items() if k not in game_texts.TEXT_PATHS_OF_STEP} \
                == {k: v for k, v in ours.items() if k not in game_texts.TEXT_PATHS_OF_STEP}
            assert theirs["text"] != ours["text"]
        assert catalog.words(name, "de")["presets"][0]["options"] == catalog.words(name, "en")["presets"][0]["options"]


def test_an_unknown_language_reads_english():
    assert catalog.tutorial("towers", "xx") == catalog.tutorial("towers", "en")


def test_the_english_files_name_every_text_field_the_translations_may_hold():
    """A field the loader does not know (a typo in TEXT_PATHS, a new kind of words) would stay English silently."""
    for name in GAMES:
        for kind in KINDS:
            data = english(name, kind)
            fields = game_texts.text_fields(data, kind)
            strings = list(_strings(data, kind))
            assert len(fields) == len(strings), f"{name} {kind}: {set(strings) - set(fields.values())}"


DATA_KEYS = {"id", "moves", "expect", "reply", "marks", "teaches", "options", "advanced", "clock_increment_per",
             "seat_options", "tile_moves", "tile_options"}


def _strings(data, kind, top=True):
    """Every string of a game file that is words, not data (moves, ids, option values)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in DATA_KEYS and not (kind == "words" and key == "options" and top):
                continue
            yield from _strings(value, kind, top=False)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item, kind, top=False)
    elif isinstance(data, str):
        yield data


def test_the_docs_say_where_the_games_words_live():
    text = (Path(__file__).resolve().parents[2] / "docs" / "translating.md").read_text(encoding="utf-8")
    assert "tutorial.<language>.json" in text and "rules.<language>.html" in text
