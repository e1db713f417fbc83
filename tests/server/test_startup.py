"""The server's start-up tuning, checked in a fresh interpreter (it changes process-wide settings)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_garbage_collector_is_tuned_for_short_pauses():
    probe = ("import gc, json, app; app.tune_garbage_collector(); "
             "print(json.dumps({'thresholds': gc.get_threshold(), 'frozen': gc.get_freeze_count(), "
             "'wanted': app.GC_THRESHOLDS}))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout)
    assert seen["thresholds"] == list(seen["wanted"])
    assert seen["frozen"] > 1000          # what start-up built is out of every later collection
