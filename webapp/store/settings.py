"""Host settings: a key → JSON value table (registration open, message of the day, seed hash)."""

import json


def get_setting(db, key, default=None):
    """The value stored under ``key``, or ``default``."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
    return default if row is None else json.loads(row[0])


def set_setting(db, key, value):
    """Store ``value`` (anything JSON can hold) under ``key``."""
    db["settings"].upsert({"key": key, "value": json.dumps(value, sort_keys=True)}, pk="key")


def all_settings(db):
    """Every setting as a dict."""
    return {row["key"]: json.loads(row["value"]) for row in db.query("SELECT key, value FROM settings ORDER BY key")}


def has_setting(db, key):
    """Whether anything is stored under ``key`` (a host's choice on the admin page, not config.py's)."""
    return db.execute("SELECT 1 FROM settings WHERE key = ?", [key]).fetchone() is not None
