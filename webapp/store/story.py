"""Story progress: which chapters a user cleared, their best result, and whether the reward was given."""

import json

from .db import now


def get_progress(db, user_id):
    """{chapter: {"cleared", "best", "reward_granted", "updated"}} for the user."""
    rows = db.query("SELECT chapter, cleared, best, reward_granted, updated FROM story_progress "
                    "WHERE user_id = ? ORDER BY chapter", [user_id])
    return {r["chapter"]: {"cleared": bool(r["cleared"]), "best": json.loads(r["best"]) if r["best"] else None,
                           "reward_granted": bool(r["reward_granted"]), "updated": r["updated"]} for r in rows}


def record_clear(db, user_id, chapter, best=None):
    """Mark the chapter cleared; replace its best result when ``best`` is given."""
    db.execute("INSERT INTO story_progress (user_id, chapter, cleared, best, updated) VALUES (?, ?, 1, ?, ?) "
               "ON CONFLICT (user_id, chapter) DO UPDATE SET cleared = 1, "
               "best = coalesce(excluded.best, best), updated = excluded.updated",
               [user_id, str(chapter), None if best is None else json.dumps(best, sort_keys=True), now()])


def claim_reward(db, user_id, chapter):
    """Mark a cleared chapter's reward given; True only the first time (grant it in the same transaction)."""
    cursor = db.execute("UPDATE story_progress SET reward_granted = 1, updated = ? "
                        "WHERE user_id = ? AND chapter = ? AND cleared = 1 AND reward_granted = 0",
                        [now(), user_id, str(chapter)])
    return cursor.rowcount == 1


def has_cleared(db, user_id, chapter):
    """Whether the user has cleared the chapter."""
    return db.execute("SELECT 1 FROM story_progress WHERE user_id = ? AND chapter = ? AND cleared = 1",
                      [user_id, chapter]).fetchone() is not None
