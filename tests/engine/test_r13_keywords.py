"""R13: keywords, abilities after attacking, lord tribes, several abilities, [March] abilities,
the discard pile, return to hand, and [On destroy]."""

import pytest

from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view
from webapp.engine import CardDataError, parse_card

CARDS = {
    "grunt": card(power=1, life=3),
    "tank": card(power=1, life=9),
    "wall": card(power=0, life=30),
    "brute": card(power=6, life=9),
    # R13.1: a keyword plus an ability; and a party that negates its enemies when striking first
    "warded": card(power=2, life=4, keywords=["spellproof"],
                   abilities=[{"timing": "battle", "effects": [{"do": "boost", "to": "self", "power": 1}]}]),
    "dasher": card(power=5, life=9, keywords=["double_march"],
                   abilities=[{"timing": "battle", "effects": [{"do": "boost", "to": "self", "power": 1}]}]),
    "hexer": card(power=1, life=9, slots={"fire": 2},
                  abilities=[{"timing": "strikes_first", "effects": [{"do": "negate", "to": "enemies"}]}]),
    "null-brute": card(power=3, life=9,
                       abilities=[{"timing": "strikes_first", "effects": [{"do": "negate", "to": "enemies"}]}]),
    "frail-hexer": card(power=1, life=3,
                        abilities=[{"timing": "strikes_first", "effects": [{"do": "negate", "to": "enemies"}]}]),
    # R13.2: a [Counter] ability user and a [Normal] ability user
    "jabber": card(power=2, life=9, slots={"earth": 1},
                   abilities=[{"timing": "counter", "target": {"side": "enemy"},
                               "effects": [{"do": "damage", "to": "chosen", "amount": 1}]}]),
    "shouter": card(power=1, life=9,
                    abilities=[{"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
    "skirmisher": card(power=3, life=9, keywords=["double_march"],
                       abilities=[{"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
    # R13.4: two [Battle] abilities on one card
    "banner": card(power=1, life=5,
                   abilities=[{"timing": "battle", "effects": [{"do": "boost", "to": "self", "power": 2}]},
                              {"timing": "battle", "effects": [{"do": "boost", "to": "other_allies", "life": 1}]}]),
    # R13.7/R13.8
    "bouncer": card(power=1, life=9,
                    abilities=[{"timing": "normal", "effects": [{"do": "return_to_hand", "to": "enemy_front"}]}]),
    "bomber": card(power=1, life=9,
                   abilities=[{"timing": "normal", "effects": [{"do": "damage", "to": "all", "amount": 2}]}]),
    "sniper": card(power=1, life=9,
                   abilities=[{"timing": "counter", "target": {"side": "enemy"},
                               "effects": [{"do": "damage", "to": "chosen", "amount": 2}]}]),
    "pyro": card(power=1, life=9, slots={"fire": 1}),
    "tidal": card(power=1, life=9, slots={"water": 2}),
    "dark-mage": card(power=1, life=9, slots={"dark": 1}),
}
DECK = ["orc"] * 10


def game(p0_units, p1_units, hand0=(), hand1=(), deck0=DECK, deck1=DECK, dice=(6, 1), cards=None, **top):
    p0 = {"units": [unit("orc", "H0", "a0", leader=True)] + list(p0_units), "hand": list(hand0),
          "deck": list(deck0)}
    p1 = {"units": list(p1_units) if any(u.get("leader") for u in p1_units)
          else [unit("orc", "H1", "b0", leader=True)] + list(p1_units),
          "hand": list(hand1), "deck": list(deck1)}
    return scenario(p0, p1, cards=dict(CARDS, **(cards or {})), dice=list(dice), **top)


def prep(g):
    """Take the first offered choice (no quick summon, the standing order) through preparation."""
    ev = []
    while g.state.battle is not None and g.view(0)["battle"]["step"] in ("quick", "formation"):
        p = next(iter(g.waiting_for()))
        ev += do(g, p, g.legal_actions(p)[0])
    return ev


def attack_from(g, units, to, order=None, order1=None):
    """p0 marches `units` into `to`; optional formation orders for p0 and p1; returns the events."""
    ev = do(g, 0, {"type": "march", "units": units, "to": to})
    for p, o in ((0, order), (1, order1)):
        if g.state.battle is not None and g.view(p)["battle"]["step"] == "quick" and g.waiting_for() == {p}:
            ev += do(g, p, {"type": "quick_summon", "cards": []})
        if o and g.state.battle is not None and g.view(p)["battle"]["step"] == "formation" \
                and g.waiting_for() == {p}:
            ev += do(g, p, {"type": "formation", "order": o})
    return ev + prep(g)


def hand_ids(g, p, card_id=None):
    return [c["id"] for c in g.view(p)["players"][p]["hand"] if card_id is None or c["card"] == card_id]


def spell(g, p, card_id, targets=()):
    return do(g, p, {"type": "spell", "card": hand_ids(g, p, card_id)[0], "targets": list(targets)})


def discard_ids(g, p):
    return g.view(p)["players"][p]["discard_ids"]


def triggered(ev, timing="on_destroy"):
    return [e["unit"] for e in events_of(ev, "triggered") if e["timing"] == timing]


# ================================================================== R13.1 keywords survive negation

def test_r13_1_negated_spellproof_unit_is_still_unaffected_by_spells():
    """R13.1: negation takes the abilities (the +1 power), not the keyword Spellproof: a
    Fireball on the negated front still does nothing to it."""
    g = game([unit("warded", "L3", "w")], [unit("hexer", "L5", "h")], hand1=["fireball"], dice=[1, 6])
    ev = attack_from(g, ["w"], "L5")
    assert [e["unit"] for e in events_of(ev, "negated")] == ["w"]
    assert unit_view(g, "w")["power"] == 2                  # the [Battle] +1 is gone
    ev = spell(g, 1, "fireball")
    assert events_of(ev, "resolved")[0]["card"] == "fireball"
    fire_damage = [e for e in events_of(ev, "damage") if e["amount"] == 3]
    assert fire_damage == []
    assert [e["amount"] for e in events_of(ev, "damage") if e["unit"] == "w"] == [1]   # only p1's attack
    assert "w" not in discard_ids(g, 0)


def test_r13_1_negated_double_march_unit_still_marches_twice():
    """R13.1: a Double March unit negated in its first battle keeps the keyword: after winning,
    it may still take its second march."""
    g = game([unit("dasher", "L1", "d")], [unit("frail-hexer", "L3", "h")], dice=[1, 6])
    ev = attack_from(g, ["d"], "L3")
    assert [e["unit"] for e in events_of(ev, "negated")] == ["d"]
    assert events_of(ev, "attack")[-1]["power"] == 5        # negated: printed 5, no +1
    assert events_of(ev, "battle_ended")[0]["success"] is True
    v = unit_view(g, "d")
    assert v["land"] == "L3" and not v["exhausted"] and v["marches_left"] == 2 - 1
    assert find(g, 0, "march", units=["d"], to="L5")


def test_r13_1_keywords_are_not_abilities_when_parsing():
    """R13.1/R3.3: keywords are a separate list; a card with only keywords has no abilities."""
    c = parse_card({"id": "kw", "kind": "monster", "name": {"en": "K", "ja": "K"}, "level": 1,
                    "element": "wind", "tribe": "Beast", "power": 1, "life": 1, "rarity": "C",
                    "keywords": ["haste", "double_march", "far_march", "spellproof"]})
    assert c.abilities == () and c.declared is None and c.battle == ()
    assert c.haste and c.double_march and c.far_march and c.spellproof


# ================================================================== R13.2 no abilities after attacking

def test_r13_2_unit_that_attacked_cannot_counter_afterwards():
    """R13.2: p0 struck first and attacked with its [Counter] unit; when p1 then declares, p0
    may still use a counter spell (R12.1) but not the unit's ability."""
    g = game([unit("jabber", "L3", "j")], [unit("shouter", "L5", "s")], hand0=["stone-skin"], dice=[6, 1])
    ev = attack_from(g, ["j"], "L5")
    assert events_of(ev, "attack")[0]["units"] == ["j"]
    do(g, 1, {"type": "ability", "unit": "s", "targets": []})
    assert g.waiting_for() == {0}
    legal = g.legal_actions(0)
    assert [a for a in legal if a["type"] == "ability"] == []
    assert [a for a in legal if a["type"] == "spell"]
    assert_illegal(g, 0, {"type": "ability", "unit": "j", "targets": ["s"]})


def test_r13_2_unit_that_has_not_attacked_yet_can_counter():
    """R13.2 (contrast): before its side attacked, the same unit may respond with its ability."""
    g = game([unit("jabber", "L3", "j")], [unit("shouter", "L5", "s")], hand0=["stone-skin"], dice=[1, 6])
    attack_from(g, ["j"], "L5")
    do(g, 1, {"type": "ability", "unit": "s", "targets": []})
    assert {"type": "ability", "unit": "j", "targets": ["s"]} in g.legal_actions(0)


def test_r13_2_no_normal_ability_after_the_own_attack():
    """R13.2/R10.8: once its side attacked, a unit gets no own window for its [Normal] ability:
    the side's part is over (the second striker plays next, then the battle ends)."""
    g = game([unit("skirmisher", "L3", "k")], [unit("tank", "L5", "t")], dice=[6, 1])
    attack_from(g, ["k"], "L5")
    assert find(g, 0, "ability", unit="k")                 # offered before attacking
    ev = do(g, 0, "attack")
    assert not [e for e in events_of(ev, "declared") if e["kind"] == "ability"]
    assert g.state.battle is None


def test_r13_2_abilities_are_usable_again_in_the_next_battle():
    """R13.2 [decided: in that battle]: a Double March unit that attacked in its first battle
    may use its ability in its second battle of the turn."""
    g = game([unit("skirmisher", "L1", "k")], [unit("grunt", "L3", "g1"), unit("tank", "L5", "t")], dice=[6, 1, 6, 1])
    attack_from(g, ["k"], "L3")
    ev = do(g, 0, "attack")
    assert events_of(ev, "battle_ended")[0]["success"] is True
    attack_from(g, ["k"], "L5")
    assert find(g, 0, "ability", unit="k")


# ================================================================== R13.3 Orc Lord is not an Orc

def lord_battle(*units):
    """p0's units on L3 march into a p1 Shouter that strikes first, so the battle waits on p1."""
    g = game([unit(c, "L3", u) for u, c in units], [unit("shouter", "L5", "s")], dice=[1, 6])
    attack_from(g, [u for u, _ in units], "L5")
    assert g.waiting_for() == {1} and g.view(1)["battle"]["step"] == "fight"
    return g


def test_r13_3_orc_lord_boosts_an_orc():
    """R13.3: Orc Lord's [Battle] +1 power applies to tribe Orc (Orc: 2 + 1)."""
    g = lord_battle(("o", "orc"), ("lord", "orc-lord"))
    assert unit_view(g, "o")["power"] == 2 + 1
    assert unit_view(g, "lord")["power"] == 3


def test_r13_3_orc_lord_does_not_boost_another_orc_lord():
    """R13.3: "tribe Orc" means Orc only: two Orc Lords do not boost each other (3 each, not 4)."""
    g = lord_battle(("l1", "orc-lord"), ("l2", "orc-lord"))
    assert unit_view(g, "l1")["power"] == 3
    assert unit_view(g, "l2")["power"] == 3


def test_r13_3_orc_count_condition_does_not_count_an_orc_lord():
    """R13.3: Orc Shaman gets +1 earth slot with 2+ Orcs in its party; an Orc Lord is not an Orc,
    so Shaman + Lord has 1 + 1 = 2 earth slots, not 3."""
    g = lord_battle(("sh", "orc-shaman"), ("lord", "orc-lord"))
    assert g.view(0)["battle"]["slots"]["0"]["earth"]["total"] == 1 + 1


def test_r13_3_orc_count_condition_counts_two_orcs():
    """R13.3 (contrast): Shaman + Orc are 2 Orcs: 1 + 1 + 1 (granted) = 3 earth slots."""
    g = lord_battle(("sh", "orc-shaman"), ("o", "orc"))
    assert g.view(0)["battle"]["slots"]["0"]["earth"]["total"] == 1 + 1 + 1


def test_r13_3_orc_lord_is_not_an_orc_for_a_tribe_target():
    """R13.3: an ability aimed at "tribe Orc" cannot choose an Orc Lord."""
    cards = {"orc-hunter": card(power=1, life=9, abilities=[
        {"timing": "normal", "target": {"side": "enemy", "filter": {"tribe": "Orc"}},
         "effects": [{"do": "damage", "to": "chosen", "amount": 1}]}])}
    g = game([unit("orc-lord", "L3", "lord"), unit("orc", "L3", "o")], [unit("orc-hunter", "L5", "h")],
             dice=[1, 6], cards=cards)
    attack_from(g, ["lord", "o"], "L5")
    assert [a["targets"] for a in find(g, 1, "ability", unit="h")] == [["o"]]
    assert_illegal(g, 1, {"type": "ability", "unit": "h", "targets": ["lord"]})


# ================================================================== R13.4 several abilities

def test_r13_4_all_battle_abilities_of_a_card_work():
    """R13.4: a card with two [Battle] abilities: both work (+2 power to itself, +1 life to
    the others)."""
    g = lord_battle(("b", "banner"), ("g", "grunt"))
    assert unit_view(g, "b")["power"] == 1 + 2
    assert unit_view(g, "b")["max_life"] == 5               # "other allies" only
    assert unit_view(g, "g")["max_life"] == 3 + 1
    assert unit_view(g, "g")["power"] == 1


def test_r13_4_battle_and_declared_ability_on_one_card_both_work():
    """R13.4: Seraphim's [Battle] (+1 life to the others) and its [Counter] (cancel a spell)."""
    g = game([unit("seraphim", "L3", "sera"), unit("grunt", "L3", "g")], [unit("pyro", "L5", "p")],
             hand1=["fireball"], dice=[1, 6])
    attack_from(g, ["sera", "g"], "L5")
    assert unit_view(g, "g")["max_life"] == 3 + 1
    spell(g, 1, "fireball")
    assert {"type": "ability", "unit": "sera", "targets": []} in g.legal_actions(0)
    ev = do(g, 0, {"type": "ability", "unit": "sera", "targets": []})
    assert events_of(ev, "cancelled") and events_of(ev, "fizzled")[0]["reason"] == "cancelled"


@pytest.mark.parametrize("timings", [("normal", "normal"), ("normal", "counter"), ("counter", "counter")])
def test_r13_4_card_with_two_declared_abilities_is_refused(timings):
    """R13.4: at most one declared ability ([Normal] or [Counter]) per card: parse_card refuses
    a second one with a clear CardDataError."""
    data = {"id": "twin", "kind": "monster", "name": {"en": "Twin", "ja": "ツイン"}, "level": 1,
            "element": "fire", "tribe": "Soldier", "power": 1, "life": 1, "rarity": "C",
            "abilities": [{"timing": t, "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}
                          for t in timings]}
    with pytest.raises(CardDataError, match=r"twin.*abilities.*at most one declared.*R13\.4"):
        parse_card(data, "test.toml")


def test_r13_4_scenario_card_with_two_declared_abilities_is_refused():
    """R13.4: a scenario-only card with two declared abilities is refused, naming the card."""
    twin = card(abilities=[{"timing": "normal", "effects": [{"do": "draw", "count": 1}]},
                           {"timing": "counter", "effects": [{"do": "draw", "count": 1}]}])
    with pytest.raises(ValueError, match="twin.*at most one declared"):
        game([unit("twin", "L3", "t")], [], cards={"twin": twin})


def test_r13_4_one_declared_with_other_abilities_is_accepted():
    """R13.4: one declared ability beside [Battle], [On destroy] and [March] ones is fine."""
    c = parse_card({"id": "multi", "kind": "monster", "name": {"en": "M", "ja": "M"}, "level": 1,
                    "element": "fire", "tribe": "Soldier", "power": 1, "life": 1, "rarity": "C",
                    "abilities": [
                        {"timing": "battle", "effects": [{"do": "boost", "to": "self", "power": 1}]},
                        {"timing": "battle", "effects": [{"do": "boost", "to": "self", "life": 1}]},
                        {"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]},
                        {"timing": "on_destroy", "effects": [{"do": "draw", "count": 1}]},
                        {"timing": "march", "effects": [{"do": "draw", "count": 1}]}]})
    assert c.declared.timing == "normal" and len(c.battle) == 2 and len(c.on_destroy) == 1
    assert c.march is not None


# ================================================================== R13.5 [March] abilities

def test_r13_5_summon_from_discard_to_an_adjacent_land():
    """R13.5: Grave Caller summons a level <= 2 monster from the discard pile to an adjacent land;
    the filter, the discard pile and adjacency limit the choices."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L3", "nc")],
                  "discard": [{"card": "orc", "id": "d-orc"}, {"card": "orc-lord", "id": "d-lord"},
                              {"card": "fire-giant", "id": "d-giant"}, {"card": "fireball", "id": "d-fb"}]},
                 cards=CARDS)
    opts = find(g, 0, "march_ability", unit="nc")
    assert {tuple(a["targets"]) for a in opts} == {(c, land) for c in ("d-orc", "d-lord")
                                                  for land in ("L1", "L2", "L4", "L5", "L6")}
    ev = do(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["d-orc", "L4"]})
    assert events_of(ev, "summoned")[0]["land"] == "L4"
    assert unit_view(g, "d-orc")["land"] == "L4"
    assert "d-orc" not in discard_ids(g, 0)


def test_r13_5_summon_from_hand_to_the_users_land_not_the_base():
    """R13.5/R7.1: Goblin Drummer summons a level-1 Goblin from hand to its own land, even when
    the base is full (5/5)."""
    g = scenario({"units": [unit("fire-giant", "H0", "a0", leader=True), unit("orc-lord", "H0", "a1"),
                            unit("goblin-shaman", "L3", "gs")],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}, {"card": "goblin-gambler", "id": "gg"},
                           {"card": "orc", "id": "o"}]}, cards=CARDS)
    assert not find(g, 0, "summon")                        # the base is full
    assert {tuple(a["targets"]) for a in find(g, 0, "march_ability", unit="gs")} == {("gh", "L3"), ("gg", "L3")}
    do(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh", "L3"]})
    assert unit_view(g, "gh")["land"] == "L3"
    assert_illegal(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["o", "L3"]})


def test_r13_5_using_it_exhausts_the_user():
    """R13.5: the user is exhausted: it cannot march nor use the ability again this turn."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("goblin-shaman", "L3", "gs")],
                  "hand": [{"card": "goblin-hexer", "id": "gh1"}, {"card": "goblin-hexer", "id": "gh2"}]},
                 cards=CARDS)
    assert find(g, 0, "march", units=["gs"])
    do(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh1", "L3"]})
    assert unit_view(g, "gs")["exhausted"] is True
    assert not find(g, 0, "march", units=["gs"])
    assert not find(g, 0, "march_ability")
    assert_illegal(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh2", "L3"]})


def test_r13_5_exhausted_unit_cannot_use_it():
    """R13.5: only a monster that is not exhausted may use a [March] ability."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True),
                            unit("goblin-shaman", "L3", "gs", exhausted=True)],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}]}, cards=CARDS)
    assert not find(g, 0, "march_ability")
    assert_illegal(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh", "L3"]})


def test_r13_5_unit_that_marched_this_turn_cannot_use_it():
    """R13.5/R8.1: a march exhausts the unit, so it cannot use its [March] ability afterwards."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("goblin-shaman", "L3", "gs")],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}]}, cards=CARDS)
    do(g, 0, {"type": "march", "units": ["gs"], "to": "L4"})
    assert not find(g, 0, "march_ability")


def test_r13_5_only_in_the_owners_main_step():
    """R13.5: not on the opponent's turn."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True)]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("goblin-shaman", "L5", "gs")],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}]}, cards=CARDS)
    assert_illegal(g, 1, {"type": "march_ability", "unit": "gs", "targets": ["gh", "L5"]})


def test_r13_5_not_during_a_battle():
    """R13.5: a [March] ability is a main-step action, not a battle one."""
    g = game([unit("goblin-shaman", "L6", "gs"), unit("pyro", "L3", "x")], [unit("tank", "L5", "t")],
             hand0=[{"card": "goblin-hexer", "id": "gh"}, "fireball"], dice=[6, 1])
    assert find(g, 0, "march_ability", unit="gs")           # usable in the main step
    attack_from(g, ["x"], "L5")
    assert g.state.battle is not None and g.waiting_for() == {0}
    assert not [a for a in g.legal_actions(0) if a["type"] == "march_ability"]
    assert_illegal(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh", "L6"]})


def test_r13_5_never_into_a_land_holding_enemies():
    """R13.5: no summon to a land with enemies (L5 here), even adjacent."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L3", "nc")],
                  "discard": [{"card": "orc", "id": "d-orc"}]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")]}, cards=CARDS)
    lands = {a["targets"][1] for a in find(g, 0, "march_ability", unit="nc")}
    assert lands == {"L1", "L2", "L4", "L6"}
    assert_illegal(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["d-orc", "L5"]})


def test_r13_5_never_into_the_enemy_base_even_empty():
    """R13.5: the enemy base is never a summon destination, even when nobody stands on it."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L5", "nc")],
                  "discard": [{"card": "orc", "id": "d-orc"}]},
                 {"units": [unit("orc", "L1", "b0", leader=True)]}, cards=CARDS)
    lands = {a["targets"][1] for a in find(g, 0, "march_ability", unit="nc")}
    assert lands == {"L3", "L4", "L6"}
    assert_illegal(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["d-orc", "H1"]})


def test_r13_5_never_into_a_captured_enemy_base():
    """R13.5: a Goblin Drummer standing in the enemy base it captured cannot summon "here"."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("goblin-shaman", "H1", "gs")],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}]},
                 {"units": [unit("orc", "L1", "b0", leader=True)]}, cards=CARDS)
    assert g.view(0)["lands"]["H1"]["owner"] == 0
    assert not find(g, 0, "march_ability")
    assert_illegal(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh", "H1"]})


def test_r13_5_summoning_to_an_empty_land_takes_it():
    """R13.5/R4.5: summoning to an empty land takes it, even one the enemy owned."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L3", "nc")],
                  "discard": [{"card": "orc", "id": "d-orc"}, {"card": "orc", "id": "d-orc2"}]},
                 {"units": [unit("orc", "H1", "b0", leader=True)]},
                 owners={"L6": 1}, cards=CARDS)
    assert g.view(0)["lands"]["L6"]["owner"] == 1
    ev = do(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["d-orc", "L6"]})
    assert {"type": "land_taken", "player": 0, "land": "L6"} in ev
    assert g.view(0)["lands"]["L6"]["owner"] == 0


def test_r13_5_summoning_to_an_unowned_land_takes_it():
    """R13.5/R4.5: an unowned middle land becomes the summoner's."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L3", "nc")],
                  "discard": [{"card": "orc", "id": "d-orc"}]}, cards=CARDS)
    assert g.view(0)["lands"]["L2"]["owner"] is None
    do(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["d-orc", "L2"]})
    assert g.view(0)["lands"]["L2"]["owner"] == 0


def test_r13_5_capacity_holds():
    """R13.5/R8.4: L4 is a swamp (capacity 4) holding a level-3 ally: a level-1 Orc fits
    (3 + 1 = 4), a level-2 Orc Lord does not (3 + 2 = 5 > 4)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L3", "nc"),
                            unit("fire-giant", "L4", "fg")],
                  "discard": [{"card": "orc", "id": "d-orc"}, {"card": "orc-lord", "id": "d-lord"}]},
                 cards=CARDS)
    targets = {tuple(a["targets"]) for a in find(g, 0, "march_ability", unit="nc")}
    assert ("d-orc", "L4") in targets
    assert ("d-lord", "L4") not in targets and ("d-lord", "L2") in targets
    assert_illegal(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["d-lord", "L4"]})


def test_r13_5_capacity_holds_for_a_summon_here():
    """R13.5/R8.4: Goblin Drummer on a full swamp (1 + 3 = 4 of 4) cannot summon there."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("goblin-shaman", "L4", "gs"),
                            unit("fire-giant", "L4", "fg")],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}]}, cards=CARDS)
    assert not find(g, 0, "march_ability")
    assert_illegal(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh", "L4"]})


def test_r13_5_summoned_unit_is_exhausted():
    """R13.5/R6.4: what a [March] ability summons is exhausted (no Haste)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("goblin-shaman", "L3", "gs")],
                  "hand": [{"card": "goblin-hexer", "id": "gh"}]}, cards=CARDS)
    do(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gh", "L3"]})
    assert unit_view(g, "gh")["exhausted"] is True
    assert not find(g, 0, "march", units=["gh"])


def test_r13_5_summoned_unit_with_haste_may_march_at_once():
    """R13.5/R7.4: a Haste monster summoned by a [March] ability is not exhausted."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("goblin-shaman", "L3", "gs")],
                  "hand": [{"card": "goblin-raider", "id": "gr"}]}, cards=CARDS)
    do(g, 0, {"type": "march_ability", "unit": "gs", "targets": ["gr", "L3"]})
    assert unit_view(g, "gr")["exhausted"] is False
    assert find(g, 0, "march", units=["gr"], to="L5")


def test_r13_5_summoned_from_discard_with_haste_may_march_at_once():
    """R13.5: the Haste exception holds for a summon from the discard pile too."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("necromancer", "L3", "nc")],
                  "discard": [{"card": "goblin-raider", "id": "gr"}]}, cards=CARDS)
    do(g, 0, {"type": "march_ability", "unit": "nc", "targets": ["gr", "L4"]})
    assert unit_view(g, "gr")["exhausted"] is False
    assert find(g, 0, "march", units=["gr"])


# ================================================================== R13.6 the discard pile

def test_r13_6_destroyed_units_go_to_their_owners_discard_pile():
    """R13.6: a destroyed unit goes to its owner's discard pile."""
    g = game([unit("brute", "L3", "x")], [unit("grunt", "L5", "g")])
    attack_from(g, ["x"], "L5")
    assert discard_ids(g, 1) == ["g"] and discard_ids(g, 0) == []


def test_r13_6_cards_discarded_from_hand_go_to_the_discard_pile():
    """R13.6/R6.7: cards discarded from hand go to the discard pile."""
    g = game([], [], hand0=[{"card": "orc", "id": "h1"}, {"card": "fireball", "id": "h2"}])
    do(g, 0, {"type": "discard", "cards": ["h1", "h2"]})
    assert discard_ids(g, 0) == ["h1", "h2"]
    assert hand_ids(g, 0) == []


def test_r13_6_used_spell_goes_to_the_discard_pile_when_declared():
    """R13.6: a used spell is in the discard pile (from its declaration on)."""
    g = game([unit("pyro", "L3", "x")], [unit("tidal", "L5", "t")], hand0=["fireball"], hand1=["dispel"])
    attack_from(g, ["x"], "L5")
    fb = hand_ids(g, 0, "fireball")[0]
    spell(g, 0, "fireball")
    assert g.waiting_for() == {1}                           # p1 may respond with Dispel
    assert fb in discard_ids(g, 0) and fb not in hand_ids(g, 0)


def test_r13_6_cancelled_spell_goes_to_the_discard_pile_too():
    """R13.6: a cancelled spell is in the discard pile, as is the spell that cancelled it."""
    g = game([unit("pyro", "L3", "x")], [unit("tidal", "L5", "t")], hand0=["fireball"], hand1=["dispel"])
    attack_from(g, ["x"], "L5")
    fb = hand_ids(g, 0, "fireball")[0]
    dp = hand_ids(g, 1, "dispel")[0]
    spell(g, 0, "fireball")
    ev = spell(g, 1, "dispel")
    assert events_of(ev, "fizzled")[0]["reason"] == "cancelled"
    assert fb in discard_ids(g, 0) and dp in discard_ids(g, 1)


def test_r13_6_unit_returned_to_a_full_hand_goes_to_the_discard_pile():
    """R13.6/R6.6: a unit returned to a full (6-card) hand goes to the discard pile instead; it is
    not destroyed."""
    g = game([unit("tidal", "L3", "x")], [unit("grunt", "L5", "g")], hand0=["whirlpool"],
             hand1=["orc"] * 6)
    attack_from(g, ["x"], "L5")
    ev = spell(g, 0, "whirlpool", ["g"])
    assert [(e["unit"], e["to"]) for e in events_of(ev, "returned")] == [("g", "discard")]
    assert not events_of(ev, "destroyed")
    assert "g" in discard_ids(g, 1)
    assert g.view(1)["players"][1]["hand_count"] == 6


def test_r13_6_unit_returned_to_a_hand_with_room_goes_to_the_hand():
    """R13.6 (contrast): with room in hand, a returned unit goes to the hand, not the discard."""
    g = game([unit("tidal", "L3", "x")], [unit("grunt", "L5", "g")], hand0=["whirlpool"], hand1=["orc"] * 5)
    attack_from(g, ["x"], "L5")
    spell(g, 0, "whirlpool", ["g"])
    assert "g" in hand_ids(g, 1) and "g" not in discard_ids(g, 1)


# ================================================================== R13.7 return to hand

def test_r13_7_returned_unit_has_no_on_destroy():
    """R13.7: Water Spirit returned by Whirlpool: no [On destroy] draw, no destruction."""
    g = game([unit("tidal", "L3", "x")], [unit("water-spirit", "L5", "ws")], hand0=["whirlpool"],
             hand1=["orc"])
    attack_from(g, ["x"], "L5")
    ev = spell(g, 0, "whirlpool", ["ws"])
    assert events_of(ev, "returned")
    assert not events_of(ev, "destroyed") and not triggered(ev)
    assert hand_ids(g, 1) == [hand_ids(g, 1)[0], "ws"]     # the one card + the returned unit
    assert g.view(1)["players"][1]["deck_count"] == len(DECK)   # nothing drawn


def test_r13_7_returned_imp_deals_no_on_destroy_damage():
    """R13.7: a returned Cinder Imp does not deal its [On destroy] damage."""
    g = game([unit("tidal", "L3", "x")], [unit("imp", "L5", "i"), unit("tank", "L5", "t")],
             hand0=["whirlpool"])
    attack_from(g, ["x"], "L5")
    ev = spell(g, 0, "whirlpool", ["i"])
    assert [e["unit"] for e in events_of(ev, "returned")] == ["i"]
    assert not triggered(ev)
    # x (9 life) is hit once, by the tank's 1-power attack; no Imp damage
    assert [(e["amount"], e["life"]) for e in events_of(ev, "damage") if e["unit"] == "x"] == [(1, 9 - 1)]


def test_r13_7_returned_unit_does_not_count_as_fallen():
    """R13.7: Ghoul grows with fallen allies; an ally returned to hand has not fallen (Ghoul
    stays at 2 power)."""
    g = game([unit("tidal", "L3", "x"), unit("pyro", "L3", "p")],
             [unit("grunt", "L5", "g1"), unit("grunt", "L5", "g2"), unit("ghoul", "L5", "gh")],
             hand0=["whirlpool", "fireball"])
    attack_from(g, ["x", "p"], "L5", order=["x", "p"], order1=["g1", "g2", "gh"])
    assert g.waiting_for() == {0} and unit_view(g, "gh")["power"] == 2
    ev = spell(g, 0, "whirlpool", ["g2"])
    assert [e["unit"] for e in events_of(ev, "returned")] == ["g2"]
    assert g.view(0)["battle"]["fallen"]["1"] == []
    assert unit_view(g, "gh")["power"] == 2


def test_r13_7_destroyed_ally_does_count_as_fallen():
    """R13.7 (contrast): the same Ghoul grows when an ally is destroyed: 2 + 1 power."""
    g = game([unit("tidal", "L3", "x"), unit("pyro", "L3", "p")],
             [unit("grunt", "L5", "g1"), unit("grunt", "L5", "g2"), unit("ghoul", "L5", "gh")],
             hand0=["whirlpool", "fireball"])
    attack_from(g, ["x", "p"], "L5", order=["x", "p"], order1=["g1", "g2", "gh"])
    spell(g, 0, "fireball")                                 # kills g1 (3 life)
    assert g.waiting_for() == {0}
    assert g.view(0)["battle"]["fallen"]["1"] == ["grunt"]
    assert unit_view(g, "gh")["power"] == 2 + 1


def test_r13_7_leaders_cannot_be_chosen_to_return_to_hand():
    """R13.7: Whirlpool cannot choose a leader."""
    g = game([unit("tidal", "L3", "x")],
             [unit("orc", "H1", "b0", leader=True), unit("grunt", "L5", "g"), unit("orc", "L5", "bl", leader=True)],
             hand0=["whirlpool"])
    attack_from(g, ["x"], "L5")
    targets = [a["targets"] for a in find(g, 0, "spell") if a["card"] in hand_ids(g, 0, "whirlpool")]
    assert targets == [["g"]]
    assert_illegal(g, 0, {"type": "spell", "card": hand_ids(g, 0, "whirlpool")[0], "targets": ["bl"]})


def test_r13_7_tide_caller_cannot_choose_a_leader():
    """R13.7: Tide Caller's [Counter] return to hand offers only non-leaders."""
    g = game([unit("shouter", "L3", "s"), unit("orc", "L3", "al", leader=True)],
             [unit("tide-caller", "L5", "tc")], dice=[6, 1])
    attack_from(g, ["s", "al"], "L5")
    do(g, 0, {"type": "ability", "unit": "s", "targets": []})
    assert [a["targets"] for a in find(g, 1, "ability", unit="tc")] == [["s"]]
    assert_illegal(g, 1, {"type": "ability", "unit": "tc", "targets": ["al"]})


def test_r13_7_untargeted_return_to_hand_skips_a_leader():
    """R13.7: "return the enemy front to hand" does nothing when the front is a leader."""
    g = game([unit("bouncer", "L3", "bo")],
             [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "bl", leader=True), unit("tank", "L5", "t")],
             dice=[6, 1])
    ev = attack_from(g, ["bo"], "L5", order1=["bl", "t"])
    assert g.view(0)["battle"]["parties"]["1"] == ["bl", "t"]
    ev += do(g, 0, {"type": "ability", "unit": "bo", "targets": []})
    assert events_of(ev, "resolved")[0]["kind"] == "ability"
    assert not events_of(ev, "returned")
    assert unit_view(g, "bl")["land"] == "L5"


def test_r13_7_return_to_hand_gives_no_refill():
    """R13.7: a return to hand is not a destruction: no refill follows the battle."""
    g = game([unit("tidal", "L3", "x")], [unit("grunt", "L5", "g")], hand0=["whirlpool"])
    attack_from(g, ["x"], "L5")
    ev = spell(g, 0, "whirlpool", ["g"])
    assert events_of(ev, "battle_ended") and not events_of(ev, "refill")
    assert g.view(0)["players"][0]["hand_count"] == 0


# ================================================================== R13.8 [On destroy]

def test_r13_8_on_destroy_happens_after_the_whole_attack_is_assigned():
    """R13.8: two Imps die to one attack; their triggers come after all of its damage."""
    g = game([unit("brute", "L3", "x")],
             [unit("imp", "L5", "i1"), unit("imp", "L5", "i2"), unit("wall", "L5", "w")])
    ev = attack_from(g, ["x"], "L5")
    types = [(e["type"], e.get("unit")) for e in ev]
    attack_at = types.index(("attack", None))
    # 6 power: imp 2, imp 2, wall takes 2
    assert [(e["unit"], e["amount"]) for e in ev[attack_at:] if e["type"] == "damage"][:3] == \
        [("i1", 2), ("i2", 2), ("w", 2)]
    first_trigger = types.index(("triggered", "i1"))
    assert types.index(("damage", "w")) < first_trigger
    assert triggered(ev) == ["i1", "i2"]
    # each Imp's trigger: 1 damage to the enemy front (the owner's enemy, p0's x)
    x_hits = [e for e in ev[first_trigger:] if e["type"] == "damage" and e["unit"] == "x"]
    assert [e["life"] for e in x_hits][:2] == [9 - 1, 9 - 2]


def test_r13_8_each_side_in_formation_order():
    """R13.8: within a side, triggers follow the formation order (i2 placed in front of i1,
    although i1 came onto the land first)."""
    g = game([unit("brute", "L3", "x")],
             [unit("imp", "L5", "i1"), unit("imp", "L5", "i2"), unit("wall", "L5", "w")])
    ev = do(g, 0, {"type": "march", "units": ["x"], "to": "L5"})
    assert g.waiting_for() == {1}
    ev += do(g, 1, {"type": "formation", "order": ["i2", "i1", "w"]})
    assert triggered(ev) == ["i2", "i1"]


def test_r13_8_active_players_triggers_first():
    """R13.8: one batch destroys an Imp on each side (p1's damage-to-all ability, on p0's turn):
    the active player's (p0's) Imp triggers first."""
    g = game([unit("imp", "L3", "i0"), unit("tank", "L3", "t0")],
             [unit("imp", "L5", "i1"), unit("bomber", "L5", "bm")], dice=[1, 6])
    ev = attack_from(g, ["i0", "t0"], "L5")
    ev += do(g, 1, {"type": "ability", "unit": "bm", "targets": []})
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["i0", "i1"]
    assert triggered(ev) == ["i0", "i1"]


def test_r13_8_owner_gets_the_effect():
    """R13.8: p1's Water Spirit destroyed by p0: p1 (its owner) draws, not p0."""
    g = game([unit("brute", "L3", "x")], [unit("water-spirit", "L5", "ws")], hand1=["orc"])
    ev = attack_from(g, ["x"], "L5")
    assert triggered(ev) == ["ws"]
    assert {"type": "drew", "player": 1, "count": 1} in ev
    assert g.view(1)["players"][1]["hand_count"] == 1 + 1
    assert g.view(0)["players"][0]["hand_count"] == 0


def test_r13_8_on_destroy_damage_reaches_a_leader_at_the_front():
    """R13.8: an Imp's [On destroy] 1 damage goes to the enemy front, a leader included."""
    g = game([unit("glass-leader", "L3", "al", leader=True), unit("tank", "L3", "t")],
             [unit("imp", "L5", "i")], cards={"glass-leader": card(power=3, life=9)})
    ev = attack_from(g, ["al", "t"], "L5", order=["al", "t"])
    assert triggered(ev) == ["i"]
    assert [(e["unit"], e["life"]) for e in events_of(ev, "damage") if e["unit"] == "al"][:1] == [("al", 9 - 1)]


def test_r13_8_happens_before_the_rest_of_the_chain_resolves():
    """R13.8: p0 declares Fireball; p1 responds by killing p0's Imp; the Imp's trigger happens
    right then, before the Fireball resolves; it is not a declaration (nobody may respond)."""
    g = game([unit("imp", "L3", "i"), unit("pyro", "L3", "p")], [unit("sniper", "L5", "sn")],
             hand0=["fireball"], dice=[6, 1])
    attack_from(g, ["i", "p"], "L5", order=["i", "p"])
    spell(g, 0, "fireball")
    ev = do(g, 1, {"type": "ability", "unit": "sn", "targets": ["i"]})
    kinds = [(e["type"], e.get("unit") or e.get("card")) for e in ev]
    destroyed_at = kinds.index(("destroyed", "i"))
    trig_at = kinds.index(("triggered", "i"))
    fireball_at = kinds.index(("resolved", "fireball"))
    assert destroyed_at < trig_at < fireball_at
    assert kinds[trig_at + 1] == ("damage", "sn")           # at once: no declaration, no window
    assert [e["life"] for e in events_of(ev, "damage") if e["unit"] == "sn"][:2] == [9 - 1, 9 - 1 - 3]
    assert [k for k in kinds[:fireball_at] if k[0] == "declared"] == [("declared", "sn")]   # the sniper's only


def test_r13_8_negated_monster_has_no_on_destroy():
    """R13.8: an Imp whose abilities were negated has no [On destroy]."""
    g = game([unit("imp", "L3", "i"), unit("tank", "L3", "t")], [unit("null-brute", "L5", "n")], dice=[1, 6])
    ev = attack_from(g, ["i", "t"], "L5", order=["i", "t"])
    assert "i" in [e["unit"] for e in events_of(ev, "negated")]
    assert "i" in [e["unit"] for e in events_of(ev, "destroyed")]      # 3 power: imp (2 life) falls
    assert triggered(ev) == []
    # n is hit only by p0's attack (the tank's 1), never by the Imp's trigger
    assert [(e["amount"], e["life"]) for e in events_of(ev, "damage") if e["unit"] == "n"] == [(1, 9 - 1)]


def test_r13_8_none_in_a_simultaneous_attack():
    """R13.8/R10.9: Imps destroyed in a simultaneous attack have no [On destroy]."""
    g = game([unit("imp", "L3", "i0"), unit("brute", "L3", "x")],
             [unit("imp", "L5", "i1"), unit("brute", "L5", "y")], dice=[3, 3])
    ev = attack_from(g, ["i0", "x"], "L5", order=["i0", "x"], order1=["i1", "y"])
    assert events_of(ev, "initiative")[0]["first"] is None
    assert {"i0", "i1"} <= {e["unit"] for e in events_of(ev, "destroyed")}
    assert triggered(ev) == []


def test_r13_8_on_destroy_outside_battle_still_happens_for_its_owner():
    """R13.8: a Water Spirit destroyed over capacity after a failed attack (outside battle) still
    draws its owner a card."""
    g = game([unit("water-spirit", "L4", "ws1"), unit("water-spirit", "L4", "ws2")], [unit("wall", "L5", "w")],
             hand0=[{"card": "goblin-raider", "id": "gr"}])
    do(g, 0, {"type": "march", "units": ["ws1"], "to": "L5"})
    do(g, 0, {"type": "quick_summon", "cards": ["gr"]})
    ev = do(g, 0, {"type": "formation", "order": ["gr", "ws1"]})
    assert events_of(ev, "battle_ended")[0]["success"] is False
    # back on L4 (swamp, 4): 2 + 2 + 1 = 5 > 4
    assert g.view(0)["pending"] == {"player": 0, "land": "L4"}
    assert g.view(0)["players"][0]["hand_count"] == 0
    ev = do(g, 0, {"type": "destroy_over_capacity", "units": ["ws1"]})
    assert triggered(ev) == ["ws1"]
    assert {"type": "drew", "player": 0, "count": 1} in ev
    assert g.view(0)["players"][0]["hand_count"] == 1
