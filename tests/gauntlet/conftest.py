"""Gauntlet fixtures: an app whose CPU moves at once, its SQLite file and users (tests/play/conftest.py)."""

from tests.play.conftest import app, db  # noqa: F401 (fixtures)
from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user, post  # noqa: F401 (fixtures)
