"""Shared test fixtures. The specifications and reference data live in ../shared
(beside the repository), and are read from there, never copied in."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def shared() -> Path:
    assert SHARED.is_dir(), f"the shared specifications are expected at {SHARED}"
    return SHARED
