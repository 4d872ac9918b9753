"""The database at start: create, migrate and seed the file, and close each request's connection.

Above db, schema and seed (they import db; db imports neither), so the store's modules import one
way only (docs/architecture.md).
"""

import os

from .db import close_db, connect
from .schema import migrate
from .seed import seed_from_files


def init_app(app):
    """Register ``close_db`` and, when ``DATABASE`` is set, create, migrate and seed the file."""
    app.teardown_appcontext(close_db)
    path = app.config.get("DATABASE")
    if path:
        prepare(path)


def prepare(path):
    """Create or migrate the schema of ``path`` and seed the pool and loaner decks if they changed."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = connect(path)
    try:
        migrate(db)
        seed_from_files(db)
    finally:
        db.close()
