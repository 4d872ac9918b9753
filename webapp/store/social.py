"""The SQL of friends and the ladder (schema m008, docs/storage.md "Tables", docs/social.md): friend
requests, friendships, blocks, each account's friend link token and watch setting, challenges, ratings
and their history, the match queue, and the reads the profile pages make. The rules are
webapp/social/'s."""

import json

from .db import now

ONLINE = "online"


def pair(a, b):
    """A friendship's key: the lower id first."""
    return (a, b) if a < b else (b, a)


# ---------------------------------------------------------------- friends


def are_friends(db, a, b):
    return db.execute("SELECT 1 FROM friendships WHERE low_id = ? AND high_id = ?", pair(a, b)).fetchone() is not None


def add_friendship(db, a, b):
    db.execute("INSERT OR IGNORE INTO friendships (low_id, high_id, since) VALUES (?, ?, ?)", [*pair(a, b), now()])
    db.execute("DELETE FROM friend_requests WHERE (from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?)",
               [a, b, b, a])


def remove_friendship(db, a, b):
    """End a friendship and any request between the two; whether there was anything to end."""
    gone = db.execute("DELETE FROM friendships WHERE low_id = ? AND high_id = ?", pair(a, b)).rowcount
    gone += db.execute("DELETE FROM friend_requests WHERE (from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?)",
                       [a, b, b, a]).rowcount
    return gone > 0


def has_request(db, from_id, to_id):
    return db.execute("SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ?",
                      [from_id, to_id]).fetchone() is not None


def add_request(db, from_id, to_id):
    db.execute("INSERT OR IGNORE INTO friend_requests (from_id, to_id, created) VALUES (?, ?, ?)",
               [from_id, to_id, now()])


def drop_request(db, from_id, to_id):
    return db.execute("DELETE FROM friend_requests WHERE from_id = ? AND to_id = ?", [from_id, to_id]).rowcount == 1


def count_requests_from(db, from_id):
    return db.execute("SELECT count(*) FROM friend_requests WHERE from_id = ?", [from_id]).fetchone()[0]


def friend_ids(db, user_id):
    return [r[0] for r in db.execute(
        "SELECT high_id FROM friendships WHERE low_id = ? UNION SELECT low_id FROM friendships WHERE high_id = ?",
        [user_id, user_id])]


def friends_of(db, user_id):
    """[{"id", "name", "since"}] of the user's friends, by name."""
    return [dict(r) for r in db.query(
        "SELECT u.id, u.name, f.since FROM friendships f JOIN users u "
        "ON u.id = CASE WHEN f.low_id = :u THEN f.high_id ELSE f.low_id END "
        "WHERE (f.low_id = :u OR f.high_id = :u) AND u.disabled = 0 ORDER BY u.name COLLATE NOCASE", {"u": user_id})]


def requests_to(db, user_id):
    """[{"id", "name", "created"}] of the users who asked this one to be friends, newest first."""
    return [dict(r) for r in db.query(
        "SELECT u.id, u.name, r.created FROM friend_requests r JOIN users u ON u.id = r.from_id "
        "WHERE r.to_id = ? ORDER BY r.created DESC", [user_id])]


def requests_from(db, user_id):
    return [dict(r) for r in db.query(
        "SELECT u.id, u.name, r.created FROM friend_requests r JOIN users u ON u.id = r.to_id "
        "WHERE r.from_id = ? ORDER BY r.created DESC", [user_id])]


# ---------------------------------------------------------------- blocks


def add_block(db, user_id, blocked_id):
    db.execute("INSERT OR IGNORE INTO blocks (user_id, blocked_id, created) VALUES (?, ?, ?)",
               [user_id, blocked_id, now()])


def remove_block(db, user_id, blocked_id):
    return db.execute("DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?", [user_id, blocked_id]).rowcount == 1


def has_block(db, user_id, blocked_id):
    """Whether ``user_id`` blocked ``blocked_id``."""
    return db.execute("SELECT 1 FROM blocks WHERE user_id = ? AND blocked_id = ?", [user_id, blocked_id]).fetchone() is not None


def blocked_between(db, a, b):
    """Whether either of the two blocked the other."""
    return db.execute("SELECT 1 FROM blocks WHERE (user_id = ? AND blocked_id = ?) OR (user_id = ? AND blocked_id = ?)",
                      [a, b, b, a]).fetchone() is not None


def blocked_by(db, user_id):
    """[{"id", "name"}] of the users this one blocked."""
    return [dict(r) for r in db.query(
        "SELECT u.id, u.name FROM blocks b JOIN users u ON u.id = b.blocked_id WHERE b.user_id = ? "
        "ORDER BY u.name COLLATE NOCASE", [user_id])]


# ---------------------------------------------------------------- settings: friend link, watching


def settings_of(db, user_id):
    row = db.execute("SELECT friend_token, watch FROM social_settings WHERE user_id = ?", [user_id]).fetchone()
    return {"friend_token": row[0], "watch": row[1]} if row else {"friend_token": None, "watch": "friends"}


def set_friend_token(db, user_id, token):
    db.execute("INSERT INTO social_settings (user_id, friend_token, updated) VALUES (?, ?, ?) "
               "ON CONFLICT (user_id) DO UPDATE SET friend_token = excluded.friend_token, updated = excluded.updated",
               [user_id, token, now()])


def user_by_friend_token(db, token):
    row = db.execute("SELECT user_id FROM social_settings WHERE friend_token = ?", [token]).fetchone()
    return None if row is None else row[0]


def set_watch(db, user_id, watch):
    db.execute("INSERT INTO social_settings (user_id, watch, updated) VALUES (?, ?, ?) "
               "ON CONFLICT (user_id) DO UPDATE SET watch = excluded.watch, updated = excluded.updated",
               [user_id, watch, now()])


def watch_settings(db, user_ids):
    """{user id: watch setting} for the given users ('friends' for those who never chose)."""
    ids = [u for u in user_ids if u is not None]
    out = {u: "friends" for u in ids}
    if ids:
        marks = ", ".join("?" for _ in ids)
        out.update({r[0]: r[1] for r in db.execute(
            f"SELECT user_id, watch FROM social_settings WHERE user_id IN ({marks})", ids)})
    return out


def played_online(db, user_id, others):
    """The ids among ``others`` who have an active or finished online game against ``user_id``."""
    others = [o for o in others if o is not None and o != user_id]
    if not others:
        return set()
    marks = ", ".join("?" for _ in others)
    return {r[0] for r in db.execute(
        f"SELECT CASE WHEN seat0_user_id = ? THEN seat1_user_id ELSE seat0_user_id END FROM games "
        f"WHERE mode = ? AND status IN ('active', 'finished') AND "
        f"((seat0_user_id = ? AND seat1_user_id IN ({marks})) OR (seat1_user_id = ? AND seat0_user_id IN ({marks})))",
        [user_id, ONLINE, user_id, *others, user_id, *others])}


def watch_candidates(db, user_id, limit):
    """Online games in progress, not the user's, whose players include a friend of the user or someone
    they played online: [{"id", "seats", "names", "clock_ms"}], newest first. Whether each may be
    watched is webapp/social/watching.py's."""
    people = ("SELECT high_id FROM friendships WHERE low_id = :u UNION SELECT low_id FROM friendships WHERE high_id = :u "
              "UNION SELECT CASE WHEN seat0_user_id = :u THEN seat1_user_id ELSE seat0_user_id END FROM games "
              "WHERE mode = 'online' AND status IN ('active', 'finished') AND (seat0_user_id = :u OR seat1_user_id = :u)")
    rows = db.query(
        "SELECT g.id, g.seat0_user_id, g.seat1_user_id, g.setup, u0.name AS name0, u1.name AS name1 FROM games g "
        "LEFT JOIN users u0 ON u0.id = g.seat0_user_id LEFT JOIN users u1 ON u1.id = g.seat1_user_id "
        f"WHERE g.mode = 'online' AND g.status = 'active' AND g.seat0_user_id != :u AND g.seat1_user_id != :u "
        f"AND (g.seat0_user_id IN ({people}) OR g.seat1_user_id IN ({people})) "
        f"ORDER BY g.updated DESC, g.id DESC LIMIT {int(limit)}", {"u": user_id})
    return [{"id": r["id"], "seats": [r["seat0_user_id"], r["seat1_user_id"]], "names": [r["name0"], r["name1"]],
             "clock_ms": json.loads(r["setup"]).get("clock_ms", 0)} for r in rows]


def active_game_of(db, user_ids):
    """{user id: id of their newest online game in progress} for those of ``user_ids`` who play one."""
    ids = [u for u in user_ids if u is not None]
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    out = {}
    for r in db.execute(f"SELECT id, seat0_user_id, seat1_user_id FROM games WHERE mode = ? AND status = 'active' "
                        f"AND (seat0_user_id IN ({marks}) OR seat1_user_id IN ({marks})) ORDER BY id", [ONLINE, *ids, *ids]):
        for uid in (r[1], r[2]):
            if uid in ids:
                out[uid] = r[0]
    return out


# ---------------------------------------------------------------- challenges


def add_challenge(db, from_id, to_id, deck_id, clock_ms, rated, created_ms, expires_ms):
    return db.execute("INSERT INTO challenges (from_id, to_id, deck_id, clock_ms, rated, created_ms, expires_ms) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)",
                      [from_id, to_id, deck_id, clock_ms, int(bool(rated)), created_ms, expires_ms]).lastrowid


CHALLENGE_COLUMNS = ("c.id, c.from_id, c.to_id, c.deck_id, c.clock_ms, c.rated, c.status, c.created_ms, c.expires_ms, "
                     "c.game_id, uf.name AS from_name, ut.name AS to_name")
CHALLENGE_FROM = "FROM challenges c JOIN users uf ON uf.id = c.from_id JOIN users ut ON ut.id = c.to_id"


def challenge_row(r):
    return None if r is None else dict(r, rated=bool(r["rated"]))


def get_challenge(db, challenge_id):
    rows = list(db.query(f"SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} WHERE c.id = ?", [challenge_id]))
    return challenge_row(rows[0]) if rows else None


def open_challenges(db, user_id, now_ms):
    """{"to_me": [...], "from_me": [...]} of the open, unexpired challenges of a user, newest first."""
    def rows(where):
        return [challenge_row(r) for r in db.query(
            f"SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} WHERE {where} AND c.status = 'open' AND c.expires_ms > ? "
            "ORDER BY c.id DESC", [user_id, now_ms])]
    return {"to_me": rows("c.to_id = ?"), "from_me": rows("c.from_id = ?")}


def count_open_challenges_from(db, from_id, now_ms, to_id=None):
    sql = "SELECT count(*) FROM challenges WHERE from_id = ? AND status = 'open' AND expires_ms > ?"
    args = [from_id, now_ms]
    if to_id is not None:
        sql += " AND to_id = ?"
        args.append(to_id)
    return db.execute(sql, args).fetchone()[0]


def count_challenges_since(db, from_id, since_ms):
    return db.execute("SELECT count(*) FROM challenges WHERE from_id = ? AND created_ms >= ?",
                      [from_id, since_ms]).fetchone()[0]


def settle_challenge(db, challenge_id, status, now_ms, game_id=None):
    """Move an open, unexpired challenge to ``status``; False (nothing changed) if it was not open."""
    return db.execute("UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'open' AND expires_ms > ?",
                      [status, game_id, challenge_id, now_ms]).rowcount == 1


def settle_game(db, challenge_id, game_id):
    """The game an accepted challenge started."""
    db.execute("UPDATE challenges SET game_id = ? WHERE id = ?", [game_id, challenge_id])


def expire_challenges(db, now_ms):
    """Mark the open challenges past their time expired; return [(id, from_id, to_id)] of them."""
    rows = [tuple(r) for r in db.execute(
        "SELECT id, from_id, to_id FROM challenges WHERE status = 'open' AND expires_ms <= ?", [now_ms])]
    if rows:
        db.execute("UPDATE challenges SET status = 'expired' WHERE status = 'open' AND expires_ms <= ?", [now_ms])
    return rows


def cancel_challenges_between(db, a, b):
    db.execute("UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND "
               "((from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?))", [a, b, b, a])


# ---------------------------------------------------------------- ratings


def get_rating(db, user_id):
    row = db.execute("SELECT rating, rd, vol, games FROM ratings WHERE user_id = ?", [user_id]).fetchone()
    return None if row is None else {"rating": row[0], "rd": row[1], "vol": row[2], "games": row[3]}


def ratings_of(db, user_ids):
    ids = list(user_ids)
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    return {r[0]: {"rating": r[1], "rd": r[2], "vol": r[3], "games": r[4]} for r in db.execute(
        f"SELECT user_id, rating, rd, vol, games FROM ratings WHERE user_id IN ({marks})", ids)}


def rated_game_counted(db, game_id):
    return db.execute("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", [game_id]).fetchone() is not None


def put_rating(db, user_id, game_id, rating, rd, vol):
    """Store a user's new rating after ``game_id`` and its line in the history."""
    stamp = now()
    db.execute("INSERT INTO ratings (user_id, rating, rd, vol, games, updated) VALUES (?, ?, ?, ?, 1, ?) "
               "ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, "
               "games = ratings.games + 1, updated = excluded.updated", [user_id, rating, rd, vol, stamp])
    db.execute("INSERT INTO rating_history (user_id, game_id, rating, rd, at) VALUES (?, ?, ?, ?, ?)",
               [user_id, game_id, rating, rd, stamp])


def ladder(db, limit=100):
    """[{"id", "name", "rating", "rd", "games"}] of the rated players, best first (disabled accounts left out)."""
    return [dict(r) for r in db.query(
        "SELECT u.id, u.name, r.rating, r.rd, r.games FROM ratings r JOIN users u ON u.id = r.user_id "
        f"WHERE u.disabled = 0 ORDER BY r.rating DESC, u.name COLLATE NOCASE LIMIT {int(limit)}")]


def rating_history(db, user_id):
    """[{"game_id", "rating", "rd", "at"}] of a user, oldest first."""
    return [dict(r) for r in db.query("SELECT game_id, rating, rd, at FROM rating_history WHERE user_id = ? "
                                      "ORDER BY at, game_id", [user_id])]


# ---------------------------------------------------------------- the match queue


def queue_entries(db):
    return [dict(r) for r in db.query("SELECT user_id, deck_id, clock_ms, rating, since_ms FROM match_queue ORDER BY since_ms")]


def queue_put(db, user_id, deck_id, clock_ms, rating, since_ms):
    db.execute("INSERT INTO match_queue (user_id, deck_id, clock_ms, rating, since_ms) VALUES (?, ?, ?, ?, ?) "
               "ON CONFLICT (user_id) DO UPDATE SET deck_id = excluded.deck_id, clock_ms = excluded.clock_ms, "
               "rating = excluded.rating", [user_id, deck_id, clock_ms, rating, since_ms])


def queue_drop(db, user_id):
    return db.execute("DELETE FROM match_queue WHERE user_id = ?", [user_id]).rowcount == 1


def queued(db, user_id):
    row = db.execute("SELECT since_ms FROM match_queue WHERE user_id = ?", [user_id]).fetchone()
    return None if row is None else row[0]


# ---------------------------------------------------------------- profiles


def finished_online_games(db, user_id):
    """[{"id", "seat", "setup", "result", "updated", "opponent"}] of a user's finished online games, oldest first."""
    out = []
    for r in db.query("SELECT g.id, g.seat0_user_id, g.seat1_user_id, g.setup, g.result, g.updated, "
                      "u0.name AS name0, u1.name AS name1 FROM games g "
                      "LEFT JOIN users u0 ON u0.id = g.seat0_user_id LEFT JOIN users u1 ON u1.id = g.seat1_user_id "
                      "WHERE g.mode = ? AND g.status = 'finished' AND (g.seat0_user_id = ? OR g.seat1_user_id = ?) "
                      "ORDER BY g.id", [ONLINE, user_id, user_id]):
        seat = 0 if r["seat0_user_id"] == user_id else 1
        out.append({"id": r["id"], "seat": seat, "setup": json.loads(r["setup"]),
                    "result": json.loads(r["result"]) if r["result"] else None, "updated": r["updated"],
                    "opponent": r["name1"] if seat == 0 else r["name0"]})
    return out


def actions_of_seat(db, game_id, seat):
    """The stored actions one seat took in a game, in order ([action dict])."""
    return [json.loads(r[0]) for r in db.execute(
        "SELECT action FROM game_actions WHERE game_id = ? AND player = ? ORDER BY seq", [game_id, seat])]
