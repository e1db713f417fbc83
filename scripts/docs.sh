#!/usr/bin/env bash
# Build the documentation site into build/docs/ (or the directory given): the guide (docs/engine.md, a page per
# game), then the reference from the docstrings (pdoc). In the same virtual environment as the README's commands
# (scripts/venv.sh): stock Debian refuses pip outside one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
use_venv
if ! python -c "import pdoc" 2>/dev/null; then
  install_into_venv -e . pdoc
fi
exec python scripts/docs.py "$@"
