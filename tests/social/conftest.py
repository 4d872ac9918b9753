"""Friends and the ladder: the online fixtures (an app, users, invitations, socket clients) and a few of
their own: friends made in the store, a friend's socket that counts as online."""

import pytest

from tests.online.conftest import CONFIG, app, carol, invite, started  # noqa: F401 (fixtures)
from tests.play.conftest import connect_as, db, loaner, socketio  # noqa: F401 (fixtures)
from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user, post  # noqa: F401 (fixtures)
from webapp.social import friends


@pytest.fixture
def befriend(db):
    """befriend(a, b): the two users are friends (a asked, b accepted)."""
    def make(a, b):
        friends.ask(db, a["id"], b["id"])
        friends.accept(db, b["id"], a["id"])
    return make


@pytest.fixture
def client_of(app):
    """client_of(user) -> a logged-in HTTP test client."""
    def make(user):
        client = app.test_client()
        log_in(client, user)
        return client
    return make
