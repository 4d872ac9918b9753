"""Deck lists as text (docs/decks.md "Deck lists as text"): every card's name in both languages goes out
and comes back, names are matched as the collection search matches them, and no pasted text raises."""

import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from webapp.decks import textlist
from webapp.decks.search import fold
from webapp.engine import load_pool

POOL = load_pool()
IDS = sorted(POOL)


def test_no_two_cards_share_a_matching_name():
    """Two names folding to one key would make an import ambiguous."""
    seen = {}
    for cid in IDS:
        for lang in textlist.LANGS:
            k = textlist.key(POOL[cid].data["name"][lang])
            assert seen.setdefault(k, cid) == cid, (k, cid, seen[k])


@pytest.mark.parametrize("lang", textlist.LANGS)
def test_every_card_name_goes_out_and_comes_back(lang):
    for i, cid in enumerate(IDS):
        counts = {cid: 1 + i % 3}
        text = textlist.export(counts, POOL, lang)
        assert text == f"{counts[cid]} {POOL[cid].data['name'][lang]}\n"
        parsed = textlist.parse(text, POOL)
        assert parsed.clean and parsed.counts == counts, (cid, text, parsed)


@pytest.mark.parametrize("lang", textlist.LANGS)
def test_a_whole_pool_in_decks_of_thirty_round_trips(lang):
    for start in range(0, len(IDS), 15):
        counts = {cid: 2 for cid in IDS[start:start + 15]}
        assert textlist.parse(textlist.export(counts, POOL, lang), POOL).counts == counts


def variants(name):
    """The ways a player may type a name: full width, half-width katakana (NFKC folds them), case, spacing."""
    full = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    yield name.upper()
    yield name.lower()
    yield full
    yield "  " + name.replace(" ", "   ") + " "
    hira = "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in name)
    yield hira


@pytest.mark.parametrize("cid", IDS)
def test_names_match_as_the_collection_search_folds_them(cid):
    for lang in textlist.LANGS:
        for typed in variants(POOL[cid].data["name"][lang]):
            parsed = textlist.parse(f"3 {typed}", POOL)
            assert parsed.counts == {cid: 3}, (typed, parsed)
    assert textlist.parse(cid, POOL).counts == {cid: 1}


def test_half_width_katakana_and_full_width_digits():
    name = POOL["orc"].data["name"]["ja"]  # オーク
    half = unicodedata.normalize("NFKC", name)
    assert textlist.parse("２ ｵｰｸ", POOL).counts == {"orc": 2}
    assert fold(half) == fold("ｵｰｸ")


@pytest.mark.parametrize("line, counts", [
    ("2 Orc", {"orc": 2}), ("2x Orc", {"orc": 2}), ("2 x Orc", {"orc": 2}), ("2×オーク", {"orc": 2}),
    ("Orc x2", {"orc": 2}), ("オーク ×3", {"orc": 3}), ("Orc", {"orc": 1}), ("# a comment\n// too\n\n1 orc", {"orc": 1}),
    ("2 Orc\n1 orc\n3 オーク", {"orc": 6}),
])
def test_line_forms(line, counts):
    parsed = textlist.parse(line, POOL)
    assert parsed.clean and parsed.counts == counts


def test_unknown_names_and_bad_counts_are_reported_by_line():
    parsed = textlist.parse("2 Orc\nDragon Kingg\n0 Orc\n31 orc\n", POOL)
    assert parsed.counts == {"orc": 2}
    assert [line.number for line in parsed.unknown] == [2]
    assert [line.number for line in parsed.bad] == [3, 4]


def test_a_too_long_paste_is_refused_whole():
    assert textlist.parse("1 Orc\n" * (textlist.MAX_LINES + 1), POOL).too_long
    assert textlist.parse("x" * (textlist.MAX_CHARS + 1), POOL).too_long


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_parses_without_raising(text):
    parsed = textlist.parse(text, POOL)
    assert all(cid in POOL and n >= 1 for cid, n in parsed.counts.items())


NAMES = [POOL[c].data["name"][lang] for c in IDS for lang in textlist.LANGS]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 40), st.sampled_from(IDS), st.sampled_from(textlist.LANGS),
                          st.sampled_from([" ", " x ", "x ", " × ", "×"])), max_size=25))
def test_lists_of_real_names_read_back_exactly(lines):
    """Counts 1-30 are read, 0 and over 30 reported as bad counts, a negative count as an unknown line."""
    text = "\n".join(f"{n}{sep}{POOL[cid].data['name'][lang]}" for n, cid, lang, sep in lines)
    parsed = textlist.parse(text, POOL)
    expected = {}
    for n, cid, _, _ in lines:
        if 1 <= n <= 30:
            expected[cid] = expected.get(cid, 0) + n
    assert parsed.counts == expected
    assert len(parsed.bad) == sum(1 for n, *_ in lines if n == 0 or n > 30)
    assert len(parsed.unknown) == sum(1 for n, *_ in lines if n < 0)


def test_a_name_starting_with_x_after_a_count_is_not_read_as_a_multiplier():
    pool = dict(POOL)
    from types import SimpleNamespace
    pool["xeno-beast"] = SimpleNamespace(data={"name": {"en": "Xeno Beast", "ja": "ゼノビースト"}, "kind": "monster",
                                                "element": "fire", "level": 1})
    assert textlist.parse("2 Xeno Beast\n2x Xeno Beast\nXeno Beast x3", pool).counts == {"xeno-beast": 7}
