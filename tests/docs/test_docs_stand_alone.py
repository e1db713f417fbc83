"""Every document a user reads is in the repository: no Markdown file, docstring, comment or template outside
tests/ points into the specifications kept beside the repository (../shared), every Markdown file the words
name is there, and every relative link of the README and docs/ opens a file of the repository.

(The tests themselves may read that reference data: it is their data, never a reader's document.)"""
from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

from tests.support.paths import ROOT

# Where a text would send its reader outside the repository: the shared folder itself, or its files cited by
# their folder inside it ("rules/gamma.md §2", "design/engine.md", "reference/towers.jsonl").
OUTSIDE = re.compile(r"\.\./shared\b|/work/shared\b|\bshared/(?:rules|design|reference|gamma_tests|tools|hooks)\b"
                     r"|(?<![\w/.-])(?:rules|design)/[\w-]+\.md\b|(?<![\w/.-])reference/[\w-]+\.jsonl?\b")
# A Markdown file named in a text: it must be one of the repository's (README.md, docs/engine.md, ...).
MARKDOWN_NAME = re.compile(r"(?<![\w/.<>-])((?:[\w-]+/)*[\w-]+\.md)\b")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def tracked(*patterns: str) -> list[Path]:
    names = subprocess.run(["git", "ls-files", "--", *patterns], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    return [ROOT / name for name in names if not name.startswith("tests/") and (ROOT / name).is_file()]


def docstrings_and_comments(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every docstring and comment of a Python file."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((node.body[0].lineno, doc))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    return found


def texts() -> list[tuple[str, str]]:
    """(where, text) of everything a reader of the repository reads: Markdown whole, Python's docstrings and
    comments, the templates (their comments included)."""
    out = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in tracked("*.md")]
    out += [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
            for path in tracked("*.html", "*.js", "*.css", "*.sh") if "/vendor/" not in str(path)]
    for path in tracked("*.py"):
        out += [(f"{path.relative_to(ROOT)}:{line}", text) for line, text in docstrings_and_comments(path)]
    return out


def test_nothing_a_reader_reads_points_outside_the_repository():
    pointing = [f"{where}: {match.group(0)!r}" for where, text in texts() for match in OUTSIDE.finditer(text)]
    assert not pointing, "\n".join(pointing)


def test_every_markdown_file_named_is_in_the_repository():
    missing = []
    for where, text in texts():
        folder = (ROOT / where.split(":")[0]).parent
        for match in MARKDOWN_NAME.finditer(text):
            name = match.group(1)
            if not ((ROOT / name).is_file() or (folder / name).is_file()):
                missing.append(f"{where}: {name}")
    assert not missing, "\n".join(missing)


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)   # code is not a link
    return [target for target in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)]


def test_every_relative_link_of_the_readme_and_docs_opens_a_file_of_the_repository():
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    checked, broken = 0, []
    for document in documents:
        for target in relative_links(document):
            checked += 1
            resolved = (document.parent / target.split("#")[0]).resolve()
            if not (resolved.is_file() and resolved.is_relative_to(ROOT)):
                broken.append(f"{document.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)
    assert checked >= 2     # the README's two pictures at least: the check saw the links


def test_the_checks_catch_what_they_are_for(tmp_path):
    """The patterns find the citations this issue removed, and leave the repository's own paths alone."""
    for outside in ("see ../shared/rules/trails.md", "(rules/gamma.md §2)", "design/engine.md",
                    "shared/reference/lattice.jsonl", "/work/shared/design/api.md"):
        assert OUTSIDE.search(outside), outside
    for inside in ("games/<name>/templates/rules.html", "/rules/<game>", "docs/engine.md", "the shared stylesheet",
                   "GET /rules/trails"):
        assert not OUTSIDE.search(inside), inside
    document = tmp_path / "doc.md"
    document.write_text("![a](pic.png) [b](https://example.org) [c](#top) [d](../elsewhere.md#x)\n"
                        "```\n[e](inside-code.md)\n```\n")
    assert relative_links(document) == ["pic.png", "../elsewhere.md#x"]


def test_the_engine_contract_is_documented_in_the_repository():
    """games/base.py's docstring names docs/engine.md, which holds the contract: every method a game's author
    writes, and the registry's calls."""
    assert "docs/engine.md" in ast.get_docstring(ast.parse((ROOT / "games/base.py").read_text()))
    guide = (ROOT / "docs/engine.md").read_text()
    for name in ("legal_moves()", "push(", "pop()", "outcome()", "view()", "copy()", "to_dict()", "from_dict(",
                 "games.get(", "games.names()", "IllegalMove", "Outcome(", "turn", "moves"):
        assert name in guide, name
