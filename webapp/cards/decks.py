"""Prebuilt decks in cards/decks/*.toml (the loaner decks, R2.3), validated like the pool."""

import os
import tomllib

from webapp.engine import DECK_SIZE, CardDataError

DECK_KEYS = {"id", "name", "description", "loaner", "cards"}


def toml_files(path, error):
    """(full path, parsed table) of every ``*.toml`` file in ``path``, by name; ``error`` for a file
    that is not valid TOML."""
    for name in sorted(os.listdir(path)):
        if not name.endswith(".toml"):
            continue
        full = os.path.join(path, name)
        try:
            with open(full, "rb") as fh:
                yield full, tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise error(f"{full}: not valid TOML: {exc}") from None


def ordered_records(path, parse, what, error):
    """Every record of the ``*.toml`` files in ``path`` (``parse(data, full path)`` makes one, with ``id``
    and ``order``), sorted by ``order``; ``error`` when two share an id or an order, or there is none."""
    records, ids, orders = [], {}, {}
    for full, data in toml_files(path, error):
        record = parse(data, full)
        if record.id in ids:
            raise error(f"{full}: {what} {record.id!r}: field 'id': also used by {ids[record.id]}")
        if record.order in orders:
            raise error(f"{full}: {what} {record.id!r}: field 'order': {record.order} is also the order of "
                        f"{orders[record.order]}")
        ids[record.id], orders[record.order] = full, full
        records.append(record)
    if not records:
        raise error(f"{path}: no {what} files (*.toml)")
    return sorted(records, key=lambda r: r.order)


def open_record(data, what, keys, source, error):
    """Start checking one data record (a deck, a story chapter): returns its id (None when it has
    none) and ``fail(field, problem)``, which raises ``error`` naming the file, the record and the
    field. Fails at once unless ``data`` is a table whose every key is one of ``keys``."""
    rid = data.get("id") if isinstance(data, dict) else None

    def fail(field, problem):
        raise error(f"{source}: {what} {rid!r}: field {field!r}: {problem}")

    if not isinstance(data, dict):
        fail("", f"a {what} is a table of fields")
    for k in data:
        if k not in keys:
            fail(k, f"unknown key (known: {', '.join(sorted(keys))})")
    return rid, fail


class DeckDataError(CardDataError):
    """A deck file is malformed; the message names the file, the deck id and the field."""


def decks_dir():
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "cards", "decks")


class Deck:
    """A named list of 30 card ids."""

    __slots__ = ("id", "name", "description", "loaner", "counts")

    def __init__(self, id, name, description, loaner, counts):
        self.id, self.name, self.description, self.loaner, self.counts = id, name, description, loaner, counts

    def card_ids(self):
        """The 30 ids, copies repeated, in the file's order."""
        return [cid for cid, n in self.counts.items() for _ in range(n)]

    def to_dict(self):
        return {"id": self.id, "name": self.name, "description": self.description, "loaner": self.loaner,
                "cards": dict(self.counts)}


def parse_deck(data, pool, source="<data>"):
    """Validate one deck record against the pool (R2.1) and return a Deck."""
    did, fail = open_record(data, "deck", DECK_KEYS, source, DeckDataError)
    if not isinstance(did, str) or not did or not all(c.isalnum() or c == "-" for c in did):
        fail("id", "expected an id of letters, digits and '-'")
    for f in ("name", "description"):
        v = data.get(f)
        if not isinstance(v, dict) or set(v) != {"en", "ja"} or not all(isinstance(x, str) and x for x in v.values()):
            fail(f, "expected { en = ..., ja = ... }")
    loaner = data.get("loaner", False)
    if not isinstance(loaner, bool):
        fail("loaner", "expected true or false")
    counts = data.get("cards")
    if not isinstance(counts, dict) or not counts:
        fail("cards", "expected a table of card id = count")
    for cid, n in counts.items():
        if cid not in pool:
            fail(f"cards.{cid}", "no such card in the pool")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            fail(f"cards.{cid}", f"expected a count of 1 or more, got {n!r}")
    total = sum(counts.values())
    if total != DECK_SIZE:
        fail("cards", f"a deck is exactly {DECK_SIZE} cards (R2.1), this one has {total}")
    if not any(pool[c].kind == "monster" for c in counts):
        fail("cards", "a deck holds at least one monster (R2.1)")
    slots = {k for c in counts if pool[c].kind == "monster" for k in pool[c].slots}
    for c in counts:
        card = pool[c]
        if card.kind == "spell" and card.mana and card.element not in slots and "wild" not in slots:
            fail(f"cards.{c}", f"no monster of this deck has {card.element} or wild slots to pay for it (R12.2)")
    return Deck(did, data["name"], data["description"], loaner, dict(counts))


def load_decks(pool, path=None):
    """{deck id: Deck} from every file in cards/decks."""
    path = path or decks_dir()
    decks = {}
    for full, doc in toml_files(path, DeckDataError):
        if set(doc) != {"deck"}:
            raise DeckDataError(f"{full}: a deck file holds one [deck] table")
        deck = parse_deck(doc["deck"], pool, full)
        if deck.id in decks:
            raise DeckDataError(f"{full}: deck {deck.id!r}: field 'id': defined twice")
        decks[deck.id] = deck
    return decks
