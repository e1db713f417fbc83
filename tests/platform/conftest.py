"""Fixtures shared by the platform tests: an app on the `database` fixture's database (SQLite and PostgreSQL),
and its test client. A module that needs other settings defines its own `app`, which takes precedence."""
from __future__ import annotations

import pytest

from quadrille import create_app


@pytest.fixture
def app(database):
    app = create_app({"DATABASE": database})
    yield app
    app.extensions["quadrille.storage"].close()


@pytest.fixture
def client(app):
    return app.test_client()
