"""The full card pool (CARDSET.md, R17): counts, fixed ids, both languages, mechanics, budget, text."""

import collections

import pytest

from webapp.cards import budget
from webapp.cards.text import rules_text, tribes
from webapp.engine import load_pool
from webapp.engine.carddefs import ELEMENTS, RARITIES

POOL = load_pool()
MONSTERS = [c for c in POOL.values() if c.kind == "monster"]
SPELLS = [c for c in POOL.values() if c.kind == "spell"]
FIXED = ["seraphim", "vampire", "demon-monarch", "sage-centaur", "goblin-hexer", "orc-great-chieftain",
         "ghoul", "orc-lord", "pegasus", "unicorn"]
NEWER_TRIBES = ["Minotaur", "Harpy", "Lamia", "Centaur", "Cyclops", "Kitsune", "Tengu", "Kappa",
                "Dullahan", "Banshee", "Gnome", "Tonttu"]


def test_r17_3_the_pool_is_133_monsters_and_26_spells():
    """R17.3: 159 cards, 133 monsters and 26 spells."""
    assert (len(POOL), len(MONSTERS), len(SPELLS)) == (159, 133, 26)


@pytest.mark.parametrize("card_id", FIXED + [f"rearworld-{k}-{e}" for k in ("king", "dragon") for e in ELEMENTS])
def test_fixed_ids_exist(card_id):
    """CARDSET.md: the ids the rulebook fixes."""
    assert card_id in POOL


def test_r17_2_rearworld_kings_and_dragons_are_level_4_of_their_element():
    """R17.2: each element has a Rearworld King and a Rearworld Dragon, level-4 heavyweights."""
    for e in ELEMENTS:
        for k in ("king", "dragon"):
            c = POOL[f"rearworld-{k}-{e}"]
            assert (c.element, c.level) == (e, 4)


def test_r17_2_giant_spirit_and_dragon_in_the_four_old_elements():
    """R17.2: fire, water, earth and wind each have a Giant, a Spirit and a Dragon."""
    for e in ("fire", "water", "earth", "wind"):
        tribes_here = {c.tribe for c in MONSTERS if c.element == e}
        assert {"Giant", "Spirit", "Dragon"} <= tribes_here, e


def test_r17_2_one_beast_per_element():
    """R17.2: each of the six elements has one Beast."""
    beasts = collections.Counter(c.element for c in MONSTERS if c.tribe == "Beast")
    assert beasts == {e: 1 for e in ELEMENTS}


def test_r12_7_only_the_four_named_monsters_have_wild_slots():
    """R12.7: Seraphim, Vampire, Demon Monarch and Sage Centaur have wild slots."""
    assert {c.id for c in MONSTERS if c.slots.get("wild")} == {"seraphim", "vampire", "demon-monarch",
                                                               "sage-centaur"}


def test_r13_3_lord_tribes_and_newer_tribes():
    """R13.3, R17.2, R17.3: Orc Lord is its own tribe; the twelve newer tribes are set 2 and each on 2+ cards."""
    counts = collections.Counter(c.tribe for c in MONSTERS)
    assert counts["Orc Lord"] >= 1 and counts["Orc"] >= 2
    for t in NEWER_TRIBES:
        assert counts[t] >= 2, t
        assert all(c.set == 2 for c in MONSTERS if c.tribe == t)


def test_r17_3_set_2_is_light_dark_newer_tribes_and_beasts():
    """R17.3: light, dark, the newer tribes and the Beasts carry set 2; the rest set 1."""
    for c in POOL.values():
        newer = c.kind == "monster" and tribes()[c.tribe]["set"] == 2
        assert c.set == (2 if c.element in ("light", "dark") or newer else 1), c.id


def test_r17_1_every_element_and_rarity_is_used():
    """R17.1, R17.4: six elements; four rarities."""
    assert {c.element for c in MONSTERS} == set(ELEMENTS)
    assert {c.element for c in SPELLS} == set(ELEMENTS)
    assert {c.rarity for c in POOL.values()} == set(RARITIES)


def test_every_tribe_is_a_known_tribe():
    for c in MONSTERS:
        assert c.tribe in tribes(), (c.id, c.tribe)


def test_both_languages_on_every_card():
    """Names, flavour and rules text in English and Japanese."""
    for c in POOL.values():
        for field in ("name", "flavor"):
            assert c.data[field]["en"].strip() and c.data[field]["ja"].strip(), (c.id, field)
        assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in c.data["name"]["ja"]), c.id
        if c.abilities or c.keywords or c.kind == "spell":
            assert rules_text(c, "en") and rules_text(c, "ja"), c.id


def test_rules_text_follows_the_data():
    """The rules text is generated from the data: every keyword and timing shows its mark."""
    marks = {"battle": ("[Battle]", "【戦闘時】"), "normal": ("[Normal]", "【普通】"),
             "counter": ("[Counter]", "【対抗】"), "on_destroy": ("[On destroy]", "【破棄時】"),
             "march": ("[March]", "【進軍】"), "strikes_first": ("[Battle]", "【戦闘時】"),
             "strikes_second": ("[Battle]", "【戦闘時】")}
    for c in POOL.values():
        en, ja = rules_text(c, "en"), rules_text(c, "ja")
        for ab in (c.abilities if c.kind == "monster" else (c.spell,)):
            assert marks[ab.timing][0] in en and marks[ab.timing][1] in ja, c.id
        for kw in c.keywords:
            assert {"haste": "Haste", "double_march": "Double March", "far_march": "Far March",
                    "spellproof": "Spellproof"}[kw] in en
        assert "text" not in c.data or c.data["text"] == {"en": en, "ja": ja}, c.id


def mechanics(card):
    out = set(card.keywords)
    if card.quick:
        out.add("quick")
    for ab in (card.abilities if card.kind == "monster" else (card.spell,)):
        out.add("timing:" + ab.timing)
        if ab.unrespondable:
            out.add("unrespondable")
        if ab.sacrifice is not None:
            out.add("sacrifice")
        if ab.choose_one is not None:
            out.add("choose_one")
        if ab.coin is not None:
            out.add("coin")
        if ab.condition is not None:
            out.add("condition")
        for e in ab.all_effects():
            out.add("effect:" + e.op)
            if e.op == "summon":
                out.add(f"summon:{e.source}:{e.dest}")
            if e.to is not None and e.op == "damage":
                out.add("damage:" + e.to.name)
            for v in (e.amount, e.power, e.life):
                if v is not None and not isinstance(v, int):
                    out.add("amount:count" if v.count is not None else "amount:fallen")
    return out


REQUIRED = (["haste", "double_march", "far_march", "spellproof", "quick", "unrespondable", "sacrifice",
             "choose_one", "coin", "condition", "amount:count", "amount:fallen",
             "damage:enemy_front", "damage:enemy_rear", "damage:chosen", "damage:enemies",
             "summon:hand:here", "summon:hand:adjacent", "summon:discard:here", "summon:discard:adjacent"]
            + ["timing:" + t for t in ("battle", "normal", "counter", "on_destroy", "march", "strikes_first",
                                       "strikes_second")]
            + ["effect:" + op for op in ("damage", "boost", "grant_slots", "negate", "set_tribe",
                                         "change_level", "return_to_hand", "destroy", "cancel_spell",
                                         "spell_lock", "allow_quick_summon", "draw", "summon")])


@pytest.mark.parametrize("mechanic", REQUIRED)
def test_every_mechanic_is_on_at_least_two_cards(mechanic):
    """CARDSET.md: each keyword, timing and effect kind on several cards."""
    assert sum(mechanic in mechanics(c) for c in POOL.values()) >= 2


def test_the_stat_budget_holds():
    """docs/cards.md: every monster's value within its level's budget."""
    assert budget.outliers(POOL) == []


def test_levels_are_mostly_low():
    """CARDSET.md: levels 1–4, most 1–2, leaders need plenty of low levels."""
    levels = collections.Counter(c.level for c in MONSTERS)
    assert set(levels) <= {1, 2, 3, 4}
    assert levels[1] + levels[2] >= 0.7 * len(MONSTERS)


def test_every_element_has_a_playable_deck():
    """CARDSET.md: each element has 20+ monsters of level 1–2 or slots for its spells."""
    for e in ELEMENTS:
        mons = [c for c in MONSTERS if c.element == e]
        assert len(mons) >= 20
        assert sum(1 for c in mons if c.level <= 2) >= 12
        assert sum(1 for c in mons if c.slots.get(e)) >= 6
        assert max(c.mana for c in SPELLS if c.element == e) <= 3
