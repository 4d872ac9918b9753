"""Shards (crafting, docs/cards.md): each user's balance and the ledger of its changes.

A balance changes only through ``exchange``, which in one transaction checks the balance the caller
expected, moves cards in or out of the collection, writes the new balance and one ledger row. The
balance is never below 0 (a CHECK of the table as well) and always equals the sum of the ledger.
"""

import json

from .collection import add_cards, remove_cards
from .db import now, transaction
from .errors import StoreError


class ShardsChanged(StoreError):
    """The balance is not the one the caller read: another request spent or earned shards since."""

    def __init__(self, expected, actual):
        super().__init__(f"expected a balance of {expected}, but it is {actual}")
        self.expected, self.actual = expected, actual


class NotEnoughShards(StoreError):
    """The change would take the balance below 0."""

    def __init__(self, balance, needed):
        super().__init__(f"needs {needed} shards, the balance is {balance}")
        self.balance, self.needed = balance, needed


REASONS = ("disenchant", "craft", "reward")


def get_balance(db, user_id):
    """The user's shards (0 for a user who never had any)."""
    row = db.execute("SELECT balance FROM shards WHERE user_id = ?", [user_id]).fetchone()
    return row[0] if row else 0


def exchange(db, user_id, change, reason, detail, expect=None, take=None, give=None):
    """Add ``change`` shards (negative: spend them), take the cards ``take`` ({id: n}) out of the
    collection and add ``give``, all or nothing; return the new balance.

    ``expect``: the balance the caller's decision was made on (ShardsChanged if it is another);
    NotEnoughShards if the balance would go below 0; BadCounts if ``take`` holds cards not owned.
    """
    if reason not in REASONS:
        raise ValueError(f"reason must be one of {REASONS}, not {reason!r}")
    if not isinstance(change, int) or isinstance(change, bool) or change == 0:
        raise ValueError(f"a shard change is a whole number other than 0, not {change!r}")
    with transaction(db):
        balance = get_balance(db, user_id)
        if expect is not None and balance != expect:
            raise ShardsChanged(expect, balance)
        if balance + change < 0:
            raise NotEnoughShards(balance, -change)
        if take:
            remove_cards(db, user_id, take)
        if give:
            add_cards(db, user_id, give)
        db.execute("INSERT INTO shards (user_id, balance) VALUES (?, ?) "
                   "ON CONFLICT (user_id) DO UPDATE SET balance = excluded.balance", [user_id, balance + change])
        db.execute("INSERT INTO shard_ledger (user_id, at, change, reason, detail) VALUES (?, ?, ?, ?, ?)",
                   [user_id, now(), change, reason, json.dumps(detail or {}, sort_keys=True)])
        return balance + change


def ledger(db, user_id, limit=50):
    """The user's latest shard changes, newest first: dicts of at, change, reason, detail."""
    rows = db.query("SELECT id, at, change, reason, detail FROM shard_ledger WHERE user_id = ? "
                    "ORDER BY id DESC LIMIT ?", [user_id, limit])
    return [dict(r, detail=json.loads(r["detail"])) for r in rows]


def ledger_sum(db, user_id):
    """The sum of every ledger change of the user (equals ``get_balance``)."""
    return db.execute("SELECT coalesce(sum(change), 0) FROM shard_ledger WHERE user_id = ?", [user_id]).fetchone()[0]


def deck_use(db, user_id):
    """{card id: the most copies any one of the user's own decks holds}."""
    return dict(db.execute("SELECT c.card_id, max(c.count) FROM deck_cards c JOIN decks d ON d.id = c.deck_id "
                           "WHERE d.user_id = ? AND d.loaner = 0 GROUP BY c.card_id", [user_id]).fetchall())


def decks_using(db, user_id, card_id, more_than):
    """Names of the user's decks that hold more than ``more_than`` copies of ``card_id``."""
    return [r[0] for r in db.execute("SELECT d.name FROM decks d JOIN deck_cards c ON c.deck_id = d.id "
                                     "WHERE d.user_id = ? AND d.loaner = 0 AND c.card_id = ? AND c.count > ? "
                                     "ORDER BY d.name COLLATE NOCASE", [user_id, card_id, more_than])]
