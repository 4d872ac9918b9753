"""Fixtures for crafting, deck lists as text and the economy: a real SQLite file (a copy of the seeded
one) and users on it."""

import pytest

from webapp.engine import load_pool
from webapp.store import connect
from webapp.store.users import create_user

POOL = load_pool()


@pytest.fixture
def db_path(instance):
    return str(instance / "brigade.db")


@pytest.fixture
def db(db_path):
    database = connect(db_path)
    yield database
    database.conn.close()


@pytest.fixture
def user(db):
    return create_user(db, "alice", "hash")


@pytest.fixture
def pool():
    return POOL
