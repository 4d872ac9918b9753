"""R17: elements, tribes, set and rarity, as far as the current (small) pool and the engine show.

The full-pool counts of R17.2/R17.3 (159 cards, a Giant/Spirit/Dragon per element, ...) are a
later issue: the pool in cards/pool/ is a first subset.
"""

import itertools

import pytest

from tests.engine.helpers import card, do, events_of, find, scenario, unit
from webapp.engine import CardDataError, load_pool, parse_card

ELEMENTS = ["fire", "water", "earth", "wind", "light", "dark"]


def raw_monster(**fields):
    data = {"id": "probe", "kind": "monster", "name": {"en": "Probe", "ja": "プローブ"}, "level": 1,
            "element": "fire", "tribe": "Soldier", "power": 1, "life": 1, "rarity": "C"}
    data.update(fields)
    return data


def battle(att_card, def_card, cards, dice=(6, 1), hand0=(), att_units=None, def_units=None):
    """p0 attacks L5 from L3; returns (game, events)."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True)] + (att_units or [unit(att_card, "L3", "x")]),
          "hand": list(hand0)}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True)] + (def_units or [unit(def_card, "L5", "d")])}
    g = scenario(p0, p1, cards=cards, dice=list(dice))
    units = [u["id"] for u in p0["units"][1:]]
    return g, do(g, 0, {"type": "march", "units": units, "to": "L5"})


# ------------------------------------------------------------------ R17.1 elements

@pytest.mark.parametrize("element", ELEMENTS)
def test_r17_1_each_of_the_six_elements_is_accepted(element):
    """R17.1: fire, water, earth, wind, light and dark are the elements."""
    assert parse_card(raw_monster(element=element)).element == element


@pytest.mark.parametrize("element", ["holy", "Fire", "neutral", ""])
def test_r17_1_no_other_element_is_accepted(element):
    """R17.1: there are six elements and no others (names are exact)."""
    with pytest.raises(CardDataError, match="element"):
        parse_card(raw_monster(element=element))


def test_r17_1_pool_cards_use_only_the_six_elements():
    """R17.1: every card of the pool has one of the six elements."""
    assert {c.element for c in load_pool().values()} <= set(ELEMENTS)


@pytest.mark.parametrize("att,dfn", list(itertools.product(ELEMENTS, ELEMENTS)))
def test_r17_1_no_element_beats_another_in_an_attack(att, dfn):
    """R17.1: no element advantage: a 3-power attack deals 3 damage whatever the two elements."""
    cards = {"hitter": card(element=att, power=3, life=9), "target": card(element=dfn, power=0, life=9)}
    g, ev = battle("hitter", "target", cards)
    dmg = [e for e in events_of(ev, "damage") if e["unit"] == "d"]
    assert [(e["amount"], e["life"]) for e in dmg] == [(3, 9 - 3)]


@pytest.mark.parametrize("dfn", ELEMENTS)
def test_r17_1_no_element_advantage_for_spells(dfn):
    """R17.1: a fire Fireball deals its 3 damage to a front monster of any element."""
    cards = {"caster": card(element="water", power=0, life=9, slots={"fire": 1}),
             "target": card(element=dfn, power=0, life=9)}
    g, _ = battle("caster", "target", cards, hand0=["fireball"])
    ev = do(g, 0, find(g, 0, "spell")[0])
    assert [(e["unit"], e["amount"], e["life"]) for e in events_of(ev, "damage")][0] == ("d", 3, 9 - 3)


# ------------------------------------------------------------------ R17.2 tribes (exact strings)

def test_r17_2_tribe_is_kept_exactly_as_written():
    """R17.2/R13.3: a tribe is its exact name; "Orc Lord" is its own tribe, not an Orc."""
    assert parse_card(raw_monster(tribe="Orc Lord")).tribe == "Orc Lord"
    pool = load_pool()
    assert pool["orc-lord"].tribe == "Orc Lord" and pool["orc"].tribe == "Orc"


@pytest.mark.parametrize("tribe,boosted", [("Orc", True), ("orc", False), ("Orcs", False),
                                           ("Orc Lord", False), ("Great Orc", False)])
def test_r17_2_tribe_filters_match_the_exact_name_only(tribe, boosted):
    """R17.2: Orc Lord's boost ("tribe Orc") applies to tribe "Orc" exactly, nothing like it."""
    cards = {"kin": card(tribe=tribe, power=2, life=9)}
    g, ev = battle(None, "wall", dict(cards, wall=card(power=0, life=30)),
                   att_units=[unit("kin", "L3", "k"), unit("orc-lord", "L3", "lord")])
    if g.state.battle is not None and g.state.battle.step == "formation":
        ev += do(g, 0, {"type": "formation", "order": ["k", "lord"]})
    # Orc Lord 3 + kin 2, +1 if kin is an Orc
    assert events_of(ev, "attack")[0]["power"] == 3 + 2 + (1 if boosted else 0)


@pytest.mark.parametrize("tribe,allowed", [("Demon", True), ("Demon Lord", False), ("demon", False)])
def test_r17_2_demon_monarch_quick_summons_the_exact_tribe(tribe, allowed):
    """R17.2/R9.3: Demon Monarch lets its side quick summon tribe "Demon" only (exact name)."""
    cards = {"fiend": card(tribe=tribe, element="dark", level=2, power=1, life=2),
             "wall": card(power=0, life=30)}
    g, ev = battle("demon-monarch", "wall", cards, hand0=["fiend"])
    if allowed:
        assert g.view(0)["battle"]["step"] == "quick" and g.waiting_for() == {0}
        assert [a["cards"] for a in find(g, 0, "quick_summon")] == [[], [g.view(0)["players"][0]["hand"][0]["id"]]]
    else:                                                   # nothing to offer: the step was skipped
        assert not events_of(ev, "quick_summoned")
        assert [c["card"] for c in g.view(0)["players"][0]["hand"]] == ["fiend"]
        assert events_of(ev, "initiative")


# ------------------------------------------------------------------ R17.3 set

def test_r17_3_set_defaults_to_1_and_accepts_2():
    """R17.3 [decided]: `set` is 1 unless the card says 2."""
    assert parse_card(raw_monster()).set == 1
    assert parse_card(raw_monster(set=2)).set == 2


@pytest.mark.parametrize("value", [0, 3, "2", True, 1.0])
def test_r17_3_set_is_only_1_or_2(value):
    """R17.3 [decided]: any other `set` is refused."""
    with pytest.raises(CardDataError, match="set"):
        parse_card(raw_monster(set=value))


def test_r17_3_every_pool_card_is_set_1_or_2():
    """R17.3: every card of the pool carries set 1 or 2."""
    assert {c.set for c in load_pool().values()} <= {1, 2}


def test_r17_3_light_and_dark_cards_are_set_2():
    """R17.3: light and dark arrived in 1.5.0: every light/dark card (monster or spell) is set 2."""
    pool = load_pool()
    ld = [c for c in pool.values() if c.element in ("light", "dark")]
    assert ld, "the pool holds light/dark cards"
    assert {c.id: c.set for c in ld} == {c.id: 2 for c in ld}


def test_r17_3_beasts_are_set_2():
    """R17.3: the Beasts (Pegasus, Unicorn, ...) arrived in 1.5.0: set 2."""
    beasts = [c for c in load_pool().values() if c.kind == "monster" and c.tribe == "Beast"]
    assert {"pegasus", "unicorn"} <= {c.id for c in beasts}
    assert all(c.set == 2 for c in beasts)


def test_r17_3_original_element_giants_and_spirits_are_set_1():
    """R17.3: the original fire/water/earth/wind tribes (here Orc, Giant, Spirit) are set 1."""
    pool = load_pool()
    old = [c for c in pool.values() if c.kind == "monster" and c.tribe in ("Orc", "Orc Lord", "Giant", "Spirit")]
    assert old
    assert {c.id: c.set for c in old} == {c.id: 1 for c in old}


# ------------------------------------------------------------------ R17.4 rarity

@pytest.mark.parametrize("rarity", ["C", "U", "R", "SR"])
def test_r17_4_rarity_changes_no_value_in_battle(rarity):
    """R17.4: rarity changes nothing in the rules: same power, life, speed and damage."""
    cards = {"hitter": card(rarity=rarity, power=3, life=4, speed=1), "target": card(power=2, life=9)}
    g, ev = battle("hitter", "target", cards, dice=[3, 3])   # 3 + 1 speed beats 3
    assert events_of(ev, "initiative")[0]["rolls"]["0"] == {"die": 3, "speed": 1, "total": 4}
    assert [(e["unit"], e["amount"], e["life"]) for e in events_of(ev, "damage")] == \
        [("d", 3, 9 - 3), ("x", 2, 4 - 2)]


@pytest.mark.parametrize("rarity", ["C", "U", "R", "SR"])
def test_r17_4_rarity_does_not_change_how_lands_weigh(rarity):
    """R17.4: rarity does not count against capacity: only the level does (swamp L4, capacity 4)."""
    cards = {"heavy": card(rarity=rarity, level=2)}
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("heavy", "L3", "h1"),
                            unit("heavy", "L3", "h2")]}, cards=cards)
    assert find(g, 0, "march", units=["h1", "h2"], to="L4")


def test_r17_4_rarity_orders_only_the_suggested_formation():
    """R17.4/R9.5: lower rarity first within non-leaders, whatever the arrival order."""
    cards = {"sr": card(rarity="SR"), "r": card(rarity="R"), "u": card(rarity="U"), "c": card(rarity="C"),
             "wall": card(power=0, life=30)}
    g, ev = battle(None, "wall", cards,
                   att_units=[unit("sr", "L3", "s"), unit("r", "L3", "r"), unit("u", "L3", "u"),
                              unit("c", "L3", "c")])
    assert events_of(ev, "battle_started")[0]["parties"]["0"] == ["c", "u", "r", "s"]
    # the suggestion is only a starting point: any order may be chosen
    assert find(g, 0, "formation", order=["s", "r", "u", "c"])


def test_r17_4_leaders_stay_at_the_rear_whatever_their_rarity():
    """R17.4/R9.5: rarity orders within groups; a common leader still goes behind an SR non-leader."""
    cards = {"sr": card(rarity="SR"), "c": card(rarity="C"), "wall": card(power=0, life=30)}
    g, ev = battle(None, "wall", cards,
                   att_units=[unit("c", "L3", "boss", leader=True), unit("sr", "L3", "s")])
    assert events_of(ev, "battle_started")[0]["parties"]["0"] == ["s", "boss"]


@pytest.mark.parametrize("rarity", ["UR", "c", "N", ""])
def test_r17_4_only_the_four_rarities_exist(rarity):
    """R17.4/R3.1: a card's rarity is one of C, U, R, SR."""
    with pytest.raises(CardDataError, match="rarity"):
        parse_card(raw_monster(rarity=rarity))
