"""Users: names are unique ignoring case; the store keeps a password hash, never a password."""

import sqlite3

from .db import now
from .errors import BadName, NameTaken, UserNotFound

COLUMNS = "id, name, password_hash, created, is_admin, last_login, session_version, disabled, last_seen"


def user_row(row):
    """A users row as a dict with ``is_admin`` (a host, docs/admin.md) and ``disabled`` as bools."""
    return None if row is None else dict(row, is_admin=bool(row["is_admin"]), disabled=bool(row["disabled"]))


def create_user(db, name, password_hash, is_admin=False):
    """Create a user and return it; raise NameTaken if the name is used in any letter case."""
    name = name.strip()
    if not name:
        raise BadName("a user name cannot be empty")
    try:
        user_id = db["users"].insert({"name": name, "password_hash": password_hash,
                                      "created": now(), "is_admin": int(is_admin)}).last_pk
    except sqlite3.IntegrityError as exc:
        if "users.name" in str(exc):
            raise NameTaken(f"the name {name!r} is taken") from None
        raise
    return get_user(db, user_id)


def get_user(db, user_id):
    """The user with this id; raise UserNotFound if there is none."""
    rows = list(db.query(f"SELECT {COLUMNS} FROM users WHERE id = ?", [user_id]))
    if not rows:
        raise UserNotFound(f"no user has id {user_id!r}")
    return user_row(rows[0])


def get_user_by_name(db, name):
    """The user of this name in any letter case, or None."""
    rows = list(db.query(f"SELECT {COLUMNS} FROM users WHERE name = ?", [name.strip()]))
    return user_row(rows[0]) if rows else None


def set_password_hash(db, user_id, password_hash):
    """Replace a user's password hash."""
    if db.execute("UPDATE users SET password_hash = ? WHERE id = ?", [password_hash, user_id]).rowcount != 1:
        raise UserNotFound(f"no user has id {user_id!r}")


def record_login(db, user_id):
    """Set the user's ``last_login`` to now."""
    if db.execute("UPDATE users SET last_login = ? WHERE id = ?", [now(), user_id]).rowcount != 1:
        raise UserNotFound(f"no user has id {user_id!r}")


def user_count(db):
    """How many users there are (the first one to register may become the admin)."""
    return db.execute("SELECT count(*) FROM users").fetchone()[0]


def revoke_sessions(db, user_id):
    """Log the user out everywhere: every session made before now stops working (docs/security.md)."""
    if db.execute("UPDATE users SET session_version = session_version + 1 WHERE id = ?", [user_id]).rowcount != 1:
        raise UserNotFound(f"no user has id {user_id!r}")


def known_place(db, user_id, place):
    """Whether the user has logged in from ``place`` (a keyed hash of an address) before."""
    return db.execute("SELECT 1 FROM known_logins WHERE user_id = ? AND place = ?", [user_id, place]).fetchone() is not None


def remember_place(db, user_id, place, keep=20):
    """Record a log-in from ``place``; keep the user's ``keep`` most recent places."""
    db.execute("INSERT INTO known_logins (user_id, place, seen) VALUES (?, ?, ?) "
               "ON CONFLICT (user_id, place) DO UPDATE SET seen = excluded.seen", [user_id, place, now()])
    db.execute("DELETE FROM known_logins WHERE user_id = ? AND place NOT IN (SELECT place FROM known_logins "
               "WHERE user_id = ? ORDER BY seen DESC LIMIT ?)", [user_id, user_id, keep])


def session_version(db, user_id):
    """The user's session version (raised by ``revoke_sessions``), or None without such a user."""
    row = db.execute("SELECT session_version FROM users WHERE id = ?", [user_id]).fetchone()
    return None if row is None else row[0]
