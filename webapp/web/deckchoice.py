"""What the pages that start a battle share (the CPU game, an online invitation or join, a story
chapter): the decks the player may choose, a deck's shown name, and the deck id of a submitted
form. Which decks are playable is the collection policy's (webapp/decks/collection.py, under the
host's config; the services those pages call take the same config); the radio buttons come from the
``deck_choice`` macro in templates/_deck_choice.html."""

from flask import current_app

from webapp import i18n
from webapp.decks import collection


def playable_decks(db, user_id):
    """The decks the user may battle with now, under this host's COLLECTION setting."""
    return collection.playable_decks(db, user_id, current_app.config)


def deck_name(deck, lang=None):
    """A deck's name as shown: a loaner deck's in the reader's language (by default the page's),
    anyone's own as they named it."""
    if lang is None:
        lang = i18n.current()
    texts = deck.get("texts") or {}
    if deck.get("loaner") and isinstance(texts.get("name"), dict):
        return texts["name"].get(lang) or deck["name"]
    return deck["name"]


def form_id(raw):
    """The id (a deck's, a game's) in a form or query field: digits only, at most 18 of them; else None."""
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)
