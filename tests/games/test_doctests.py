"""The examples in the engines' docstrings and in docs/engine.md run, and say what the engines do: a game's
author can trust every line of them. The contract's modules and each game's engine must hold examples of
the contract's methods (legal_moves, push, pop, outcome, view)."""
from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest

import games
from tests.support.paths import ROOT

# The contract and each game's engine: each documents these methods with examples.
CONTRACT_MODULES = {
    "games.base": "Board",
    "games.trails.engine": "TrailsBoard",
    "games.gamma": "GammaBoard",
    "games.towers.core": "TowersBoard",
    "games.lattice.board": "LatticeBoard",
}
CONTRACT_METHODS = ("legal_moves", "push", "pop", "outcome", "view")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def modules_of_games() -> list[str]:
    """Every module of games/ (its command-line entry points left out: importing them runs them)."""
    found = ["games"] + [info.name for info in pkgutil.walk_packages(games.__path__, prefix="games.")]
    return [name for name in found if not name.endswith("__main__")]


def run(test: doctest.DocTest) -> tuple[int, str]:
    """(examples run, the report of the failures: empty when none failed)."""
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=out.append)
    return result.attempted, "".join(out)


@pytest.mark.parametrize("name", modules_of_games())
def test_the_examples_of_every_engine_module_run(name):
    attempted, failures = 0, []
    for test in doctest.DocTestFinder().find(importlib.import_module(name)):
        ran, report = run(test)
        attempted += ran
        if report:
            failures.append(report)
    assert not failures, "\n".join(failures)
    if name in CONTRACT_MODULES:
        assert attempted >= 10, f"{name}: {attempted} examples"


@pytest.mark.parametrize("name,board", CONTRACT_MODULES.items())
def test_the_contract_methods_have_examples(name, board):
    cls = getattr(importlib.import_module(name), board)
    for method in CONTRACT_METHODS:
        tests = doctest.DocTestFinder(recurse=False).find(getattr(cls, method), f"{board}.{method}")
        assert tests and tests[0].examples, f"{board}.{method} has no example"


def engine_guide_examples() -> doctest.DocTest:
    """docs/engine.md's ```pycon blocks as one doctest (the examples build on each other), every other line
    blanked so that a failure names its line in the file."""
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    kept, inside = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```pycon"
            kept.append("")
        else:
            kept.append(line if inside else "")
    return doctest.DocTestParser().get_doctest("\n".join(kept), {}, "docs/engine.md", str(ROOT / "docs/engine.md"),
                                               0)


def test_the_examples_of_the_engine_guide_run():
    test = engine_guide_examples()
    attempted, report = run(test)
    assert not report, report
    assert attempted >= 40
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert not re.search(r"```python\n>>>", text)   # every example is in a block this test runs
