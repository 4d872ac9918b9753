"""Decks that come from elsewhere or go elsewhere: a copy of one's own deck, the part of a loaner deck
or of someone's deck code or card list that the player owns, and a deck's code (R2).

A deck stored here holds only cards the player owns (webapp.decks.check.clip_to_owned); the cards
it lacks are kept with it (``store.decks.put_wants``) so the builder offers to craft them, or, when
asked (``fill_gaps``), the deck is completed from the player's other cards (webapp.decks.build.fill).
A name is the player's choice or the first free "Name (copy)". Bad input raises
webapp.decks.check.BadDeckInput with the messages to show, and nothing is stored.

The callers (webapp/web/decks.py) pass what the host decides: the pool, the player's cards under the
collection policy, and the deck cap.
"""

import re

from flask_babel import gettext

from webapp import i18n
from webapp.decks import build as deckbuild, code as deckcode, textlist
from webapp.decks.check import DECK_SIZE, NAME_MAX, BadDeckInput, cards_word, check_deck, check_name, clip_to_owned, facts
from webapp.store import copy_deck, save_deck, transaction
from webapp.store.decks import find_by_name, put_wants


def taken(name):
    """The refusal of a name the player gave another deck already."""
    return gettext("You already have a deck called “%(name)s”: pick another name.", name=name)


def free_name(db, user_id, base):
    """``base`` if the user has no deck of that name, else "base (copy)", "base (copy 2)", … (≤ NAME_MAX)."""
    n = 0
    while True:
        suffix = "" if n == 0 else " (copy)" if n == 1 else f" (copy {n})"
        candidate = base[:NAME_MAX - len(suffix)].rstrip() + suffix
        if find_by_name(db, user_id, candidate) is None:
            return candidate
        n += 1


def copy_own(db, user_id, deck, limit):
    """Copy the user's deck under the first free "Name (copy)"; (new deck id, its name)."""
    with transaction(db):
        name = free_name(db, user_id, deck["name"])
        return copy_deck(db, user_id, deck["id"], name, limit=limit), name


def card_list(counts, pool):
    """ "2 × Orc, 1 × Fireball" for a {card id: count}, in the page's language."""
    lang = i18n.current()
    return ", ".join(f"{n} × {facts(pool[cid])['name'][lang] if cid in pool else cid}" for cid, n in counts.items())


def store_owned_part(db, user_id, counts, base_name, source, pool, owned, limit, name=None, fill_gaps=False):
    """Store the part of ``counts`` the user owns (``owned``) as a new deck; (deck id, report for the
    player). The cards lacking are kept with the deck: its builder offers to craft them. With
    ``fill_gaps`` the deck is completed from the user's other cards up to 30 instead.

    Raise BadDeckInput (nothing stored) when the name is taken, or the user owns none of the cards.
    """
    kept, missing = clip_to_owned({cid: n for cid, n in counts.items() if cid in pool}, owned)
    if not kept:
        raise BadDeckInput([gettext("You own none of the cards of %(source)s, so there is nothing to copy yet.",
                                    source=source)])
    added = {}
    if fill_gaps and sum(kept.values()) < DECK_SIZE:
        kept, added = deckbuild.fill(kept, owned, pool)
    with transaction(db):
        if name is None:
            name = free_name(db, user_id, base_name)
        elif find_by_name(db, user_id, name) is not None:
            raise BadDeckInput([taken(name)])
        deck_id = save_deck(db, user_id, name, kept, limit=limit)
        put_wants(db, deck_id, {} if fill_gaps else missing)
    total, have = sum(counts.values()), sum(kept.values()) - sum(added.values())
    message = gettext("“%(name)s” holds %(have)s of the %(total)s cards of %(source)s.", name=name, have=have,
                      total=total, source=source)
    if missing:
        message += " " + gettext("You do not own: %(cards)s.", cards=card_list(missing, pool))
    if added:
        message += " " + gettext("Filled the gaps with %(cards)s from your collection: %(list)s.",
                                 cards=cards_word(sum(added.values())), list=card_list(added, pool))
    return deck_id, message


def looks_like_code(text):
    """Whether pasted text is a deck code (it starts with BRG and a digit) rather than a card list."""
    return re.match(r"\s*BRG\d", text or "", re.IGNORECASE) is not None


def import_text(db, user_id, text, name, pool, owned, limit):
    """Store a pasted deck code or card list as a new deck of the cards owned; (deck id, report)."""
    if looks_like_code(text):
        return import_code(db, user_id, text, name, pool, owned, limit)
    return import_list(db, user_id, text, name, pool, owned, limit)


def import_list(db, user_id, text, name, pool, owned, limit):
    """Store a pasted card list (webapp.decks.textlist) as a new deck of the cards owned; (deck id,
    report). BadDeckInput (nothing stored) names the lines not read and a list over 30 cards."""
    parsed = textlist.parse(text, pool)
    if parsed.too_long:
        raise BadDeckInput([gettext("That list is too long: a deck list has at most %(n)s lines.",
                                    n=textlist.MAX_LINES)])
    errors = [gettext("Line %(n)s: no card is called “%(text)s”.", n=line.number, text=line.text)
              for line in parsed.unknown]
    errors += [gettext("Line %(n)s: a count is from 1 to %(size)s (“%(text)s”).", n=line.number, size=DECK_SIZE,
                       text=line.text) for line in parsed.bad]
    if not parsed.counts and not errors:
        errors.append(gettext("Paste a deck code first (they look like BRG1-…), or a card list with one card a line, such as "
                              "“2 Merfolk Spearman”."))
    report = check_deck(parsed.counts, pool)  # the list itself: more than 30 cards is never stored (R2.1)
    errors += report.messages("refused")
    if errors:
        raise BadDeckInput(errors)
    name = check_name(name) if (name or "").strip() else None
    return store_owned_part(db, user_id, parsed.counts, gettext("Imported deck"), gettext("the list"), pool, owned,
                            limit, name=name)


def import_code(db, user_id, code, name, pool, owned, limit):
    """Store a deck code's cards that the user owns as a new deck; (deck id, report). Raise BadDeckInput."""
    try:
        counts = deckcode.decode(code, pool)
    except deckcode.DeckCodeError as exc:
        raise BadDeckInput([str(exc)]) from None
    name = check_name(name) if (name or "").strip() else None
    return store_owned_part(db, user_id, counts, gettext("Imported deck"), gettext("the deck code"), pool, owned,
                            limit, name=name)


def export_code(counts, pool):
    """The deck code of a stored deck's cards still in the pool, or None if there are none."""
    known = {cid: n for cid, n in counts.items() if cid in pool}
    if not known or sum(known.values()) > DECK_SIZE:
        return None
    return deckcode.encode(known, pool)
