"""What a release is: one version (pyproject.toml's, read from the installed package, with quadrille.RELEASE for
a checkout that is not installed) that /api/health reports and CHANGELOG.md heads; the MIT licence that
pyproject.toml names."""
from __future__ import annotations

import tomllib
from importlib import metadata

import quadrille
from tests.support.paths import ROOT


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_version_has_one_source_which_health_reports(client):
    version = project()["version"]
    assert quadrille.RELEASE == version  # the checkout's fallback agrees with pyproject.toml
    assert quadrille.__version__ == metadata.version("quadrille") == quadrille.installed_version()
    assert client.get("/api/health").get_json()["version"] == quadrille.__version__


def test_a_checkout_that_is_not_installed_reports_pyproject_s_version(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(quadrille.package_metadata, "version", missing)
    assert quadrille.installed_version() == project()["version"]


def test_the_changelog_heads_the_version_and_what_is_unreleased():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in text and f"## [{project()['version']}] - " in text
    assert text.index("## [Unreleased]") < text.index(f"## [{project()['version']}]")


def test_the_licence_is_the_mit_licence_pyproject_names():
    assert "MIT" in str(project()["license"])
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the Quadrille authors\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text
