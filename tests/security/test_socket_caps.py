"""Socket caps per address and per user, and the events-a-second limit of one address over several
users (issue 12), in process: Flask-SocketIO's test client with X-Forwarded-For behind PROXY_FIX.
The real-server attack on one user's 30 sockets is test_socket_flood.py."""

import pytest

from tests.play.helpers import errors, states, take
from tests.web.conftest import log_in
from webapp import create_app
from webapp.game import play
from webapp.hosting.ratelimit import Window
from webapp.sockets import floods


@pytest.fixture
def app(instance):
    """The play folder's app (the CPU moves at once) rather than this folder's online one; the other
    fixtures come from tests/security/conftest.py."""
    return create_app({"TESTING": True, "INSTANCE_PATH": instance, "CPU_DELAY": 0})


@pytest.fixture
def from_address(app, socketio, make_user):
    """from_address(user name, address) -> a test client of a new user, connecting from ``address``."""
    app.config.update(PROXY_FIX=True, SOCKETS_PER_ADDRESS=3, SOCKETS_PER_USER=2)
    made = []

    def make(user, address):
        http = app.test_client()
        log_in(http, user)
        client = socketio.test_client(app, flask_test_client=http, headers={"X-Forwarded-For": f"1.1.1.1, {address}"})
        made.append(client)
        return client
    yield make
    for c in made:
        if c.is_connected():
            c.disconnect()


def test_connections_past_the_address_cap_and_the_user_cap_are_refused(app, make_user, from_address):
    users = [make_user(f"friend{n}") for n in range(4)]
    here = [from_address(u, "10.0.0.1") for u in users]
    assert [c.is_connected() for c in here] == [True, True, True, False]  # SOCKETS_PER_ADDRESS = 3
    elsewhere = from_address(users[3], "10.0.0.2")
    assert elsewhere.is_connected()
    assert from_address(users[3], "10.0.0.3").is_connected()
    assert not from_address(users[3], "10.0.0.4").is_connected()  # SOCKETS_PER_USER = 2
    here[0].disconnect()
    assert from_address(users[3], "10.0.0.1").is_connected() is False  # still two of this user's open
    assert from_address(make_user("late"), "10.0.0.1").is_connected()  # a place at the address is free again


def test_one_address_is_limited_over_all_its_users_sockets(app, db, loaner, make_user, from_address, monkeypatch):
    app.config.update(RATE_LIMIT=100, RATE_LIMIT_USER=100, RATE_LIMIT_ADDRESS=30)
    # The limiter's clock stands still, so "60 events at once" holds however slowly this machine runs.
    monkeypatch.setattr(floods, "Window", lambda limit, seconds: Window(limit, seconds, clock=lambda: 0.0))
    users = [make_user(f"house{n}") for n in range(3)]
    clients = [from_address(u, "10.0.0.9") for u in users]
    games = [play.create_cpu_game(db, u, loaner, seed=n) for n, u in enumerate(users)]
    for _ in range(20):  # 60 events from one address at once: 30 are handled
        for c, g in zip(clients, games, strict=True):
            c.emit("join", {"game": g})
    got = [(m["name"], m["args"][0]) for c in clients for m in take(c)]
    refused = [e for e in errors(got) if e["code"] == "rate_limited"]
    assert len(states(got)) == 30 and len(refused) == 30
    assert "from your address" in refused[0]["message"]
    neighbour = make_user("neighbour")
    other = from_address(neighbour, "10.0.0.10")
    other.emit("join", {"game": play.create_cpu_game(db, neighbour, loaner, seed=9)})
    assert states([(m["name"], m["args"][0]) for m in take(other)])  # another address is not limited
