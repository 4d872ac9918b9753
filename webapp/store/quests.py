"""Daily quests: each player's quests of a day, the day's reroll and the games counted (docs/cards.md).

A day is the text ``YYYY-MM-DD`` the quest service computes (webapp/game/quests.py); the store only
keeps rows. Every change a race could double is one statement that checks the row's state: a claim
sets ``claimed_at`` only where it is NULL, a reroll sets ``rerolled`` only where it is 0, a game is
counted once (its ``quest_games`` row is the key).
"""

import json
import sqlite3

from .db import now, transaction


def day_quests(db, user_id, day):
    """The player's quests of ``day`` by slot: dicts of slot, quest, progress, claimed_at."""
    return [dict(r) for r in db.query("SELECT slot, quest, progress, claimed_at FROM daily_quests "
                                      "WHERE user_id = ? AND day = ? ORDER BY slot", [user_id, day])]


def deal(db, user_id, day, quest_ids):
    """Give the player the quests ``quest_ids`` (one per slot) for ``day`` unless they have the day's already."""
    with transaction(db):
        for slot, quest in enumerate(quest_ids):
            db.execute("INSERT OR IGNORE INTO daily_quests (user_id, day, slot, quest) VALUES (?, ?, ?, ?)",
                       [user_id, day, slot, quest])
        db.execute("INSERT OR IGNORE INTO quest_days (user_id, day) VALUES (?, ?)", [user_id, day])


def rerolled(db, user_id, day):
    row = db.execute("SELECT rerolled FROM quest_days WHERE user_id = ? AND day = ?", [user_id, day]).fetchone()
    return bool(row and row[0])


def reroll(db, user_id, day, slot, quest):
    """Replace the unclaimed quest in ``slot`` by ``quest``, using the day's one reroll; False if it was used
    (or the slot is claimed), and then nothing changes."""
    with transaction(db):
        used = db.execute("UPDATE quest_days SET rerolled = 1 WHERE user_id = ? AND day = ? AND rerolled = 0",
                          [user_id, day])
        if used.rowcount != 1:
            return False
        done = db.execute("UPDATE daily_quests SET quest = ?, progress = 0 WHERE user_id = ? AND day = ? AND slot = ? "
                          "AND claimed_at IS NULL", [quest, user_id, day, slot])
        if done.rowcount != 1:
            db.execute("UPDATE quest_days SET rerolled = 0 WHERE user_id = ? AND day = ?", [user_id, day])
            return False
        return True


def count_game(db, user_id, game_id, day, progress):
    """Record that the finished game counted for the player on ``day`` and set the quests' new progress
    ({slot: progress}); False (nothing changes) if the game was counted already."""
    with transaction(db):
        try:
            db.execute("INSERT INTO quest_games (user_id, game_id, day, advanced) VALUES (?, ?, ?, ?)",
                       [user_id, game_id, day, json.dumps(sorted(progress))])
        except sqlite3.IntegrityError:
            return False
        for slot, value in progress.items():
            db.execute("UPDATE daily_quests SET progress = ? WHERE user_id = ? AND day = ? AND slot = ? "
                       "AND claimed_at IS NULL", [value, user_id, day, slot])
        return True


def game_advanced(db, user_id, game_id):
    """(day, [slots]) the finished game advanced for the player, or None if it counted for nothing."""
    row = db.execute("SELECT day, advanced FROM quest_games WHERE user_id = ? AND game_id = ?",
                     [user_id, game_id]).fetchone()
    return (row[0], json.loads(row[1])) if row else None


def claim(db, user_id, day, slot, target):
    """Mark the quest claimed if it reached ``target`` and is not claimed yet; True only for the one claim
    that did it (a second or racing claim gets False). Call it inside the transaction that pays."""
    cursor = db.execute("UPDATE daily_quests SET claimed_at = ? WHERE user_id = ? AND day = ? AND slot = ? "
                        "AND claimed_at IS NULL AND progress >= ?", [now(), user_id, day, slot, target])
    return cursor.rowcount == 1
