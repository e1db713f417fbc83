"""A real server process for the tests (and for bench/ scripts that want one): `python app.py` on a free
local port with a database of its own, started and stopped by its PID."""
from __future__ import annotations

import tempfile
from pathlib import Path

from scripts.services.app import App

ASYNC_MODES = ("gevent", "eventlet")


class ServerProcess(App):
    """`python app.py` on a free local port with its own database file, and a message queue only when given:
    the cluster's app process (scripts/services/app.py), alone. Its output goes to `log_path`, beside the database."""

    def __init__(self, db: Path, async_mode: str = "gevent", port: int | bool | None = None,
                 settings: dict | None = None, queue: str | None = None, unix_socket: Path | None = None):
        """`settings`: quadrille/settings.py names to values, passed as QUADRILLE_<NAME> (JSON). `unix_socket`:
        listen there (`app.py --unix-socket`; a proxy's way in), and on a TCP port as well only if `port`."""
        super().__init__(db.parent, 1, str(db), queue, port=port, async_mode=async_mode, settings=settings,
                         unix_socket=unix_socket)
        if unix_socket is not None:  # app.py asks for it: a Unix socket has no address to make links from
            self.public_url = f"http://127.0.0.1:{self.port}" if self.port else "http://quadrille.test"
        self.db = db
        self.log_path = db.with_suffix(f".{self.port or 'unix'}.log")


def service_directory(prefix: str) -> Path:
    """A temporary directory the `postgres` system user can reach (pytest's own are private to root)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path
