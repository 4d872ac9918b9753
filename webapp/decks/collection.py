"""The collection policy (R2.1–R2.3): what a player owns, whether they still borrow the loaner deck,
and whether they may play a deck. Every page and service that shows cards, lists decks or starts a
battle asks here; nothing else reads the host's ``COLLECTION`` setting or counts a collection
against the 30 cards of a deck (docs/collection.md, docs/decks.md).

- **What does this player own?** ``Collection.cards``: their collection rows, or, on a host whose
  ``COLLECTION`` is ``"all"``, every card of the pool × ``ALL_COUNT``.
- **Do they still get the loaner?** ``Collection.borrows_loaner``: the Prince's Brigade (``LOANER``)
  is lent while the player's own collection rows hold fewer than 30 cards (R2.3), and always on a
  host that gives every card. The deck list offers the loaner decks (to read and copy) only to a
  player who borrows them on a host that does not (``Collection.lists_loaners``): there every deck
  can be built from owned cards.
- **May they use this deck?** ``Collection.deck_problem``: a loaner while they borrow it; their own
  deck when the deck builder's full check finds it playable with the cards they own.

The first deck (webapp/decks/build.py) counts the collection rows alone (``owned`` without a
config), also on a host that gives every card: the moment that matters is the rows reaching 30.
"""

import functools

from flask_babel import gettext  # the request's language; English outside a request

from webapp import store
from webapp.decks.check import DECK_SIZE, check_deck
from webapp.engine import load_pool

#: The loaner deck a player borrows while owning fewer than 30 cards (R2.3).
LOANER = "princes-brigade"
#: Copies of every card a user owns when the host sets COLLECTION = "all": as many as a deck holds (R2.1).
ALL_COUNT = 30
#: The host's COLLECTION setting that gives every card ("earn", the default, gives what is earned).
ALL = "all"


def gives_everything(config):
    """Whether the host gives every player every card (``COLLECTION = "all"`` in an app config;
    None or a config without the key: "earn")."""
    return (config or {}).get("COLLECTION") == ALL


def default_pool():
    return load_pool()


class Collection:
    """One player's cards as the policy reads them; made by ``of``, read from the store at most once."""

    def __init__(self, db, user_id, everything=False, pool=None):
        self.db, self.user_id, self.everything, self._pool = db, user_id, everything, pool

    @classmethod
    def of(cls, db, user_id, config=None, pool=None):
        """The player's collection under the host's ``config`` (an app config; None: "earn")."""
        return cls(db, user_id, gives_everything(config), pool)

    @property
    def pool(self):
        if self._pool is None:
            self._pool = default_pool()
        return self._pool

    @functools.cached_property
    def rows(self):
        """{card id: count} of the player's own collection rows (what packs and rewards gave)."""
        return store.get_collection(self.db, self.user_id)

    @functools.cached_property
    def cards(self):
        """{card id: count} of every card the player may put in a deck."""
        if self.everything:
            return {cid: ALL_COUNT for cid in self.pool}
        return self.rows

    @property
    def total(self):
        """How many cards the player may put in decks, copies counted."""
        return sum(self.cards.values())

    @property
    def borrows_loaner(self):
        """Whether the loaner decks are lent to the player: fewer than 30 cards of their own (R2.3),
        or a host that gives every card."""
        return self.everything or sum(self.rows.values()) < DECK_SIZE

    @property
    def lists_loaners(self):
        """Whether the deck list offers the loaner decks to read and copy: while the player borrows
        them, except on a host that gives every card (docs/decks.md)."""
        return self.borrows_loaner and not self.everything

    def deck_problem(self, deck):
        """Why the player cannot play this deck now (R2.1–R2.3), in words a player reads, or None.
        ``deck`` is a store deck with its cards (``store.get_deck``)."""
        if deck["loaner"]:
            if not self.borrows_loaner:
                return gettext("the Prince's Brigade is lent only to players who own fewer than 30 cards")
            return None
        # the deck builder's full check (R2.1, R2.2), whose messages are a player's words already (no rule
        # numbers, no instance ids: webapp/decks/check.py MESSAGES); a host that gives every card checks no ownership
        report = check_deck(deck["cards"], self.pool, None if self.everything else self.rows)
        return None if report.playable else " ".join(report.messages("refused", "invalid"))

    def playable_decks(self):
        """The decks the player may battle with now: their own legal decks, then the loaners while they
        borrow them (each with its cards)."""
        out = []
        for deck in store.list_decks(self.db, self.user_id):
            full = store.get_deck(self.db, self.user_id, deck["id"])
            if self.deck_problem(full) is None:
                out.append(full)
        return out


def owned(db, user_id, config=None, pool=None):
    """{card id: count} of every card the user owns (``Collection.cards``)."""
    return Collection.of(db, user_id, config, pool).cards


def playable_decks(db, user_id, config=None):
    """The decks the user may battle with now (``Collection.playable_decks``)."""
    return Collection.of(db, user_id, config).playable_decks()
