"""axe-core in a page under test: the vendored static/vendor/axe-core/axe.min.js, injected by the test (no page of
the site loads it), and the violations of the impacts that fail a test.

    from tests.browser.axe import serious_violations
    assert serious_violations(page) == []

Reusable for any page: pass `context` (a CSS selector, or axe's {include, exclude}) to check part of a page.
"""
from __future__ import annotations

from tests.support.paths import ROOT

AXE = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
FAILING = ("serious", "critical")


def run_axe(page, context=None, options=None) -> dict:
    """axe.run on the page (injected once per page); returns axe's results object."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate("([context, options]) => axe.run(context || document, options || {})",
                         [context, options or {"resultTypes": ["violations"]}])


def serious_violations(page, context=None, impacts=FAILING) -> list[str]:
    """One line per violation of these impacts: its rule, impact, help and the first few offending elements."""
    lines = []
    for violation in run_axe(page, context)["violations"]:
        if violation["impact"] in impacts:
            targets = ", ".join(" ".join(map(str, node["target"])) for node in violation["nodes"][:4])
            lines.append(f'{violation["id"]} ({violation["impact"]}): {violation["help"]} [{targets}]')
    return lines
