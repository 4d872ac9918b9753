"""Web test fixtures: users in the app's real SQLite file, logged-in clients, CSRF-aware posting."""

import functools

import pytest

from webapp.store import connect
from webapp.store.users import create_user
from webapp.accounts.passwords import hash_password

PASSWORD = "correct horse battery"


@functools.cache
def stored_hash(password):
    """A real scrypt hash of ``password``, made once per test run: each costs about 0.1 s of CPU, and
    hundreds of tests make users. Users made with one password share its salt, which no test of
    theirs can tell (logging in verifies the hash for real; tests/web/test_passwords.py tests the
    hashing itself, salts included)."""
    return hash_password(password)


@pytest.fixture
def make_user(app):
    """make_user(name, password=PASSWORD) -> the stored user dict."""
    def make(name, password=PASSWORD):
        db = connect(app.config["DATABASE"])
        try:
            return create_user(db, name, stored_hash(password))
        finally:
            db.conn.close()
    return make


def log_in(client, user):
    """Mark the client's session as the user's, with a CSRF token; returns the token."""
    with client.session_transaction() as sess:
        sess["user_id"] = user["id"]
        sess["csrf"] = token = f"test-token-{user['id']}"
    return token


def post(client, url, data=None, **kwargs):
    """POST with the session's CSRF token added (as a real form would)."""
    with client.session_transaction() as sess:
        token = sess.setdefault("csrf", "test-token")
    data = dict(data or {}, csrf_token=token)
    return client.post(url, data=data, **kwargs)


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def alice_client(app, alice):
    client = app.test_client()
    log_in(client, alice)
    return client
