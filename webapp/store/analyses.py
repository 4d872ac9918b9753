"""After-game analyses (schema m007): one row per (game, seat), its progress, then its JSON result.

Written only by webapp/game/aftergame.py; read through it too (it checks that the game is over and
that the reader holds the seat)."""

import json

from .db import now


def get_analysis(db, game_id, seat):
    """{status, done, total, data, updated} of the seat's analysis, or None."""
    row = db.execute("SELECT status, done, total, data, updated FROM game_analyses WHERE game_id = ? AND seat = ?",
                     [game_id, seat]).fetchone()
    if row is None:
        return None
    return {"status": row[0], "done": row[1], "total": row[2], "data": json.loads(row[3]) if row[3] else None,
            "updated": row[4]}


def claim_analysis(db, game_id, seat, stale_before):
    """Mark the analysis as running if there is none, or if a run stopped (failed, or not updated since
    ``stale_before``, an ISO time); True if this caller should run it."""
    cur = db.execute(
        "INSERT INTO game_analyses (game_id, seat, status, done, total, updated) VALUES (?, ?, 'running', 0, 0, ?) "
        "ON CONFLICT (game_id, seat) DO UPDATE SET status = 'running', done = 0, updated = excluded.updated "
        "WHERE game_analyses.status = 'failed' OR (game_analyses.status = 'running' AND game_analyses.updated < ?)",
        [game_id, seat, now(), stale_before])
    return cur.rowcount == 1


def analysis_progress(db, game_id, seat, done, total):
    db.execute("UPDATE game_analyses SET done = ?, total = ?, updated = ? WHERE game_id = ? AND seat = ?",
               [done, total, now(), game_id, seat])


def finish_analysis(db, game_id, seat, data, status="done"):
    db.execute("UPDATE game_analyses SET status = ?, data = ?, updated = ? WHERE game_id = ? AND seat = ?",
               [status, json.dumps(data, separators=(",", ":")) if data is not None else None, now(), game_id, seat])
