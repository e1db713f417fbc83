"""The house's arrows point one way: no module imports, however indirectly, a module that imports it, and
infra/ (what every service stands on) imports nothing above it.

The imports are read from the source with `ast`, every one of them: at the top of a module and inside
functions (an import delayed into a function still ties the two modules together). Python's implicit import of
a package's __init__ is not counted; an explicit `from . import x` or `from .pkg import name` is.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

PACKAGES = ("quadrille", "games", "ai")   # the first-party code: the server, the engines, the computer
# Circles that still stand, each with the change that removes it. A circle of the server (quadrille/) that is
# not listed fails; one listed that is gone fails too, so that its entry goes with it. None stands since the
# match core's split (summary.py asked the service whether a match waited for its start; match.py says it now).
KNOWN_CIRCLES: list[list[str]] = []
# Below infra/: leaf modules that every layer may use (an error type, the rules of names, words marked for
# translation: the error type's reasons, the engines' kind of them, and the catalogs they are looked up in),
# importing only each other.
FOUNDATION = {"quadrille.errors", "quadrille.names", "quadrille.i18n.words", "quadrille.i18n.languages",
              "quadrille.i18n.translations", "games.reasons"}


def first_party_modules() -> dict[str, Path]:
    """Every first-party module by its dotted name (a package by its own name, for its __init__.py)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The first-party modules that the module `name` (at `path`) imports, anywhere in its code."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(_longest_known(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(package[:len(package) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else _longest_known(base, known))
    found.discard(None)
    found.discard(name)
    return found


def _longest_known(dotted: str, known: set[str]) -> str | None:
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return None


def import_graph() -> dict[str, set[str]]:
    modules = first_party_modules()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative): each is a
    set of modules that import one another, directly or not."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walk_sees_every_kind_of_import():
    graph = import_graph()
    assert "quadrille.infra.schema" in graph["quadrille.matches.store"]      # from ..infra.schema import x
    assert "quadrille.infra.migrate" in graph["quadrille.infra.database"]    # from . import migrate, in a function
    assert "quadrille.computer" in graph["quadrille"]                        # from .computer import ComputerPlayers
    assert "games" in graph["quadrille.computer.worker"]                     # import games


def test_the_circle_finder_finds_a_circle_however_long():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_server_imports_a_module_that_imports_it():
    found = [c for c in circles(import_graph()) if any(m.split(".")[0] == "quadrille" for m in c)]
    assert [c for c in found if c not in KNOWN_CIRCLES] == []
    assert [c for c in KNOWN_CIRCLES if c not in found] == []


def test_infra_imports_nothing_above_it():
    graph = import_graph()
    above = {name: sorted(m for m in imported if not m.startswith("quadrille.infra") and m not in FOUNDATION)
             for name, imported in graph.items() if name.startswith("quadrille.infra")}
    assert {name: imported for name, imported in above.items() if imported} == {}
    assert len(above) >= 10  # every infra module was read


def test_the_foundation_imports_only_itself():
    graph = import_graph()
    assert {name: graph[name] - FOUNDATION for name in FOUNDATION} == {name: set() for name in FOUNDATION}
