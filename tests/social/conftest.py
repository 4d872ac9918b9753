"""Chat fixtures: the online games' app and users (tests/online/conftest.py), a spectator, a host, and
helpers that read what each socket was sent."""

import pytest

from tests.online.conftest import app, carol, invite, started  # noqa: F401 (fixtures)
from tests.play.conftest import connect_as, db, loaner, socketio  # noqa: F401 (fixtures)
from tests.play.helpers import take
from tests.web.conftest import alice, bob, log_in, make_user  # noqa: F401 (fixtures)


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
def table(started, connect_as, alice, bob, carol):
    """(game id, {"alice": socket, "bob": socket, "carol": socket}): an online game alice and bob play,
    carol watching; every socket joined the game and its queue is empty."""
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
