"""Unopened anonymous imports expire (matches/retention.py), on SQLite and PostgreSQL: the sweep deletes a due
import whole (its row, seats and every event, a thousand a transaction) and nothing else; an import opened by its
player, played or claimed is kept. (tests/security/test_costly.py does the same against a real server.)"""
from __future__ import annotations

import time

from sqlalchemy import func, select

from quadrille import create_app
from quadrille.infra.schema import events_table, seats_table
from tests.security.long_records import towers_record

HOUR = 3600.0


def count(storage, table, match_id) -> int:
    with storage.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table).where(table.c.match_id == match_id)).scalar()


def test_the_sweep_deletes_due_unopened_imports_whole_and_nothing_else(database):
    app = create_app({"DATABASE": database, "RATELIMIT_ENABLED": False, "IMPORT_RETENTION": HOUR})
    client, storage = app.test_client(), app.extensions["quadrille.storage"]
    retention, record = app.extensions["quadrille.retention"], towers_record(2500)
    later = [0.0]
    retention.clock = lambda: time.time() + later[0]  # the sweep's wall clock, moved on below instead of a sleep
    unopened = client.post("/api/matches/import", json=record).json
    assert retention.sweep() == []  # nothing is due yet
    opened, played = (client.post("/api/matches/import", json=record).json for _ in range(2))
    assert client.get(f"/api/matches/{opened['match']}",
                      headers={"Authorization": f"Bearer {opened['token']}"}).status_code == 200  # its player
    state = client.get(f"/api/matches/{played['match']}").json
    client.post(f"/api/matches/{played['match']}/moves", json={"move": state["legal"][0]},
                headers={"Authorization": f"Bearer {played['token']}"})
    made = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    later[0] = HOUR + 1
    assert retention.sweep() == [unopened["match"]]
    assert client.get(f"/api/matches/{unopened['match']}").status_code == 404
    assert count(storage, events_table, unopened["match"]) == 0 and count(storage, seats_table, unopened["match"]) == 0
    for kept in (opened, played, made):
        assert client.get(f"/api/matches/{kept['match']}").status_code == 200
    assert count(storage, events_table, opened["match"]) == 2500
    assert retention.sweep() == [] and retention.store.next_expiry() is None  # the kept ones left the index
    storage.close()
