"""Connections: pragmas, the database path, transactions, and one connection per request."""

import sqlite3
import threading
import time

import pytest
from flask import Flask

from webapp.store import WRITERS_WAITING, connect, default_path, get_db, init_app, transaction


def test_connect_turns_on_wal_foreign_keys_and_a_5_second_busy_timeout(db_path):
    db = connect(db_path)
    assert db.journal_mode == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    db.close()


def test_default_path_is_brigade_db_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("BRIGADE_DB", raising=False)
    assert default_path(str(tmp_path)) == str(tmp_path / "brigade.db")


def test_default_path_comes_from_brigade_db_when_set(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIGADE_DB", str(tmp_path / "elsewhere.db"))
    assert default_path("/ignored") == str(tmp_path / "elsewhere.db")


def test_transaction_rolls_everything_back_on_error(db, alice):
    with pytest.raises(RuntimeError), transaction(db):
        db.execute("UPDATE users SET name = 'Changed'")
        raise RuntimeError("boom")
    assert db.execute("SELECT name FROM users").fetchall() == [("Alice",)]
    assert not db.conn.in_transaction


def test_nested_transaction_rolls_back_only_the_inner_block(db, alice):
    with transaction(db):
        db.execute("UPDATE users SET is_admin = 1")
        with pytest.raises(RuntimeError), transaction(db):
            db.execute("UPDATE users SET name = 'Changed'")
            raise RuntimeError("boom")
    assert db.execute("SELECT name, is_admin FROM users").fetchall() == [("Alice", 1)]


def test_a_write_waiting_for_the_lock_is_counted_until_it_has_it(db_path):
    holder, waiter = connect(db_path), connect(db_path)
    holder.conn.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    done = threading.Event()

    def write():
        with transaction(waiter):
            waiter.execute("CREATE TABLE waited (x)")
        done.set()
    t = threading.Thread(target=write, daemon=True)
    t.start()
    deadline = time.monotonic() + 4
    while WRITERS_WAITING.count < 1 and time.monotonic() < deadline:
        time.sleep(0.001)
    assert WRITERS_WAITING.count == 1 and not done.is_set()
    holder.conn.execute("ROLLBACK")
    t.join(10)
    assert done.is_set() and WRITERS_WAITING.count == 0
    assert "waited" in holder.table_names()
    holder.close()
    waiter.close()


def test_foreign_keys_are_enforced(db):
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO collection (user_id, card_id, count) VALUES (99, 'orc', 1)")


@pytest.fixture
def app(db_path):
    app = Flask(__name__)
    app.config["DATABASE"] = str(db_path)
    return app


def test_get_db_lends_one_connection_per_request_and_takes_it_back_at_teardown(app):
    init_app(app)
    with app.app_context():
        db = get_db()
        assert get_db() is db
        assert db.execute("SELECT count(*) FROM schema_version").fetchone()[0] >= 1
        with app.app_context():  # a request inside another never shares its connection
            other = get_db()
            assert other is not db
        db.execute("BEGIN")
        db.execute("INSERT INTO settings (key, value) VALUES ('left', '1')")
    # given back, not closed: the next request borrows it, with the transaction its holder left rolled back
    with app.app_context():
        again = get_db()
        assert again in (db, other)
        assert not again.conn.in_transaction
        assert again.execute("SELECT count(*) FROM settings WHERE key = 'left'").fetchone()[0] == 0
        again.close()  # a holder that closes its connection: the pool does not lend it out again
    with app.app_context():
        fresh = get_db()
        assert fresh is not again
        assert fresh.execute("SELECT 1").fetchone()[0] == 1


def test_init_app_without_a_database_creates_nothing(tmp_path):
    app = Flask(__name__)
    app.config["DATABASE"] = None
    init_app(app)
    assert list(tmp_path.iterdir()) == []
    with app.app_context(), pytest.raises(RuntimeError, match="no database configured"):
        get_db()
