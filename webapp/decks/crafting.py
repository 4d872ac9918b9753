"""Crafting (docs/cards.md "Crafting"): spare copies become shards, shards become missing cards.

- **Spare copies**: the copies of a card beyond the most that any one of the player's own decks
  holds. A deck may hold as many copies as the player owns (R2.2: no other copy limit), so a copy
  is spare once no deck of theirs counts on it; disenchanting a copy a deck uses is refused, with
  the decks named (the decks stay playable).
- **Costs by rarity** (``DISENCHANT``, ``CRAFT``): a card crafted costs eight times what a copy of
  it gives (common) down to four times (super rare), and a pack disenchanted whole gives about a
  fifth of what crafting its cards would cost, so opening packs stays the way to get cards and
  crafting is the way to finish a deck (the figures: bench/economy.py, docs/cards.md).
- **What a deck lacks** (``deck_lacks``): of any saved deck, the copies its cards and the ones its
  source list had beyond what was saved (``store.decks.deck_wants``: an import or a loaner copy of
  cards not owned then) need beyond the player's collection now, so a card got since from a pack is
  not crafted again. ``craft_for_deck`` crafts them and completes the deck in one transaction.
- **One transaction a step**: every disenchant or craft is one ``store.shards.exchange``, which
  checks the balance the player's page showed (``expect``): a double click, a second tab or two
  racing requests find the balance changed and do nothing, and a crash leaves all or nothing.

On a host that gives every card (``COLLECTION = "all"``) there is nothing to craft or disenchant.
Nothing here imports Flask but Flask-Babel's gettext for the refusals (English outside a request).
"""

from flask_babel import gettext, ngettext

from webapp.decks import build as deckbuild
from webapp.decks.check import DECK_SIZE, clip_to_owned, facts, name_of
from webapp.decks.collection import gives_everything
from webapp.store import get_collection, get_deck, owned_count, save_deck, transaction
from webapp.store.decks import deck_wants, put_wants
from webapp.store import shards as store_shards

#: Shards a spare copy gives, by rarity.
DISENCHANT = {"C": 5, "U": 20, "R": 100, "SR": 400}
#: Shards a crafted copy costs, by rarity.
CRAFT = {"C": 40, "U": 100, "R": 400, "SR": 1600}
#: The most copies one request crafts or disenchants (a deck's worth).
MOST = DECK_SIZE


class CraftRefused(ValueError):
    """A disenchant or craft that was not done; the message says why, for the player."""


def rarity(card):
    return facts(card)["rarity"]


def craft_cost(counts, pool):
    """Shards crafting ``counts`` ({card id: copies}) costs."""
    return sum(CRAFT[rarity(pool[cid])] * n for cid, n in counts.items())


def disenchant_value(card, copies=1):
    return DISENCHANT[rarity(card)] * copies


def balance(db, user_id):
    """The player's shards."""
    return store_shards.get_balance(db, user_id)


def spare(rows, deck_use):
    """{card id: spare copies} from the collection rows and ``store.shards.deck_use``."""
    return {cid: n - deck_use.get(cid, 0) for cid, n in rows.items() if n > deck_use.get(cid, 0)}


def spare_of(db, user_id):
    """The player's spare copies (``spare``) read from the store."""
    return spare(get_collection(db, user_id), store_shards.deck_use(db, user_id))


def lacking(counts, owned):
    """{card id: copies} a deck list needs beyond what the player owns."""
    return clip_to_owned(counts, owned)[1]


def check_open(config):
    if gives_everything(config):
        raise CraftRefused(gettext("On this server every card is yours already: there is nothing to craft."))


def read_expect(expect):
    """The balance the player's page showed, as an int; CraftRefused if the form did not send one."""
    text = str(expect if expect is not None else "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        raise CraftRefused(gettext("The form was incomplete: open the page again and try once more."))
    return int(text)


def changed(balance_now):
    return CraftRefused(gettext("Your shards changed since this page was drawn (a second click, or another tab), so "
                                "this request did nothing. You have %(n)s shards now: look again.", n=balance_now))


def disenchant(db, user_id, card_id, copies, expect, pool, config=None):
    """Turn ``copies`` spare copies of ``card_id`` into shards; return (shards gained, new balance).

    CraftRefused (nothing changes) for a card not in the pool, a count out of range, copies not owned
    or used by a deck, or a balance other than ``expect`` (the page's)."""
    check_open(config)
    expect = read_expect(expect)
    card = pool.get(card_id)
    if card is None:
        raise CraftRefused(gettext("There is no such card."))
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MOST:
        raise CraftRefused(gettext("Disenchant from 1 to %(n)s copies at a time.", n=MOST))
    name = name_of(card, card_id)
    with transaction(db):
        have = owned_count(db, user_id, card_id)
        used = store_shards.deck_use(db, user_id).get(card_id, 0)
        if copies > have:
            raise CraftRefused(ngettext("You own %(num)s copy of %(name)s, fewer than that.",
                                        "You own %(num)s copies of %(name)s, fewer than that.", have, name=name))
        if have - copies < used:
            decks = store_shards.decks_using(db, user_id, card_id, have - copies)
            raise CraftRefused(gettext("%(name)s is used by your decks (%(decks)s): only copies no deck uses can "
                                       "be disenchanted. Take it out of the deck first.", name=name,
                                       decks=", ".join(f"“{d}”" for d in decks)))
        gained = disenchant_value(card, copies)
        try:
            new = store_shards.exchange(db, user_id, gained, "disenchant", {"card": card_id, "copies": copies},
                                        expect=expect, take={card_id: copies})
        except store_shards.ShardsChanged as exc:
            raise changed(exc.actual) from None
    return gained, new


def craft(db, user_id, counts, expect, pool, config=None):
    """Craft ``counts`` ({card id: copies}) with shards; return (shards spent, new balance).

    All or nothing: CraftRefused (nothing changes) for a card not in the pool, more than a deck's worth,
    too few shards, or a balance other than ``expect`` (the page's)."""
    check_open(config)
    expect = read_expect(expect)
    if not counts:
        raise CraftRefused(gettext("Choose at least one card to craft."))
    for cid, n in counts.items():
        if cid not in pool:
            raise CraftRefused(gettext("There is no such card."))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise CraftRefused(gettext("Craft from 1 to %(n)s copies at a time.", n=MOST))
    if sum(counts.values()) > MOST:
        raise CraftRefused(gettext("Craft from 1 to %(n)s copies at a time.", n=MOST))
    cost = craft_cost(counts, pool)
    try:
        new = store_shards.exchange(db, user_id, -cost, "craft", {"cards": dict(sorted(counts.items()))},
                                    expect=expect, give=counts)
    except store_shards.ShardsChanged as exc:
        raise changed(exc.actual) from None
    except store_shards.NotEnoughShards as exc:
        raise CraftRefused(gettext("That costs %(cost)s shards and you have %(n)s: nothing was crafted.",
                                   cost=cost, n=exc.balance)) from None
    deckbuild.after_grant(db, user_id, pool=pool)  # the collection may have reached 30 cards (R2.3)
    return cost, new


def deck_target(db, user_id, deck_id):
    """(the deck, the cards it would hold with its source list's wants {card id: copies}); the deck
    must be the user's (store.DeckNotFound, store.NotYourDeck)."""
    deck = get_deck(db, user_id, deck_id)
    target = dict(deck["cards"])
    for cid, n in deck_wants(db, deck_id).items():
        target[cid] = target.get(cid, 0) + n
    return deck, target


def deck_lacks(db, user_id, deck_id, pool, config=None):
    """{card id: copies} the user's saved deck lacks against their collection now (module docstring);
    {} on a host that gives every card, or when the deck with its wants would pass 30 cards (the player
    filled it otherwise since)."""
    if gives_everything(config):
        return {}
    _, target = deck_target(db, user_id, deck_id)
    if sum(target.values()) > DECK_SIZE:
        return {}
    return {cid: n for cid, n in lacking(target, get_collection(db, user_id)).items() if cid in pool}


def craft_for_deck(db, user_id, deck_id, expect, pool, config=None, limit=None):
    """Craft what the deck lacks (``deck_lacks``, read again inside the transaction) and put its source
    list's wants into it, all in one transaction; return (crafted {card id: copies}, shards spent, new
    balance). CraftRefused (nothing changes) when it lacks nothing, would pass 30 cards, or ``craft``
    refuses (too few shards, a balance other than ``expect``)."""
    check_open(config)
    with transaction(db):
        deck, target = deck_target(db, user_id, deck_id)
        if sum(target.values()) > DECK_SIZE:
            raise CraftRefused(gettext(
                "The deck holds %(n)s cards now: with the cards it lacks it would hold more than %(size)s. "
                "Nothing was crafted.", n=sum(deck["cards"].values()), size=DECK_SIZE))
        lacks = deck_lacks(db, user_id, deck_id, pool, config)
        if not lacks:
            raise CraftRefused(gettext("This deck lacks no card: nothing to craft."))
        spent, new = craft(db, user_id, lacks, expect, pool, config)
        if target != deck["cards"]:
            save_deck(db, user_id, deck["name"], target, deck_id=deck_id, limit=limit)
        put_wants(db, deck_id, {})
    return lacks, spent, new


def reward(db, user_id, amount, source):
    """Give ``amount`` shards (a quest's reward); return the new balance."""
    return store_shards.exchange(db, user_id, amount, "reward", {"source": source})
