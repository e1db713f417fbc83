#!/usr/bin/env bash
# Install Quadrille's packages (if needed) and start the server on the embedded SQLite database.
# Arguments go to app.py, e.g. `bash scripts/serve.sh --port 8000 --db /var/lib/quadrille.db`.
# It runs from a virtual environment: `.venv` here (made with the system's `python3 -m venv` the first time;
# QUADRILLE_VENV names another path), or the one active when it is started (scripts/venv.sh). The optional
# parts that the arguments ask for are installed too: quadrille[cluster] for a PostgreSQL database or a message
# queue, quadrille[eventlet] for --async-mode eventlet.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
use_venv
install_into_venv -e .
python -m quadrille.i18n compile  # the translations' .mo files and the browser's catalogs (docs/translating.md)
extras=$(python -c 'import sys, app; print(",".join(app.extras_wanted(sys.argv[1:])))' "$@")
if [ -n "$extras" ]; then
  install_into_venv -e ".[$extras]"
fi
exec python app.py "$@"
