"""Logging out revokes the session (issue 12, Low). The attack on the old server: a session cookie
copied before its user logged out kept working afterwards, for pages and for live play."""

import pytest

from tests.security.conftest import PASSWORD, post
from webapp.store import connect
from webapp.store.users import create_user
from tests.web.conftest import stored_hash


@pytest.fixture
def victim(app):
    db = connect(app.config["DATABASE"])
    user = create_user(db, "victim", stored_hash(PASSWORD))
    db.close()
    return user


def logged_in_for_real(app):
    client = app.test_client()
    answer = post(client, "/login", {"name": "victim", "password": PASSWORD})
    assert answer.status_code == 302
    return client


def captured_cookie(client):
    return client.get_cookie("session").value


def thief_with(app, cookie):
    thief = app.test_client()
    thief.set_cookie("session", cookie)
    return thief


def test_a_cookie_captured_before_logout_opens_no_page_afterwards(app, victim):
    client = logged_in_for_real(app)
    stolen = captured_cookie(client)
    assert thief_with(app, stolen).get("/decks").status_code == 200  # works while the victim is in
    post(client, "/logout")
    after = thief_with(app, stolen).get("/decks")
    assert after.status_code == 302 and "/login" in after.headers["Location"]
    assert "victim" not in thief_with(app, stolen).get("/").get_data(as_text=True)


def test_a_cookie_captured_before_logout_opens_no_socket_afterwards(app, socketio, victim):
    client = logged_in_for_real(app)
    stolen = captured_cookie(client)
    before = socketio.test_client(app, flask_test_client=thief_with(app, stolen))
    assert before.is_connected()
    before.disconnect()
    post(client, "/logout")
    after = socketio.test_client(app, flask_test_client=thief_with(app, stolen))
    assert not after.is_connected()


def test_logging_in_again_gives_a_cookie_that_works(app, victim):
    client = logged_in_for_real(app)
    post(client, "/logout")
    again = logged_in_for_real(app)
    assert again.get("/decks").status_code == 200
    assert thief_with(app, captured_cookie(again)).get("/decks").status_code == 200
