"""Deck codes: exact round-trips, a stable card order, and tampered or garbled codes refused."""

import base64
import random

import pytest

from webapp.decks import code as deckcode
from webapp.cards.decks import load_decks
from webapp.decks.code import PREFIX, DeckCodeError, card_order, decode, encode
from webapp.engine import load_pool

POOL = load_pool()
LOANER = load_decks(POOL)["princes-brigade"].counts


def random_deck(rng):
    """A deck of 1 to 30 cards drawn from the whole pool."""
    ids = rng.sample(sorted(POOL), rng.randint(1, 20))
    total, counts = rng.randint(len(ids), 30), dict.fromkeys(ids, 1)
    for _ in range(total - len(ids)):
        counts[rng.choice(ids)] += 1
    return counts


def test_the_loaner_deck_round_trips_in_a_short_code():
    code = encode(LOANER, POOL)
    assert code.startswith(PREFIX)
    assert len(code) < 80
    assert decode(code, POOL) == LOANER


@pytest.mark.parametrize("seed", range(40))
def test_random_decks_round_trip(seed):
    counts = random_deck(random.Random(seed))
    assert decode(encode(counts, POOL), POOL) == counts


@pytest.mark.parametrize("counts", [
    {"orc": 1},
    {"orc": 30},
    {card_order(POOL)[0]: 1, card_order(POOL)[-1]: 29},
])
def test_edge_decks_round_trip(counts):
    assert decode(encode(counts, POOL), POOL) == counts


def test_the_code_does_not_depend_on_the_order_cards_were_added():
    assert encode({"orc": 2, "fireball": 1}, POOL) == encode({"fireball": 1, "orc": 2}, POOL)


def test_code_is_url_and_chat_safe():
    body = encode(LOANER, POOL)[len(PREFIX):]
    assert set(body) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_whitespace_and_line_breaks_pasted_into_a_code_are_ignored():
    code = encode(LOANER, POOL)
    assert decode(f"  {code[:20]}\n{code[20:]}  ", POOL) == LOANER


def test_card_order_is_by_set_then_id():
    order = card_order(POOL)
    assert order == sorted(POOL, key=lambda cid: (POOL[cid].set, cid))


def data_pool(extra=None):
    pool = {cid: card.data for cid, card in POOL.items()}
    pool.update(extra or {})
    return pool


def test_a_new_set_keeps_old_codes_meaning_the_same_deck():
    code = encode(LOANER, POOL)
    bigger = data_pool({"aaa-new-card": dict(POOL["orc"].data, id="aaa-new-card", set=99)})
    assert decode(code, bigger) == LOANER


def test_a_code_read_against_a_pool_where_indexes_mean_other_cards_is_refused():
    code = encode(LOANER, POOL)
    shifted = data_pool({"aaa-early-card": dict(POOL["orc"].data, id="aaa-early-card", set=1)})
    with pytest.raises(DeckCodeError, match="does not check out"):
        decode(code, shifted)


def test_every_single_character_change_is_refused():
    code = encode(LOANER, POOL)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for i in range(len(PREFIX), len(code)):
        for ch in (alphabet[(alphabet.index(code[i]) + 1) % 64], alphabet[(alphabet.index(code[i]) + 17) % 64]):
            tampered = code[:i] + ch + code[i + 1:]
            with pytest.raises(DeckCodeError):
                decode(tampered, POOL)


def test_swapped_neighbours_are_refused():
    code = encode(LOANER, POOL)
    for i in range(len(PREFIX), len(code) - 1):
        if code[i] != code[i + 1]:
            with pytest.raises(DeckCodeError):
                decode(code[:i] + code[i + 1] + code[i] + code[i + 2:], POOL)


@pytest.mark.parametrize("cut", [1, 2, 5, 20])
def test_truncated_codes_are_refused(cut):
    code = encode(LOANER, POOL)
    with pytest.raises(DeckCodeError):
        decode(code[:-cut], POOL)


@pytest.mark.parametrize("code, message", [
    ("", "Paste a deck code first"),
    ("   ", "Paste a deck code first"),
    ("hello", "not a Brigade deck code"),
    ("brg1-AAAA", "not a Brigade deck code"),
    ("BRG2-AAAAAAAA", "made by a newer Brigade"),
    ("BRG1-", "garbled"),
    ("BRG1-AAA", "garbled"),
    ("BRG1-AQEB!!AA", "characters a deck code never has"),
    ("BRG1-<script>", "characters a deck code never has"),
    ("BRG1-" + "A" * 500, "too long"),
])
def test_garbage_is_refused_with_a_reason(code, message):
    with pytest.raises(DeckCodeError, match=message):
        decode(code, POOL)


def forge(items):
    """A code with a correct checksum for raw (index gap, count - 1) items, as a tamperer could make."""
    payload = b"".join(deckcode.varint(gap) + deckcode.varint(n) for gap, n in items)
    order, counts, index = card_order(POOL), {}, -1
    for gap, n in items:
        index += gap + 1
        counts[order[index]] = n + 1
    raw = payload + deckcode.checksum(payload, counts)
    return PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_well_formed_code_of_more_than_30_cards_is_refused():
    with pytest.raises(DeckCodeError, match="holds 31 cards"):
        decode(forge([(0, 30)]), POOL)


def test_a_code_naming_a_card_past_the_end_of_the_pool_is_refused():
    payload = deckcode.varint(len(POOL)) + deckcode.varint(0)
    code = PREFIX + base64.urlsafe_b64encode(payload + b"\0\0\0\0").decode().rstrip("=")
    with pytest.raises(DeckCodeError, match="names a card this server does not have"):
        decode(code, POOL)


def test_a_code_cut_inside_a_number_is_refused():
    payload = b"\x80"
    code = PREFIX + base64.urlsafe_b64encode(payload + b"\0\0\0\0").decode().rstrip("=")
    with pytest.raises(DeckCodeError, match="garbled"):
        decode(code, POOL)


@pytest.mark.parametrize("counts, message", [
    ({}, "holds 1 to 30 cards"),
    ({"orc": 31}, "holds 1 to 30 cards"),
    ({"orc": 0}, "whole numbers of 1 or more"),
    ({"no-such-card": 1}, "no such card"),
])
def test_encode_refuses_what_is_not_a_deck(counts, message):
    with pytest.raises(ValueError, match=message):
        encode(counts, POOL)
