"""Friends, the ladder and chat: the online fixtures (an app, users, invitations, socket clients) and a
few of their own: friends made in the store, a spectator, a host, and helpers that read what each socket
was sent."""

import pytest

from tests.online.conftest import CONFIG, app, carol, invite, started  # noqa: F401 (fixtures)
from tests.play.conftest import connect_as, db, loaner, socketio  # noqa: F401 (fixtures)
from tests.play.helpers import take
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


@pytest.fixture
def host(make_user, db):
    user = make_user("hostess")
    db.execute("UPDATE users SET is_admin = 1 WHERE id = ?", [user["id"]])
    db.conn.commit()
    return dict(user, is_admin=True)


@pytest.fixture
def host_client(app, host):
    client = app.test_client()
    log_in(client, host)
    return client


@pytest.fixture
def table(started, connect_as, alice, bob, carol, befriend):
    """(game id, {"alice": socket, "bob": socket, "carol": socket}): an online game alice and bob play,
    carol (alice's friend: who may watch, docs/security.md "Watching") watching; every socket joined the
    game and its queue is empty."""
    befriend(alice, carol)
    game_id = started()
    socks = {"alice": connect_as(alice), "bob": connect_as(bob), "carol": connect_as(carol)}
    for sock in socks.values():
        sock.emit("join", {"game": game_id})
        take(sock)
    return game_id, socks


def said(sock, event="chat"):
    """The payloads of ``event`` the socket was sent since the last look (the rest is dropped)."""
    return [m["args"][0] for m in take(sock) if m["name"] == event]


def answers(sock):
    """[(event, payload)] of the chat's events and errors the socket was sent since the last look (the
    game's own events, such as presence, are dropped)."""
    return [(m["name"], m["args"][0] if m["args"] else None) for m in take(sock)
            if m["name"].startswith("chat") or m["name"] == "error"]
