"""What the pages that start a battle share (the CPU game, an online invitation or join, a story
chapter): whether the host gives every card to everyone, a deck's shown name, and the deck id of
a submitted form. The deck list itself comes from ``play.playable_decks``; the radio buttons from
the ``deck_choice`` macro in templates/_deck_choice.html."""

from flask import current_app


def all_owned():
    """True when the host gives every player every card (COLLECTION = "all")."""
    return current_app.config.get("COLLECTION") == "all"


def deck_name(deck, lang=None):
    """A deck's name as shown: a loaner deck's in the reader's language (by default the page's),
    anyone's own as they named it."""
    if lang is None:
        from webapp import i18n
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
