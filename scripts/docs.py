"""Build the documentation site: a guide for a game's author first (index.html: the engine contract of
docs/engine.md, then a page per game, guide/<name>.html: scripts/docs_guide.py), then the reference built from
the docstrings with pdoc: the engine contract and each engine (games/), and the server's services (quadrille/:
the match service, clocks, storage, timers, presence, the computer...), every module listed in modules.html.

    python scripts/docs.py [OUTPUT]     # default build/docs/; scripts/docs.sh installs pdoc first

Every module of the packages is listed (a package's `__all__` would hide its submodules from pdoc), except
the Alembic migrations, which run only inside Alembic. pdoc reports a docstring it cannot read (a bad link, a
name it cannot resolve) as a warning on stderr; tests/platform/test_docs.py fails on any.
"""
from __future__ import annotations

import pkgutil
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "docs_templates"   # the guide's page; module pages lead back to it
PACKAGES = ("games", "quadrille")
SKIP = ("quadrille.infra.migrations",)


def specs() -> list[str]:
    """pdoc's module specifications: the packages, then each module that pdoc's walk of them leaves out (a
    package's `__all__` hides its submodules), one spec each so that no module is added twice, then the
    migrations left out."""
    import pdoc.extract

    sys.path.insert(0, str(ROOT))
    chosen = list(PACKAGES)
    for name in PACKAGES:
        package = __import__(name)
        every = [name] + [info.name for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}.")]
        for module in every:
            private = any(part.startswith("_") for part in module.split("."))  # __main__, _helpers: as pdoc
            if private or module.startswith(SKIP) or module in pdoc.extract.walk_specs(chosen):
                continue
            chosen.append(module)
    return chosen + ["!" + "|".join(re.escape(skip) for skip in SKIP)]


def main() -> None:
    import pdoc
    import pdoc.extract
    import pdoc.render

    import docs_guide

    output = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "docs"
    pdoc.render.configure(docformat="markdown", footer_text="Quadrille", search=True, template_directory=TEMPLATES)
    chosen = specs()
    pdoc.pdoc(*chosen, output_directory=output)
    docs_guide.write(output, pdoc.extract.walk_specs(chosen))
    print(f"Documentation written to {output}/index.html (the guide; every module: modules.html)")


if __name__ == "__main__":
    main()
