#!/usr/bin/env bash
# Install Quadrille's packages (if needed) and start the server on the embedded SQLite database.
# Arguments go to app.py, e.g. `bash scripts/serve.sh --port 8000 --db /var/lib/quadrille.db`.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import flask_socketio, flask_limiter, flask_compress, brotli, gevent, eventlet, sqlalchemy, alembic, argon2, flask_wtf" 2>/dev/null \
  || python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt -e .
exec python3 app.py "$@"
