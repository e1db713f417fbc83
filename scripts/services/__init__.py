"""The servers of a one-machine cluster, one module each, as scripts/cluster.py, the tests and bench/ start them:

    process.py   Service: a server process started here and stopped by its PID; free ports, the process tree
    users.py     which system user each server runs as; private directories, secret files, passwords
    postgres.py  PostgreSQL: its two roles and their passwords; an older passwordless data directory converted
    redis.py     Redis: its one ACL user and its configuration
    nginx.py     nginx in front: deploy/nginx.conf written for this machine, checked, started
    app.py       one app process (`python app.py`) on a given database and message queue
    chromium.py  Debian's Chromium, launched through Playwright (the browser tests, bench/pages.py, screenshots)
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent  # the project's root: app.py, deploy/
