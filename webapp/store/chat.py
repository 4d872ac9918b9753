"""Chat's rows (``chat_messages``, ``chat_reports``, ``chat_mutes``). The rules (who writes where, the
limits, what a reader is sent) are webapp/social/chat.py's."""

from .db import now

MESSAGE_SQL = """
SELECT m.id, m.game_id, m.channel, m.user_id, m.seat, m.text, m.created, u.name
FROM chat_messages m LEFT JOIN users u ON u.id = m.user_id
"""


def _message(row):
    return {"id": row[0], "game_id": row[1], "channel": row[2], "user_id": row[3], "seat": row[4],
            "text": row[5], "created": row[6], "name": row[7]}


def add_message(db, game_id, channel, user_id, seat, text):
    """Store one message; return it as ``get_message`` does."""
    created = now()
    cur = db.conn.execute("INSERT INTO chat_messages (game_id, channel, user_id, seat, text, created) "
                          "VALUES (?, ?, ?, ?, ?, ?)", (game_id, channel, user_id, seat, text, created))
    return get_message(db, cur.lastrowid)


def get_message(db, message_id):
    """One message with its sender's name, or None."""
    row = db.execute(MESSAGE_SQL + " WHERE m.id = ?", [message_id]).fetchone()
    return None if row is None else _message(row)


def recent_messages(db, game_id, channel, limit, hidden_senders=()):
    """The last ``limit`` messages of a game's channel, oldest first, without those of ``hidden_senders``."""
    hidden = sorted(hidden_senders)
    where = " WHERE m.game_id = ? AND m.channel = ?"
    if hidden:
        where += f" AND (m.user_id IS NULL OR m.user_id NOT IN ({', '.join('?' * len(hidden))}))"
    rows = db.execute(MESSAGE_SQL + where + " ORDER BY m.id DESC LIMIT ?", [game_id, channel, *hidden, limit]).fetchall()
    return [_message(r) for r in reversed(rows)]


def add_report(db, message_id, reporter_id):
    """Record a report of a message by a user; False if that user reported it already."""
    cur = db.conn.execute("INSERT OR IGNORE INTO chat_reports (message_id, reporter_id, created) VALUES (?, ?, ?)",
                          (message_id, reporter_id, now()))
    return cur.rowcount == 1


def reported_messages(db, limit=200):
    """The messages with open reports, newest report first: the message, its game's mode and status,
    how many reported it and when first."""
    rows = db.execute(
        "SELECT r.message_id, count(*), min(r.created), max(r.created) FROM chat_reports r "
        "WHERE r.resolved IS NULL GROUP BY r.message_id ORDER BY max(r.created) DESC, r.message_id DESC LIMIT ?",
        [limit]).fetchall()
    out = []
    for message_id, count, first, last in rows:
        message = get_message(db, message_id)
        if message is not None:
            out.append(dict(message, reports=count, first_reported=first, last_reported=last))
    return out


def resolve_reports(db, message_id, host_id):
    """Close the open reports of a message (a host looked at it); how many were open."""
    cur = db.conn.execute("UPDATE chat_reports SET resolved = ?, resolved_by = ? WHERE message_id = ? AND resolved IS NULL",
                          (now(), host_id, message_id))
    return cur.rowcount


def set_mute(db, muter_id, muted_id, muted):
    """``muter_id`` mutes (or unmutes) ``muted_id``'s messages."""
    if muted:
        db.conn.execute("INSERT OR IGNORE INTO chat_mutes (muter_id, muted_id, created) VALUES (?, ?, ?)",
                        (muter_id, muted_id, now()))
    else:
        db.conn.execute("DELETE FROM chat_mutes WHERE muter_id = ? AND muted_id = ?", (muter_id, muted_id))


def muted_by(db, muter_id):
    """The ids of the users ``muter_id`` muted."""
    return {r[0] for r in db.execute("SELECT muted_id FROM chat_mutes WHERE muter_id = ?", [muter_id]).fetchall()}


def has_muted(db, muter_id, muted_id):
    return db.execute("SELECT 1 FROM chat_mutes WHERE muter_id = ? AND muted_id = ?",
                      [muter_id, muted_id]).fetchone() is not None
