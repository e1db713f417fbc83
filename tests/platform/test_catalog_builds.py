"""The translations' built files (quadrille/i18n/catalogs.py): built when older than their .po, and then
current, even where the build wrote nothing new."""
from __future__ import annotations

import os
import shutil
import time

import pytest

from quadrille.i18n import catalogs


@pytest.fixture
def german(tmp_path, monkeypatch):
    """The German catalogs, built into a temporary tree instead of the checkout's."""
    shutil.copytree(catalogs.po_path("de", "messages").parent, tmp_path / "translations" / "de" / "LC_MESSAGES")
    monkeypatch.setattr(catalogs, "TRANSLATIONS", tmp_path / "translations")
    monkeypatch.setattr(catalogs, "SCRIPTS", tmp_path / "static")
    return tmp_path


def test_a_build_that_changes_nothing_still_leaves_the_language_current(german):
    catalogs.compile_language("de")
    assert not catalogs.stale("de")
    built, rewritten = time.time() - 100, time.time() - 50
    for path in catalogs.outputs("de"):
        os.utime(path, (built, built))
    for domain in catalogs.DOMAINS:  # the .po rewritten since (an update that moved only source references)
        os.utime(catalogs.po_path("de", domain), (rewritten, rewritten))
    assert catalogs.stale("de")
    before = {p: p.read_bytes() for p in catalogs.outputs("de")}
    catalogs.compile_language("de")
    assert {p: p.read_bytes() for p in catalogs.outputs("de")} == before  # the same content
    assert not catalogs.stale("de")  # and no second build at the next start


def test_ensure_built_builds_a_language_whose_files_are_missing(german):
    assert catalogs.stale("de")
    catalogs.ensure_built()
    assert all(p.is_file() for p in catalogs.outputs("de")) and not catalogs.stale("de")
