#!/usr/bin/env bash
# A Quadrille cluster on this machine: a PostgreSQL server and a Redis server of its own, N app processes
# and nginx in front, everything under DIR. Installs what is missing first (Debian's postgresql,
# redis-server and nginx, and the project's Python packages with quadrille[cluster], and quadrille[eventlet] for
# --async-mode eventlet, into a virtual environment: scripts/venv.sh). An app process that dies is started
# again, after a pause that doubles from 1 s to 30 s while it keeps dying, and the restart is logged.
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
source scripts/venv.sh
use_venv
extras=cluster
case " $* " in *" --async-mode eventlet "* | *" --async-mode=eventlet "*) extras=cluster,eventlet ;; esac
install_into_venv -e ".[$extras]"
exec python scripts/cluster.py "$@"
