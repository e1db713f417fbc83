"""Where things are: the repository, and the specifications and reference data in ../shared (beside the
repository), which the tests read from there and never copy in."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SHARED = ROOT.parent / "shared"


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
