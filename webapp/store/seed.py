"""Seeding: copy the card pool and the loaner decks from cards/ into the database, idempotently.

Cards are upserted by id, so a changed card updates its row. A card that left the pool keeps
its row (collections and decks still name it) with ``in_pool = 0``. Loaner decks are upserted
by slug (the deck file's id) and their cards replaced exactly; loaner decks whose file is gone
are deleted. A hash of everything seeded is kept in ``settings`` so that start-up skips the
work when nothing changed.
"""

import hashlib
import json
import os

from .db import now, transaction
from .settings import get_setting, set_setting
from webapp.cards.decks import decks_dir, load_decks
from webapp.engine import load_pool

#: Bump when the rows seeding writes change shape, so existing databases are seeded again.
SEED_FORMAT = 1

HASH_KEY = "seed_hash"


def dumps(value):
    """Canonical JSON: sorted keys, no spaces, UTF-8 text kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loaners(decks):
    """The loaner decks of a ``load_decks`` result, by slug."""
    return {slug: deck for slug, deck in decks.items() if deck.loaner}


#: The last pool's cards as canonical JSON, with the pool they were written from: ``load_pool`` keeps
#: one pool per folder for the process, and each app's start (a test makes hundreds) hashes it again.
_cards_text = (None, "")


def cards_text(pool):
    """The canonical JSON of the pool's card data (written once per pool object)."""
    global _cards_text
    if _cards_text[0] is not pool:
        _cards_text = (pool, dumps({cid: card.data for cid, card in pool.items()}))
    return _cards_text[1]


def content_hash(pool, decks):
    """A hash of the pool's card data and the loaner decks, and of the seeding format: the SHA-256 of
    ``dumps({"cards": ..., "format": SEED_FORMAT, "loaners": ...})`` (keys in sorted order)."""
    content = (f'{{"cards":{cards_text(pool)},"format":{dumps(SEED_FORMAT)},'
               f'"loaners":{dumps({slug: deck.to_dict() for slug, deck in loaners(decks).items()})}}}')
    return hashlib.sha256(content.encode()).hexdigest()


def card_row(card):
    """The ``cards`` row of one CardDef."""
    return {"id": card.id, "kind": card.kind, "element": card.element, "level": card.level,
            "rarity": card.rarity, "set": card.set, "in_pool": 1, "data": dumps(card.data)}


def seed(db, pool, decks, force=False):
    """Upsert ``pool`` ({id: CardDef}) and the loaner ``decks`` ({id: Deck}); return what was done."""
    digest = content_hash(pool, decks)
    with transaction(db):
        if not force and get_setting(db, HASH_KEY) == digest:
            return {"skipped": True, "cards": len(pool), "loaners": len(loaners(decks))}
        db["cards"].upsert_all([card_row(c) for c in pool.values()], pk="id")
        retired = seed_retired(db, pool)
        removed = seed_loaners(db, loaners(decks))
        set_setting(db, HASH_KEY, digest)
    return {"skipped": False, "cards": len(pool), "retired": retired,
            "loaners": len(loaners(decks)), "removed_loaners": removed}


def seed_retired(db, pool):
    """Mark cards that left the pool ``in_pool = 0``; return how many are out of it."""
    ids = [row[0] for row in db.execute("SELECT id FROM cards WHERE in_pool = 1")]
    gone = [cid for cid in ids if cid not in pool]
    for cid in gone:
        db.execute("UPDATE cards SET in_pool = 0 WHERE id = ?", [cid])
    return db.execute("SELECT count(*) FROM cards WHERE in_pool = 0").fetchone()[0]


def seed_loaners(db, decks):
    """Upsert each loaner deck by slug, replace its cards, delete loaners not in ``decks``."""
    stamp = now()
    for slug, deck in decks.items():
        row = {"name": deck.name["en"], "texts": dumps({"name": deck.name, "description": deck.description})}
        found = db.execute("SELECT id, name, texts FROM decks WHERE slug = ?", [slug]).fetchone()
        if found is None:
            deck_id = db["decks"].insert(dict(row, loaner=1, slug=slug, user_id=None,
                                              created=stamp, updated=stamp)).last_pk
        else:
            deck_id = found[0]
            if found[1:] != (row["name"], row["texts"]) or card_counts(db, deck_id) != deck.counts:
                db["decks"].update(deck_id, dict(row, updated=stamp))
        db.execute("DELETE FROM deck_cards WHERE deck_id = ?", [deck_id])
        db["deck_cards"].insert_all({"deck_id": deck_id, "card_id": cid, "count": n}
                                    for cid, n in deck.counts.items())
    stale = [r[0] for r in db.execute("SELECT slug FROM decks WHERE loaner = 1") if r[0] not in decks]
    for slug in stale:
        db.execute("DELETE FROM decks WHERE slug = ?", [slug])
    return len(stale)


def card_counts(db, deck_id):
    """{card id: count} of one deck."""
    return dict(db.execute("SELECT card_id, count FROM deck_cards WHERE deck_id = ?", [deck_id]).fetchall())


def seed_from_files(db, force=False, cards_path=None, decks_path=None):
    """Seed from cards/pool (or ``$BRIGADE_CARDS``) and cards/decks; a missing decks folder is no decks."""
    pool = load_pool(cards_path)
    decks_path = decks_path or decks_dir()
    decks = load_decks(pool, decks_path) if os.path.isdir(decks_path) else {}
    return seed(db, pool, decks, force=force)
