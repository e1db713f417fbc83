"""Migration 0010 (blocks, accounts' look-alike keys, rated matches' verdicts) on a database at 0007 that
already holds accounts, two of which look alike: each gets its key, the younger look-alike a key of its own
(both keep their names), and nobody can sign up as a third look-alike. On SQLite and PostgreSQL."""
from __future__ import annotations

import time

from sqlalchemy import select, text

from quadrille import create_app
from quadrille.infra import migrate
from quadrille.infra.schema import accounts_table
from quadrille.infra.engine import make_engine, database_url


def test_0010_gives_existing_accounts_their_look_alike_keys(empty_database):
    database = empty_database
    engine = make_engine(database_url(database))
    assert migrate.upgrade(engine, "0007")[-1] == "0007"
    with engine.begin() as conn:
        for name in ("annl", "Bob", "ann1"):  # made before 0010: nothing stopped the look-alike
            conn.execute(text("INSERT INTO accounts (name, name_key, password_hash, seat_salt, session_epoch, created)"
                              " VALUES (:name, :key, 'x', 'salt', 0, :now)"),
                         {"name": name, "key": name.lower(), "now": time.time()})
    assert migrate.upgrade(engine, "head")[:3] == ["0008", "0009", "0010"]
    with engine.connect() as conn:
        keys = dict(conn.execute(select(accounts_table.c.name, accounts_table.c.name_skeleton)).all())
        ids = dict(conn.execute(select(accounts_table.c.name, accounts_table.c.id)).all())
    assert keys == {"annl": "annl", "Bob": "bob", "ann1": f"annl#{ids['ann1']}"}
    with engine.begin() as conn:  # the table rebuilt for the key stays AUTOINCREMENT: a deleted id is not given again
        conn.execute(text("DELETE FROM accounts WHERE name = 'ann1'"))
        conn.execute(text("INSERT INTO accounts (name, name_key, name_skeleton, password_hash, seat_salt, created)"
                          " VALUES ('carl', 'carl', 'carl', 'x', 'salt', 0)"))
        assert conn.execute(text("SELECT id FROM accounts WHERE name = 'carl'")).scalar_one() > ids["ann1"]
    engine.dispose()
    app = create_app({"DATABASE": database, "ACCOUNT_RATE": "1000 per minute"})
    try:
        client = app.test_client()
        for name, status in (("annI", 409), ("BOB", 409), ("b0b", 409), ("bobby", 201)):
            answer = client.post("/api/account", json={"name": name, "password": "correct horse"})
            assert answer.status_code == status, (name, answer.json)
    finally:
        app.extensions["quadrille.storage"].close()
