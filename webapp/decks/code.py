"""Deck codes: a deck as a short text string to share, e.g. ``BRG1-AAEBAgMEBQ…``.

After the ``BRG1-`` prefix comes base64url (no padding) of the payload and a 4-byte checksum.
The payload lists the deck's cards in the order of ``card_order`` (by set, then id, so a new set
adds cards at the end and older codes keep their meaning): for each card, the gap from the
previous card's index minus one, then the count minus one, both as LEB128 varints (one byte
each for any deck of today's pool). The checksum is the first 4 bytes of the SHA-256 of the
prefix, the payload and the card ids it decodes to, so a code garbled in transit, or read
against a pool where the indexes mean other cards, is refused instead of giving another deck.
"""

import base64
import hashlib
import re

from webapp.decks.check import DECK_SIZE, facts

PREFIX = "BRG1-"
CHECK_BYTES = 4
MAX_LENGTH = 400
BODY = re.compile(r"[A-Za-z0-9_-]+")


class DeckCodeError(ValueError):
    """A deck code could not be read; the message says why, for the player."""


def card_order(pool):
    """The pool's card ids in the stable order deck codes index: by set, then by id."""
    return sorted(pool, key=lambda cid: (facts(pool[cid])["set"], cid))


def varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(data, pos):
    """(value, next position); raise DeckCodeError if the bytes end inside the number."""
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 28:
            raise DeckCodeError(GARBLED)
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if not byte & 0x80:
            return value, pos


def checksum(payload, counts):
    meaning = ",".join(f"{cid}*{n}" for cid, n in counts.items())
    return hashlib.sha256(PREFIX.encode() + payload + b"\0" + meaning.encode()).digest()[:CHECK_BYTES]


def encode(counts, pool):
    """The deck code of ``counts`` ({card id: count}, 1 to 30 cards of ``pool``)."""
    order = {cid: i for i, cid in enumerate(card_order(pool))}
    unknown = sorted(cid for cid in counts if cid not in order)
    if unknown:
        raise ValueError(f"no such card in the pool: {', '.join(map(repr, unknown))}")
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in counts.values()):
        raise ValueError(f"counts must be whole numbers of 1 or more: {counts!r}")
    if not 1 <= sum(counts.values()) <= DECK_SIZE:
        raise ValueError(f"a deck code holds 1 to {DECK_SIZE} cards, not {sum(counts.values())}")
    items = sorted((order[cid], cid, n) for cid, n in counts.items())
    payload, prev = bytearray(), -1
    for index, _, n in items:
        payload += varint(index - prev - 1) + varint(n - 1)
        prev = index
    ordered = {cid: n for _, cid, n in items}
    raw = bytes(payload) + checksum(bytes(payload), ordered)
    return PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


GARBLED = "This deck code is garbled: part of it is missing or mistyped. Copy the whole code again."


def decode(code, pool):
    """{card id: count} of a deck code; raise DeckCodeError with a player-facing reason."""
    text = "".join((code or "").split())
    if not text:
        raise DeckCodeError("Paste a deck code first (they look like BRG1-…).")
    if len(text) > MAX_LENGTH:
        raise DeckCodeError(f"This is too long to be a deck code (a code has at most {MAX_LENGTH} characters).")
    if not text.startswith(PREFIX):
        if re.match(r"BRG\d+-", text):
            raise DeckCodeError("This deck code was made by a newer Brigade than this server runs.")
        raise DeckCodeError("This is not a Brigade deck code: a deck code starts with BRG1-.")
    body = text[len(PREFIX):]
    if body and not BODY.fullmatch(body):
        raise DeckCodeError("This deck code holds characters a deck code never has: it was mistyped or "
                            "changed. Copy the whole code again.")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except ValueError:
        raise DeckCodeError(GARBLED) from None
    # Base64 ignores the spare bits of a last character: re-encoding catches a changed one.
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != body or len(raw) <= CHECK_BYTES:
        raise DeckCodeError(GARBLED)
    payload, check = raw[:-CHECK_BYTES], raw[-CHECK_BYTES:]
    order = card_order(pool)
    counts, pos, index = {}, 0, -1
    while pos < len(payload):
        gap, pos = read_varint(payload, pos)
        n, pos = read_varint(payload, pos)
        index += gap + 1
        if index >= len(order):
            raise DeckCodeError("This deck code names a card this server does not have: it was mistyped, "
                                "or made with a bigger card pool.")
        counts[order[index]] = n + 1
    if checksum(payload, counts) != check:
        raise DeckCodeError("This deck code does not check out: it was mistyped or changed, or made with "
                            "another card pool. Copy the whole code again.")
    total = sum(counts.values())
    if not 1 <= total <= DECK_SIZE:
        raise DeckCodeError(f"This deck code holds {total} cards; a deck holds at most {DECK_SIZE}.")
    return counts
