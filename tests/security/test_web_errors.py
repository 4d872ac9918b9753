"""Styled error pages, and a locked or read-only database answered with "try again" (issue 12, Low).
The old server gave a bare 500 page when the database could not be written, and logged a
traceback for every request while it lasted."""

import logging

import pytest

from tests.security.conftest import client_of, post, text
from webapp import create_app
from webapp.store import connect
from webapp.store import db as store_db
from webapp.store import pool as store_pool


def looks_like_the_site(page):
    return 'class="site-header"' in page and 'href="/"' in page and "Traceback" not in page


def test_a_missing_page_is_the_styled_404(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    page = text(response)
    assert looks_like_the_site(page) and "Nothing here" in page and "Back to the start page" in page


def test_a_crash_is_the_styled_500_without_a_traceback(tmp_path):
    app = create_app({"INSTANCE_PATH": tmp_path / "instance"})  # not TESTING: errors are handled

    def broken():
        raise RuntimeError("secret internals")

    app.add_url_rule("/_broken", "broken", broken)
    response = app.test_client().get("/_broken")
    assert response.status_code == 500
    page = text(response)
    assert looks_like_the_site(page) and "Something went wrong" in page and "secret internals" not in page


@pytest.fixture
def locked(app, monkeypatch):
    """Another process holds the database's write lock (a manual sqlite3 session, a backup...)."""
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT", 0.05, raising=False)
    store_pool.pool_of(app, app.config["DATABASE"]).close()  # its connections waited 5 s: open new ones
    holder = connect(app.config["DATABASE"])
    holder.conn.execute("BEGIN IMMEDIATE")
    yield
    holder.conn.execute("ROLLBACK")
    holder.close()


def test_a_locked_database_says_try_again_and_is_logged_once(app, alice, locked, caplog):
    caplog.set_level(logging.ERROR)
    client = client_of(app, alice)
    for _ in range(5):
        response = post(client, "/logout")  # a write
        assert response.status_code == 503 and response.headers["Retry-After"]
        page = text(response)
        assert looks_like_the_site(page) and "try again" in page and "Try again" in page
    assert len([r for r in caplog.records if "database is locked" in r.getMessage()]) == 1


def test_a_read_only_database_says_try_again_and_is_logged_once(app, alice, monkeypatch, caplog):
    real = store_pool.connect

    def read_only(path):
        db = real(path)
        db.execute("PRAGMA query_only = ON")
        return db

    monkeypatch.setattr(store_pool, "connect", read_only)
    caplog.set_level(logging.ERROR)
    client = client_of(app, alice)
    store_pool.pool_of(app, app.config["DATABASE"]).close()  # the connections opened before: read-only from now
    for _ in range(3):
        response = post(client, "/logout")
        assert response.status_code == 503 and "try again" in text(response)
    assert len([r for r in caplog.records if "readonly" in r.getMessage()]) == 1
    assert client.get("/decks").status_code == 200  # reading still works
