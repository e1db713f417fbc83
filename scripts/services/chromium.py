"""Debian's Chromium as the browser tests, bench/pages.py and scripts/screenshot.py launch it through
Playwright (Playwright's own build where the Debian package is missing)."""
from __future__ import annotations

import os

CHROMIUM = "/usr/bin/chromium"
# Without the networking flags Chromium floods a closed network with refused connections.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launch(playwright):
    """A headless Chromium: Debian's if installed, else Playwright's own."""
    if os.path.exists(CHROMIUM):
        return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    return playwright.chromium.launch(args=CHROMIUM_ARGS)
