"""A user's collection: how many copies of each card they own."""

import sqlite3
from collections import Counter

from .db import transaction
from .errors import BadCounts, UserNotFound


def as_counts(cards):
    """{card id: count} from such a dict or from a list of ids with repeats; raise BadCounts if malformed."""
    counts = dict(cards) if isinstance(cards, dict) else dict(Counter(cards))
    for cid, n in counts.items():
        if not isinstance(cid, str) or not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise BadCounts(f"card {cid!r}: expected a card id and a count of 1 or more, got {n!r}")
    return counts


def check_cards_exist(db, counts):
    """Raise BadCounts naming the first id of ``counts`` that is not a card."""
    known = {r[0] for r in db.execute("SELECT id FROM cards")}
    unknown = sorted(set(counts) - known)
    if unknown:
        raise BadCounts(f"no such card: {', '.join(map(repr, unknown))}")


def add_cards(db, user_id, cards):
    """Add cards ({id: count} or a list of ids) to a user's collection."""
    counts = as_counts(cards)
    check_cards_exist(db, counts)
    with transaction(db):
        for cid, n in counts.items():
            try:
                db.execute("INSERT INTO collection (user_id, card_id, count) VALUES (?, ?, ?) "
                           "ON CONFLICT (user_id, card_id) DO UPDATE SET count = count + excluded.count",
                           [user_id, cid, n])
            except sqlite3.IntegrityError:  # the cards exist, so the user does not
                raise UserNotFound(f"no user has id {user_id!r}") from None


def remove_cards(db, user_id, cards):
    """Take cards away from a user's collection; raise BadCounts if they own fewer."""
    counts = as_counts(cards)
    with transaction(db):
        for cid, n in counts.items():
            owned = owned_count(db, user_id, cid)
            if owned < n:
                raise BadCounts(f"user {user_id!r} owns {owned} of {cid!r}, fewer than {n}")
            if owned == n:
                db.execute("DELETE FROM collection WHERE user_id = ? AND card_id = ?", [user_id, cid])
            else:
                db.execute("UPDATE collection SET count = count - ? WHERE user_id = ? AND card_id = ?",
                           [n, user_id, cid])


def get_collection(db, user_id):
    """{card id: count} of everything the user owns."""
    return dict(db.execute("SELECT card_id, count FROM collection WHERE user_id = ? ORDER BY card_id",
                           [user_id]).fetchall())


def owned_count(db, user_id, card_id):
    """How many copies of ``card_id`` the user owns (0 if none)."""
    row = db.execute("SELECT count FROM collection WHERE user_id = ? AND card_id = ?", [user_id, card_id]).fetchone()
    return row[0] if row else 0
