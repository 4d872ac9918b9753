"""Fixtures shared by the whole suite: an app on a fresh instance folder and its client.

Engine, card and property tests keep their fixtures in their own folders' conftest.py.
"""

import pytest

from webapp import create_app


@pytest.fixture
def app(tmp_path):
    """An app in testing mode whose instance folder (and so its database) is per test."""
    return create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance"})


@pytest.fixture
def client(app):
    """Flask's test client for ``app``."""
    return app.test_client()
