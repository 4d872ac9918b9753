"""Deck validation for the deckbuilder: one clear message per problem (R2.1, R2.2, R2.5, R12.2).

A problem has a level:

- ``refused``: the deck is never stored (unknown card ids, more than 30 cards, cards not owned or
  more copies than owned). Saving such a deck changes nothing.
- ``invalid``: the deck may be stored as a draft but cannot be played yet (fewer than 30 cards,
  no monster).
- ``warning``: legal, but a spell can never be cast (R12.2: no monster has its element's or wild
  slots).
- ``tip``: Eringe's tip from the rulebook when the deck leans on spells (R2.5).

The message texts are templates in ``MESSAGES`` so that the builder's script (static/js/deck-rules.js)
words its live messages exactly as the server does. They are gettext msgids (docs/i18n.md): ``message``
words them in the request's language (English outside a request), and the builder page sends the
script the same templates translated (``messages()``).
"""

from typing import NamedTuple

from flask_babel import gettext, ngettext

from webapp import i18n
from webapp.cards.art import ELEMENT_NAMES
from webapp.engine import ELEMENTS

#: A deck is exactly this many cards.
DECK_SIZE = 30
#: Eringe's tip shows when a deck holds more spells than this, or more spells than monsters (R2.5).
SPELL_TIP_AT = 10
#: The longest deck name, in characters.
NAME_MAX = 40

LEVELS = ("refused", "invalid", "warning", "tip")


def N_(text):
    """Marks a msgid for pybabel extract; translated where it is used."""
    return text


MESSAGES = {
    "unknown": N_('No card in the pool has the id "{card}": take it out.'),
    "too_many": N_("A deck is exactly {size} cards: this one has {count}. Take out {extra}."),
    "too_few": N_("A deck is exactly {size} cards: this one has {count}. Add {missing}."),
    "no_monster": N_("A deck needs at least one monster."),
    "not_owned": N_("You do not own {name}: take it out."),
    "too_many_copies": N_("The deck has {count} × {name}, but you own only {owned}. Take out {extra}."),
    "unpayable": N_("No monster in this deck has {element} or wild spell slots, so {name} can never be cast."),
}


def lang():
    return i18n.current()


def messages():
    """MESSAGES in the request's language (the builder's script words its live messages with them)."""
    return {code: gettext(text) for code, text in MESSAGES.items()}


def message(code, **values):
    return gettext(MESSAGES[code]).format(**values)


def element_word(element):
    """An element as the messages name it: "fire" in English, 火 in Japanese."""
    if lang() == "ja":
        return ELEMENT_NAMES.get(element, (element, element))[1]
    return element

#: Eringe's line on decks of mostly spells: R2.5 in English, and the rulebook's own words (rulebook-ja.txt, section 2).
ERINGE_TIP = {
    "en": "A deck of mostly spells cannot move: spells need spell slots of monsters. Build around monsters.",
    "ja": "魔法ばかりのデッキは身動きが取れない。魔法を使うにはスペル枠を持つモンスターが要るからね。"
          "まずはモンスターを中心に組むといい。",
}
SPEAKER = {"en": "Eringe", "ja": "エリンゲ"}


class Problem(NamedTuple):
    """One thing wrong with (or worth saying about) a deck."""

    code: str
    level: str
    message: str
    card: str | None = None

    def to_dict(self):
        return self._asdict()


class Report(NamedTuple):
    """The problems of one deck, worst first."""

    problems: list

    @property
    def storable(self):
        """True if nothing refuses the deck: it may be saved (perhaps as a draft)."""
        return not any(p.level == "refused" for p in self.problems)

    @property
    def playable(self):
        """True if the deck is a legal deck to battle with (R2.1, R2.2)."""
        return not any(p.level in ("refused", "invalid") for p in self.problems)

    def messages(self, *levels):
        """The messages of the given levels (all if none given)."""
        return [p.message for p in self.problems if not levels or p.level in levels]

    def to_list(self):
        return [p.to_dict() for p in self.problems]


class BadDeckInput(ValueError):
    """A submitted deck could not be read; ``messages`` says what was wrong with each field."""

    def __init__(self, messages):
        super().__init__(" ".join(messages))
        self.messages = list(messages)


def cards_word(n):
    """ "1 card", "2 cards" (in the request's language)."""
    return ngettext("%(num)s card", "%(num)s cards", n)


def facts(card):
    """The card's data dict (a CardDef's ``.data``, or a dict already)."""
    return getattr(card, "data", card)


def name_of(card, card_id):
    data = facts(card) if card is not None else None
    names = (data or {}).get("name", {})
    return names.get(lang()) or names.get("en") or card_id


def read_counts(pairs):
    """{card id: count} from (card id, text) pairs of a form; blanks and zeros dropped.

    Raise BadDeckInput naming each count that is not a whole number from 0 to DECK_SIZE.
    """
    counts, errors = {}, []
    for card_id, raw in pairs:
        text = (raw or "").strip()
        if not text:
            continue
        if not text.isascii() or not text.isdigit() or int(text) > DECK_SIZE:
            errors.append(gettext('The count of "%(card)s" must be a whole number from 0 to %(size)s, not "%(text)s".',
                                  card=card_id[:60], size=DECK_SIZE, text=text[:20]))
            continue
        n = int(text)
        if n:
            counts[card_id] = counts.get(card_id, 0) + n
    if errors:
        raise BadDeckInput(errors)
    return counts


def check_name(name):
    """The deck name stripped; raise BadDeckInput if it is empty, too long or has control characters."""
    name = (name or "").strip()
    if not name:
        raise BadDeckInput([gettext("Give the deck a name.")])
    if len(name) > NAME_MAX:
        raise BadDeckInput([gettext("A deck name is at most %(max)s characters; this one has %(n)s.", max=NAME_MAX,
                                    n=len(name))])
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in name):
        raise BadDeckInput([gettext("A deck name cannot hold control characters (tabs, line breaks).")])
    return name


def check_deck(counts, pool, owned=None):
    """The Report of a deck ({card id: count}) against ``pool`` and, unless None, the user's ``owned`` cards."""
    problems = []
    known = {cid: n for cid, n in counts.items() if cid in pool}
    for cid in counts:
        if cid not in pool:
            problems.append(Problem("unknown", "refused", message("unknown", card=cid), cid))
    total = sum(counts.values())
    if total > DECK_SIZE:
        problems.append(Problem("too_many", "refused", message(
            "too_many", size=DECK_SIZE, count=total, extra=cards_word(total - DECK_SIZE))))
    if owned is not None:
        for cid, n in known.items():
            have = owned.get(cid, 0)
            name = name_of(pool[cid], cid)
            if have <= 0:
                problems.append(Problem("not_owned", "refused", message("not_owned", name=name), cid))
            elif n > have:
                problems.append(Problem("too_many_copies", "refused", message(
                    "too_many_copies", count=n, name=name, owned=have, extra=n - have), cid))
    if total < DECK_SIZE:
        problems.append(Problem("too_few", "invalid", message(
            "too_few", size=DECK_SIZE, count=total, missing=cards_word(DECK_SIZE - total))))
    monsters = sum(n for cid, n in known.items() if facts(pool[cid])["kind"] == "monster")
    spells = sum(n for cid, n in known.items() if facts(pool[cid])["kind"] == "spell")
    if not monsters:
        problems.append(Problem("no_monster", "invalid", message("no_monster")))
    problems.extend(unpayable(known, pool))
    if spells > SPELL_TIP_AT or spells > monsters:
        tip = "ja" if lang() == "ja" else "en"
        problems.append(Problem("tip", "tip", f"{SPEAKER[tip]}: {ERINGE_TIP[tip]}"))
    problems.sort(key=lambda p: LEVELS.index(p.level))
    return Report(problems)


def slot_kinds(counts, pool):
    """The slot kinds (elements and ``wild``) that the deck's monsters carry."""
    kinds = set()
    for cid in counts:
        data = facts(pool[cid])
        if data["kind"] == "monster":
            kinds.update(k for k, v in data.get("slots", {}).items() if v > 0)
    return kinds


def unpayable(counts, pool):
    """A warning for each spell no monster of the deck can pay for (R12.2), in element order."""
    kinds = slot_kinds(counts, pool)
    found = []
    for cid in counts:
        data = facts(pool[cid])
        if data["kind"] == "spell" and data.get("mana", 0) > 0 and data["element"] not in kinds and "wild" not in kinds:
            found.append((ELEMENTS.index(data["element"]) if data["element"] in ELEMENTS else 99, cid, data))
    return [Problem("unpayable", "warning", message("unpayable", element=element_word(data["element"]),
                                                   name=name_of(data, cid)), cid)
            for _, cid, data in sorted(found, key=lambda f: (f[0], f[1]))]


def clip_to_owned(counts, owned):
    """(kept, missing): the part of ``counts`` the user owns, and {card id: copies lacking} for the rest."""
    kept, missing = {}, {}
    for cid, n in counts.items():
        have = max(0, min(n, owned.get(cid, 0)))
        if have:
            kept[cid] = have
        if n > have:
            missing[cid] = n - have
    return kept, missing


def eringe_tip():
    """Eringe's tip in both languages with the speaker's name: {"en": …, "ja": …}."""
    return {lang: {"speaker": SPEAKER[lang], "text": ERINGE_TIP[lang]} for lang in ("en", "ja")}
