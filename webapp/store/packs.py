"""Card packs: granted unopened (from a source such as ``"welcome"`` or ``"story:1"``), opened once."""

import json

from .collection import add_cards, as_counts
from .db import now, transaction
from .errors import PackNotFound


def pack_row(row):
    """A packs row as a dict with ``cards`` decoded (None while unopened)."""
    return dict(row, cards=json.loads(row["cards"]) if row["cards"] else None)


def grant_pack(db, user_id, source):
    """Give the user an unopened pack; return its id."""
    return db["packs"].insert({"user_id": user_id, "source": source, "created": now(),
                               "opened_at": None, "cards": None}).last_pk


def list_packs(db, user_id, unopened_only=False):
    """The user's packs, oldest first."""
    where = " AND opened_at IS NULL" if unopened_only else ""
    return [pack_row(r) for r in db.query(f"SELECT * FROM packs WHERE user_id = ?{where} ORDER BY id", [user_id])]


def open_pack(db, user_id, pack_id, card_ids):
    """Mark the user's unopened pack opened with ``card_ids`` and add them to the collection, atomically."""
    card_ids = list(card_ids)
    as_counts(card_ids)
    with transaction(db):
        cursor = db.execute("UPDATE packs SET opened_at = ?, cards = ? "
                            "WHERE id = ? AND user_id = ? AND opened_at IS NULL",
                            [now(), json.dumps(card_ids), pack_id, user_id])
        if cursor.rowcount != 1:
            raise PackNotFound(f"user {user_id!r} has no unopened pack {pack_id!r}")
        add_cards(db, user_id, card_ids)


def has_opened_pack(db, user_id):
    """Whether the user has opened any pack."""
    return db.execute("SELECT 1 FROM packs WHERE user_id = ? AND opened_at IS NOT NULL LIMIT 1", [user_id]).fetchone() is not None


def count_win_packs_between(db, a, b, since):
    """How many Victory packs (source ``win:game:<id>``) users ``a`` and ``b`` won in games between
    the two of them, granted at ``since`` (a time stamp) or later, in both directions. The game is
    found by its id read from the source (a primary-key look-up, where matching ``'win:game:' || g.id``
    alone compared every game of the pair with every pack of the two: 0.46 ms against 0.045 ms with
    5,000 games); the source must still be that game's exactly."""
    return db.execute(
        "SELECT count(*) FROM packs p JOIN games g ON g.id = CAST(substr(p.source, 10) AS INTEGER) "
        "AND p.source = 'win:game:' || g.id "
        "WHERE p.created >= ? AND p.source LIKE 'win:game:%' "
        "AND ((g.seat0_user_id = ? AND g.seat1_user_id = ?) OR (g.seat0_user_id = ? AND g.seat1_user_id = ?)) "
        "AND p.user_id IN (?, ?)", [since, a, b, b, a, a, b]).fetchone()[0]


def has_pack_from(db, user_id, source):
    """Whether the user was ever granted a pack from ``source`` (opened or not)."""
    return db.execute("SELECT 1 FROM packs WHERE user_id = ? AND source = ?", [user_id, source]).fetchone() is not None
