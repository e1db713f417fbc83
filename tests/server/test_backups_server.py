"""`python -m quadrille admin backup` and `restore` against real servers that keep playing while the backup is
taken, on SQLite and on PostgreSQL: the restored database, served by a new server process, serves the same
matches through the API (every move acknowledged before the backup began, and none torn), and a backup taken
once the writers stop serves exactly the same events and moves."""
from __future__ import annotations

import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import uuid

import pytest
import requests

from tests.support.databases import drop_database
from tests.support.paths import ROOT
from tests.support.servers import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.server

SETTINGS = {"RATELIMIT_ENABLED": False}   # the writers play flat out from one address
GAMES = ("trails", "gamma")


def admin(*argv: str, database: str) -> subprocess.CompletedProcess:
    """The operator's command, in a process of its own; the database (a URL with its password) in the
    environment, as app.py takes it, not on the command line."""
    env = {**os.environ, "QUADRILLE_DB": database, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "quadrille", "admin", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


class Writer(threading.Thread):
    """Plays random legal moves in hot-seat matches of its own over HTTP, one after another, starting a new
    match when one ends; `acknowledged[match]` counts the moves the server answered 200 to."""

    def __init__(self, url: str, seed: int):
        super().__init__(daemon=True)
        self.url, self.rng = url, random.Random(seed)
        self.acknowledged: dict[str, int] = {}
        self.stopping, self.failure = threading.Event(), None

    def run(self) -> None:
        http = requests.Session()
        try:
            while not self.stopping.is_set():
                created = http.post(f"{self.url}/api/matches", json={"game": self.rng.choice(GAMES), "mode": "local"},
                                    timeout=10).json()
                match, auth = created["match"], {"Authorization": f"Bearer {created['token']}"}
                self.acknowledged[match] = 0
                state = http.get(f"{self.url}/api/matches/{match}", timeout=10).json()
                while state["outcome"] is None and not self.stopping.is_set():
                    answer = http.post(f"{self.url}/api/matches/{match}/moves", headers=auth, timeout=10,
                                       json={"move": self.rng.choice(state["legal"]), "version": state["version"]})
                    assert answer.status_code == 200, answer.text
                    state = answer.json()
                    self.acknowledged[match] += 1
        except BaseException as exc:  # the test reports it
            self.failure = exc

    def moves(self) -> int:
        return sum(self.acknowledged.values())


def served(url: str, match: str) -> dict:
    """What a server serves of a match: its record and the STATE's moves, version and outcome."""
    record = requests.get(f"{url}/api/matches/{match}/record", timeout=10)
    state = requests.get(f"{url}/api/matches/{match}", timeout=10)
    if record.status_code == 404:
        return {}
    assert record.status_code == 200 and state.status_code == 200, (record.text, state.text)
    state = state.json()
    return {"record": record.json(), "moves": state["moves"], "version": state["version"],
            "outcome": state["outcome"], "view": state["view"]}


def counted(said: str) -> tuple[str, str]:
    """The matches and the events a backup or a restore says it holds."""
    return re.search(r"(\d+) matches, (\d+) events and moves", said).groups()


class Databases:
    """New databases for one kind: a SQLite file's path, or a new empty PostgreSQL database's URL."""

    def __init__(self, kind: str, tmp_path, request):
        self.kind, self.tmp_path, self.request, self.made = kind, tmp_path, request, []

    def live(self) -> str:
        return self.request.getfixturevalue("database")

    def new(self, name: str) -> str:
        if self.kind == "sqlite":
            return str(self.tmp_path / f"{name}.db")
        server = self.request.getfixturevalue("postgres_server")
        database = f"t_{name}_{uuid.uuid4().hex[:8]}"
        self.made.append((server, database))
        return server.create_database(database)

    def drop(self) -> None:
        for server, name in self.made:
            drop_database(server, name)


def start_server(tmp_path, database: str, name: str) -> ServerProcess:
    server = ServerProcess(tmp_path / f"{name}.db", settings=SETTINGS)
    server.database = database  # a PostgreSQL URL, or a file other than the log's neighbour
    return server.start()


def test_a_backup_taken_while_matches_are_played_restores_into_a_server_that_serves_the_same_matches(
        database, tmp_path, request):
    kind = "sqlite" if "://" not in database else "postgresql"
    databases = Databases(kind, tmp_path, request)
    original = start_server(tmp_path, database, "original")
    writers = [Writer(original.url, seed) for seed in (1, 2)]
    try:
        for writer in writers:
            writer.start()
        wait_until(lambda: sum(w.moves() for w in writers) >= 150, 60, "150 moves played")
        before = {match: n for w in writers for match, n in dict(w.acknowledged).items()}
        taken = admin("backup", str(tmp_path / "mid-flight.backup"), database=database)
        assert taken.returncode == 0, taken.stderr
        assert "backed up" in taken.stdout and "schema revision" in taken.stdout
        after = sum(w.moves() for w in writers)
        wait_until(lambda: sum(w.moves() for w in writers) >= after + 50, 60, "50 moves more")
        for writer in writers:
            writer.stopping.set()
            writer.join(30)
            assert writer.failure is None, writer.failure
        final = admin("backup", str(tmp_path / "final.backup"), database=database)
        assert final.returncode == 0, final.stderr
        matches = [match for w in writers for match in w.acknowledged]
        originals = {match: served(original.url, match) for match in matches}
    finally:
        for writer in writers:
            writer.stopping.set()
        original.stop()
    assert (tmp_path / "mid-flight.backup").stat().st_mode & 0o077 == 0  # its owner's alone

    try:
        # The mid-flight backup: every move acknowledged before it began, and each match a prefix of itself.
        restored = databases.new("restored")
        done = admin("restore", str(tmp_path / "mid-flight.backup"), database=restored)
        assert done.returncode == 0, done.stderr
        assert "restored into" in done.stdout and "no migration was needed" in done.stdout
        assert counted(done.stdout) == counted(taken.stdout)  # what the backup said it holds, every row of it
        second = start_server(tmp_path, restored, "second")
        try:
            restored_moves = 0
            for match in matches:
                got = served(second.url, match)
                if not got:
                    assert match not in before or before[match] == 0, f"{match} lost"
                    continue
                moves = len(got["moves"])
                restored_moves += moves
                assert moves >= before.get(match, 0), (match, moves)  # acknowledged before the backup began
                assert got["moves"] == originals[match]["moves"][:moves]  # the match as it stood then, not torn
                assert got["record"]["moves"] == originals[match]["record"]["moves"][:len(got["record"]["moves"])]
            assert sum(before.values()) <= restored_moves < sum(len(o["moves"]) for o in originals.values())
            # A running server's database is not overwritten unless forced, and nothing changed.
            serving = {match: served(second.url, match) for match in matches}
            refused = admin("restore", str(tmp_path / "final.backup"), database=restored)
            assert refused.returncode == 1 and "a server is running" in refused.stderr, refused.stderr
            assert {match: served(second.url, match) for match in matches} == serving
        finally:
            second.stop()

        # The final backup, forced over the first restore: exactly the same matches.
        forced = admin("restore", str(tmp_path / "final.backup"), "--force", database=restored)
        assert forced.returncode == 0, forced.stderr
        assert "--force: replaced" in forced.stdout
        third = start_server(tmp_path, restored, "third")
        try:
            for match in matches:
                assert served(third.url, match) == originals[match], match
        finally:
            third.stop()
    finally:
        databases.drop()


def test_a_copy_of_the_live_sqlite_file_misses_what_the_write_ahead_log_holds_and_a_backup_does_not(
        sqlite_database, tmp_path):
    """A few moves on a running server stay in the WAL (SQLite folds it into the file every 1,000 pages):
    `cp` of the file alone copies none of them, the backup every one."""
    server = ServerProcess(tmp_path / "quadrille.db", settings=SETTINGS).start()
    try:
        created = requests.post(f"{server.url}/api/matches", json={"game": "gamma", "mode": "local"}).json()
        match, auth = created["match"], {"Authorization": f"Bearer {created['token']}"}
        state = requests.get(f"{server.url}/api/matches/{match}").json()
        for ply in range(20):
            state = requests.post(f"{server.url}/api/matches/{match}/moves", headers=auth,
                                  json={"move": state["legal"][ply % len(state["legal"])]}).json()
        assert len(state["moves"]) == 20 and state["outcome"] is None
        shutil.copyfile(sqlite_database, tmp_path / "copied.db")
        taken = admin("backup", str(tmp_path / "backup.db"), database=sqlite_database)
        assert taken.returncode == 0, taken.stderr
    finally:
        server.stop()

    def moves_in(path) -> int:
        with sqlite3.connect(path) as conn:
            return conn.execute("SELECT count(*) FROM events WHERE match_id = ?", (match,)).fetchone()[0]
    assert moves_in(tmp_path / "copied.db") < 20   # none, unless SQLite happened to fold the log in meanwhile
    assert moves_in(tmp_path / "backup.db") == 20
