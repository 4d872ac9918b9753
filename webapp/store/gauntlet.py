"""Gauntlet runs: a user's draft picks and the results of its games (docs/gauntlet.md, docs/storage.md).

Every change names the state it was computed from (the number of picks, the game in progress), so a
second request with the same picture of the run changes nothing."""

import json

from .db import now


def _row(r):
    if r is None:
        return None
    out = dict(r)
    out["picks"] = json.loads(out["picks"])
    out["results"] = json.loads(out["results"])
    out["reward"] = json.loads(out["reward"]) if out["reward"] else None
    return out


def open_run(db, user_id):
    """The user's unfinished run (drafting or playing), or None."""
    rows = list(db.query("SELECT * FROM gauntlet_runs WHERE user_id = ? AND status != 'finished'", [user_id]))
    return _row(rows[0]) if rows else None


def get_run(db, run_id):
    rows = list(db.query("SELECT * FROM gauntlet_runs WHERE id = ?", [run_id]))
    return _row(rows[0]) if rows else None


def last_runs(db, user_id, limit=5):
    return [_row(r) for r in db.query("SELECT * FROM gauntlet_runs WHERE user_id = ? ORDER BY id DESC LIMIT ?",
                                      [user_id, limit])]


def create_run(db, user_id, seed):
    """A new run in the draft; its id. sqlite3.IntegrityError when the user has an unfinished one."""
    stamp = now()
    return db.execute("INSERT INTO gauntlet_runs (user_id, status, seed, created, updated) VALUES (?, 'drafting', ?, ?, ?)",
                      [user_id, seed, stamp, stamp]).lastrowid


def add_pick(db, run_id, picks_before, card_id, done):
    """Append ``card_id`` to the picks if the run still has ``picks_before`` of them; True if it did.
    ``done``: this pick completes the deck (the run goes on to its games)."""
    cur = db.execute("UPDATE gauntlet_runs SET picks = json_insert(picks, '$[#]', ?), status = ?, updated = ? "
                     "WHERE id = ? AND status = 'drafting' AND json_array_length(picks) = ?",
                     [card_id, "playing" if done else "drafting", now(), run_id, picks_before])
    return cur.rowcount == 1


def set_game(db, run_id, game_id):
    """Record the run's game in progress, if it has none; True if it did."""
    cur = db.execute("UPDATE gauntlet_runs SET game_id = ?, updated = ? WHERE id = ? AND status = 'playing' "
                     "AND game_id IS NULL", [game_id, now(), run_id])
    return cur.rowcount == 1


def record_result(db, run_id, game_id, won, finished, reward=None):
    """Count the run's game ``game_id`` as won or lost, once (it must be the run's game in progress);
    ``finished`` ends the run with its ``reward``. True if it counted."""
    cur = db.execute(
        "UPDATE gauntlet_runs SET results = json_insert(results, '$[#]', json(?)), wins = wins + ?, "
        "losses = losses + ?, game_id = NULL, status = ?, reward = ?, updated = ? "
        "WHERE id = ? AND status = 'playing' AND game_id = ?",
        [json.dumps({"game": game_id, "won": bool(won)}), 1 if won else 0, 0 if won else 1,
         "finished" if finished else "playing", json.dumps(reward) if reward is not None else None, now(),
         run_id, game_id])
    return cur.rowcount == 1
