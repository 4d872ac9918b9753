"""Online-game fixtures: an app with R18.4's own grace periods (tests move the clock past them), users, an invitation joined by a friend,
Flask-SocketIO test clients logged in as them (the real-server tests have their own, in
test_real_server.py)."""

import pytest

from tests.play.conftest import connect_as, db, loaner, socketio  # noqa: F401 (fixtures)
from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user, post  # noqa: F401 (fixtures)
from webapp import create_app
from webapp.game import invitations

#: R18.4's grace periods as they are (60 s and 120 s): tests pass them with the ``clock`` fixture, so a
#: loaded machine's slow join never runs one out. A quick ticker, so its next look comes soon.
CONFIG = {"TESTING": True, "CPU_DELAY": 0, "RATE_LIMIT": 10_000, "ONLINE_TICK": 0.05, "ONLINE_CLOCK_MIN_MINUTES": 0}
CLAIM_AFTER, AUTO_AFTER = 60, 120


@pytest.fixture
def app(instance):
    app = create_app(dict(CONFIG, INSTANCE_PATH=instance))
    yield app
    app.extensions["brigade_online"].stop()


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def invite(db, loaner):
    """invite(user, clock_ms=…) -> (game id, code) of a new invitation with the loaner deck."""
    def make(user, clock_ms=15 * 60_000):
        return invitations.create_invitation(db, user, loaner, clock_ms)
    return make


@pytest.fixture
def started(app, db, loaner, invite, alice, bob):
    """started(clock_ms=…) -> the id of a game alice invited bob to, which bob joined (both loaner decks)."""
    def make(clock_ms=15 * 60_000, inviter=alice, friend=bob):
        game_id, code = invite(inviter, clock_ms)
        row = invitations.join(db, code, friend, loaner)
        app.extensions["brigade_online"].track(db, row)
        return game_id
    return make
