"""Fixtures for store tests: a real SQLite file per test, the real pool, small deck files."""

import pytest

from webapp.cards.decks import load_decks
from webapp.engine import load_pool
from webapp.store import connect, create_user, migrate

from .helpers import write_deck


@pytest.fixture
def db_path(tmp_path):
    """Where this test's database file lives."""
    return tmp_path / "brigade.db"


@pytest.fixture
def db(db_path):
    """A migrated database on a fresh file, closed after the test."""
    database = connect(db_path)
    migrate(database)
    yield database
    database.close()


@pytest.fixture(scope="session")
def pool():
    """The real card pool from cards/pool."""
    return load_pool()


@pytest.fixture
def decks(tmp_path, pool):
    """A loaner deck of 30 orcs, ``orc-brigade``, loaded from its own folder."""
    return load_decks(pool, write_deck(tmp_path / "decks", "orc-brigade", {"orc": 30}))


@pytest.fixture
def alice(db):
    """A user called Alice."""
    return create_user(db, "Alice", "hash-a")


@pytest.fixture
def bob(db):
    """A user called Bob."""
    return create_user(db, "Bob", "hash-b")
