"""R9: battle preparation — steps, quick summon, formation, suggested order, initiative, strike triggers.

Board (helpers.LANDS): L1 road 6, L2 rearworld 8, L3 road 6, L4 swamp 4, L5 road 6, L6 rearworld 8;
bases 5. Player 0 attacks from L1 (adjacent to L2, L3, L4) unless a test says otherwise. Forced dice
are the attacker's die first, then the defender's.
"""

import pytest

from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view

# Scenario cards. Vanilla: level 1, power 2, speed 0, life 3, rarity C, no Quick mark.
CARDS = {
    "va": card(),
    "vu": card(rarity="U"),
    "vr": card(rarity="R"),
    "vsr": card(rarity="SR"),
    "qa": card(quick=True, power=1, life=2),
    "qb": card(quick=True, level=2, power=3, life=2),
    "q3": card(quick=True, level=3),
    "q4": card(quick=True, level=4),
    "q6": card(quick=True, level=6),
    "fast": card(speed=2),
    "qfast": card(quick=True, speed=3),
    "slow": card(speed=-1),
    "l2": card(level=2),
    "demon3": card(level=3, tribe="Demon", element="dark"),
    "demon4": card(level=4, tribe="Demon", element="dark"),
    # a normal ability so that the fight step waits for a choice
    "pump": card(abilities=[{"timing": "normal", "effects": [{"do": "boost", "to": "self", "power": 1}]}]),
    "windy": card(slots={"wind": 1}),
    "cheer": card(abilities=[{"timing": "battle", "effects": [{"do": "boost", "to": "allies", "speed": 2}]}]),
    "hero-second": card(abilities=[{"timing": "strikes_second", "effects": [{"do": "destroy", "to": "self"}]}]),
    "shout-second": card(abilities=[{"timing": "strikes_second",
                                     "effects": [{"do": "boost", "to": "allies", "power": 1}]}]),
    "opener": card(power=0, abilities=[{"timing": "strikes_first",
                                        "effects": [{"do": "damage", "to": "enemy_front", "amount": 3}]}]),
}

LEAD0 = unit("orc", "H0", "a0", leader=True)
LEAD1 = unit("orc", "H1", "b0", leader=True)


def U(uid, c, land=None, **kw):
    """A unit; player 0's ids start with 'a' (default land L1), player 1's with 'b' (default L3)."""
    if land is None:
        land = "L1" if uid.startswith("a") else "L3"
    return unit(c, land, uid, **kw)


def H(hid, c):
    return {"card": c, "id": hid}


def game(att, dfn, hand0=(), hand1=(), dice=(6, 1), lead0=True, lead1=True, **top):
    units0 = ([LEAD0] if lead0 else []) + list(att)
    units1 = ([LEAD1] if lead1 else []) + list(dfn)
    return scenario({"units": units0, "hand": list(hand0)}, {"units": units1, "hand": list(hand1)},
                    cards=CARDS, dice=list(dice), **top)


def march(g, ids, to="L3", player=0):
    return do(g, player, {"type": "march", "units": list(ids), "to": to})


def bview(g, player=0):
    return g.view(player)["battle"]


def party(g, p):
    return bview(g)["parties"][str(p)]


def types(events):
    return [e["type"] for e in events]


def quick_sets(g, p):
    return sorted(sorted(a["cards"]) for a in find(g, p, "quick_summon"))


# ---------------------------------------------------------------------------------------- R9.1

def test_r9_1_preparation_steps_in_order_in_the_view():
    """R9.1: (1) attacker's quick summon, (2) attacker's formation, (3) defender's quick summon,
    (4) defender's formation, (5) initiative, (6) the fight — as shown by battle.step."""
    g = game([U("a1", "pump"), U("a2", "vu")], [U("b1", "va"), U("b2", "vu")],
             hand0=[H("h1", "qa")], hand1=[H("k1", "qa")], dice=(6, 1))
    march(g, ["a1", "a2"])
    b = bview(g)
    assert (b["step"], b["step_player"]) == ("quick", 0)
    assert g.waiting_for() == {0}
    do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    b = bview(g)
    assert (b["step"], b["step_player"]) == ("formation", 0)
    do(g, 0, {"type": "formation", "order": party(g, 0)})
    b = bview(g)
    assert (b["step"], b["step_player"]) == ("quick", 1)
    assert g.waiting_for() == {1}
    assert b["initiative"] is None
    do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    b = bview(g)
    assert (b["step"], b["step_player"]) == ("formation", 1)
    assert b["initiative"] is None
    do(g, 1, {"type": "formation", "order": party(g, 1)})
    b = bview(g)
    assert b["step"] == "fight"
    assert b["initiative"]["first"] == 0
    assert b["striker"] == 0
    assert g.waiting_for() == {0}


def test_r9_1_preparation_events_in_order():
    """R9.1: the events of one battle come as quick summon 0, formation 0, quick summon 1,
    formation 1, then the initiative roll."""
    g = game([U("a1", "pump"), U("a2", "vu")], [U("b1", "va"), U("b2", "vu")],
             hand0=[H("h1", "qa")], hand1=[H("k1", "qa")], dice=(6, 1))
    ev = march(g, ["a1", "a2"])
    ev += do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    ev += do(g, 0, {"type": "formation", "order": party(g, 0)})
    ev += do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    ev += do(g, 1, {"type": "formation", "order": party(g, 1)})
    seq = [(e["type"], e.get("player")) for e in ev
           if e["type"] in ("battle_started", "quick_summoned", "formation", "initiative")]
    assert seq == [("battle_started", None), ("quick_summoned", 0), ("formation", 0),
                   ("quick_summoned", 1), ("formation", 1), ("initiative", None)]


def test_r9_1_defender_cannot_act_during_attacker_steps():
    """R9.1: step (1) belongs to the attacker: the defender can neither quick summon nor form yet."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va"), U("b2", "vu")],
             hand0=[H("h1", "qa")], hand1=[H("k1", "qa")])
    march(g, ["a1", "a2"])
    assert_illegal(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    assert_illegal(g, 1, {"type": "formation", "order": ["b1", "b2"]})
    assert [a["type"] for a in g.legal_actions(1)] == ["resign"]


def test_r9_1_attacker_cannot_skip_ahead_to_formation_or_attack():
    """R9.1: during the attacker's quick-summon step, neither a formation nor an attack is accepted."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa")])
    march(g, ["a1", "a2"])
    assert_illegal(g, 0, {"type": "formation", "order": ["a2", "a1"]})
    assert_illegal(g, 0, {"type": "attack"})
    assert {a["type"] for a in g.legal_actions(0)} == {"quick_summon", "resign"}


def test_r9_1_defender_quick_summons_after_attacker_formation():
    """R9.1: the attacker's formation (2) is fixed before the defender's quick summon (3)."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand1=[H("k1", "qa")])
    march(g, ["a1", "a2"])
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 0)
    do(g, 0, {"type": "formation", "order": ["a2", "a1"]})
    assert (bview(g)["step"], bview(g)["step_player"]) == ("quick", 1)
    do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    assert party(g, 0) == ["a2", "a1"]  # the attacker's order stays as formed


def test_r9_1_no_spells_during_preparation():
    """R9.1 / R12.1: spells belong to step (6); in steps 1-4 none is offered or accepted."""
    g = game([U("a1", "windy"), U("a2", "vu")], [U("b1", "va"), U("b2", "vu")],
             hand0=[H("h1", "qa"), H("s1", "arrow-rain")])
    march(g, ["a1", "a2"])
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, {"type": "spell", "card": "s1", "targets": []})
    do(g, 0, {"type": "quick_summon", "cards": []})
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, {"type": "spell", "card": "s1", "targets": []})


def test_r9_1_step6_first_striker_abilities_then_attack_then_second_striker():
    """R9.1 (6): first striker's abilities → its attack → second striker's abilities → its attack."""
    g = game([U("a1", "pump")], [U("b1", "pump")], dice=(6, 1))
    ev = march(g, ["a1"])
    ev += do(g, 0, {"type": "ability", "unit": "a1", "targets": []})  # then nobody left to attack
    assert g.waiting_for() == {1}
    ev += do(g, 1, {"type": "ability", "unit": "b1", "targets": []})
    seq = [(e["type"], e.get("player")) for e in ev if e["type"] in ("declared", "no_attack", "battle_ended")]
    assert seq == [("declared", 0), ("no_attack", 0), ("declared", 1), ("no_attack", 1),
                   ("battle_ended", None)]


def test_r9_1_second_striker_attacks_after_first_striker_attack():
    """R9.1 (6): the first striker's attack resolves before the second striker's attack."""
    g = game([U("a1", "va")], [U("b1", "l2")], dice=(1, 6))  # defender strikes first
    ev = march(g, ["a1"])
    attacks = [e["player"] for e in events_of(ev, "attack")]
    assert attacks == [1, 0]


# ---------------------------------------------------------------------------------------- R9.2

def test_r9_2_quick_summon_goes_to_front_in_order_added():
    """R9.2: quick summoned monsters go to the front, in the order they were added."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa"), H("h2", "qb")])
    march(g, ["a1", "a2"])
    ev = do(g, 0, {"type": "quick_summon", "cards": ["h2", "h1"]})
    assert events_of(ev, "quick_summoned")[0]["units"] == ["h2", "h1"]
    assert party(g, 0) == ["h2", "h1", "a1", "a2"]


def test_r9_2_quick_summon_other_order_of_adding():
    """R9.2: the same cards added the other way round stand the other way round."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa"), H("h2", "qb")])
    march(g, ["a1", "a2"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1", "h2"]})
    assert party(g, 0) == ["h1", "h2", "a1", "a2"]


def test_r9_2_quick_summoned_unit_leaves_hand_and_stands_on_battle_land():
    """R9.2: the added monster comes from hand (at no cost) onto the battle land, not as a leader."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa"), H("x1", "va")])
    march(g, ["a1", "a2"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    me = g.view(0)
    assert [c["id"] for c in me["players"][0]["hand"]] == ["x1"]
    u = unit_view(g, "h1")
    assert u["land"] == "L3" and u["leader"] is False
    assert bview(g)["quick"] == ["h1"]


def test_r9_2_capacity_limits_the_offered_sets():
    """R9.2: party level + quick summoned levels ≤ capacity of the battle land (L4 swamp: 4).
    Party 1 + 1 = 2, so room 4 - 2 = 2: qa (1) or qb (2) alone, never both (1 + 2 = 3), never q3."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va", land="L4")],
             hand0=[H("h1", "qa"), H("h2", "qb"), H("h3", "q3")])
    march(g, ["a1", "a2"], to="L4")
    assert quick_sets(g, 0) == [[], ["h1"], ["h2"]]


def test_r9_2_over_capacity_quick_summon_is_illegal():
    """R9.2: a set that would take the party over the battle land's capacity is refused, unchanged."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va", land="L4")],
             hand0=[H("h1", "qa"), H("h2", "qb"), H("h3", "q3")])
    march(g, ["a1", "a2"], to="L4")
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["h3"]})          # 2 + 3 = 5 > 4
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["h1", "h2"]})    # 2 + 1 + 2 = 5 > 4


def test_r9_2_capacity_exactly_filled_is_allowed():
    """R9.2: filling the land exactly is fine: L3 road 6, party 1 + 1, quick q4: 2 + 4 = 6."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h4", "q4"), H("x1", "qa")])
    march(g, ["a1", "a2"])
    assert ["h4"] in quick_sets(g, 0)
    do(g, 0, {"type": "quick_summon", "cards": ["h4"]})
    assert party(g, 0)[0] == "h4"


def test_r9_2_capacity_is_the_battle_lands_not_the_base():
    """R9.2: the defender on L2 (rearworld 8) may quick summon level 6 next to 2 levels: 2 + 6 = 8,
    more than a base (5) or a road (6) would hold."""
    g = game([U("a1", "va")], [U("b1", "va", land="L2"), U("b2", "vu", land="L2")], hand1=[H("k6", "q6")])
    march(g, ["a1"], to="L2")
    assert g.waiting_for() == {1}
    assert quick_sets(g, 1) == [[], ["k6"]]
    do(g, 1, {"type": "quick_summon", "cards": ["k6"]})
    assert party(g, 1)[0] == "k6"


def test_r9_2_capacity_counts_only_own_party():
    """R9.2: on L4 (swamp 4) the attacker's 4 levels do not count against the defender:
    defender 1 + quick 3 = 4 is allowed."""
    g = game([U("a1", "va"), U("a2", "vu"), U("a3", "l2")], [U("b1", "va", land="L4")],
             hand1=[H("k3", "q3")])
    march(g, ["a1", "a2", "a3"], to="L4")
    do(g, 0, {"type": "formation", "order": ["a1", "a2", "a3"]})
    assert g.waiting_for() == {1}
    assert quick_sets(g, 1) == [[], ["k3"]]


def test_r9_2_monster_without_quick_mark_cannot_join():
    """R9.2: only monsters with the Quick mark may be quick summoned."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa"), H("x1", "va")])
    march(g, ["a1", "a2"])
    assert quick_sets(g, 0) == [[], ["h1"]]
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["x1"]})
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["h1", "x1"]})


def test_r9_2_spell_cannot_be_quick_summoned():
    """R9.2 / R7.5: a spell in hand is not a monster and cannot join the party."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa"), H("s1", "fireball")])
    march(g, ["a1", "a2"])
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["s1"]})


def test_r9_2_quick_summon_nothing():
    """R9.2: the side may add no monster at all; the party stays as it was."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("h1", "qa")])
    march(g, ["a1", "a2"])
    ev = do(g, 0, {"type": "quick_summon", "cards": []})
    assert not events_of(ev, "quick_summoned")
    assert party(g, 0) == ["a1", "a2"]
    assert [c["id"] for c in g.view(0)["players"][0]["hand"]] == ["h1"]


def test_r9_2_step_skipped_without_candidates():
    """R9.2 / R10.7: with no monster that could join, the quick-summon step passes by itself."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("x1", "va"), H("s1", "fireball")])
    march(g, ["a1", "a2"])
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 0)


def test_r9_2_defender_quick_summon_goes_to_front():
    """R9.2: the defender's quick summoned monsters also stand at the front, in the order added."""
    g = game([U("a1", "va")], [U("b1", "va"), U("b2", "vu")], hand1=[H("k1", "qa"), H("k2", "qb")])
    march(g, ["a1"])
    do(g, 1, {"type": "quick_summon", "cards": ["k2", "k1"]})
    assert party(g, 1) == ["k2", "k1", "b1", "b2"]


def test_r9_2_quick_summoned_unit_takes_damage_first():
    """R9.2 / R9.4: standing at the front, a quick summoned unit takes the damage first.
    Attack 2 + 2 = 4 into [k1 (life 2), b1 (life 3)]: k1 destroyed, 2 carried to b1 → 3 - 2 = 1."""
    g = game([U("a1", "va"), U("a2", "va")], [U("b1", "va")], hand1=[H("k1", "qa")], dice=(6, 1))
    march(g, ["a1", "a2"])
    do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    assert party(g, 1) == ["k1", "b1"]
    ev = do(g, 1, {"type": "formation", "order": party(g, 1)})
    dmg = [(e["unit"], e["amount"], e["life"]) for e in events_of(ev, "damage") if e["unit"] in ("k1", "b1")]
    assert dmg[:2] == [("k1", 2, 0), ("b1", 2, 3 - 2)]


# ---------------------------------------------------------------------------------------- R9.3

def test_r9_3_demon_monarch_lets_demon_without_quick_mark_join():
    """R9.3: with Demon Monarch in the party, a Demon-tribe monster without the Quick mark may join."""
    g = game([U("a1", "demon-monarch")], [U("b1", "va")], hand0=[H("i1", "imp")])
    march(g, ["a1"])
    assert quick_sets(g, 0) == [[], ["i1"]]
    do(g, 0, {"type": "quick_summon", "cards": ["i1"]})
    assert party(g, 0) == ["i1", "a1"]


def test_r9_3_demon_monarch_any_level_within_capacity():
    """R9.3: whatever its level: Monarch 3 + a level-3 Demon = 6 fits L3 (road 6)."""
    g = game([U("a1", "demon-monarch")], [U("b1", "va")], hand0=[H("d3", "demon3")])
    march(g, ["a1"])
    assert quick_sets(g, 0) == [[], ["d3"]]


def test_r9_3_demon_monarch_still_within_capacity():
    """R9.3: still within capacity: Monarch 3 + a level-4 Demon = 7 > 6 is refused."""
    g = game([U("a1", "demon-monarch")], [U("b1", "va")], hand0=[H("d4", "demon4"), H("i1", "imp")])
    march(g, ["a1"])
    assert quick_sets(g, 0) == [[], ["i1"]]
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["d4"]})


def test_r9_3_demon_monarch_does_not_admit_other_tribes():
    """R9.3: only Demon-tribe cards are admitted; a non-Quick Soldier stays refused."""
    g = game([U("a1", "demon-monarch")], [U("b1", "va")], hand0=[H("i1", "imp"), H("x1", "va")])
    march(g, ["a1"])
    assert quick_sets(g, 0) == [[], ["i1"]]
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["x1"]})


def test_r9_3_demon_without_monarch_refused():
    """R9.3: without Demon Monarch in the party, a non-Quick Demon cannot be quick summoned."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")], hand0=[H("i1", "imp"), H("h1", "qa")])
    march(g, ["a1", "a2"])
    assert quick_sets(g, 0) == [[], ["h1"]]
    assert_illegal(g, 0, {"type": "quick_summon", "cards": ["i1"]})


def test_r9_3_enemy_monarch_does_not_help():
    """R9.3: the ability lets its own side quick summon; the defender's Monarch gives the attacker nothing."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "demon-monarch")],
             hand0=[H("i1", "imp"), H("h1", "qa")])
    march(g, ["a1", "a2"])
    assert quick_sets(g, 0) == [[], ["h1"]]


def test_r9_3_defender_monarch_admits_demon():
    """R9.3: a defending Monarch lets the defender quick summon a Demon; it goes to the front."""
    g = game([U("a1", "va")], [U("b1", "demon-monarch")], hand1=[H("i1", "imp")])
    march(g, ["a1"])
    assert g.waiting_for() == {1}
    do(g, 1, {"type": "quick_summon", "cards": ["i1"]})
    assert party(g, 1) == ["i1", "b1"]


def test_r9_3_monarch_demon_together_with_quick_card():
    """R9.3 / R9.2: a Demon and a Quick card may join together, in the order added, within capacity
    (3 + 1 + 1 = 5 ≤ 6)."""
    g = game([U("a1", "demon-monarch")], [U("b1", "va")], hand0=[H("i1", "imp"), H("h1", "qa")])
    march(g, ["a1"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1", "i1"]})
    assert party(g, 0) == ["h1", "i1", "a1"]


# ---------------------------------------------------------------------------------------- R9.4

def test_r9_4_formation_sets_the_order():
    """R9.4: the side orders its party front to rear."""
    g = game([U("a1", "pump"), U("a2", "vu"), U("a3", "vr")], [U("b1", "va")])
    march(g, ["a1", "a2", "a3"])
    do(g, 0, {"type": "formation", "order": ["a3", "a1", "a2"]})
    assert party(g, 0) == ["a3", "a1", "a2"]


def test_r9_4_damage_taken_from_the_front():
    """R9.4: the defender puts b2 in front; the attack (2) hits b2: 3 - 2 = 1, b1 untouched."""
    g = game([U("a1", "va")], [U("b1", "va"), U("b2", "vu")], dice=(6, 1))
    march(g, ["a1"])
    ev = do(g, 1, {"type": "formation", "order": ["b2", "b1"]})
    first = events_of(ev, "damage")[0]
    assert (first["unit"], first["amount"], first["life"]) == ("b2", 2, 3 - 2)
    assert all(e["unit"] != "b1" for e in events_of(ev, "damage"))


def test_r9_4_rear_spell_hits_the_rearmost():
    """R9.4: an effect aimed at the 'rear' (Gale Arrow: 2 to the enemy rear) hits the single
    rearmost monster of the formation: b1 at the rear, 3 - 2 = 1; the others untouched."""
    g = game([U("a1", "windy")], [U("b1", "va"), U("b2", "vu"), U("b3", "vr")],
             hand0=[H("s1", "arrow-rain")], dice=(6, 1))
    march(g, ["a1"])
    do(g, 1, {"type": "formation", "order": ["b3", "b2", "b1"]})
    ev = do(g, 0, {"type": "spell", "card": "s1", "targets": []})
    before_attack = ev[:next(i for i, e in enumerate(ev) if e["type"] == "attack")]
    dmg = [(e["unit"], e["amount"], e["life"]) for e in events_of(before_attack, "damage")]
    assert dmg == [("b1", 2, 3 - 2)]


def test_r9_4_rear_ability_hits_the_rearmost():
    """R9.4: Wind Spirit's ability (1 to the enemy rear) hits the rearmost of the formation only."""
    g = game([U("a1", "wind-spirit")], [U("b1", "va"), U("b2", "vu")], dice=(6, 1))
    march(g, ["a1"])
    do(g, 1, {"type": "formation", "order": ["b1", "b2"]})
    ev = do(g, 0, {"type": "ability", "unit": "a1", "targets": []})
    before_attack = ev[:next(i for i, e in enumerate(ev) if e["type"] in ("attack", "no_attack"))]
    dmg = [(e["unit"], e["amount"], e["life"]) for e in events_of(before_attack, "damage")]
    assert dmg == [("b2", 1, 3 - 1)]


def test_r9_4_rear_is_the_rearmost_even_behind_quick_summoned():
    """R9.4 / R9.2: quick summoned units stand at the front, so the rear stays the rearmost unit."""
    g = game([U("a1", "wind-spirit")], [U("b1", "va")], hand1=[H("k1", "qa")], dice=(6, 1))
    march(g, ["a1"])
    do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    do(g, 1, {"type": "formation", "order": ["k1", "b1"]})
    ev = do(g, 0, {"type": "ability", "unit": "a1", "targets": []})
    assert [(e["unit"], e["amount"]) for e in events_of(ev, "damage")][0] == ("b1", 1)


@pytest.mark.parametrize("order", [
    ["a1", "a2"],               # a unit missing
    ["a1", "a2", "a3", "a3"],   # a duplicate
    ["a1", "a2", "b1"],         # an enemy unit
    ["a1", "a2", "a0"],         # an own unit not in the battle
    ["a1", "a2", "a3", "a0"],   # an extra unit
])
def test_r9_4_formation_must_order_the_whole_party(order):
    """R9.4: a formation is an order of exactly the side's own party; anything else is refused."""
    g = game([U("a1", "va"), U("a2", "vu"), U("a3", "vr")], [U("b1", "va")])
    march(g, ["a1", "a2", "a3"])
    assert_illegal(g, 0, {"type": "formation", "order": order})


def test_r9_4_cannot_form_the_opponents_party():
    """R9.4: only the side whose formation step it is orders its party."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va"), U("b2", "vu")])
    march(g, ["a1", "a2"])
    assert_illegal(g, 1, {"type": "formation", "order": ["b2", "b1"]})
    assert_illegal(g, 1, {"type": "formation", "order": ["a2", "a1"]})


def test_r9_4_every_order_is_offered():
    """R9.4: three different cards can stand in 3! = 6 orders."""
    g = game([U("a1", "va"), U("a2", "vu"), U("a3", "vr")], [U("b1", "va")])
    march(g, ["a1", "a2", "a3"])
    orders = {tuple(a["order"]) for a in find(g, 0, "formation")}
    assert len(orders) == 3 * 2 * 1


# ---------------------------------------------------------------------------------------- R9.5

def test_r9_5_non_leaders_front_leaders_rear():
    """R9.5: the suggested order puts non-leaders in front and leaders at the rear — a C leader stands
    behind an SR non-leader."""
    g = game([U("a1", "va")], [U("b1", "va", leader=True), U("b2", "vsr"), U("b3", "vu")], lead1=False)
    march(g, ["a1"])
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 1)
    assert party(g, 1) == ["b3", "b2", "b1"]


def test_r9_5_lower_rarity_first():
    """R9.5: within the non-leaders, lower rarity first: C, U, R, SR."""
    g = game([U("a1", "vsr"), U("a2", "vr"), U("a3", "vu"), U("a4", "va")], [U("b1", "va")])
    march(g, ["a1", "a2", "a3", "a4"])
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 0)
    assert party(g, 0) == ["a4", "a3", "a2", "a1"]


def test_r9_5_leaders_ordered_by_rarity_too():
    """R9.5: within the leaders (at the rear), lower rarity first."""
    g = game([U("a1", "va")], [U("b1", "vr", leader=True), U("b2", "va", leader=True), U("b3", "vsr")],
             lead1=False)
    march(g, ["a1"])
    assert party(g, 1) == ["b3", "b2", "b1"]


def test_r9_5_attacker_leaders_at_rear():
    """R9.5: the attacking party gets the suggested order too: leader at the rear."""
    g = game([U("a1", "va", leader=True), U("a2", "vr")], [U("b1", "va")], lead0=False)
    march(g, ["a1", "a2"])
    assert party(g, 0) == ["a2", "a1"]


# ---------------------------------------------------------------------------------------- R9.5a

def test_r9_5a_quick_summoned_first_then_suggested_order():
    """R9.5a: before the formation step: quick summoned (in the order added), then the others in
    the suggested order (non-leader C, non-leader SR, leader)."""
    g = game([U("a1", "va", leader=True), U("a2", "vsr"), U("a3", "vu")], [U("b1", "va")],
             hand0=[H("h1", "qa"), H("h2", "qb")], lead0=False)
    march(g, ["a1", "a2", "a3"])
    do(g, 0, {"type": "quick_summon", "cards": ["h2", "h1"]})
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 0)
    assert party(g, 0) == ["h2", "h1", "a3", "a2", "a1"]


@pytest.mark.parametrize("listed, expected", [
    (["b1", "b2"], ["b1", "b2"]),
    (["b2", "b1"], ["b2", "b1"]),
])
def test_r9_5a_ties_keep_arrival_order(listed, expected):
    """R9.5a: two non-leaders of equal rarity keep the order in which they came onto the land."""
    defs = {"b1": U("b1", "va"), "b2": U("b2", "fast")}
    g = game([U("a1", "va")], [defs[i] for i in listed])
    march(g, ["a1"])
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 1)
    assert party(g, 1) == expected


def test_r9_5a_later_arrival_stands_behind():
    """R9.5a: a unit that marched onto the land later stands behind an equal one already there,
    whatever the order of listing."""
    g = scenario({"units": [LEAD0, U("a1", "va")]},
                 {"units": [LEAD1, U("b3", "fast", land="L5"), U("b1", "va")]},
                 cards=CARDS, dice=[6, 1], active=1, round=3)
    march(g, ["b3"], to="L3", player=1)
    do(g, 1, "end_turn")
    assert g.waiting_for() == {0}
    march(g, ["a1"])
    assert party(g, 1) == ["b1", "b3"]


def test_r9_5a_skipped_formation_keeps_the_order():
    """R9.5a / R9.6: quick summoning a copy of the lone defender's card makes a party of one card, so the
    formation step is skipped and the party stays quick-summoned first: k1 takes the hit.
    Attack 2 into k1 (life 2): 2 - 2 = 0, destroyed; b1 untouched."""
    g = game([U("a1", "va")], [U("b1", "qa")], hand1=[H("k1", "qa")], dice=(6, 1))
    march(g, ["a1"])
    ev = do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    assert not events_of(ev, "formation")
    dmg = events_of(ev, "damage")
    assert (dmg[0]["unit"], dmg[0]["amount"], dmg[0]["life"]) == ("k1", 2, 2 - 2)
    assert "k1" in [e["unit"] for e in events_of(ev, "destroyed")]
    assert all(e["unit"] != "b1" for e in dmg)


def test_r9_5a_formation_step_starts_from_that_order():
    """R9.5a: the order shown when the formation step begins is the R9.5a order; the chosen formation
    then replaces it."""
    g = game([U("a1", "vu"), U("a2", "pump")], [U("b1", "va")], hand0=[H("h1", "qa")])
    march(g, ["a1", "a2"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    assert party(g, 0) == ["h1", "a2", "a1"]
    do(g, 0, {"type": "formation", "order": ["a1", "a2", "h1"]})
    assert party(g, 0) == ["a1", "a2", "h1"]


# ---------------------------------------------------------------------------------------- R9.6

def test_r9_6_one_monster_skips_formation():
    """R9.6: a party of one monster has no formation step (nobody is asked; no formation event)."""
    g = game([U("a1", "va")], [U("b1", "va")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert not events_of(ev, "formation")
    assert events_of(ev, "initiative")


def test_r9_6_all_same_card_skips_formation():
    """R9.6: a party of copies of one card (no leader) is not asked for a formation."""
    g = game([U("a1", "va"), U("a2", "va")], [U("b1", "vu"), U("b2", "vu"), U("b3", "vu")], dice=(6, 1))
    ev = march(g, ["a1", "a2"])
    assert not events_of(ev, "formation")
    assert events_of(ev, "initiative")


def test_r9_6_all_leaders_of_same_card_skip_formation():
    """R9.6: all the same card and all leaders (no non-leader mixed in): skipped."""
    g = scenario({"units": [LEAD0, U("a1", "va", land="L5")]},
                 {"units": [U("b1", "orc", land="H1", leader=True), U("b2", "orc", land="H1", leader=True)]},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["a1"], to="H1")
    assert not events_of(ev, "formation")
    assert events_of(ev, "initiative")


def test_r9_6_leader_mixed_with_non_leader_of_same_card_is_asked():
    """R9.6: a leader mixed with a non-leader of the same card is not skipped; the two orders
    (leader in front or at the rear) are offered."""
    g = game([U("a1", "va")], [U("b1", "va", leader=True), U("b2", "va")], lead1=False)
    march(g, ["a1"])
    assert g.waiting_for() == {1}
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 1)
    orders = sorted(tuple(a["order"]) for a in find(g, 1, "formation"))
    assert orders == [("b1", "b2"), ("b2", "b1")]


def test_r9_6_different_cards_are_asked():
    """R9.6: a party of different cards has a formation step."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "va")])
    march(g, ["a1", "a2"])
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 0)
    assert g.waiting_for() == {0}


def test_r9_6_quick_summon_of_another_card_makes_formation_needed():
    """R9.6: one monster plus a quick summoned monster of another card: two cards, so asked."""
    g = game([U("a1", "va")], [U("b1", "va")], hand0=[H("h1", "qa")])
    march(g, ["a1"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 0)


def test_r9_6_leader_with_quick_summoned_copy_is_asked():
    """R9.6: a lone leader joined by a quick summoned copy of its card: a leader mixed with a
    non-leader of the same card, so the formation is asked."""
    g = game([U("a1", "va")], [U("b1", "qa", leader=True)], hand1=[H("k1", "qa")], lead1=False)
    march(g, ["a1"])
    do(g, 1, {"type": "quick_summon", "cards": ["k1"]})
    assert (bview(g)["step"], bview(g)["step_player"]) == ("formation", 1)
    assert g.waiting_for() == {1}


# ---------------------------------------------------------------------------------------- R9.7

def test_r9_7_higher_total_strikes_first_defender_can_win():
    """R9.7: higher total strikes first; the attacker may strike second (attacker 2 + 0 < defender 5 + 0)."""
    g = game([U("a1", "pump")], [U("b1", "pump")], dice=(2, 5))
    ev = march(g, ["a1"])
    ini = events_of(ev, "initiative")[0]
    assert ini["rolls"]["0"] == {"die": 2, "speed": 0, "total": 2}
    assert ini["rolls"]["1"] == {"die": 5, "speed": 0, "total": 5}
    assert ini["first"] == 1
    assert bview(g)["striker"] == 1
    assert g.waiting_for() == {1}


def test_r9_7_attacker_higher_strikes_first():
    """R9.7: attacker 5 + 0 > defender 4 + 0: the attacker strikes first."""
    g = game([U("a1", "pump")], [U("b1", "pump")], dice=(5, 4))
    ev = march(g, ["a1"])
    assert events_of(ev, "initiative")[0]["first"] == 0
    assert g.waiting_for() == {0}


def test_r9_7_total_speed_is_added_to_the_die():
    """R9.7: total speed of the party is added: attacker 2 + (2 + 2) = 6 beats defender 5 + 0 = 5."""
    g = game([U("a1", "fast"), U("a2", "fast"), U("a3", "pump")], [U("b1", "pump")], dice=(2, 5))
    ev = march(g, ["a1", "a2", "a3"])
    ev += do(g, 0, {"type": "formation", "order": party(g, 0)})
    ini = events_of(ev, "initiative")[0]
    assert ini["rolls"]["0"] == {"die": 2, "speed": 2 + 2, "total": 2 + 2 + 2}
    assert ini["rolls"]["1"]["total"] == 5
    assert ini["first"] == 0


def test_r9_7_negative_speed_lowers_the_total():
    """R9.7: speed may be negative: defender 4 + (-1) = 3 < attacker 4 + 0 = 4."""
    g = game([U("a1", "pump")], [U("b1", "slow")], dice=(4, 4))
    ev = march(g, ["a1"])
    ini = events_of(ev, "initiative")[0]
    assert ini["rolls"]["1"] == {"die": 4, "speed": -1, "total": 4 - 1}
    assert ini["first"] == 0


def test_r9_7_equal_totals_simultaneous_no_defender_advantage():
    """R9.7: equal totals (attacker 5 + 0, defender 3 + 2) mean a simultaneous attack — no reroll,
    no advantage to the defender."""
    g = game([U("a1", "va")], [U("b1", "fast")], dice=(5, 3, 6, 1))
    ev = march(g, ["a1"])
    inis = events_of(ev, "initiative")
    assert len(inis) == 1
    assert inis[0]["rolls"]["0"]["total"] == 5 and inis[0]["rolls"]["1"]["total"] == 3 + 2
    assert inis[0]["first"] is None
    assert all(e["simultaneous"] for e in events_of(ev, "attack"))
    assert len(events_of(ev, "attack")) == 2


def test_r9_7_quick_summoned_speed_counts():
    """R9.7: quick summoned members are party members: attacker 1 + (0 + 3) = 4 > defender 3 + 0."""
    g = game([U("a1", "pump")], [U("b1", "va")], hand0=[H("h1", "qfast")], dice=(1, 3))
    march(g, ["a1"])
    ev = do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    ev += do(g, 0, {"type": "formation", "order": ["h1", "a1"]})
    ini = events_of(ev, "initiative")[0]
    assert ini["rolls"]["0"] == {"die": 1, "speed": 0 + 3, "total": 1 + 3}
    assert ini["first"] == 0


def test_r9_7_battle_speed_modifier_counts():
    """R9.7 [decided, docs]: a [Battle] speed boost counts: defender 2 + (0 + 2) = 4 > attacker 3."""
    g = game([U("a1", "pump")], [U("b1", "cheer")], dice=(3, 2))
    ev = march(g, ["a1"])
    ini = events_of(ev, "initiative")[0]
    assert ini["rolls"]["1"] == {"die": 2, "speed": 2, "total": 2 + 2}
    assert ini["first"] == 1


def test_r9_7_initiative_in_the_view():
    """R9.7: the view shows the rolls and the first striker."""
    g = game([U("a1", "pump")], [U("b1", "slow")], dice=(3, 6))
    march(g, ["a1"])
    ini = bview(g)["initiative"]
    assert ini["rolls"]["0"] == {"die": 3, "speed": 0, "total": 3}
    assert ini["rolls"]["1"] == {"die": 6, "speed": -1, "total": 6 - 1}
    assert ini["first"] == 1


# ---------------------------------------------------------------------------------------- R9.8

def test_r9_8_strikes_first_trigger_right_after_initiative():
    """R9.8: Dawn Wraith ('when your party strikes first, destroy this unit') is destroyed right after
    initiative, before any attack; the attack is then the Soldier's 2 only."""
    g = game([U("a1", "dawn-wraith"), U("a2", "va")], [U("b1", "l2")], dice=(6, 1))
    ev = march(g, ["a1", "a2"])
    ev += do(g, 0, {"type": "formation", "order": ["a1", "a2"]})
    t = types(ev)
    i_ini = t.index("initiative")
    trig = [i for i, e in enumerate(ev) if e["type"] == "triggered" and e["unit"] == "a1"]
    dest = [i for i, e in enumerate(ev) if e["type"] == "destroyed" and e["unit"] == "a1"]
    first_attack = next(i for i, e in enumerate(ev) if e["type"] in ("declared", "attack"))
    assert len(trig) == 1 and trig[0] > i_ini
    assert i_ini < trig[0] < dest[0] < first_attack
    att = events_of(ev, "attack")[0]
    assert att["player"] == 0 and att["units"] == ["a2"] and att["power"] == 2


def test_r9_8_strikes_first_trigger_not_when_striking_second():
    """R9.8: the party strikes second, so Dawn Wraith stays and attacks (3)."""
    g = game([U("a1", "dawn-wraith")], [U("b1", "l2")], dice=(1, 6))
    ev = march(g, ["a1"])
    assert not events_of(ev, "triggered")
    mine = [e for e in events_of(ev, "attack") if e["player"] == 0]
    assert mine and mine[0]["units"] == ["a1"] and mine[0]["power"] == 3


def test_r9_8_no_trigger_on_a_tie():
    """R9.8: on a tie (3 + 1 = 4 + 0) no strike trigger works: Dawn Wraith joins the simultaneous
    attack (3)."""
    g = game([U("a1", "dawn-wraith")], [U("b1", "l2")], dice=(3, 4))
    ev = march(g, ["a1"])
    assert not events_of(ev, "triggered")
    mine = [e for e in events_of(ev, "attack") if e["player"] == 0]
    assert mine[0]["simultaneous"] and mine[0]["power"] == 3


def test_r9_8_strikes_second_trigger():
    """R9.8: a 'when your party strikes second' trigger works when the party strikes second."""
    g = game([U("a1", "hero-second"), U("a2", "va")], [U("b1", "l2")], dice=(1, 6))
    ev = march(g, ["a1", "a2"])
    ev += do(g, 0, {"type": "formation", "order": ["a1", "a2"]})
    trig = events_of(ev, "triggered")
    assert [(e["unit"], e["timing"]) for e in trig] == [("a1", "strikes_second")]
    i_trig = ev.index(trig[0])
    first_decl = next(i for i, e in enumerate(ev) if e["type"] in ("declared", "attack"))
    assert events_of(ev, "initiative") and i_trig < first_decl
    assert "a1" in [e["unit"] for e in events_of(ev, "destroyed")]


def test_r9_8_strikes_second_trigger_not_when_striking_first():
    """R9.8: a 'strikes second' trigger does nothing when the party strikes first."""
    g = game([U("a1", "hero-second")], [U("b1", "l2")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert not events_of(ev, "triggered")


def test_r9_8_trigger_works_only_once():
    """R9.8: Salamander's strikes-first boost (+1 power to allies) happens once: attack (2+1)+(2+1) = 6."""
    g = game([U("a1", "salamander"), U("a2", "va")], [U("b1", "vu"), U("b2", "vu"), U("b3", "vu")],
             dice=(6, 1))
    ev = march(g, ["a1", "a2"])
    ev += do(g, 0, {"type": "formation", "order": ["a1", "a2"]})
    assert len(events_of(ev, "triggered")) == 1
    assert len(events_of(ev, "boosted")) == 2  # one boost, one event per ally
    att = [e for e in events_of(ev, "attack") if e["player"] == 0][0]
    assert att["power"] == (2 + 1) + (2 + 1)


def test_r9_8_strikes_second_boost_once_and_kept():
    """R9.8: the defender's strikes-second boost (+1 power to allies) happens once, right after
    initiative, before the first striker's attack; its own attack is then (2 + 1) + (2 + 1) = 6."""
    g = game([U("a1", "vu")], [U("b1", "shout-second"), U("b2", "va")], dice=(6, 1))
    march(g, ["a1"])
    ev = do(g, 1, {"type": "formation", "order": ["b1", "b2"]})
    assert len(events_of(ev, "triggered")) == 1
    i_boost = types(ev).index("boosted")
    assert i_boost < types(ev).index("attack")
    theirs = [e for e in events_of(ev, "attack") if e["player"] == 1]
    assert theirs[0]["power"] == (2 + 1) + (2 + 1)


def test_r9_8_attacker_wiped_by_trigger_ends_battle():
    """R9.8: a lone Dawn Wraith striking first destroys itself; the battle ends there with no attack,
    the attack fails and the defender is untouched."""
    g = game([U("a1", "dawn-wraith")], [U("b1", "va")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert not events_of(ev, "attack") and not events_of(ev, "declared")
    end = events_of(ev, "battle_ended")
    assert len(end) == 1 and end[0]["success"] is False
    assert unit_view(g, "b1")["land"] == "L3"
    assert g.view(0)["battle"] is None
    assert g.view(0)["lands"]["L3"]["owner"] == 1


def test_r9_8_defender_wiped_by_trigger_attack_succeeds():
    """R9.8: the lone defending Dawn Wraith strikes first and destroys itself: the defenders are wiped,
    the battle ends with no attack, and the attack succeeds."""
    g = game([U("a1", "va")], [U("b1", "dawn-wraith")], dice=(1, 6))
    ev = march(g, ["a1"])
    assert not events_of(ev, "attack")
    end = events_of(ev, "battle_ended")
    assert end[0]["success"] is True
    assert unit_view(g, "a1")["land"] == "L3"
    assert g.view(0)["lands"]["L3"]["owner"] == 0


def test_r9_8_trigger_damage_wipes_defender():
    """R9.8: a strikes-first trigger dealing 3 to the enemy front destroys the lone defender (life 3);
    the battle ends before any attack and succeeds."""
    g = game([U("a1", "opener")], [U("b1", "va")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert not events_of(ev, "attack")
    assert "b1" in [e["unit"] for e in events_of(ev, "destroyed")]
    assert events_of(ev, "battle_ended")[0]["success"] is True


def test_r9_8_both_parties_wiped_by_triggers():
    """R9.8 / R1.6: the attacker's Dawn Wraith (strikes first) and the defender's strikes-second
    self-destroyer fall in one resolution: the battle ends, the attack fails, the land stays the
    defender's (R4.5)."""
    g = game([U("a1", "dawn-wraith")], [U("b1", "hero-second")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert sorted(e["unit"] for e in events_of(ev, "triggered")) == ["a1", "b1"]
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["a1", "b1"]
    assert not events_of(ev, "attack")
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert g.view(0)["lands"]["L3"]["owner"] == 1
