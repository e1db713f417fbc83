"""The gettext catalogs: extract, update, compile, check (docs/translating.md).

    python -m quadrille.i18n extract    # the strings of the code, into build/i18n/<domain>.pot
    python -m quadrille.i18n update     # ...and into every language's .po (new ones empty)
    python -m quadrille.i18n compile    # .mo for the server, static/i18n/<lang>/<bundle>.js for the browser
    python -m quadrille.i18n check      # what is not translated, fuzzy, or broken, per language
    python -m quadrille.i18n backlog    # list what is untranslated now as the known to-do (untranslated.txt)
    python -m quadrille.i18n init xx    # a new language's catalogs (add it to languages.py too)

(`scripts/i18n.sh` runs these.) Three domains, one babel.cfg: `messages` (quadrille/'s Python and templates/,
placeholders `%(name)s`), `games` (games/'s Python, templates and data files; `%(name)s`) and `js` (the
JavaScript of static/js and games/*/static, placeholders `{name}`). Only the .po files are kept in git; the .mo and the JavaScript catalogs are built by
scripts/test.sh, scripts/serve.sh and the Dockerfile, and by the server itself at start-up when they are missing
or older than their .po (`ensure_built`).
"""
from __future__ import annotations

import gettext
import json
import logging
import os
import sys
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .bundles import bundles, script_group, served_name
from .languages import DEFAULT, SHIPPED
from .translations import TRANSLATIONS

log = logging.getLogger("quadrille.i18n")

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATES = ROOT / "build" / "i18n"
# The strings known to be untranslated, one `<lang>/<domain>.po: <msgid>` a line: the translators' to-do list.
# A string that is untranslated and not listed fails the tests (a new string must be translated, or listed on
# purpose with `python -m quadrille.i18n backlog`); a listed one that is translated must leave the list.
BACKLOG = TRANSLATIONS / "untranslated.txt"
BACKLOG_HEADER = ("# Untranslated strings, the translators' to-do list (docs/translating.md): written by\n"
                  "# `python -m quadrille.i18n backlog`; tests/platform/test_translations.py fails on any other.\n")
SCRIPTS = ROOT / "static" / "i18n"
DOMAINS = ("messages", "games", "js")
COMMENT_TAGS = ("TRANSLATORS:",)
ABOUT = {"messages": "the server and its pages", "games": "the games' own words", "js": "the JavaScript"}
PROJECT = "Quadrille"
# Plural-Forms that differ from Babel's (CLDR's) own: French and Spanish as their translators know them, two forms;
# CLDR's third, for round millions ("un million de coups"), never comes up in a game's counts.
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);", "es": "nplurals=2; plural=(n != 1);"}
# the integers a CLDR plural category is sampled at, to find the gettext form each category stands for
PLURAL_SAMPLES = (*range(0, 230), 1000, 1001, 1002, 1005, 10000, 100000, 1000000, 2000000)


def po_path(lang: str, domain: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"


def script_path(lang: str, bundle: str = "all") -> Path:
    """One bundle of a language's catalog for the browser (bundles.py: the words of one kind of page)."""
    return SCRIPTS / lang / f"{bundle}.js"


# -- extracting -------------------------------------------------------------------------------------------------
def extract(root: Path = ROOT) -> dict[str, Catalog]:
    """The strings the code marks, as one template catalog per domain."""
    with open(root / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    templates = {domain: Catalog(project=PROJECT, charset="utf-8", fuzzy=False) for domain in DOMAINS}
    for path, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, comment_tags=COMMENT_TAGS, strip_comment_tags=True):
        method = next(m for pattern, m in method_map if _matches(pattern, path))
        domain = domain_of(method, path)
        templates[domain].add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return templates


def domain_of(method: str, path: str) -> str:
    if method == "javascript":
        return "js"
    return "games" if path.replace("\\", "/").startswith("games/") else "messages"


def _matches(pattern: str, path: str) -> bool:
    from babel.util import pathmatch
    return pathmatch(pattern, path)


def write_templates(templates: dict[str, Catalog]) -> None:
    TEMPLATES.mkdir(parents=True, exist_ok=True)
    for domain, template in templates.items():
        with open(TEMPLATES / f"{domain}.pot", "wb") as f:
            write_po(f, template, width=116)


# -- the languages' catalogs ------------------------------------------------------------------------------------
def new_catalog(lang: str, domain: str) -> Catalog:
    from babel import Locale as _Locale
    name = _Locale.parse(lang).english_name
    catalog = Catalog(locale=lang, domain=domain, project=PROJECT, version="", charset="utf-8", fuzzy=False,
                      copyright_holder="Quadrille's authors", msgid_bugs_address="", last_translator="",
                      language_team=f"{name} <docs/translating.md>",
                      header_comment=f"# {name} translations of Quadrille ({ABOUT[domain]}).\n"
                                     "# Distributed under the same license as Quadrille (MIT). How to translate: docs/translating.md.\n#")
    headers = dict(catalog.mime_headers)
    headers.update({"Project-Id-Version": PROJECT, "Report-Msgid-Bugs-To": "docs/translating.md",
                    "Last-Translator": "see the git history"})
    if lang in PLURAL_FORMS:
        headers["Plural-Forms"] = PLURAL_FORMS[lang]
    catalog.mime_headers = list(headers.items())
    return catalog


def read(lang: str, domain: str) -> Catalog:
    path = po_path(lang, domain)
    if not path.is_file():
        return new_catalog(lang, domain)
    with open(path, "rb") as f:
        return read_po(f, locale=lang, domain=domain)


def write(catalog: Catalog, lang: str, domain: str) -> None:
    path = po_path(lang, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = BytesIO()
    write_po(buffer, catalog, width=116, omit_header=False, sort_output=False, ignore_obsolete=True,
             include_previous=False)
    path.write_bytes(buffer.getvalue())


def update(templates: dict[str, Catalog], languages=SHIPPED) -> None:
    """Every language's catalogs take the templates' messages: new ones empty (never guessed from a similar
    one: no fuzzy matching, so nothing half-right is shown), gone ones dropped."""
    for lang in languages:
        for domain, template in templates.items():
            catalog = read(lang, domain)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.fuzzy = False
            write(catalog, lang, domain)


# -- compiling --------------------------------------------------------------------------------------------------
def plural_categories(catalog: Catalog, lang: str) -> dict[str, int]:
    """CLDR plural category (what the browser's Intl.PluralRules names) -> the index of the catalog's form,
    found by running the catalog's Plural-Forms (through Python's gettext, which parses the C expression; it is
    never evaluated as code in the browser) and Babel's CLDR rule over the same numbers."""
    choose_form = gettext.c2py(catalog.plural_expr)
    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in PLURAL_SAMPLES:
        category, form = rule(n), choose_form(n)
        if found.setdefault(category, form) != form:
            raise ValueError(f"{lang}: the plural category {category!r} falls on two of the catalog's forms "
                             f"({found[category]} and {form}, at n={n}); fix the catalog's Plural-Forms")
    found.setdefault("other", catalog.num_plurals - 1)
    return found


def script_catalog(catalog: Catalog, lang: str, groups: set[str] | None = None) -> dict:
    """The `js` domain of a language, as static/js/i18n.js reads it: translated messages only (a missing one
    falls back to the English the code holds); with `groups`, only the words of those groups' scripts."""
    messages: dict[str, object] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not _translated(message):
            continue
        if groups is not None and message.locations and \
                not any(script_group(served_name(path)) in groups for path, _line in message.locations):
            continue
        # a message in a context (I18n.p) is keyed as gettext keys it: "context\x04msgid"
        key = (message.id[0] if message.pluralizable else message.id)
        key = f"{message.context}\x04{key}" if message.context else key
        messages[key] = list(message.string) if message.pluralizable else message.string
    return {"locale": lang, "plural": plural_categories(catalog, lang), "forms": catalog.num_plurals,
            "messages": messages}


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return all(strings)


def compile_language(lang: str) -> None:
    for domain in DOMAINS:
        catalog = read(lang, domain)
        mo = po_path(lang, domain).with_suffix(".mo")
        buffer = BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        _write_if_changed(mo, buffer.getvalue())
    if lang != DEFAULT:
        catalog = read(lang, "js")
        for bundle, groups in bundles().items():
            data = json.dumps(script_catalog(catalog, lang, groups), ensure_ascii=False, separators=(",", ":"),
                              sort_keys=True)
            text = f"/* built from quadrille/translations/{lang}/LC_MESSAGES/js.po, the words of {bundle} " \
                   f"(docs/translating.md) */\nwindow.QuadrilleI18n.load({data});\n"
            _write_if_changed(script_path(lang, bundle), text.encode("utf-8"))


def _write_if_changed(path: Path, data: bytes) -> None:
    """Written only when different, and through a temporary name: a server reading it never sees half a file,
    and an unchanged build leaves the static files' signature (web/assets.py, a hash of their content) as it
    was. An unchanged file is touched: it is as new as its .po now, or `stale` would call it old for ever and
    every server start (every test's app) would build the catalogs again."""
    if path.is_file() and path.read_bytes() == data:
        os.utime(path)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    temporary.replace(path)


def compile_all(languages=SHIPPED) -> None:
    for lang in languages:
        compile_language(lang)


def outputs(lang: str) -> list[Path]:
    built = [po_path(lang, domain).with_suffix(".mo") for domain in DOMAINS]
    return built + ([script_path(lang, bundle) for bundle in bundles()] if lang != DEFAULT else [])


def stale(lang: str) -> bool:
    sources = [po_path(lang, domain) for domain in DOMAINS if po_path(lang, domain).is_file()]
    newest = max((p.stat().st_mtime_ns for p in sources), default=0)
    return any(not p.is_file() or p.stat().st_mtime_ns < newest for p in outputs(lang))


def ensure_built() -> None:
    """Compile the languages whose built files are missing or older than their .po (a checkout run without
    scripts/serve.sh); a read-only installation that already has them is left alone."""
    for lang in SHIPPED:
        if stale(lang):
            try:
                compile_language(lang)
            except OSError as exc:
                log.warning("cannot build the %s catalogs: %s", lang, exc)


# -- checking ---------------------------------------------------------------------------------------------------
def untranslated(templates: dict[str, Catalog] | None = None, languages=SHIPPED) -> list[str]:
    """`<lang>/<domain>.po: <msgid>` for every entry still untranslated (English is the source: never)."""
    templates = templates or extract()
    found = []
    for lang in languages:
        if lang == DEFAULT:
            continue
        for domain in templates:
            for message in read(lang, domain):
                if message.id and not message.fuzzy and not _translated(message):
                    found.append(f"{lang}/{domain}.po: {_key(message.id)}")
    return found


def _key(msgid) -> str:
    """One line per message, for the backlog file."""
    text = msgid[0] if isinstance(msgid, (list, tuple)) else msgid
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def read_backlog() -> set[str]:
    if not BACKLOG.is_file():
        return set()
    return {line for line in BACKLOG.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")}


def write_backlog(templates: dict[str, Catalog] | None = None) -> None:
    lines = sorted(untranslated(templates))
    BACKLOG.write_text(BACKLOG_HEADER + "".join(f"{line}\n" for line in lines), encoding="utf-8")


def problems(templates: dict[str, Catalog] | None = None, languages=SHIPPED, backlog: set[str] | None = None) -> list[str]:
    """Everything that keeps a catalog from being whole: a marked string the catalog lacks (run `update`), an
    untranslated entry that is not in the backlog (a new string, translated nowhere yet), a fuzzy entry, a
    translation that breaks its placeholders, a Plural-Forms the browser's categories cannot follow; and a
    backlog entry that is translated now (take it out: `backlog`)."""
    templates = templates or extract()
    backlog = read_backlog() if backlog is None else backlog
    waiting = set(untranslated(templates, languages))
    found = [f"{line}: untranslated, and not in the backlog" for line in sorted(waiting - backlog)]
    found += [f"{line}: in the backlog, but translated (run `python -m quadrille.i18n backlog`)"
              for line in sorted(backlog - waiting) if line.split("/", 1)[0] in languages]
    for lang in languages:
        for domain, template in templates.items():
            catalog = read(lang, domain)
            where = f"{lang}/{domain}.po"
            for message in template:
                if message.id and catalog.get(message.id, message.context) is None:
                    found.append(f"{where}: missing {_show(message.id)} (run scripts/i18n.sh update)")
            for message in catalog:
                if not message.id:
                    continue
                if message.fuzzy:
                    found.append(f"{where}: fuzzy {_show(message.id)}")
                for error in message.check(catalog):
                    found.append(f"{where}: {_show(message.id)}: {error}")
            if domain == "js":
                try:
                    plural_categories(catalog, lang)
                except ValueError as exc:
                    found.append(f"{where}: {exc}")
    return found


def _show(msgid) -> str:
    return repr(msgid[0] if isinstance(msgid, (list, tuple)) else msgid)


def init(lang: str) -> None:
    templates = extract()
    for domain, template in templates.items():
        if po_path(lang, domain).is_file():
            raise SystemExit(f"{po_path(lang, domain)} exists already")
        catalog = new_catalog(lang, domain)
        catalog.update(template, no_fuzzy_matching=True)
        write(catalog, lang, domain)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv else "compile"
    if command == "extract":
        write_templates(extract())
    elif command == "update":
        templates = extract()
        write_templates(templates)
        update(templates)
    elif command == "backlog":
        write_backlog()
    elif command == "compile":
        compile_all()
    elif command == "init" and len(argv) == 2:
        init(argv[1])
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        print(f"{len(found)} problems", file=sys.stderr)
        return 1 if found else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
