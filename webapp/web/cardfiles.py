"""Card art and card data as cacheable files with content-hashed, immutable URLs (docs/deploy.md).

Every page that draws cards (the board, spectators, the replay) reads one JSON of the whole pool
(`pool_url`: names, stats, rules text and each card's art URL per language, and the game's names of
keywords, elements and kinds of land from cards/words.toml, so the board keeps no copy) and then loads each
card face it shows as its own SVG file (`art_url`). Both URLs carry a hash of the file's content,
so they are served with a year's ``max-age`` and ``immutable``: a repeat visit asks for nothing,
and a change to a card or to the art code changes the URL. Nothing here is about anyone: the pool
is public, and the list holds every card, so it names no deck.
"""

import functools
import hashlib
import json

from flask import has_request_context, request, url_for

from webapp.cards import words
from webapp.cards.art import card_svg
from webapp.cards.text import rules_text
from webapp.engine import load_pool

LANGS = ("en", "ja")
#: How long a hashed file may be kept: a year, and it never changes under its URL.
IMMUTABLE = "public, max-age=31536000, immutable"
FACE_KEYS = ("name", "kind", "level", "element", "tribe", "power", "speed", "life", "slots", "quick",
             "keywords", "rarity", "mana", "timing")


def digest(data):
    """The short content hash that goes into a file's URL."""
    return hashlib.sha256(data).hexdigest()[:12]


@functools.cache  # bounded: only ids of the pool reach it, times the languages
def drawn(card_id, lang):
    """(SVG bytes, ETag) of a pool card's face in ``lang``, drawn on first use; KeyError for a card
    not in the pool. The ETag is the SHA-256 of the bytes; a hashed URL holds its first 12 digits."""
    body = card_svg(load_pool()[card_id], lang).encode()
    return body, hashlib.sha256(body).hexdigest()[:32]


def art_file(card_id, lang):
    """(SVG bytes, hash) of one card face; KeyError for a card not in the pool."""
    svg, etag = drawn(card_id, "ja" if lang == "ja" else "en")
    return svg, etag[:12]


def art_url(card_id, lang="en"):
    """The hashed URL of a card face (a template global too); a card not in the pool gets the plain
    /collection/art URL, which answers 404 naming it."""
    lang = "ja" if lang == "ja" else "en"
    try:
        digest_ = art_file(card_id, lang)[1]
    except KeyError:
        return url_for("collection.art", lang=lang, card_id=card_id)
    return url_for("collection.art_file_route", lang=lang, card_id=card_id, hash=digest_)


@functools.lru_cache(maxsize=1)
def pool_faces():
    """Card id → what the board draws and words a card with (no art): the whole pool."""
    return {cid: dict({k: card.data[k] for k in FACE_KEYS if k in card.data},
                      text={lang: rules_text(card, lang) for lang in LANGS})
            for cid, card in load_pool().items()}


@functools.lru_cache(maxsize=4)
def _pool_file(script_root):
    faces = pool_faces()
    cards = {cid: dict(face, art={lang: art_url(cid, lang) for lang in LANGS}) for cid, face in faces.items()}
    data = {"cards": cards, "words": words.for_board()}
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return body, digest(body)


def pool_file():
    """(JSON bytes, hash) of the card list every card-drawing page reads: ``{"cards": {card id: face},
    "words": {"keyword" | "element" | "land": {lang: {id: name}}}}`` (the words are
    webapp/cards/words.py's ``for_board()``; static/js/play-words.js reads them). Needs a request or
    app context with a server name: the art URLs in it are the app's own."""
    return _pool_file(request.script_root if has_request_context() else "")


def pool_url():
    return url_for("collection.pool_file_route", hash=pool_file()[1])


def warm(app):
    """Draw every card face and make the card list once, as the server starts (in a background task
    of its own, so the start is not held up). The first board page would otherwise pay for it: about
    half a second of CPU, seconds on a small host under load, and with gevent that holds every other
    request and push of the server meanwhile (a friend's first board kept the inviter's from opening)."""
    with app.test_request_context("/"):
        pool_file()
