"""Getting cards (R2.2, R2.3, R17.4): the starter collection, packs drawn by rarity weights, what a user owns.

A new account gets `STARTER` (21 common and uncommon set-1 cards) and one welcome pack: 27 cards
in all, fewer than the 30 a deck needs, so the Prince's Brigade loaner deck is what a newcomer
plays with (R2.3). Packs come from wins and story chapters (`grant_pack`), are drawn when opened
and can be opened once, by their owner only. What a user owns, and the loaner rule, are the
collection policy's (webapp/decks/collection.py). See docs/collection.md.
"""

import random
from numbers import Real

from flask_babel import gettext as _  # the page's language (English outside a request)

from webapp.config import DEFAULTS
from webapp.decks import build as deckbuild
from webapp.store import transaction
from webapp.store.collection import add_cards, get_collection
from webapp.store.errors import PackNotFound
from webapp.store.packs import grant_pack, list_packs
from webapp.store.packs import open_pack as store_open_pack

__all__ = [
    "RARITIES", "DEFAULT_WEIGHTS", "DEFAULT_SIZE", "STARTER", "WELCOME_SOURCE",
    "PackOpened", "PackNotFound", "pack_settings", "draw_pack", "grant_starter", "grant_pack",
    "get_pack", "list_packs", "open_pack", "source_label", "odds",
]

#: Rarities from the most common to the rarest (R17.4).
RARITIES = ("C", "U", "R", "SR")
#: The chance of each rarity for every card of a pack, as relative weights (app.config PACK_WEIGHTS).
DEFAULT_WEIGHTS = {"C": 70, "U": 22, "R": 7, "SR": 1}
#: Cards in a pack (app.config PACK_SIZE).
DEFAULT_SIZE = DEFAULTS["PACK_SIZE"]
MAX_SIZE = 30

#: The starter collection: water and wind, the elements the fire/earth loaner deck lacks, all common
#: or uncommon cards of set 1, 21 cards (27 with the welcome pack: fewer than 30, R2.3; the next pack
#: makes 33, so the first deck built for the player leaves out the 3 weakest cards, docs/collection.md).
STARTER = {
    "merfolk-spearman": 2,
    "merfolk-harpooner": 2,
    "snow-fairy": 1,
    "marsh-lizardman": 1,
    "water-spirit": 1,
    "coral-priestess": 1,
    "frost-giant": 1,
    "ice-golem": 1,
    "healing-rain": 1,
    "mirror-of-waters": 1,
    "sylph": 2,
    "elf-windarcher": 2,
    "gust-fairy": 1,
    "griffin-knight": 1,
    "elf-windrunner": 1,
    "storm-giant": 1,
    "arrow-rain": 1,
}
#: The source of the pack every new account gets with the starter collection.
WELCOME_SOURCE = "welcome"


class PackOpened(PackNotFound):
    """The pack was opened already: a pack is opened once."""


def pack_settings(config):
    """(weights, size) from an app config's PACK_WEIGHTS and PACK_SIZE; ValueError names a bad setting."""
    weights = config.get("PACK_WEIGHTS") or DEFAULT_WEIGHTS
    size = config.get("PACK_SIZE", DEFAULT_SIZE)
    if not isinstance(weights, dict):
        raise ValueError(f"PACK_WEIGHTS: expected a dict of rarity to weight, got {weights!r}")
    for rarity, w in weights.items():
        if rarity not in RARITIES:
            raise ValueError(f"PACK_WEIGHTS: unknown rarity {rarity!r} (expected one of {', '.join(RARITIES)})")
        if not isinstance(w, Real) or isinstance(w, bool) or not w >= 0 or w == float("inf"):
            raise ValueError(f"PACK_WEIGHTS[{rarity!r}]: expected a finite number of 0 or more, got {w!r}")
    if not sum(weights.values()) > 0:
        raise ValueError(f"PACK_WEIGHTS: at least one rarity needs a weight above 0, got {weights!r}")
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIZE:
        raise ValueError(f"PACK_SIZE: expected a whole number from 1 to {MAX_SIZE}, got {size!r}")
    return {r: weights.get(r, 0) for r in RARITIES}, size


def odds(weights):
    """{rarity: percent} of each card of a pack being of that rarity."""
    total = sum(weights.values())
    return {r: 100 * weights.get(r, 0) / total for r in RARITIES}


def draw_pack(pool, rng, weights=DEFAULT_WEIGHTS, size=DEFAULT_SIZE):
    """``size`` card ids from ``pool``: each card's rarity by ``weights``, then a card of it evenly; rarest last."""
    cards = pool.values() if isinstance(pool, dict) else pool
    by_rarity = {}
    for card in sorted(cards, key=lambda c: c.id):
        by_rarity.setdefault(card.rarity, []).append(card.id)
    # A rarity with no card in the pool cannot be drawn: the others share its chance.
    rarities = [r for r in RARITIES if weights.get(r, 0) > 0 and by_rarity.get(r)]
    if not rarities:
        raise ValueError(f"no card of the pool has a rarity of weight above 0 ({weights!r})")
    chosen = rng.choices(rarities, [weights[r] for r in rarities], k=size)
    drawn = [(RARITIES.index(r), rng.choice(by_rarity[r])) for r in chosen]
    # The reveal ends on the rarest card (sorted is stable: same rarity keeps its draw order).
    return [cid for _, cid in sorted(drawn, key=lambda d: d[0])]


def grant_starter(db, user_id):
    """Give a new user the starter collection and a welcome pack; do nothing (False) if they own anything."""
    with transaction(db):
        if get_collection(db, user_id) or list_packs(db, user_id):
            return False
        add_cards(db, user_id, STARTER)
        grant_pack(db, user_id, WELCOME_SOURCE)
    return True


def get_pack(db, user_id, pack_id):
    """The user's pack with this id; PackNotFound if there is none (or it is another user's)."""
    for pack in list_packs(db, user_id):
        if pack["id"] == pack_id:
            return pack
    raise PackNotFound(f"user {user_id!r} has no pack {pack_id!r}")


def open_pack(db, user_id, pack_id, pool, config, rng=None):
    """Draw the user's unopened pack and add it to their collection; return the card ids. If that
    brings the collection to 30 cards for the first time, a first deck is built (webapp.decks.build).

    PackNotFound if the user has no such pack, PackOpened if it was opened already (also when
    another request opened it a moment ago); either way nothing changes.
    """
    weights, size = pack_settings(config)
    if get_pack(db, user_id, pack_id)["opened_at"] is not None:
        raise PackOpened(f"pack {pack_id!r} was opened already")
    cards = draw_pack(pool, rng or random.SystemRandom(), weights, size)
    try:
        store_open_pack(db, user_id, pack_id, cards)
    except PackNotFound:
        if get_pack(db, user_id, pack_id)["opened_at"] is not None:
            raise PackOpened(f"pack {pack_id!r} was opened already") from None
        raise
    deckbuild.after_grant(db, user_id, pool=pool if isinstance(pool, dict) else None)
    return cards


def source_label(source):
    """A pack's source as players read it: "welcome" → "Welcome pack", "story:3" → "Story pack (chapter 3)"."""
    kind, _sep, detail = (source or "").partition(":")
    if kind == "welcome":
        return _("Welcome pack")
    if kind in ("win", "victory"):
        return _("Victory pack")
    if kind == "story":
        return _("Story pack (chapter %(n)s)", n=detail) if detail else _("Story pack")
    return _("%(kind)s pack", kind=kind.capitalize()) if kind else _("Pack")
