"""Attack tests of the web side (issue 12): each one is written as the attack, and passes only
when the attack fails. Fixtures come from the online, play and web folders."""

import pytest

from tests.online.conftest import CONFIG, carol, invite, started  # noqa: F401 (fixtures)
from tests.play.conftest import connect_as, db, friend, loaner, socketio  # noqa: F401 (fixtures)
from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user, post  # noqa: F401 (fixtures)
from tests.social.conftest import befriend, host, host_client, table  # noqa: F401 (fixtures: the chat attacks)
from webapp import create_app


@pytest.fixture
def app(instance):
    app = create_app(dict(CONFIG, INSTANCE_PATH=instance))
    yield app
    app.extensions["brigade_online"].stop()


def client_of(app, user, address="127.0.0.1"):
    """A test client logged in as ``user`` whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    if user is not None:
        log_in(client, user)
    return client


def text(response):
    return response.get_data(as_text=True)
