#!/usr/bin/env bash
# Build the HTML API reference from the docstrings (pdoc) into build/docs/ (or the directory given):
# the engine contract and each engine (games/), and the server's services (quadrille/).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import pdoc" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt pdoc
fi
exec python3 scripts/docs.py "$@"
