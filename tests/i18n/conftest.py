"""The web tests' users and clients (tests/web/conftest.py) for the i18n tests."""

from tests.web.conftest import alice, alice_client, bob, log_in, make_user, post  # noqa: F401
