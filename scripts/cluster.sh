#!/usr/bin/env bash
# A Quadrille cluster on this machine: a PostgreSQL server and a Redis server of its own, N app processes
# and nginx in front, everything under DIR. Installs what is missing first (Debian's postgresql,
# redis-server and nginx, and the project's Python packages).
#
#   bash scripts/cluster.sh [--processes N] [--port P] [--data DIR] [--async-mode gevent|eventlet]
#
# Prints "Quadrille cluster ready on http://127.0.0.1:P/ (N processes, postgresql, redis)", writes
# DIR/cluster.json (mode 0600: its URLs carry the passwords PostgreSQL and Redis ask for), and stops everything
# it started on SIGTERM or Ctrl-C. Run as root, PostgreSQL, Redis and nginx drop to system users of their own;
# run as an ordinary user, everything runs as that user. See README.md, "Running several processes".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
install_services
python3 -c "import flask_socketio, psycopg, redis, gevent, eventlet, sqlalchemy, alembic" 2>/dev/null \
  || python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt -e .
exec python3 scripts/cluster.py "$@"
