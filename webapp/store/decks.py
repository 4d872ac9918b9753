"""Decks: each user's own, plus the loaner decks everyone may read and copy but nobody may change.

Every function takes the acting user's id and checks it: reading another user's deck, or
changing a loaner deck, raises NotYourDeck. A user's deck names are unique ignoring case.
Whether a deck is legal to play (R2.1) or owned card by card is the caller's check.
"""

import json
import sqlite3

from .collection import as_counts, check_cards_exist
from .db import now, transaction
from .errors import BadName, DeckNameTaken, DeckNotFound, NotYourDeck, TooManyDecks

COLUMNS = "d.id, d.user_id, d.name, d.loaner, d.slug, d.texts, d.created, d.updated"


def deck_row(row):
    """A decks row as a dict: ``loaner`` a bool, ``texts`` decoded."""
    return dict(row, loaner=bool(row["loaner"]), texts=json.loads(row["texts"]) if row["texts"] else None)


def clean_name(name):
    """The name stripped; raise BadName if nothing is left."""
    name = (name or "").strip()
    if not name:
        raise BadName("a deck name cannot be empty")
    return name


def fetch(db, deck_id):
    """The deck row with this id; raise DeckNotFound if there is none."""
    rows = list(db.query(f"SELECT {COLUMNS} FROM decks d WHERE d.id = ?", [deck_id]))
    if not rows:
        raise DeckNotFound(f"no deck has id {deck_id!r}")
    return deck_row(rows[0])


def readable(db, user_id, deck_id):
    """The deck, if ``user_id`` owns it or it is a loaner; else raise NotYourDeck."""
    deck = fetch(db, deck_id)
    if not deck["loaner"] and deck["user_id"] != user_id:
        raise NotYourDeck(f"deck {deck_id!r} belongs to another user")
    return deck


def writable(db, user_id, deck_id):
    """The deck, if ``user_id`` owns it; else raise NotYourDeck (loaner decks are never writable)."""
    deck = fetch(db, deck_id)
    if deck["loaner"]:
        raise NotYourDeck(f"deck {deck_id!r} is the loaner deck {deck['slug']!r}: copy it to change it")
    if deck["user_id"] != user_id:
        raise NotYourDeck(f"deck {deck_id!r} belongs to another user")
    return deck


def card_counts(db, deck_id):
    """{card id: count} of one deck."""
    return dict(db.execute("SELECT card_id, count FROM deck_cards WHERE deck_id = ? ORDER BY card_id",
                           [deck_id]).fetchall())


def deck_wants(db, deck_id):
    """{card id: copies} the deck's source list had beyond what was saved (``put_wants``)."""
    return dict(db.execute("SELECT card_id, count FROM deck_wants WHERE deck_id = ? ORDER BY card_id",
                           [deck_id]).fetchall())


def put_wants(db, deck_id, counts):
    """Replace the copies the deck's source list had beyond what was saved (none: ``{}``)."""
    db.execute("DELETE FROM deck_wants WHERE deck_id = ?", [deck_id])
    db["deck_wants"].insert_all({"deck_id": deck_id, "card_id": cid, "count": n} for cid, n in counts.items() if n > 0)


def list_decks(db, user_id):
    """The user's decks by name, then the loaner decks; each with ``size``, its number of cards."""
    sql = (f"SELECT {COLUMNS}, coalesce(sum(c.count), 0) AS size FROM decks d "
           "LEFT JOIN deck_cards c ON c.deck_id = d.id "
           "WHERE d.user_id = ? OR d.loaner = 1 GROUP BY d.id "
           "ORDER BY d.loaner, d.name COLLATE NOCASE, d.id")
    return [deck_row(r) for r in db.query(sql, [user_id])]


def get_deck(db, user_id, deck_id):
    """The deck with its ``cards`` ({id: count}) if the user may read it; else raise."""
    deck = readable(db, user_id, deck_id)
    return dict(deck, cards=card_counts(db, deck_id))


def get_loaner(db, slug):
    """The loaner deck with this slug (e.g. ``princes-brigade``) and its cards; raise DeckNotFound."""
    row = db.execute("SELECT id FROM decks WHERE slug = ?", [slug]).fetchone()
    if row is None:
        raise DeckNotFound(f"no loaner deck is called {slug!r}")
    return dict(fetch(db, row[0]), cards=card_counts(db, row[0]))


def find_by_name(db, user_id, name):
    """The id of the user's deck called ``name`` in any letter case, or None."""
    row = db.execute("SELECT id FROM decks WHERE user_id = ? AND name = ? COLLATE NOCASE", [user_id, name]).fetchone()
    return row[0] if row else None


def put_cards(db, deck_id, counts):
    """Replace a deck's cards with ``counts`` exactly."""
    db.execute("DELETE FROM deck_cards WHERE deck_id = ?", [deck_id])
    db["deck_cards"].insert_all({"deck_id": deck_id, "card_id": cid, "count": n} for cid, n in counts.items())


def name_taken(user_id, name):
    """The DeckNameTaken error for ``name``."""
    return DeckNameTaken(f"user {user_id!r} already has a deck called {name!r}")


def save_deck(db, user_id, name, counts, deck_id=None, limit=None):
    """Create the user's deck ``name``, or replace its cards (and name, given ``deck_id``); return its id.
    A new deck beyond ``limit`` decks of the user (the host's MAX_DECKS; None: no cap) raises
    TooManyDecks, counted inside the write transaction, so parallel requests cannot pass it."""
    name, counts = clean_name(name), as_counts(counts)
    check_cards_exist(db, counts)
    with transaction(db):
        if deck_id is None:
            deck_id = find_by_name(db, user_id, name)
        if deck_id is None:
            return save_new(db, user_id, name, counts, limit)
        writable(db, user_id, deck_id)
        try:
            db.execute("UPDATE decks SET name = ?, updated = ? WHERE id = ?", [name, now(), deck_id])
        except sqlite3.IntegrityError:
            raise name_taken(user_id, name) from None
        put_cards(db, deck_id, counts)
    return deck_id


def rename_deck(db, user_id, deck_id, name):
    """Rename the user's deck; raise DeckNameTaken if another of their decks has that name."""
    name = clean_name(name)
    with transaction(db):
        writable(db, user_id, deck_id)
        try:
            db.execute("UPDATE decks SET name = ?, updated = ? WHERE id = ?", [name, now(), deck_id])
        except sqlite3.IntegrityError:
            raise name_taken(user_id, name) from None


def copy_name(db, user_id, name):
    """``name`` if free for the user, else the first free "name (copy)", "name (copy 2)", …"""
    candidate, n = name, 1
    while find_by_name(db, user_id, candidate) is not None:
        candidate = f"{name} (copy)" if n == 1 else f"{name} (copy {n})"
        n += 1
    return candidate


def copy_deck(db, user_id, deck_id, name=None, limit=None):
    """Copy a deck the user may read (theirs or a loaner) into a new deck of theirs; return its id
    (``limit`` as in ``save_deck``)."""
    with transaction(db):
        source = readable(db, user_id, deck_id)
        if name is None:
            name = copy_name(db, user_id, source["name"])
        return save_new(db, user_id, clean_name(name), card_counts(db, deck_id), limit)


def save_new(db, user_id, name, counts, limit=None):
    """Insert a new deck of the user (inside the caller's transaction); raise DeckNameTaken if the
    name is used, TooManyDecks if the user has ``limit`` decks already."""
    if find_by_name(db, user_id, name) is not None:
        raise name_taken(user_id, name)
    if limit is not None and db.execute("SELECT count(*) FROM decks WHERE user_id = ?", [user_id]).fetchone()[0] >= limit:
        raise TooManyDecks(user_id, limit)
    stamp = now()
    deck_id = db["decks"].insert({"user_id": user_id, "name": name, "loaner": 0,
                                  "created": stamp, "updated": stamp}).last_pk
    put_cards(db, deck_id, counts)
    return deck_id


def delete_deck(db, user_id, deck_id):
    """Delete the user's deck and its cards."""
    with transaction(db):
        writable(db, user_id, deck_id)
        db.execute("DELETE FROM decks WHERE id = ?", [deck_id])


def loaner_ids(db):
    """The ids of the loaner decks."""
    return {r[0] for r in db.execute("SELECT id FROM decks WHERE loaner = 1")}
