"""The host's tools in the store (docs/admin.md): the audit log, invitation codes, one-time
password-reset links, disabling users and making hosts, and the lists the admin pages show.

Times are the store's ISO 8601 UTC text (``now()``), which compares as text.
"""

import contextlib
import hashlib
import json
import os
import secrets
from datetime import timedelta

from webapp import clock

from .db import now, transaction
from .errors import UserNotFound
from .users import revoke_sessions

#: Characters of an invitation code: no 0/O or 1/I/l to misread when a host reads one aloud.
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 10


def stamp_in(seconds, start=None):
    """The store's time text ``seconds`` from now (or from ``start``, a datetime)."""
    start = start or clock.utcnow()
    return (start + timedelta(seconds=seconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ---------------------------------------------------------------- audit


def audit(db, actor_id, action, target=None, detail=None):
    """Record one admin action: who (a user id, or None for the command line), what, on what."""
    db.execute("INSERT INTO audit_log (at, actor_id, action, target, detail) VALUES (?, ?, ?, ?, ?)",
               [now(), actor_id, action, None if target is None else str(target),
                None if detail is None else json.dumps(detail, sort_keys=True)])


def list_audit(db, limit=200):
    """The latest audit entries, newest first, each with the actor's name (None: the command line)."""
    rows = db.query("SELECT a.id, a.at, a.actor_id, u.name AS actor, a.action, a.target, a.detail "
                    "FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id ORDER BY a.id DESC LIMIT ?", [limit])
    return [dict(r, detail=json.loads(r["detail"]) if r["detail"] else None) for r in rows]


# ---------------------------------------------------------------- users


def search_users(db, query="", limit=200):
    """Users whose name holds ``query`` (any case), with how many games each has played."""
    like = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.query(
        "SELECT u.id, u.name, u.created, u.last_login, u.last_seen, u.is_admin, u.disabled, "
        "(SELECT count(*) FROM games g WHERE g.seat0_user_id = u.id OR g.seat1_user_id = u.id) AS games "
        "FROM users u WHERE u.name LIKE ? ESCAPE '\\' ORDER BY u.name COLLATE NOCASE LIMIT ?", [like, limit])
    return [dict(r, is_admin=bool(r["is_admin"]), disabled=bool(r["disabled"])) for r in rows]


def mark_seen(db, user_id):
    """Set the user's ``last_seen`` to now (the pages call it at most every few minutes per user)."""
    with transaction(db):
        db.execute("UPDATE users SET last_seen = ? WHERE id = ?", [now(), user_id])


def set_disabled(db, user_id, disabled):
    """Disable (or enable) a user; disabling also ends every session the user has."""
    with transaction(db):
        if db.execute("UPDATE users SET disabled = ? WHERE id = ?", [int(bool(disabled)), user_id]).rowcount != 1:
            raise UserNotFound(f"no user has id {user_id!r}")
        if disabled:
            revoke_sessions(db, user_id)


def set_host(db, user_id, host=True):
    """Mark a user as a host (``users.is_admin``) or not."""
    if db.execute("UPDATE users SET is_admin = ? WHERE id = ?", [int(bool(host)), user_id]).rowcount != 1:
        raise UserNotFound(f"no user has id {user_id!r}")


def host_count(db):
    return db.execute("SELECT count(*) FROM users WHERE is_admin = 1 AND disabled = 0").fetchone()[0]


# ---------------------------------------------------------------- invitation codes


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code):
    """A typed code as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in str(code or "").upper() if ch.isalnum())


def create_code(db, created_by, uses, expires_in_days=None, note=""):
    """A new invitation code good for ``uses`` registrations (and until ``expires_in_days``); returns it."""
    if isinstance(uses, bool) or not isinstance(uses, int) or not 1 <= uses <= 1000:
        raise ValueError("uses: a whole number from 1 to 1000")
    expires = None
    if expires_in_days is not None:
        if not 0 < expires_in_days <= 3650:
            raise ValueError("expiry: from 1 to 3650 days")
        expires = stamp_in(expires_in_days * 86400)
    code = new_code()
    db.execute("INSERT INTO invite_codes (code, created, created_by, uses_left, expires, note) "
               "VALUES (?, ?, ?, ?, ?, ?)", [code, now(), created_by, uses, expires, str(note or "")[:100]])
    return code


def list_codes(db):
    """Every invitation code, newest first, with its uses left, expiry, whether it still admits, and
    the names of the users who registered with it."""
    stamp = now()
    codes = []
    for r in db.query("SELECT c.*, u.name AS creator FROM invite_codes c LEFT JOIN users u ON u.id = c.created_by "
                      "ORDER BY c.created DESC, c.code"):
        used = [dict(u) for u in db.query(
            "SELECT iu.at, iu.user_id, us.name FROM invite_uses iu LEFT JOIN users us ON us.id = iu.user_id "
            "WHERE iu.code = ? ORDER BY iu.at", [r["code"]])]
        expired = r["expires"] is not None and r["expires"] <= stamp
        codes.append(dict(r, used=used, expired=expired, usable=r["uses_left"] > 0 and not expired))
    return codes


def usable_code(db, code):
    """Whether ``code`` would admit one more registration now."""
    row = db.execute("SELECT uses_left, expires FROM invite_codes WHERE code = ?", [normal_code(code)]).fetchone()
    return row is not None and row[0] > 0 and (row[1] is None or row[1] > now())


def any_usable_code(db):
    """Whether any invitation code would admit a registration now."""
    return db.execute("SELECT 1 FROM invite_codes WHERE uses_left > 0 AND (expires IS NULL OR expires > ?) LIMIT 1",
                      [now()]).fetchone() is not None


def use_code(db, code, user_id):
    """Spend one use of ``code`` for ``user_id`` (inside the caller's transaction); False if it cannot."""
    code = normal_code(code)
    done = db.execute("UPDATE invite_codes SET uses_left = uses_left - 1 "
                      "WHERE code = ? AND uses_left > 0 AND (expires IS NULL OR expires > ?)", [code, now()])
    if done.rowcount != 1:
        return False
    db.execute("INSERT INTO invite_uses (code, user_id, at) VALUES (?, ?, ?)", [code, user_id, now()])
    return True


def revoke_code(db, code):
    """No more registrations with ``code`` (its record and uses stay); False if there is no such code."""
    return db.execute("UPDATE invite_codes SET uses_left = 0 WHERE code = ?", [normal_code(code)]).rowcount == 1


# ---------------------------------------------------------------- password-reset links


def token_hash(token):
    return hashlib.sha256(str(token).encode()).hexdigest()


def create_reset(db, user_id, valid_seconds=86400):
    """A one-time password-reset token for the user, good for ``valid_seconds``; only its hash is stored.
    Earlier unused tokens of the user stop working."""
    token = secrets.token_urlsafe(24)
    with transaction(db):
        if db.execute("SELECT 1 FROM users WHERE id = ?", [user_id]).fetchone() is None:
            raise UserNotFound(f"no user has id {user_id!r}")
        db.execute("UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL", [now(), user_id])
        db.execute("INSERT INTO password_resets (token_hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
                   [token_hash(token), user_id, now(), stamp_in(valid_seconds)])
    return token


def reset_user(db, token):
    """The user id a still-valid (unused, unexpired) reset token is for, or None."""
    row = db.execute("SELECT user_id FROM password_resets WHERE token_hash = ? AND used_at IS NULL AND expires > ?",
                     [token_hash(token), now()]).fetchone()
    return None if row is None else row[0]


def use_reset(db, token, password_hash):
    """Spend the token: set the user's password, end their sessions; the user id, or None if the token
    is unknown, used or expired (then nothing changes)."""
    with transaction(db):
        user_id = reset_user(db, token)
        if user_id is None:
            return None
        db.execute("UPDATE password_resets SET used_at = ? WHERE token_hash = ?", [now(), token_hash(token)])
        db.execute("UPDATE users SET password_hash = ? WHERE id = ?", [password_hash, user_id])
        revoke_sessions(db, user_id)
    return user_id


# ---------------------------------------------------------------- games


def list_games(db, status=None, limit=200):
    """Games (newest change first) with their players' names, optionally of one status."""
    where, params = "", []
    if status:
        where, params = "WHERE g.status = ?", [status]
    rows = db.query(
        "SELECT g.id, g.mode, g.status, g.result, g.version, g.created, g.updated, "
        "u0.name AS seat0, u1.name AS seat1 FROM games g "
        "LEFT JOIN users u0 ON u0.id = g.seat0_user_id LEFT JOIN users u1 ON u1.id = g.seat1_user_id "
        f"{where} ORDER BY g.updated DESC, g.id DESC LIMIT ?", params + [limit])
    return [dict(r, result=json.loads(r["result"]) if r["result"] else None) for r in rows]


def active_games_by_mode(db):
    """{mode: count} of the games in progress."""
    return dict(db.execute("SELECT mode, count(*) FROM games WHERE status = 'active' GROUP BY mode").fetchall())


def db_size(path):
    """Bytes of the database file with its WAL and shared-memory files."""
    total = 0
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            total += os.path.getsize(f"{path}{suffix}")
    return total
