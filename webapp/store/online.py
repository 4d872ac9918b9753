"""Online games' own rows (``online_games``: invitation code, clock, rematch offer) and the queries of
the online lobby. The rules of invitations, clocks and rematches are webapp/game/online.py's."""

import json

import orjson

from .db import now
from .games import decoded

MODE = "online"

#: The lobby's rows: a game, its online row and its players' names.
LOBBY_SQL = """
SELECT g.id, g.status, g.mode, g.setup, g.result, g.created, g.updated, g.seat0_user_id, g.seat1_user_id,
       u0.name AS name0, u1.name AS name1, o.code
FROM games g JOIN online_games o ON o.game_id = g.id
LEFT JOIN users u0 ON u0.id = g.seat0_user_id LEFT JOIN users u1 ON u1.id = g.seat1_user_id
"""


def get_online_game(db, game_id):
    """The online_games row of a game as a dict (clock and rematch decoded), or None."""
    row = db.execute("SELECT game_id, code, clock, rematch FROM online_games WHERE game_id = ?", [game_id]).fetchone()
    if row is None:
        return None
    return {"game_id": row[0], "code": row[1], "clock": decoded(row[2]),
            "rematch": json.loads(row[3]) if row[3] else {"offered_by": None, "game": None}}


def set_clock(db, game_id, clock, stamp=None):
    """Store a game's clock (a dict; JSON by orjson, compact); ``stamp`` the ``updated`` time (``now()`` if None)."""
    db.conn.execute("UPDATE online_games SET clock = ?, updated = ? WHERE game_id = ?",
                    (orjson.dumps(clock).decode(), now() if stamp is None else stamp, game_id))


def set_rematch(db, game_id, offer):
    """Store a game's rematch offer (a dict)."""
    db.execute("UPDATE online_games SET rematch = ?, updated = ? WHERE game_id = ?", [json.dumps(offer), now(), game_id])


def code_taken(db, code):
    """Whether an online game has this invitation code."""
    return db.execute("SELECT 1 FROM online_games WHERE code = ?", [code]).fetchone() is not None


def add_online_game(db, game_id, code, clock):
    """The game's online_games row, with no rematch offer."""
    db.execute("INSERT INTO online_games (game_id, code, clock, rematch, updated) VALUES (?, ?, ?, NULL, ?)",
               [game_id, code, json.dumps(clock), now()])


def game_id_by_code(db, code):
    """The id of the game with this invitation code (as stored), or None."""
    row = db.execute("SELECT game_id FROM online_games WHERE code = ?", [code]).fetchone()
    return None if row is None else row[0]


def count_open_invitations(db, user_id):
    """How many invitations the user made that nobody joined yet."""
    return db.execute("SELECT count(*) FROM games WHERE mode = ? AND status = 'waiting' AND seat0_user_id = ?",
                      [MODE, user_id]).fetchone()[0]


def take_second_seat(db, game_id, user_id, setup, state):
    """Seat ``user_id`` at seat 1 of a waiting invitation and start it with ``setup`` (its ``seed``
    drawn now) and ``state``; False, changing nothing, when the game no longer waits or the seat is
    taken."""
    done = db.execute(
        "UPDATE games SET setup = ?, seed = ?, seat1_user_id = ?, status = 'active', state = ?, updated = ? "
        "WHERE id = ? AND status = 'waiting' AND seat1_user_id IS NULL",
        [json.dumps(setup, sort_keys=True), setup["seed"], user_id, state, now(), game_id])
    return done.rowcount == 1


def cancel_invitation(db, game_id, user_id):
    """Abort the user's own invitation nobody joined yet; False, changing nothing, otherwise."""
    done = db.execute("UPDATE games SET status = 'aborted', version = version + 1, updated = ? "
                      "WHERE id = ? AND status = 'waiting' AND seat0_user_id = ? AND mode = ?",
                      [now(), game_id, user_id, MODE])
    return done.rowcount == 1


def lobby_games(db, user_id, finished=10):
    """The lobby's rows (LOBBY_SQL) for a user, newest first: ``invitations`` open, ``playing``,
    the last ``finished``. (The friends' games to watch: webapp/store/social.py ``watch_candidates``.)"""
    def rows(where, limit=None):
        sql = LOBBY_SQL + " WHERE " + where + " ORDER BY g.updated DESC, g.id DESC" + (f" LIMIT {int(limit)}" if limit else "")
        return list(db.query(sql, {"u": user_id}))

    mine = "(g.seat0_user_id = :u OR g.seat1_user_id = :u)"
    return {
        "invitations": rows("g.status = 'waiting' AND g.seat0_user_id = :u"),
        "playing": rows("g.status = 'active' AND " + mine),
        "finished": rows("g.status = 'finished' AND " + mine, finished),
    }


def active_clocks(db):
    """[{"game_id", "clock"}] of every online game in progress, its clock decoded."""
    return [{"game_id": r["game_id"], "clock": decoded(r["clock"])} for r in db.query(
        "SELECT o.game_id, o.clock FROM online_games o JOIN games g ON g.id = o.game_id WHERE g.status = 'active'")]
