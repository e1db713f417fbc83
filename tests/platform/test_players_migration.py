"""Migration 0006 (players) on a database made by the code of the release before it: upgraded in place at
start-up, every match as it was, anonymous tokens still playing, and handed over to an account that signs up.

data/release-0.2.db was made by the code at commit dbd620d (schema revision 0005) through its HTTP API: an
online Trails match of two players with four moves, a local Towers match with one move, a public Gamma match
waiting for players and a by-name Lattice match (tokens below, as that code answered them)."""
from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import insert

from quadrille import create_app
from quadrille.infra import migrate
from tests.platform.test_storage import REVISIONS

AFTER_0005 = REVISIONS[REVISIONS.index("0005") + 1:]  # 0006, 0007 and what came after them
from quadrille.infra.engine import database_url, make_engine
from quadrille.infra.schema import matches_table, seats_table
from quadrille.matches.store import Storage
from tests.support.waiting import wait_until

RELEASE_DB = Path(__file__).parent / "data" / "release-0.2.db"
TRAILS, TOWERS = "mu_sQVSM", "_3xqCz76"
TRAILS_TOKENS = {1: "Vp1v-jU9AuamQoXsZphV5rPM1ZrjZDDW", 2: "Oyo3PNQ9-O2j3eFob6ny2DiZxU8L60_u"}


@pytest.fixture
def release_copy(tmp_path):
    path = tmp_path / "release.db"
    shutil.copy(RELEASE_DB, path)
    return path


def test_a_database_of_the_previous_release_is_upgraded_in_place_at_start_up(release_copy):
    with sqlite3.connect(release_copy) as conn:
        before = {table: sorted(conn.execute(f"SELECT * FROM {table}")) for table in ("matches", "seats", "events")}
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0005",)]
    app = create_app({"DATABASE": str(release_copy), "ACCOUNT_RATE": "1000 per minute"})
    assert app.extensions["quadrille.storage"].applied == AFTER_0005
    client = app.test_client()
    versions = {m: client.get(f"/api/matches/{m}").json["version"] for m in (TRAILS, TOWERS)}
    assert versions == {TRAILS: 4, TOWERS: 1}
    # the summaries lists read (0008) are filled in the background at start-up, by one replay of each match
    summaries = lambda: dict(sqlite3.connect(release_copy).execute("SELECT id, summary FROM matches").fetchall())  # noqa: E731
    wait_until(lambda: None not in summaries().values(), 10, "the summaries of the earlier release's matches")
    assert json.loads(summaries()[TRAILS])["turn"] == client.get(f"/api/matches/{TRAILS}").json["turn"]
    with sqlite3.connect(release_copy) as conn:  # nothing else of the matches changed
        columns = "id, game, options, mode, name, meta, created, version, updated, visibility, listed, revision, paused"
        after = {"matches": sorted(conn.execute(f"SELECT {columns} FROM matches")),
                 **{table: sorted(conn.execute(f"SELECT * FROM {table}")) for table in ("seats", "events")}}
        assert after == before
    # the anonymous tokens of that release play on, and go to the account their holder signs up with
    state = client.get(f"/api/matches/{TRAILS}").json
    played = client.post(f"/api/matches/{TRAILS}/moves", json={"move": state["legal"][0]},
                         headers={"Authorization": f"Bearer {TRAILS_TOKENS[state['turn']]}"})
    assert played.status_code == 200
    signed = client.post("/api/account", json={"name": "ann", "password": "correct horse",
                                               "tokens": {TRAILS: TRAILS_TOKENS[1]}}).json
    assert signed["claimed"] == [{"match": TRAILS, "seats": [1]}]
    assert [g["match"] for g in client.get("/api/me/games").json["games"]] == [TRAILS]
    app.extensions["quadrille.storage"].close()
    again = Storage.sqlite(str(release_copy))
    assert again.applied == []
    again.close()


def test_0006_upgrades_a_0005_database_in_place_on_both_databases(empty_database):
    database = empty_database
    engine = make_engine(database_url(database))
    assert migrate.upgrade(engine, "0005") == ["0001", "0002", "0003", "0004", "0005"]
    now = time.time()
    with engine.begin() as conn:
        conn.execute(insert(matches_table).values(id="m1", game="trails", options='{"size": 5}', mode="local",
                                                  name=None, meta="{}", created=now, version=0, updated=now,
                                                  visibility="private", listed=False, revision=0, paused=False))
        conn.execute(insert(seats_table).values(match_id="m1", seat=1, kind="human", token_hash="ab" * 32,
                                                name="Ann", claimed=now))
    engine.dispose()
    storage = Storage.open(database)
    assert storage.applied == AFTER_0005
    assert storage.load_match("m1").seats[0].name == "Ann"
    storage.close()
    engine = make_engine(database_url(database))
    with engine.connect() as conn:
        migrate._lock(conn)
        from alembic import command
        command.downgrade(migrate.config(conn), "0005")  # and down again: 0006-0008 only added tables and columns
        conn.commit()
    engine.dispose()
    storage = Storage.open(database)
    assert storage.applied == AFTER_0005 and storage.load_match("m1") is not None
    storage.close()
