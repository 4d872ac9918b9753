"""Play fixtures: an app whose CPU moves at once, users in its real SQLite file, socket clients.

The web fixtures (users, log_in) come from tests/web/conftest.py.
"""

import time

import pytest

from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user  # noqa: F401 (fixtures)
from webapp import create_app
from webapp.store import connect, get_loaner


@pytest.fixture
def app(instance):
    """An app on its own instance folder; the CPU plays without pauses."""
    return create_app({"TESTING": True, "INSTANCE_PATH": instance, "CPU_DELAY": 0})


@pytest.fixture
def db(app):
    """A connection of the test's own to the app's database file."""
    database = connect(app.config["DATABASE"])
    yield database
    database.close()


@pytest.fixture
def loaner(db):
    """The Prince's Brigade loaner deck's id."""
    return get_loaner(db, "princes-brigade")["id"]


@pytest.fixture
def friend(db, alice, bob):
    """bob, made alice's friend: who may watch her games by default (docs/security.md "Watching")."""
    from webapp.social import friends
    friends.ask(db, bob["id"], alice["id"])
    friends.accept(db, alice["id"], bob["id"])
    return bob


@pytest.fixture
def socketio(app):
    return app.extensions["socketio"]


@pytest.fixture
def connect_as(app, socketio):
    """connect_as(user) -> a Socket.IO test client logged in as ``user`` (None: a visitor)."""
    clients = []

    def make(user):
        http = app.test_client()
        if user is not None:
            log_in(http, user)
        client = socketio.test_client(app, flask_test_client=http)
        clients.append(client)
        return client

    yield make
    for client in clients:
        if client.is_connected():
            client.disconnect()
    wait_for_cpu(app)


def wait_for_cpu(app, timeout=30.0):
    """Wait until no CPU task of the app is running."""
    hub = app.extensions["brigade_hub"]
    deadline = time.monotonic() + timeout
    while hub.cpu and time.monotonic() < deadline:
        time.sleep(0.005)
    assert not hub.cpu, "a CPU task is still running"
