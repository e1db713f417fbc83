"""Every string a person reads is marked for translation, and every catalog keeps up (docs/translating.md).

- The strings the code marks (babel.cfg: Python, templates, the games' data files, JavaScript) are extracted
  afresh and compared with each of the six languages' catalogs: none may be missing (`scripts/i18n.sh update`),
  fuzzy, or broken (a placeholder lost, a plural form missing), and none may be untranslated unless it is on
  the translators' to-do list (quadrille/translations/untranslated.txt): a new string fails until it is
  translated in every language (or listed on purpose).
- The templates hold no bare text: a heuristic scan of their text nodes and readable attributes (title,
  aria-label, alt, placeholder) outside `{{ _() }}`, `{% trans %}` and the like.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from quadrille.i18n import catalogs
from quadrille.i18n.languages import SHIPPED

ROOT = Path(__file__).resolve().parent.parent.parent
# The template folders the scan reads (games/<g>/templates/ joins with i18n-content's marking of them).
SCANNED = ("templates",)
# Text that is not words to translate: the site's name.
NOT_WORDS = {"Quadrille"}


@pytest.fixture(scope="module")
def templates():
    return catalogs.extract()


def test_the_extraction_finds_the_three_domains(templates):
    assert set(templates) == {"messages", "games", "js"}
    assert templates["messages"].get("There is no such match.") is not None         # a Python reason
    assert templates["messages"].get("Play a friend") is not None                   # a template
    assert templates["games"].get("Learn Towers") is not None                       # a game's data file


@pytest.mark.parametrize("lang", SHIPPED)
def test_each_catalog_is_whole_nothing_fuzzy_broken_or_newly_untranslated(templates, lang):
    assert catalogs.problems(templates, languages=(lang,)) == []


def test_the_check_finds_a_new_untranslated_string_and_a_stale_backlog_line(templates, monkeypatch):
    """Whatever the backlog holds today (empty, once every language is whole): a German string made
    untranslated fails unless it is listed, and a listed string that is translated fails too."""
    line = "de/messages.po: There is no such match."
    backlog = catalogs.read_backlog() - {line}
    assert catalogs.problems(templates, languages=("de",), backlog=backlog | {line}) == [
        f"{line}: in the backlog, but translated (run `python -m quadrille.i18n backlog`)"]
    read_from_disk = catalogs.read

    def read_with_one_untranslated(lang, domain):
        catalog = read_from_disk(lang, domain)
        if (lang, domain) == ("de", "messages"):
            catalog.get("There is no such match.").string = ""
        return catalog

    monkeypatch.setattr(catalogs, "read", read_with_one_untranslated)
    assert catalogs.problems(templates, languages=("de",), backlog=backlog) == [
        f"{line}: untranslated, and not in the backlog"]
    assert catalogs.problems(templates, languages=("de",), backlog=backlog | {line}) == []


def bare_text(source: str) -> list[str]:
    """The words of a template that are outside every translation call: Jinja's comments, statements and
    expressions, `{% trans %}` blocks, scripts, styles, inline SVG and <kbd> keys taken out, then what is left
    between tags, and in readable attributes, that holds a letter."""
    text = source
    for pattern in (r"\{#.*?#\}", r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", r"<script\b.*?</script>",
                    r"<style\b.*?</style>", r"<svg\b.*?</svg>", r"<kbd>.*?</kbd>",
                    r"\{%-?\s*block\s+(?:body_class|head)\s*-?%\}.*?\{%-?\s*endblock\s*-?%\}"):
        text = re.sub(pattern, " ", text, flags=re.S)
    attributes = re.findall(r'\b(?:title|aria-label|alt|placeholder)="([^"{]*)"', text)
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)
    nodes = re.findall(r">([^<>]+)<", text)
    words = [chunk.strip() for chunk in nodes + attributes]
    return [w for w in words if re.search(r"[^\W\d_]{2,}", w) and w not in NOT_WORDS]


def test_the_scan_sees_bare_text_and_passes_marked_text():
    assert bare_text('<p>Hello <b>{{ name }}</b></p><a title="Go">x</a>') == ["Hello", "Go"]
    assert bare_text('<p>{{ _("Hello") }}</p><p>{% trans %}Hi <b>{{ n }}</b>{% endtrans %}</p>'
                     '<a title="{{ _(\'Go\') }}"><kbd>Esc</kbd></a>{# a note #}') == []


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for folder in SCANNED
                                        for p in (ROOT / folder).rglob("*.html")))
def test_templates_hold_no_bare_text(path):
    assert bare_text((ROOT / path).read_text(encoding="utf-8")) == []
