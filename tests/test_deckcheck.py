"""Deck validation (R2.1, R2.2, R2.5, R12.2): each rule, each message, and the deck charts' numbers."""

from pathlib import Path

import pytest

from webapp.decks.check import (DECK_SIZE, ERINGE_TIP, NAME_MAX, SPELL_TIP_AT, BadDeckInput, check_deck, check_name,
                              clip_to_owned, read_counts)
from webapp.decks.stats import deck_stats, pool_levels
from webapp.engine import load_pool

POOL = load_pool()
RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"

# Orc: level 1 earth, 1 earth slot. Salamander: level 1 fire, 1 fire slot. Sylph: level 1 wind, 2 wind slots.
ORCS = {"orc": 30}
EVERYTHING = {cid: 30 for cid in POOL}


def problems(report):
    return [(p.code, p.level, p.message) for p in report.problems]


def test_r2_1_a_deck_of_30_owned_monsters_has_no_problems():
    report = check_deck({"orc": 15, "salamander": 15}, POOL, EVERYTHING)
    assert report.problems == []
    assert report.playable and report.storable


def test_r2_1_fewer_than_30_cards_is_a_draft_that_cannot_be_played():
    report = check_deck({"orc": 28}, POOL, EVERYTHING)
    assert problems(report) == [("too_few", "invalid",
                                 "A deck is exactly 30 cards: this one has 28. Add 2 cards.")]
    assert report.storable and not report.playable


def test_r2_1_one_card_short_says_one_card():
    assert check_deck({"orc": 29}, POOL).messages() == [
        "A deck is exactly 30 cards: this one has 29. Add 1 card."]


def test_r2_1_more_than_30_cards_is_refused():
    report = check_deck({"orc": 16, "salamander": 15}, POOL, EVERYTHING)
    assert problems(report) == [("too_many", "refused",
                                 "A deck is exactly 30 cards: this one has 31. Take out 1 card.")]
    assert not report.storable and not report.playable


def test_r2_1_a_deck_needs_a_monster():
    report = check_deck({"stone-skin": 30}, POOL)
    assert ("no_monster", "invalid", "A deck needs at least one monster.") in problems(report)
    assert not report.playable


def test_r2_2_a_card_not_owned_is_refused():
    report = check_deck({"orc": 29, "fireball": 1}, POOL, {"orc": 29})
    assert ("not_owned", "refused", "You do not own Fireball: take it out.") in problems(report)
    assert not report.storable


def test_r2_2_more_copies_than_owned_is_refused():
    report = check_deck({"orc": 30}, POOL, {"orc": 27})
    assert problems(report) == [("too_many_copies", "refused",
                                 "The deck has 30 × Orc, but you own only 27. Take out 3.")]


def test_r2_2_without_a_collection_ownership_is_not_checked():
    assert check_deck(ORCS, POOL).problems == []


def test_unknown_card_ids_are_refused_one_message_each():
    report = check_deck({"orc": 28, "no-such-card": 1, "nope": 1}, POOL, EVERYTHING)
    assert problems(report) == [
        ("unknown", "refused", 'No card in the pool has the id "no-such-card": take it out.'),
        ("unknown", "refused", 'No card in the pool has the id "nope": take it out.'),
        # The unknown cards still count towards the 30; R2.1 is met.
    ]
    assert not report.storable


def test_r12_2_a_spell_no_monster_can_pay_for_is_a_warning():
    report = check_deck({"orc": 28, "fireball": 2}, POOL, EVERYTHING)
    assert problems(report) == [("unpayable", "warning",
                                 "No monster in this deck has fire or wild spell slots, "
                                 "so Fireball can never be cast.")]
    assert report.playable


def test_r12_2_a_monster_with_the_spells_element_pays_for_it():
    assert check_deck({"orc": 14, "salamander": 14, "fireball": 2}, POOL).problems == []


@pytest.mark.parametrize("wild_monster", ["vampire", "sage-centaur", "seraphim"])
def test_r12_7_wild_slots_pay_for_any_spell(wild_monster):
    assert check_deck({"orc": 27, wild_monster: 1, "fireball": 2}, POOL).problems == []


def test_r12_2_a_spell_of_mana_0_needs_no_slots():
    assert check_deck({"salamander": 29, "ley-line": 1}, POOL).problems == []


def test_unpayable_spells_are_listed_in_element_order():
    report = check_deck({"holy-light": 1, "fireball": 1, "orc": 28}, POOL)
    assert [p.card for p in report.problems] == ["fireball", "holy-light"]


def test_r2_5_eringe_tip_when_the_deck_leans_on_spells():
    deck = {"salamander": 19, "fireball": 3, "war-cry": 2, "ember-ritual": 2, "flame-lance": 2, "funeral-pyre": 2}
    assert sum(deck.values()) == DECK_SIZE
    report = check_deck(deck, POOL)
    assert problems(report) == [("tip", "tip", "Eringe: A deck of mostly spells cannot move: spells need spell "
                                               "slots of monsters. Build around monsters.")]
    assert report.playable  # a tip, not a rule


def test_r2_5_ten_spells_get_no_tip():
    deck = {"salamander": 20, "fireball": 3, "war-cry": 2, "ember-ritual": 2, "flame-lance": 2, "funeral-pyre": 1}
    assert sum(n for c, n in deck.items() if POOL[c].kind == "spell") == SPELL_TIP_AT
    assert check_deck(deck, POOL).problems == []


def test_r2_5_more_spells_than_monsters_in_a_draft_gets_the_tip():
    codes = [p.code for p in check_deck({"salamander": 2, "fireball": 3}, POOL).problems]
    assert codes == ["too_few", "tip"]


def test_problems_come_worst_first():
    report = check_deck({"fireball": 31, "nope": 1}, POOL, {})
    assert [p.level for p in report.problems] == ["refused", "refused", "refused", "invalid", "warning", "tip"]
    assert [p.code for p in report.problems] == ["unknown", "too_many", "not_owned", "no_monster", "unpayable", "tip"]


def test_eringe_tip_quotes_the_rulebook():
    rules = RULES_DIR / "RULES.md"
    rulebook = RULES_DIR / "rulebook-ja.txt"
    r2_5 = next(line for line in rules.read_text(encoding="utf-8").splitlines() if line.startswith("- R2.5"))
    assert ERINGE_TIP["en"] in r2_5
    assert "エリンゲ" + ERINGE_TIP["ja"] in rulebook.read_text(encoding="utf-8")


@pytest.mark.parametrize("raw", ["-1", "abc", "1.5", "31", "1e2", "２", "0x1"])
def test_read_counts_refuses_what_is_not_a_count(raw):
    with pytest.raises(BadDeckInput) as caught:
        read_counts([("orc", raw)])
    assert caught.value.messages == [f'The count of "orc" must be a whole number from 0 to 30, not "{raw}".']


def test_read_counts_drops_blanks_and_zeros():
    assert read_counts([("orc", "3"), ("fireball", "0"), ("salamander", " "), ("sylph", " 2 ")]) == {"orc": 3,
                                                                                                    "sylph": 2}


def test_read_counts_names_every_bad_field():
    with pytest.raises(BadDeckInput) as caught:
        read_counts([("orc", "x"), ("sylph", "2"), ("fireball", "-3")])
    assert len(caught.value.messages) == 2


@pytest.mark.parametrize("name, message", [
    ("", "Give the deck a name."),
    ("   ", "Give the deck a name."),
    ("x" * (NAME_MAX + 1), f"A deck name is at most {NAME_MAX} characters; this one has {NAME_MAX + 1}."),
    ("two\nlines", "A deck name cannot hold control characters (tabs, line breaks)."),
])
def test_check_name_refuses(name, message):
    with pytest.raises(BadDeckInput) as caught:
        check_name(name)
    assert caught.value.messages == [message]


def test_check_name_strips_and_keeps_a_name_of_the_longest_length():
    assert check_name("  " + "x" * NAME_MAX + " ") == "x" * NAME_MAX
    assert check_name("王子の旅団") == "王子の旅団"


def test_clip_to_owned_keeps_what_is_owned_and_lists_the_rest():
    kept, missing = clip_to_owned({"orc": 3, "fireball": 2, "sylph": 1}, {"orc": 2, "sylph": 5})
    assert kept == {"orc": 2, "sylph": 1}
    assert missing == {"orc": 1, "fireball": 2}


# ---------------------------------------------------------------- deckstats


def test_stats_level_curve_ratio_and_elements():
    stats = deck_stats({"orc": 10, "blaze-knight": 4, "fireball": 2}, POOL)
    assert (stats["total"], stats["monsters"], stats["spells"]) == (16, 14, 2)
    assert stats["levels"] == [{"level": 1, "count": 10}, {"level": 2, "count": 4},
                               {"level": 3, "count": 0}, {"level": 4, "count": 0}]
    by_element = {e["element"]: (e["monsters"], e["spells"]) for e in stats["elements"]}
    assert by_element == {"fire": (4, 2), "water": (0, 0), "earth": (10, 0), "wind": (0, 0), "light": (0, 0),
                          "dark": (0, 0)}


def test_stats_slot_coverage_counts_slots_of_monsters_against_mana_of_spells():
    stats = deck_stats({"salamander": 2, "vampire": 1, "fireball": 2, "war-cry": 1, "healing-rain": 1}, POOL)
    assert stats["coverage"] == [
        {"element": "fire", "spells": 3, "needed": 4, "heaviest": 2, "slots": 2, "wild": 1, "status": "short"},
        {"element": "water", "spells": 1, "needed": 2, "heaviest": 2, "slots": 0, "wild": 1, "status": "short"},
    ]
    assert deck_stats({"orc": 5, "fireball": 1}, POOL)["coverage"][0]["status"] == "none"
    assert deck_stats({"salamander": 5, "fireball": 1}, POOL)["coverage"][0]["status"] == "ok"


def test_stats_leave_out_unknown_cards_and_the_pool_gives_the_levels():
    assert deck_stats({"nope": 3}, POOL)["total"] == 0
    assert pool_levels(POOL) == [1, 2, 3, 4]
