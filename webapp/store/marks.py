"""Marks: small facts remembered per account (schema m004), such as "the first deck was built".

A mark is a key and a JSON value per user; deleting the user deletes their marks. The first deck
(webapp.decks.build, ``first_deck``) and the home page's first steps (webapp.web.pages) keep theirs here.
"""

import json

from .db import now


def get_mark(db, user_id, key, default=None):
    """The value of the user's mark ``key``, or ``default`` if it was never set."""
    row = db.execute("SELECT value FROM user_marks WHERE user_id = ? AND key = ?", [user_id, key]).fetchone()
    return default if row is None else json.loads(row[0])


def set_mark(db, user_id, key, value=True):
    """Set (or replace) the user's mark ``key`` to ``value`` (anything JSON can hold)."""
    db.execute("INSERT INTO user_marks (user_id, key, value, updated) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated = excluded.updated",
               [user_id, key, json.dumps(value, sort_keys=True), now()])


def get_marks(db, user_id):
    """Every mark of the user as a dict."""
    return {k: json.loads(v) for k, v in
            db.execute("SELECT key, value FROM user_marks WHERE user_id = ? ORDER BY key", [user_id]).fetchall()}
