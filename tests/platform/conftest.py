"""Fixtures shared by the platform tests, on the `database` fixture's database (a copy of the migrated
template, SQLite then PostgreSQL: tests/conftest.py).

    app, client     an app and its test client; a module that needs other settings says so once, with
                    `pytestmark = pytest.mark.app_settings(NAME=value, ...)` (quadrille/settings.py names)
    make_app        make_app(**settings): more apps on the same database (closed after the test)
    ann, bob        players with accounts on `app` (tests/support/players.py)
    clock           a clock moved by hand (tests/support/clock.py)
    make_service    make_service(*args, computer=None, **kwargs): a MatchService on its own Storage of the
                    database; `computer`: ComputerPlayers' settings, for real computer workers
    service         a MatchService with one computer worker (the computer's and the endings' tests); modules
                    that need another build theirs with make_service
"""
from __future__ import annotations

import time

import pytest

from quadrille import create_app
from quadrille.computer import ComputerPlayers
from quadrille.matches.store import Storage
from quadrille.matches import MatchService
from tests.support.clock import Clock
from tests.support.players import Player
from tests.support.tasks import start_task


@pytest.fixture
def make_app(database):
    made = []

    def make(**settings):
        app = create_app({"DATABASE": database, **settings})
        made.append(app)
        return app
    yield make
    for app in made:
        app.extensions["quadrille.storage"].close()


@pytest.fixture
def app(request, make_app):
    mark = request.node.get_closest_marker("app_settings")
    return make_app(**(mark.kwargs if mark else {}))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def ann(app):
    return Player(app, "ann")


@pytest.fixture
def bob(app):
    return Player(app, "bob")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make_service(database):
    made = []

    def make(*args, computer: dict | None = None, storage=None, **kwargs) -> MatchService:
        svc = MatchService(storage or Storage.open(database), *args, **kwargs)
        if computer is not None:
            svc.computer = ComputerPlayers(svc, start_task, time.sleep, **computer)
        made.append(svc)
        return svc
    yield make
    for svc in made:
        if svc.computer is not None:
            svc.computer.close()
        svc.storage.close()


@pytest.fixture
def service(make_service):
    return make_service(computer={"size": 1, "demo_delay": 0.01})
