"""Building a deck automatically from what a player owns (docs/decks.md, "Decks built for you").

One logic serves two callers:

- the first deck: the moment a player's collection first reaches 30 cards (the loaner deck goes
  away then, R2.3), ``first_deck`` builds a deck from everything they own and saves it as
  "My first brigade", once per account (the store's user mark ``first_deck``);
- the deckbuilder's **Fill for me**: ``build(owned, pool, keep=chosen)`` completes a partial deck,
  keeping every card already chosen.

How a deck is built (``build``), for a deck of 30:

1. **Two elements**: the pair whose monsters (the best copies, up to a deck's worth) are worth the
   most; the cards already chosen weigh heavily, so Fill for me keeps to the player's elements.
2. **Monsters first**, of those two elements, best first, within a level curve (about 40 % level 1,
   35 % level 2, 16 % level 3, 9 % level 4: a base holds a total level of 5, R7.2).
3. **Spells the deck can pay**: only spells whose element, or wild, is among the slots of the
   deck's monsters (R12.2), at most 6 of them and never more than the monsters (Eringe's tip, R2.5).
4. If the deck is still short: more monsters (the two elements first, then the best of the
   others), then more payable spells; a spell nobody can pay goes in only when nothing else is left
   (a collection of exactly 30 cards).

The result never holds more copies than owned (R2.2), holds at least one monster whenever the
collection does (R2.1), and is exactly 30 cards whenever the player owns 30 (``deckcheck`` finds it
playable). Nothing here touches Flask but Flask-Babel's gettext for the first deck's name (English
outside a request); the store is used only by ``first_deck``.
"""

from itertools import combinations

from flask_babel import force_locale, gettext

from webapp import store
from webapp.decks import collection
from webapp.decks.check import DECK_SIZE, SPELL_TIP_AT, check_deck, facts
from webapp.engine import ELEMENTS
from webapp.i18n import LANGS, MARK, user_lang
from webapp.store import marks
from webapp.store.decks import copy_name



def N_(text):
    """Marks a msgid for pybabel extract; translated where it is used."""
    return text


#: The name of the deck built when a collection first reaches 30 cards: a msgid, so the deck is named
#: in the player's language (``first_deck``).
FIRST_DECK_NAME = N_("My first brigade")
#: The user mark that records it was built (or that it was not needed).
FIRST_DECK_MARK = "first_deck"
#: The most spells an automatic deck takes in the first pass.
SPELL_TARGET = 6
#: Share of a deck's monsters at each level: the level curve (levels above 4 share the last).
CURVE = {1: 0.40, 2: 0.35, 3: 0.16, 4: 0.09}
RARITY_BONUS = {"C": 0.0, "U": 0.6, "R": 1.2, "SR": 1.8}


# ---------------------------------------------------------------- what a card is worth


def card_value(data):
    """A rough worth of one copy, to rank cards of the same kind (higher is better)."""
    bonus = RARITY_BONUS.get(data.get("rarity"), 0.0)
    if data["kind"] == "spell":
        return 2.0 + bonus - 0.25 * data.get("mana", 0)
    slots = sum((data.get("slots") or {}).values())
    return (data.get("power", 0) + 0.75 * data.get("life", 0) + 0.5 * data.get("speed", 0)
            + 1.0 * len(data.get("keywords") or ()) + 1.2 * len(data.get("abilities") or ())
            + 0.5 * bool(data.get("quick")) + 0.3 * slots + bonus)


def level_caps(monsters, levels):
    """How many monsters of each level the curve allows in ``monsters`` monster slots."""
    top = max(CURVE)
    caps = {}
    for lvl in levels:
        share = CURVE.get(lvl, CURVE[top] / 2 if lvl > top else 0.0)
        caps[lvl] = int(monsters * share + 0.999)
    return caps


# ---------------------------------------------------------------- building


class Plan:
    """A deck under construction: the counts, with the owned copies still free."""

    def __init__(self, owned, pool, keep, size):
        self.pool, self.size = pool, size
        self.free = {cid: n for cid, n in owned.items() if cid in pool and n > 0}
        self.deck = {}
        for cid, n in (keep or {}).items():
            take = min(n, self.free.get(cid, 0))
            if take > 0:
                self.add(cid, take)

    def data(self, cid):
        return facts(self.pool[cid])

    def total(self):
        return sum(self.deck.values())

    def room(self):
        return self.size - self.total()

    def count(self, pred):
        return sum(n for cid, n in self.deck.items() if pred(self.data(cid)))

    def add(self, cid, n=1):
        self.deck[cid] = self.deck.get(cid, 0) + n
        self.free[cid] -= n
        if not self.free[cid]:
            del self.free[cid]

    def slot_kinds(self):
        kinds = set()
        for cid in self.deck:
            d = self.data(cid)
            if d["kind"] == "monster":
                kinds.update(k for k, v in (d.get("slots") or {}).items() if v > 0)
        return kinds

    def payable(self, d, kinds=None):
        """Whether a spell can be paid by the slots of the deck's monsters (R12.2)."""
        kinds = self.slot_kinds() if kinds is None else kinds
        return d.get("mana", 0) <= 0 or d["element"] in kinds or "wild" in kinds

    def candidates(self, kind):
        """(value, id) of the free cards of a kind, best first (ties by id, so a build is repeatable)."""
        out = [(card_value(self.data(cid)), cid) for cid in self.free if self.data(cid)["kind"] == kind]
        return sorted(out, key=lambda v: (-v[0], v[1]))


def pick_elements(owned, pool, keep, size=DECK_SIZE):
    """The two elements to build around: the pair whose best monsters are worth the most.

    Each card already chosen (``keep``) weighs more than any monster's worth, so a partial deck keeps its elements. Ties go
    to the earlier elements of the pool's order.
    """
    copies = {e: [] for e in ELEMENTS}
    kept = {e: 0 for e in ELEMENTS}
    for cid, n in owned.items():
        if cid not in pool or n <= 0:
            continue
        d = facts(pool[cid])
        if d["kind"] == "monster" and d["element"] in copies:
            copies[d["element"]].extend([card_value(d)] * n)
    for cid, n in (keep or {}).items():
        if cid in pool and facts(pool[cid])["element"] in kept:
            kept[facts(pool[cid])["element"]] += n
    best, best_score = (ELEMENTS[0], ELEMENTS[1]), None
    for pair in combinations(ELEMENTS, 2):
        values = sorted(copies[pair[0]] + copies[pair[1]], reverse=True)[:size]
        score = sum(values) + 50.0 * sum(kept[e] for e in pair)
        if best_score is None or score > best_score + 1e-9:
            best, best_score = pair, score
    return best


def build(owned, pool, keep=None, size=DECK_SIZE):
    """A deck ({card id: count}) from the ``owned`` cards, keeping the cards of ``keep``.

    ``keep`` is clipped to what is owned and to the pool; if it holds ``size`` cards or more it is
    returned as it is (clipped). The deck is ``size`` cards when the player owns that many.
    """
    plan = Plan(owned, pool, keep, size)
    if plan.room() <= 0:
        return dict(plan.deck)
    elements = pick_elements(owned, pool, plan.deck, size)
    in_pair = lambda d: d["element"] in elements  # noqa: E731
    levels = sorted({facts(c)["level"] for c in pool.values() if facts(c)["kind"] == "monster"})
    spell_room = min(SPELL_TARGET, SPELL_TIP_AT)
    monster_target = size - spell_room
    caps = level_caps(monster_target, levels)

    def monsters_of(level):
        return plan.count(lambda d: d["kind"] == "monster" and d["level"] == level)

    # 2. Monsters of the two elements within the curve, best first.
    for _, cid in plan.candidates("monster"):
        d = plan.data(cid)
        if not in_pair(d):
            continue
        while (cid in plan.free and plan.count(lambda x: x["kind"] == "monster") < monster_target
               and plan.room() > 0 and monsters_of(d["level"]) < caps.get(d["level"], 0)):
            plan.add(cid)

    def add_spells(limit):
        kinds = plan.slot_kinds()
        for _, cid in plan.candidates("spell"):
            d = plan.data(cid)
            if not plan.payable(d, kinds):
                continue
            while cid in plan.free and plan.room() > 0 and spells() < limit and spells() < monsters():
                plan.add(cid)

    def monsters():
        return plan.count(lambda d: d["kind"] == "monster")

    def spells():
        return plan.count(lambda d: d["kind"] == "spell")

    # 3. Spells the deck can pay.
    add_spells(spell_room)

    # 4. Still short: more monsters, the pair's first, each time of the level least filled for
    #    its share of the curve (so the curve keeps its shape), the best of that level.
    def fill_ratio(level):
        return (monsters_of(level) + 1) / max(caps.get(level, 0), 0.5)

    while plan.room() > 0:
        options = [(in_pair(plan.data(cid)) is False, fill_ratio(plan.data(cid)["level"]), -value, cid)
                   for value, cid in plan.candidates("monster")]
        if not options:
            break
        plan.add(min(options)[3])
    add_spells(SPELL_TIP_AT)
    # ... then spells it can pay beyond Eringe's tip, and last of all the ones nobody can pay.
    if plan.room() > 0:
        kinds = plan.slot_kinds()
        rest = sorted(plan.candidates("spell"), key=lambda v: (not plan.payable(plan.data(v[1]), kinds), -v[0], v[1]))
        for _, cid in rest:
            while cid in plan.free and plan.room() > 0:
                plan.add(cid)
    return dict(plan.deck)


def fill(counts, owned, pool, size=DECK_SIZE):
    """Fill for me: ``counts`` completed to ``size`` cards from ``owned`` (the chosen cards are kept).

    Returns (deck, added) where ``added`` is {card id: copies added}.
    """
    deck = build(owned, pool, keep=counts, size=size)
    added = {cid: n - counts.get(cid, 0) for cid, n in deck.items() if n > counts.get(cid, 0)}
    return deck, added


# ---------------------------------------------------------------- the first deck


def after_grant(db, user_id, pool=None):
    """Called wherever cards enter a collection (a pack opened, a chapter's reward): ``first_deck``
    on the user's collection rows (webapp/decks/collection.py ``owned`` without a config: the moment
    that matters is the collection reaching 30, R2.3, also on a host whose COLLECTION = "all" lends
    everyone every card)."""
    if pool is None:
        pool = collection.default_pool()
    return first_deck(db, user_id, collection.owned(db, user_id, None, pool), pool)


def take_notice(db, user_id):
    """The first deck's name if the player has not been told of it yet (and mark them told), else None."""
    mark = marks.get_mark(db, user_id, FIRST_DECK_MARK)
    if not mark or mark.get("told") or mark.get("deck") is None:
        return None
    try:
        name = store.get_deck(db, user_id, mark["deck"])["name"]
    except (store.DeckNotFound, store.NotYourDeck):
        name = None
    marks.set_mark(db, user_id, FIRST_DECK_MARK, dict(mark, told=True))
    return name


def first_deck_name(db, user_id):
    """FIRST_DECK_NAME in the player's language: the one they last read a page in, else their
    account's language mark, else the request's. The deck is often built outside any page of theirs
    (a story reward granted when the CPU's move ends the game), where the request's language would be
    English."""
    lang = user_lang(user_id)
    if lang not in LANGS:
        lang = marks.get_mark(db, user_id, MARK)
    if lang not in LANGS:
        return gettext(FIRST_DECK_NAME)
    with force_locale(lang):
        return gettext(FIRST_DECK_NAME)


def first_deck(db, user_id, owned, pool):
    """Build and save the player's first deck the first time they own 30 cards; once per account.

    Returns the new deck's (id, name), or None when nothing was built: fewer than 30 cards, the
    mark already set, or the player already has a deck of their own that is ready to play (then
    the mark is set without building). Safe to call on every page: after the first time it only
    reads the mark.
    """
    if marks.get_mark(db, user_id, FIRST_DECK_MARK) is not None:
        return None
    if sum(owned.values()) < DECK_SIZE:
        return None
    with store.transaction(db):
        if marks.get_mark(db, user_id, FIRST_DECK_MARK) is not None:  # another request was first
            return None
        for deck in store.list_decks(db, user_id):
            if deck["loaner"]:
                continue
            if check_deck(store.get_deck(db, user_id, deck["id"])["cards"], pool, owned).playable:
                marks.set_mark(db, user_id, FIRST_DECK_MARK, {"deck": None, "told": True})
                return None
        deck = build(owned, pool)
        if not check_deck(deck, pool, owned).playable:  # e.g. 30 spells and no monster: nothing to build
            marks.set_mark(db, user_id, FIRST_DECK_MARK, {"deck": None, "told": True})
            return None
        name = copy_name(db, user_id, first_deck_name(db, user_id))
        deck_id = store.save_deck(db, user_id, name, deck)
        marks.set_mark(db, user_id, FIRST_DECK_MARK, {"deck": deck_id, "told": False})
    return deck_id, name
