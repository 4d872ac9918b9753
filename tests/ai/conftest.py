"""AI fixtures: the play folder's app (its CPU moves at once), database and loaner deck, and the web
folder's users, for the tests that start CPU games through the pages."""

from tests.play.conftest import app, db, loaner  # noqa: F401 (fixtures)
from tests.web.conftest import alice, make_user  # noqa: F401 (fixtures)
