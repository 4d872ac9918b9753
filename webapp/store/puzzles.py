"""Puzzle progress: each user's tries at each puzzle, whether and when it was solved; puzzles shared
from a replay (docs/storage.md)."""

import json

from .db import now


def get_puzzle_progress(db, user_id):
    """{puzzle: {"tries", "misses", "solved", "solved_at", "game", "updated"}} for the user."""
    rows = db.query("SELECT puzzle, tries, misses, solved_at, game_id, updated FROM puzzle_progress "
                    "WHERE user_id = ? ORDER BY puzzle", [user_id])
    return {r["puzzle"]: {"tries": r["tries"], "misses": r["misses"], "solved": r["solved_at"] is not None,
                          "solved_at": r["solved_at"], "game": r["game_id"], "updated": r["updated"]} for r in rows}


def puzzle_started(db, user_id, puzzle):
    """Count one more try at the puzzle (a game started)."""
    db.execute("INSERT INTO puzzle_progress (user_id, puzzle, tries, misses, updated) VALUES (?, ?, 1, 0, ?) "
               "ON CONFLICT (user_id, puzzle) DO UPDATE SET tries = tries + 1, updated = excluded.updated",
               [user_id, str(puzzle), now()])


def puzzle_finished(db, user_id, puzzle, solved, game_id):
    """Record the end of a try: a solve (the first one's time is kept) or a miss, once per game."""
    stamp = now()
    db.execute("INSERT INTO puzzle_progress (user_id, puzzle, tries, misses, updated) VALUES (?, ?, 1, 0, ?) "
               "ON CONFLICT (user_id, puzzle) DO NOTHING", [user_id, str(puzzle), stamp])
    seen = db.execute("SELECT 1 FROM puzzle_results WHERE game_id = ?", [game_id]).fetchone()
    if seen:
        return False
    db.execute("INSERT INTO puzzle_results (game_id, user_id, puzzle, solved, at) VALUES (?, ?, ?, ?, ?)",
               [game_id, user_id, str(puzzle), 1 if solved else 0, stamp])
    if solved:
        db.execute("UPDATE puzzle_progress SET solved_at = coalesce(solved_at, ?), game_id = ?, updated = ? "
                   "WHERE user_id = ? AND puzzle = ?", [stamp, game_id, stamp, user_id, str(puzzle)])
    else:
        db.execute("UPDATE puzzle_progress SET misses = misses + 1, updated = ? WHERE user_id = ? AND puzzle = ?",
                   [stamp, user_id, str(puzzle)])
    return True


def share_puzzle(db, code, maker_id, game_id, version, goal, scenario, line):
    """Keep a puzzle made from step ``version`` of a game (its position, goal and a line that meets it)."""
    db.execute("INSERT INTO shared_puzzles (code, maker_id, game_id, version, goal, scenario, line, created) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               [code, maker_id, game_id, version, json.dumps(goal), json.dumps(scenario), json.dumps(line), now()])


def get_shared(db, code):
    """The shared puzzle with this code as a dict, or None."""
    rows = list(db.query("SELECT * FROM shared_puzzles WHERE code = ?", [code]))
    if not rows:
        return None
    r = dict(rows[0])
    for k in ("goal", "scenario", "line"):
        r[k] = json.loads(r[k])
    return r
