"""R12: spells and spell slots.

Every battle here is player 0's party on L3 (road 6) attacking player 1's party on L5 (road 6);
both leaders wait at home. `dice=(6, 1)` makes player 0 (the attacker) strike first.

The engine takes a player's only choice by itself (docs/engine.md, R10.7), so parties often
carry a spare "pinger" ([Normal]) or "guard" ([Counter]) just to keep a window open where a test
looks. Lives are read while the battle still runs (R14.2 restores them when it ends).
"""

import pytest

from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view


def spell(**fields):
    base = {"kind": "spell", "element": "fire", "mana": 1, "timing": "normal", "rarity": "C",
            "name": {"en": "Test spell", "ja": "テスト魔法"}}
    base.update(fields)
    return base


CARDS = {
    "tank": card(power=1, life=10),
    "weak": card(power=1, life=2),
    "frail": card(power=1, life=1),
    "mid": card(power=1, life=5, level=2),
    "big": card(power=3, life=6, level=3),
    "fire-mage": card(power=1, life=5, slots={"fire": 1}),
    "fire-mage2": card(power=1, life=5, slots={"fire": 2}),
    "earth-mage": card(power=1, life=5, slots={"earth": 1}, element="earth"),
    "earth-mage3": card(power=1, life=5, slots={"earth": 3}, element="earth"),
    "water-mage": card(power=1, life=5, slots={"water": 2}, element="water"),
    "dark-mage": card(power=1, life=5, slots={"dark": 2}, element="dark"),
    "light-mage": card(power=1, life=5, slots={"light": 2}, element="light"),
    "wind-mage": card(power=1, life=5, slots={"wind": 1}, element="wind"),
    "fire-bolter": card(power=2, life=5, slots={"fire": 1}, abilities=[
        {"timing": "normal", "target": {"side": "enemy"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 2}]}]),
    "bolter": card(power=2, life=5, abilities=[
        {"timing": "normal", "target": {"side": "enemy"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 2}]}]),
    "pinger": card(power=1, life=5, abilities=[
        {"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
    "smasher": card(power=1, life=5, abilities=[
        {"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 5}]}]),
    "zapper": card(power=1, life=5, abilities=[
        {"timing": "counter", "target": {"side": "enemy"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 20}]}]),
    "guard": card(power=1, life=5, abilities=[
        {"timing": "counter", "target": {"side": "ally"},
         "effects": [{"do": "boost", "to": "chosen", "life": 1}]}]),
    "bolt": spell(target={"side": "enemy"}, effects=[{"do": "damage", "to": "chosen", "amount": 2}]),
    "grow": spell(element="dark", timing="counter", target={"side": "any"},
                  effects=[{"do": "change_level", "to": "chosen", "by": 1}]),
}


def battle(att, dfn, hand0=(), hand1=(), dice=(6, 1), home0=()):
    """Player 0's `att` [(card, id)] on L3 attacks player 1's `dfn` on L5; formations as listed.
    `home0` [(card, id, land)] are more units of player 0 that stay out of the battle."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True)] + [unit(c, "L3", i) for c, i in att]
          + [unit(c, land, i) for c, i, land in home0],
          "hand": [{"card": c, "id": i} for c, i in hand0]}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True)] + [unit(c, "L5", i) for c, i in dfn],
          "hand": [{"card": c, "id": i} for c, i in hand1]}
    g = scenario(p0, p1, cards=CARDS, dice=list(dice))
    ev = do(g, 0, {"type": "march", "units": [i for _, i in att], "to": "L5"})
    ev += prepare(g, {0: [i for _, i in att], 1: [i for _, i in dfn]})
    return g, ev


def prepare(g, order):
    """Answer the quick-summon (none) and formation (as `order`) steps of the battle in progress."""
    ev = []
    while g.view()["battle"] is not None and g.view()["battle"]["step"] in ("quick", "formation"):
        (w,) = g.waiting_for()
        if g.view()["battle"]["step"] == "quick":
            ev += do(g, w, {"type": "quick_summon", "cards": []})
        else:
            ev += do(g, w, {"type": "formation", "order": order[w]})
    return ev


def ability(unit_id, targets=(), **extra):
    return {"type": "ability", "unit": unit_id, "targets": list(targets), **extra}


def cast(card_id, targets=(), **extra):
    return {"type": "spell", "card": card_id, "targets": list(targets), **extra}


def life(g, uid):
    return unit_view(g, uid)["life"]


def slots(g, p, kind):
    return g.view()["battle"]["slots"][str(p)].get(kind, {"total": 0, "used": 0})


def outcomes(ev):
    return [(e["type"], e["player"], e["card"], e.get("reason"))
            for e in ev if e["type"] in ("resolved", "fizzled")]


def paid(ev):
    return events_of(ev, "declared")[0]["paid"]


# ---------------------------------------------------------------- R12.1

def test_r12_1_no_spells_outside_battle():
    """R12.1: spells are used only in battle: in the main step a spell is refused."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True), unit("fire-mage", "L3", "m0")],
          "hand": [{"card": "fireball", "id": "f0"}]}
    g = scenario(p0, cards=CARDS)
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, cast("f0"))


def test_r12_1_no_spells_during_quick_summon_and_formation():
    """R12.1: never during preparation (steps 1-5): at the quick-summon and formation steps only
    those choices are offered, and a spell is refused."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True), unit("fire-mage", "L3", "m0"),
                    unit("tank", "L3", "t0")],
          "hand": [{"card": "fireball", "id": "f0"}, {"card": "salamander", "id": "sal"}]}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True), unit("tank", "L5", "t1")]}
    g = scenario(p0, p1, cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["m0", "t0"], "to": "L5"})
    assert g.view()["battle"]["step"] == "quick"
    assert {a["type"] for a in g.legal_actions(0)} == {"quick_summon", "resign"}
    assert_illegal(g, 0, cast("f0"))
    do(g, 0, {"type": "quick_summon", "cards": []})
    assert g.view()["battle"]["step"] == "formation"
    assert {a["type"] for a in g.legal_actions(0)} == {"formation", "resign"}
    assert_illegal(g, 0, cast("f0"))
    do(g, 0, {"type": "formation", "order": ["m0", "t0"]})
    assert g.view()["battle"]["step"] == "fight"
    assert find(g, 0, "spell", card="f0")


def test_r12_1_no_spells_in_a_simultaneous_attack():
    """R12.1 with R10.9: on an initiative tie the attacks happen at once; no spell is ever
    offered, both hands keep their spells."""
    g, ev = battle([("fire-mage", "m0"), ("tank", "t0")], [("earth-mage", "e1"), ("tank", "t1")],
                   hand0=[("fireball", "f0")], hand1=[("stone-skin", "ss1")], dice=(3, 3))
    assert events_of(ev, "initiative")[0]["first"] is None
    assert not events_of(ev, "declared")
    assert [e["simultaneous"] for e in events_of(ev, "attack")] == [True, True]
    assert g.view()["battle"] is None
    assert [h["id"] for h in g.view(0)["players"][0]["hand"]] == ["f0"]
    assert [h["id"] for h in g.view(1)["players"][1]["hand"]] == ["ss1"]


def test_r12_1_counter_spell_answers_the_attack():
    """R12.1: a [Counter] spell may answer any opponent declaration, the attack included."""
    g, _ = battle([("tank", "t0"), ("pinger", "pg0")], [("weak", "w1"), ("earth-mage", "e1"), ("pinger", "pg1")],
                  hand1=[("stone-skin", "ss1")])
    do(g, 0, {"type": "attack"})
    assert find(g, 1, "spell", card="ss1", targets=["w1"])
    ev = do(g, 1, cast("ss1", ["w1"]))
    assert events_of(ev, "declared")[0]["responds_to"] == 0
    # stone skin resolves first (2 + 3 = 5 life), then 1 + 1 = 2 attack damage
    assert [e for e in events_of(ev, "attack")][0]["power"] == 1 + 1
    assert life(g, "w1") == 2 + 3 - 2


def test_r12_1_counter_spell_after_own_side_attacked():
    """R12.1 [decided]: a side whose attack is over may still answer with [Counter] spells, but
    its [Normal] spells are gone with its window."""
    g, _ = battle([("tank", "t0"), ("earth-mage", "e0"), ("fire-mage", "m0")],
                  [("tank", "t1"), ("bolter", "u1"), ("pinger", "pg1")],
                  hand0=[("stone-skin", "ss0"), ("fireball", "f0")])
    do(g, 0, {"type": "attack"})   # player 1 has no counter: the attack resolves
    assert g.view()["battle"]["striker"] == 1
    do(g, 1, ability("u1", ["t0"]))
    assert g.waiting_for() == {0}
    assert find(g, 0, "spell", card="ss0", targets=["t0"])
    assert not find(g, 0, "spell", card="f0")
    assert_illegal(g, 0, cast("f0"))
    do(g, 0, cast("ss0", ["t0"]))
    assert life(g, "t0") == 10 + 3 - 2


# ---------------------------------------------------------------- R12.2

def test_r12_2_paid_from_slots_of_the_spells_element():
    """R12.2: a fire spell of mana 1 is paid with 1 fire slot."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0")], [("tank", "t1"), ("guard", "g1")],
                  hand0=[("fireball", "f0")])
    ev = do(g, 0, cast("f0"))
    assert paid(ev) == {"element": 1, "wild": 0}
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}


def test_r12_2_no_generic_mana():
    """R12.2: slots of another element never pay: water and earth slots cannot pay a fire spell."""
    g, _ = battle([("water-mage", "w0"), ("earth-mage3", "e0"), ("pinger", "pg0")], [("tank", "t1")],
                  hand0=[("fireball", "f0")])
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, cast("f0"))


def test_r12_2_mana_number_must_be_met():
    """R12.2: a mana-2 fire spell needs 2 fire slots: 1 is not enough."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("war-cry", "wc")])
    assert not find(g, 0, "spell", card="wc")
    assert_illegal(g, 0, cast("wc"))


def test_r12_2_shortfall_paid_from_wild():
    """R12.2: a shortfall may be paid from wild slots: war cry (fire 2) = 1 fire + 1 wild."""
    g, _ = battle([("fire-mage", "m0"), ("vampire", "v0")], [("tank", "t1")], hand0=[("war-cry", "wc")])
    ev = do(g, 0, cast("wc"))
    assert paid(ev) == {"element": 1, "wild": 1}
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}
    assert slots(g, 0, "wild") == {"total": 1, "used": 1}


def test_r12_2_element_slots_are_taken_before_wild():
    """R12.2 / R12.5: payment takes element slots first, then wild (no choice)."""
    g, _ = battle([("fire-mage", "m0"), ("vampire", "v0")], [("tank", "t1")], hand0=[("fireball", "f0")])
    ev = do(g, 0, cast("f0"))
    assert paid(ev) == {"element": 1, "wild": 0}
    assert slots(g, 0, "wild") == {"total": 1, "used": 0}


def test_r12_2_only_own_hand_cards_are_cast():
    """R12.2: a spell is cast from the caster's own hand: the opponent's card is refused."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("fire-mage", "m1")],
                  hand0=[("fireball", "f0")], hand1=[("fireball", "f1")])
    assert {a["card"] for a in find(g, 0, "spell")} == {"f0"}
    assert_illegal(g, 0, cast("f1"))
    assert_illegal(g, 0, cast("nope"))


def test_r12_2_only_the_battle_partys_slots_count():
    """R12.2: slots come from the caster's battle party: a fire-slot monster elsewhere on the
    board does not pay."""
    g, _ = battle([("tank", "t0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("fireball", "f0")],
                  home0=[("fire-mage2", "m0", "L1")])
    assert slots(g, 0, "fire") == {"total": 0, "used": 0}
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, cast("f0"))


# ---------------------------------------------------------------- R12.3

def test_r12_3_slots_pool_over_the_party():
    """R12.3: slots pool per element over the whole party: 1 + 1 fire pay war cry (fire 2)."""
    g, _ = battle([("fire-mage", "m0"), ("fire-mage", "m0b")], [("tank", "t1")], hand0=[("war-cry", "wc")])
    assert slots(g, 0, "fire") == {"total": 1 + 1, "used": 0}
    ev = do(g, 0, cast("wc"))
    assert paid(ev) == {"element": 2, "wild": 0}


def test_r12_3_battle_granted_slots_join_the_pool():
    """R12.3: slots granted by a [Battle] ability count: Orc Shaman with 2 Orcs has 1 + 1 earth,
    plus the Orc's 1: earthquake (earth 3) can be cast."""
    g, _ = battle([("orc", "o0"), ("orc-shaman", "os0")], [("tank", "t1"), ("weak", "w1")],
                  hand0=[("earthquake", "eq")])
    assert slots(g, 0, "earth") == {"total": 1 + 1 + 1, "used": 0}
    ev = do(g, 0, cast("eq"))
    assert paid(ev) == {"element": 3, "wild": 0}


def test_r12_3_battle_grant_off_when_its_condition_fails():
    """R12.3: without its condition (2 Orcs) the Orc Shaman grants nothing: 1 earth + 1 earth
    does not pay earthquake (earth 3)."""
    g, _ = battle([("orc-shaman", "os0"), ("earth-mage", "e0"), ("pinger", "pg0")], [("tank", "t1")],
                  hand0=[("earthquake", "eq")])
    assert slots(g, 0, "earth") == {"total": 1 + 1, "used": 0}
    assert not find(g, 0, "spell")


def test_r12_3_slots_granted_by_a_spell_join_the_pool():
    """R12.3: Ember Ritual grants fire 2 to the front one; the pool is then 1 + 2 fire with 1
    used, so war cry (fire 2) can follow."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0")], [("tank", "t1"), ("guard", "g1")],
                  hand0=[("ember-ritual", "er"), ("war-cry", "wc")])
    assert not find(g, 0, "spell", card="wc")
    do(g, 0, cast("er"))
    do(g, 1, "pass")
    assert slots(g, 0, "fire") == {"total": 1 + 2, "used": 1}
    ev = do(g, 0, cast("wc"))
    assert paid(ev) == {"element": 2, "wild": 0}


def test_r12_3_lost_element_slot_never_reduces_the_wild_pool():
    """R12.3 [decided, revision 2]: fire mage + Vampire; a fireball paid with the fire slot has
    resolved, then the fire mage is destroyed. Free wild = 1 - 0 = 1: a water spell (Mirror of
    Waters) is paid from the wild slot, as the view shows it free."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("vampire", "v0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("fireball", "f0"), ("mirror-of-waters", "mw")])
    do(g, 0, cast("f0"))
    do(g, 1, "pass")
    do(g, 0, ability("pg0"))
    ev = do(g, 1, ability("z1", ["m0"]))
    assert "m0" in [e["unit"] for e in events_of(ev, "destroyed")]
    assert slots(g, 0, "fire") == {"total": 0, "used": 1}
    assert slots(g, 0, "wild") == {"total": 1, "used": 0}
    assert find(g, 0, "spell", card="mw")
    ev = do(g, 0, cast("mw", choice=1))
    assert paid(ev) == {"element": 0, "wild": 1}
    assert outcomes(ev) == [("resolved", 0, "mirror-of-waters", None)]


def test_r12_3_free_slots_never_below_zero():
    """R12.3: free = current total minus used, never below 0: with fire 0 of 1 used, a fire spell
    needs the whole mana from wild (fireball: 1 wild), not 1 more to make up the lost fire slot."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("vampire", "v0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("fireball", "f0"), ("fireball", "f0b")])
    do(g, 0, cast("f0"))
    do(g, 1, "pass")
    do(g, 0, ability("pg0"))
    do(g, 1, ability("z1", ["m0"]))
    ev = do(g, 0, cast("f0b"))
    assert paid(ev) == {"element": 0, "wild": 1}


# ---------------------------------------------------------------- R12.4

def test_r12_4_slots_of_a_cancelled_spell_stay_used():
    """R12.4: a cancelled spell's slots stay used (and the cancel's too): no second fireball."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("water-mage", "w1")],
                  hand0=[("fireball", "f0"), ("fireball", "f0b")], hand1=[("dispel", "dp")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, cast("dp"))
    assert outcomes(ev) == [("resolved", 1, "dispel", None), ("fizzled", 0, "fireball", "cancelled")]
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}
    assert slots(g, 1, "water") == {"total": 2, "used": 2}
    assert not find(g, 0, "spell", card="f0b")
    assert_illegal(g, 0, cast("f0b"))


def test_r12_4_all_slots_come_back_after_the_battle():
    """R12.4: the fire slot used in one battle is free again in the next battle."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True), unit("fire-mage", "L3", "m0"),
                    unit("tank", "L3", "t0")],
          "hand": [{"card": "fireball", "id": "f0"}, {"card": "fireball", "id": "f0b"}]}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True), unit("tank", "L5", "t1"),
                    unit("guard", "L5", "g1")]}
    # battle 1: player 0 attacks and strikes first; battle 2: player 1 attacks, player 0 first
    g = scenario(p0, p1, cards=CARDS, dice=[6, 1, 1, 6])
    do(g, 0, {"type": "march", "units": ["m0", "t0"], "to": "L5"})
    prepare(g, {0: ["m0", "t0"], 1: ["t1", "g1"]})
    do(g, 0, cast("f0"))
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}
    do(g, 1, "pass")                      # then player 0 can only attack: it attacks by itself
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}
    do(g, 1, "pass")                      # then player 1 attacks; player 0 cannot answer
    assert g.view()["battle"] is None and g.view()["phase"] == "main"
    do(g, 0, "end_turn")
    do(g, 1, {"type": "march", "units": ["t1", "g1"], "to": "L3"})
    prepare(g, {0: ["m0", "t0"], 1: ["t1", "g1"]})
    assert g.waiting_for() == {0}
    assert slots(g, 0, "fire") == {"total": 1, "used": 0}
    ev = do(g, 0, cast("f0b"))
    assert paid(ev) == {"element": 1, "wild": 0}


# ---------------------------------------------------------------- R12.5

def test_r12_5_pool_shrinks_when_a_slot_monster_dies():
    """R12.5: two fire mages (1 + 1); the first fireball is paid; one mage is destroyed in
    answer: the fireball still resolves (current fire 1 >= used 1), and the pool is now 1 with
    1 used, so no second fireball."""
    g, _ = battle([("fire-mage", "m0a"), ("fire-mage", "m0b"), ("pinger", "pg0")],
                  [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("fireball", "f0"), ("fireball", "f0b")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, ability("z1", ["m0a"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("resolved", 0, "fireball", None)]
    assert life(g, "t1") == 10 - 3
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}
    assert not find(g, 0, "spell", card="f0b")
    assert_illegal(g, 0, cast("f0b"))


def test_r12_5_pool_shrinks_when_a_slot_monster_is_negated():
    """R12.5: a monster that loses its abilities loses its slots: after Curse of Silence on one
    of two fire mages, the pool is 1 fire, already used."""
    g, _ = battle([("fire-mage", "m0a"), ("fire-mage", "m0b"), ("pinger", "pg0")],
                  [("tank", "t1"), ("dark-mage", "k1")],
                  hand0=[("fireball", "f0"), ("fireball", "f0b")], hand1=[("silence", "si")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, cast("si", ["m0a"]))
    assert outcomes(ev) == [("resolved", 1, "silence", None), ("resolved", 0, "fireball", None)]
    assert slots(g, 0, "fire") == {"total": 1, "used": 1}
    assert not find(g, 0, "spell", card="f0b")


def test_r12_5_resolved_spells_never_make_a_later_spell_fizzle():
    """R12.5 [decided, revision 2]: fire mage + Vampire (wild 1): fireball 1 takes the fire slot and
    resolves; fireball 2 takes the wild slot. The fire mage is destroyed in answer to fireball 2:
    current fire 0 + wild 1 covers the 1 wild slot fireball 2 holds (fireball 1 resolved and holds
    nothing), so fireball 2 resolves."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("vampire", "v0")],
                  [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("fireball", "f0"), ("fireball", "f0b")])
    ev = do(g, 0, cast("f0"))
    assert paid(ev) == {"element": 1, "wild": 0}
    do(g, 1, "pass")
    assert life(g, "t1") == 10 - 3
    ev = do(g, 0, cast("f0b"))
    assert paid(ev) == {"element": 0, "wild": 1}
    ev = do(g, 1, ability("z1", ["m0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("resolved", 0, "fireball", None)]
    assert life(g, "t1") == 10 - 3 - 3


def test_r12_5_wild_slots_cover_a_lost_element_slot():
    """R12.5 [decided, revision 2]: fire mage + Vampire, fireball paid with fire; the mage is
    destroyed in answer: current 0 fire + 1 wild covers the 1 slot the fireball holds, so it
    resolves -- and its fire shortfall is taken from the free wild slot, used from then on: no
    spell of any element can be paid now."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("vampire", "v0")],
                  [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("fireball", "f0"), ("fireball", "f0b"), ("arrow-rain", "ar")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, ability("z1", ["m0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("resolved", 0, "fireball", None)]
    assert life(g, "t1") == 10 - 3
    assert slots(g, 0, "wild") == {"total": 1, "used": 1}
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, cast("ar"))


def test_r12_5_fire_spell_with_intact_fire_slot_resolves_though_a_wild_slot_monster_died():
    """R12.5 [decided, revision 2]: Gale Arrow (wind) was paid from the Vampire's wild slot and has
    resolved; a fireball paid from the fire mage's slot is answered by destroying the Vampire: fire 1
    + wild 0 covers the fireball's 1 held slot (the resolved Gale Arrow holds nothing): it resolves."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("vampire", "v0")],
                  [("tank", "t1"), ("weak", "w1"), ("zapper", "z1")],
                  hand0=[("arrow-rain", "ar"), ("fireball", "f0")])
    ev = do(g, 0, cast("ar"))
    assert paid(ev) == {"element": 0, "wild": 1}
    do(g, 1, "pass")
    ev = do(g, 0, cast("f0"))
    assert paid(ev) == {"element": 1, "wild": 0}
    ev = do(g, 1, ability("z1", ["v0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("resolved", 0, "fireball", None)]
    assert ("t1", 3) in [(e["unit"], e["amount"]) for e in events_of(ev, "damage")]


def test_r12_5_unresolved_spells_hold_their_slots():
    """R12.5 [decided, revision 2]: each spell on the chain holds its slots. Gale Arrow (wind, paid
    wild) waits under a Funeral Pyre (fire, paid with the fire mage's slot); the mage is destroyed
    in answer: fire 0 + wild 1 is fewer than the pyre's 1 + the wild 1 held by the unresolved Gale
    Arrow, so the pyre fizzles; Gale Arrow then finds wind 0 + wild 1 for its 1 and resolves."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("vampire", "v0")],
                  [("tank", "t1"), ("weak", "w1"), ("guard", "g1"), ("zapper", "z1")],
                  hand0=[("arrow-rain", "ar"), ("funeral-pyre", "fp")])
    do(g, 0, cast("ar"))
    do(g, 1, ability("g1", ["t1"]))
    ev = do(g, 0, cast("fp"))
    assert paid(ev) == {"element": 1, "wild": 0}
    ev = do(g, 1, ability("z1", ["m0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("fizzled", 0, "funeral-pyre", "slots_gone"),
                            ("resolved", 1, "guard", None), ("resolved", 0, "arrow-rain", None)]


def test_r12_5_pool_shrinks_when_a_battle_grant_stops():
    """R12.5 with R12.3: Orc + Orc Shaman hold 1 + 1 + 1 (granted while 2 Orcs) earth; the Orc
    is destroyed in answer to earthquake: the grant stops too, 1 earth + 0 wild < 3 used, and the
    earthquake fizzles."""
    g, _ = battle([("orc", "o0"), ("orc-shaman", "os0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("zapper", "z1")], hand0=[("earthquake", "eq")])
    do(g, 0, cast("eq"))
    ev = do(g, 1, ability("z1", ["o0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("fizzled", 0, "earthquake", "slots_gone")]
    assert slots(g, 0, "earth") == {"total": 1, "used": 3}
    assert life(g, "t1") == 10


def test_r12_5_losing_slots_of_another_element_does_not_fizzle():
    """R12.5: only the spell's own element (and wild) count: losing an earth-slot monster does
    not stop a fire spell."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("earth-mage", "e0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("zapper", "z1")], hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, ability("z1", ["e0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("resolved", 0, "fireball", None)]
    assert life(g, "t1") == 10 - 3


def test_r12_5_fizzle_when_the_only_slot_monster_dies():
    """R12.5 / R11.7 (d): fire 0 + wild 0 < used 1: the fireball fizzles."""
    g, _ = battle([("tank", "t0"), ("fire-mage", "m0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("zapper", "z1")], hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, ability("z1", ["m0"]))
    assert outcomes(ev) == [("resolved", 1, "zapper", None), ("fizzled", 0, "fireball", "slots_gone")]
    assert life(g, "t1") == 10
    assert slots(g, 0, "fire") == {"total": 0, "used": 1}


# ---------------------------------------------------------------- R12.6

def test_r12_6_casting_does_not_make_the_slot_monster_act():
    """R12.6: the monster whose slot paid still takes part in the attack."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0")], [("tank", "t1"), ("guard", "g1")],
                  hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, "pass")     # player 0 can only attack now: it attacks by itself
    assert g.view()["battle"]["acted"] == ["m0", "t0"]
    assert events_of(ev, "declared")[0]["units"] == ["m0", "t0"]


def test_r12_6_slot_monster_may_still_use_its_ability():
    """R12.6: after its slot paid a spell, a monster may still declare its own ability."""
    g, _ = battle([("fire-bolter", "fb0"), ("tank", "t0")], [("tank", "t1"), ("guard", "g1")],
                  hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    do(g, 1, "pass")
    assert "fb0" not in g.view()["battle"]["acted"]
    assert find(g, 0, "ability", unit="fb0", targets=["t1"])
    do(g, 0, ability("fb0", ["t1"]))
    do(g, 1, "pass")
    assert life(g, "t1") == 10 - 3 - 2


# ---------------------------------------------------------------- R12.7

@pytest.mark.parametrize("wild_card, spell_card, target", [
    ("seraphim", "fireball", None), ("vampire", "arrow-rain", None),
    ("demon-monarch", "bolt", "t1"), ("sage-centaur", "fireball", None)])
def test_r12_7_wild_slots_pay_for_any_element(wild_card, spell_card, target):
    """R12.7: Seraphim, Vampire, Demon Monarch and Sage Centaur carry wild slots, which pay for
    a spell of an element the party has no slot of."""
    g, _ = battle([(wild_card, "x0"), ("tank", "t0")], [("tank", "t1"), ("weak", "w1"), ("guard", "g1")],
                  hand0=[(spell_card, "s0")])
    ev = do(g, 0, cast("s0", [target] if target else []))
    assert paid(ev) == {"element": 0, "wild": 1}
    assert slots(g, 0, "wild")["used"] == 1


def test_r12_7_wild_slots_mix_with_element_slots():
    """R12.7: wild mixes with element slots: war cry (fire 2) = 1 fire + 1 wild (Sage Centaur)."""
    g, _ = battle([("fire-mage", "m0"), ("sage-centaur", "sc")], [("tank", "t1")],
                  hand0=[("war-cry", "wc")])
    ev = do(g, 0, cast("wc"))
    assert paid(ev) == {"element": 1, "wild": 1}


def test_r12_7_wild_slots_never_pay_beyond_their_number():
    """R12.7 with R12.2: Demon Monarch's 2 wild slots (its dark slot does not pay earth) are
    short of earthquake's 3 earth."""
    g, _ = battle([("demon-monarch", "dm"), ("pinger", "pg0")], [("tank", "t1")],
                  hand0=[("earthquake", "eq")])
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, cast("eq"))


# ---------------------------------------------------------------- R12.8

def test_r12_8_front_one_damage_does_not_carry_over():
    """R12.8: fireball's 3 on a 2-life front destroys it; the excess 1 does not reach the next."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("weak", "w1"), ("tank", "t1"), ("guard", "g1")],
                  hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, "pass")
    dmg = [(e["unit"], e["amount"]) for e in events_of(ev, "damage")]
    assert dmg == [("w1", 3)]
    assert unit_view(g, "w1") is None
    assert life(g, "t1") == 10


def test_r12_8_rear_one_damage_does_not_carry_over():
    """R12.8: arrow rain's 2 on a 1-life rear destroys it; nothing goes on to the one before."""
    g, _ = battle([("wind-mage", "n0"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1"), ("frail", "f1")],
                  hand0=[("arrow-rain", "ar")])
    do(g, 0, cast("ar"))
    ev = do(g, 1, "pass")
    assert [(e["unit"], e["amount"]) for e in events_of(ev, "damage")] == [("f1", 2)]
    assert unit_view(g, "f1") is None
    assert life(g, "g1") == 5 and life(g, "t1") == 10


def test_r12_8_front_one_ability_damage_does_not_carry_over():
    """R12.8: "front one" damage from an ability does not carry over either (5 on a 2-life front)."""
    g, _ = battle([("smasher", "sm"), ("pinger", "pg0")], [("weak", "w1"), ("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("sm"))
    ev = do(g, 1, "pass")
    assert [(e["unit"], e["amount"]) for e in events_of(ev, "damage")] == [("w1", 5)]
    assert life(g, "t1") == 10


# ---------------------------------------------------------------- R12.9

def test_r12_9_a_spell_can_be_cancelled():
    """R12.9: a cancel answers the opponent's spell: the spell has no effect, its card is spent."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("weak", "w1"), ("water-mage", "wm1")],
                  hand0=[("fireball", "f0")], hand1=[("dispel", "dp")])
    do(g, 0, cast("f0"))
    assert find(g, 1, "spell", card="dp")
    ev = do(g, 1, cast("dp"))
    assert [(e["card"], e["index"]) for e in events_of(ev, "cancelled")] == [("fireball", 0)]
    assert outcomes(ev) == [("resolved", 1, "dispel", None), ("fizzled", 0, "fireball", "cancelled")]
    assert life(g, "w1") == 2
    assert "f0" in g.view()["players"][0]["discard_ids"]


def test_r12_9_attack_cannot_be_cancelled():
    """R12.9: a cancel card responds only to spells: not offered against an attack."""
    g, _ = battle([("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("water-mage", "wm1"), ("guard", "g1")],
                  hand1=[("dispel", "dp")])
    do(g, 0, {"type": "attack"})
    assert g.waiting_for() == {1}
    assert not find(g, 1, "spell")
    assert_illegal(g, 1, cast("dp"))


def test_r12_9_ability_cannot_be_cancelled():
    """R12.9: abilities cannot be cancelled: neither a cancel spell nor Seraphim's cancel ability
    is offered against one."""
    g, _ = battle([("bolter", "u0"), ("pinger", "pg0")],
                  [("light-mage", "lm1"), ("seraphim", "se1"), ("guard", "g1")],
                  hand1=[("mirror-ward", "mw")])
    do(g, 0, ability("u0", ["g1"]))
    assert g.waiting_for() == {1}
    assert not find(g, 1, "spell")
    assert not find(g, 1, "ability", unit="se1")
    assert_illegal(g, 1, cast("mw"))
    assert_illegal(g, 1, ability("se1"))


def test_r12_9_seraphim_cancels_a_spell():
    """R12.9: Seraphim's [Counter] cancel answers a spell."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("weak", "w1"), ("seraphim", "se1")],
                  hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, ability("se1"))
    assert outcomes(ev) == [("resolved", 1, "seraphim", None), ("fizzled", 0, "fireball", "cancelled")]
    assert life(g, "w1") == 2 + 1  # Seraphim's [Battle] +1 life to other allies


def test_r12_9_a_cancel_can_itself_be_cancelled():
    """R12.9: a cancel is a spell too: the caster of the first spell may cancel the cancel, and
    the first spell then works."""
    g, _ = battle([("fire-mage", "m0"), ("light-mage", "lm0"), ("pinger", "pg0")],
                  [("weak", "w1"), ("water-mage", "wm1")],
                  hand0=[("fireball", "f0"), ("mirror-ward", "mw")], hand1=[("dispel", "dp")])
    do(g, 0, cast("f0"))
    do(g, 1, cast("dp"))
    ev = do(g, 0, cast("mw"))
    assert outcomes(ev) == [("resolved", 0, "mirror-ward", None), ("fizzled", 1, "dispel", "cancelled"),
                            ("resolved", 0, "fireball", None)]
    assert unit_view(g, "w1") is None


# ---------------------------------------------------------------- R12.10

def test_r12_10_hexer_with_two_goblins_locks_both_sides():
    """R12.10: Goblin Hexer's party holds 2 Goblins: neither side may use spells, [Counter] ones
    included."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")],
                  [("goblin-hexer", "gh"), ("goblin-raider", "gr"), ("earth-mage", "e1"), ("guard", "g1")],
                  hand0=[("fireball", "f0")], hand1=[("stone-skin", "ss1")])
    assert g.view()["battle"]["spell_lock"] is True
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, cast("f0"))
    do(g, 0, ability("pg0"))
    assert g.waiting_for() == {1}
    assert find(g, 1, "ability", unit="g1")
    assert not find(g, 1, "spell")
    assert_illegal(g, 1, cast("ss1", ["gh"]))


def test_r12_10_hexer_with_one_goblin_does_not_lock():
    """R12.10: with only 1 Goblin (the Hexer) there is no lock; Orc and Orc Lord are not Goblins."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")],
                  [("goblin-hexer", "gh"), ("orc", "o1"), ("orc-lord", "ol1")],
                  hand0=[("fireball", "f0")])
    assert g.view()["battle"]["spell_lock"] is False
    assert find(g, 0, "spell", card="f0")


def test_r12_10_enemy_goblins_do_not_count():
    """R12.10: only Goblins of the Hexer's own party count: a Goblin on the other side does not
    make a second."""
    g, _ = battle([("fire-mage", "m0"), ("goblin-raider", "gr0")], [("goblin-hexer", "gh"), ("tank", "t1")],
                  hand0=[("fireball", "f0")])
    assert g.view()["battle"]["spell_lock"] is False
    assert find(g, 0, "spell", card="f0")


def test_r12_10_lock_lifts_when_a_goblin_falls():
    """R12.10: the lock holds while the party holds 2 Goblins: once one is destroyed, spells are
    allowed again in that battle."""
    g, _ = battle([("bolter", "u0"), ("fire-mage", "m0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("goblin-hexer", "gh"), ("goblin-raider", "gr"), ("guard", "g1")],
                  hand0=[("fireball", "f0")])
    assert not find(g, 0, "spell")
    do(g, 0, ability("u0", ["gr"]))
    do(g, 1, "pass")
    assert unit_view(g, "gr") is None
    assert g.view()["battle"]["spell_lock"] is False
    assert find(g, 0, "spell", card="f0")


# ---------------------------------------------------------------- R12.11

def test_r12_11_spellproof_may_be_targeted_and_takes_nothing():
    """R12.11: a Spellproof monster may be chosen as a spell's target; the spell does nothing
    to it."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("unicorn", "uc"), ("guard", "g1")],
                  hand0=[("bolt", "bt")])
    assert find(g, 0, "spell", card="bt", targets=["uc"])
    do(g, 0, cast("bt", ["uc"]))
    ev = do(g, 1, "pass")
    assert outcomes(ev) == [("resolved", 0, "bolt", None)]
    assert not events_of(ev, "damage")
    assert life(g, "uc") == 4


def test_r12_11_front_one_spell_on_spellproof_front_does_nothing_and_does_not_move_on():
    """R12.11: fireball at a Spellproof front does nothing, and does not hit the next one."""
    g, _ = battle([("fire-mage", "m0"), ("pinger", "pg0")], [("unicorn", "uc"), ("weak", "w1"), ("guard", "g1")],
                  hand0=[("fireball", "f0")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, "pass")
    assert not events_of(ev, "damage")
    assert life(g, "uc") == 4 and life(g, "w1") == 2


def test_r12_11_rear_one_spell_on_spellproof_rear_does_nothing_and_does_not_move_on():
    """R12.11: arrow rain at a Spellproof rear does nothing, and does not hit the one before."""
    g, _ = battle([("wind-mage", "n0"), ("pinger", "pg0")], [("guard", "g1"), ("weak", "w1"), ("unicorn", "uc")],
                  hand0=[("arrow-rain", "ar")])
    do(g, 0, cast("ar"))
    ev = do(g, 1, "pass")
    assert not events_of(ev, "damage")
    assert life(g, "uc") == 4 and life(g, "w1") == 2


def test_r12_11_spellproof_unaffected_by_allied_boost():
    """R12.11: allied boosts included: war cry gives +2 power to the others, not to the Unicorn."""
    g, _ = battle([("fire-mage2", "m0"), ("unicorn", "uc"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1")],
                  hand0=[("war-cry", "wc")])
    do(g, 0, cast("wc"))
    do(g, 1, "pass")
    assert unit_view(g, "uc")["power"] == 2
    assert unit_view(g, "m0")["power"] == 1 + 2
    assert unit_view(g, "pg0")["power"] == 1 + 2


def test_r12_11_spellproof_unaffected_by_own_targeted_counter_spell():
    """R12.11: the owner's own Stone Skin chosen on its Unicorn does nothing."""
    g, _ = battle([("bolter", "u0"), ("pinger", "pg0")], [("unicorn", "uc"), ("earth-mage", "e1")],
                  hand1=[("stone-skin", "ss1")])
    do(g, 0, ability("u0", ["uc"]))
    assert find(g, 1, "spell", card="ss1", targets=["uc"])
    ev = do(g, 1, cast("ss1", ["uc"]))
    assert not events_of(ev, "boosted")
    assert life(g, "uc") == 4 - 2


def test_r12_11_spellproof_unaffected_by_party_wide_spell():
    """R12.11: earthquake (1 to every enemy) hits the others, not the Unicorn."""
    g, _ = battle([("earth-mage3", "e0"), ("pinger", "pg0")], [("unicorn", "uc"), ("tank", "t1"), ("guard", "g1")],
                  hand0=[("earthquake", "eq")])
    do(g, 0, cast("eq"))
    ev = do(g, 1, "pass")
    assert sorted(e["unit"] for e in events_of(ev, "damage")) == ["g1", "t1"]
    assert life(g, "uc") == 4 and life(g, "t1") == 10 - 1


def test_r12_11_spellproof_not_returned_to_hand_by_a_spell():
    """R12.11: Whirlpool chosen on a Spellproof monster does nothing: it stays in the battle."""
    g, _ = battle([("water-mage", "wm0"), ("pinger", "pg0")], [("unicorn", "uc"), ("tank", "t1"), ("guard", "g1")],
                  hand0=[("whirlpool", "wp")])
    do(g, 0, cast("wp", ["uc"]))
    ev = do(g, 1, "pass")
    assert not events_of(ev, "returned")
    assert unit_view(g, "uc") is not None


def test_r12_11_abilities_affect_spellproof():
    """R12.11: abilities (not spells) affect a Spellproof monster: 2 damage, then 1 to the front."""
    g, _ = battle([("bolter", "u0"), ("pinger", "pg0"), ("pinger", "pg0b")],
                  [("unicorn", "uc"), ("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["uc"]))
    do(g, 1, "pass")
    do(g, 0, ability("pg0"))
    do(g, 1, "pass")
    assert life(g, "uc") == 4 - 2 - 1


# ---------------------------------------------------------------- R12.12

def test_r12_12_tribe_and_level_change_not_power_life_or_capacity():
    """R12.12: Goblinize makes the target a Goblin of level 2 - 1 = 1 for the battle; power and
    life stay, and the land's used capacity still counts the printed level."""
    g, _ = battle([("wind-mage", "n0"), ("pinger", "pg0")], [("mid", "x1"), ("tank", "t1"), ("guard", "g1")],
                  hand0=[("polymorph", "pm")])
    before = unit_view(g, "x1")
    used = g.view()["lands"]["L5"]["used"]
    do(g, 0, cast("pm", ["x1"]))
    ev = do(g, 1, "pass")
    assert [e["tribe"] for e in events_of(ev, "tribe_changed")] == ["Goblin"]
    assert [e["level"] for e in events_of(ev, "level_changed")] == [2 - 1]
    after = unit_view(g, "x1")
    assert (after["tribe"], after["level"]) == ("Goblin", 2 - 1)
    assert (after["power"], after["life"], after["max_life"]) == \
        (before["power"], before["life"], before["max_life"])
    assert g.view()["lands"]["L5"]["used"] == used == [1 + 1, 2 + 1 + 1]


def test_r12_12_lowered_level_matters_to_conditions():
    """R12.12: "level 2 or less": a level-3 monster is no target for Humble the Mighty until
    Goblinize lowers it to 2."""
    g, _ = battle([("wind-mage", "n0"), ("light-mage", "lm0"), ("pinger", "pg0")],
                  [("big", "x1"), ("tank", "t1"), ("guard", "g1")],
                  hand0=[("polymorph", "pm"), ("giant-slayer", "gs")])
    assert not find(g, 0, "spell", card="gs", targets=["x1"])
    assert_illegal(g, 0, cast("gs", ["x1"]))
    do(g, 0, cast("pm", ["x1"]))
    do(g, 1, "pass")
    assert find(g, 0, "spell", card="gs", targets=["x1"])
    do(g, 0, cast("gs", ["x1"]))
    do(g, 1, "pass")
    assert unit_view(g, "x1") is None


def test_r12_12_raised_level_matters_only_to_conditions():
    """R12.12 [decided]: a raised level (2 + 1 = 3) takes a monster out of "level 2 or less" and
    changes neither power nor life nor the used capacity."""
    g, _ = battle([("light-mage", "lm0"), ("bolter", "u0"), ("pinger", "pg0")],
                  [("mid", "x1"), ("tank", "t1"), ("dark-mage", "k1")],
                  hand0=[("giant-slayer", "gs")], hand1=[("grow", "gr")])
    assert find(g, 0, "spell", card="gs", targets=["x1"])
    before = unit_view(g, "x1")
    used = g.view()["lands"]["L5"]["used"]
    do(g, 0, ability("u0", ["t1"]))
    do(g, 1, cast("gr", ["x1"]))          # player 0 cannot answer: the chain resolves
    after = unit_view(g, "x1")
    assert after["level"] == 2 + 1
    assert (after["power"], after["life"]) == (before["power"], before["life"])
    assert g.view()["lands"]["L5"]["used"] == used
    assert not find(g, 0, "spell", card="gs", targets=["x1"])
    assert_illegal(g, 0, cast("gs", ["x1"]))


def test_r12_12_tribe_change_matters_to_conditions():
    """R12.12: Goblinize turns the Hexer's Orc companion into a Goblin: now 2 Goblins, and the
    Hexer's lock (R12.10) stops all spells."""
    g, _ = battle([("wind-mage", "n0"), ("fire-mage", "m0"), ("pinger", "pg0")],
                  [("goblin-hexer", "gh"), ("orc", "o1"), ("guard", "g1")],
                  hand0=[("polymorph", "pm"), ("fireball", "f0")])
    assert find(g, 0, "spell", card="f0")
    do(g, 0, cast("pm", ["o1"]))
    do(g, 1, "pass")
    assert unit_view(g, "o1")["tribe"] == "Goblin"
    assert g.view()["battle"]["spell_lock"] is True
    assert not find(g, 0, "spell")


def test_r12_12_changes_last_for_the_battle_only():
    """R12.12: the change lasts the whole battle (still there in the other side's window) and
    ends with it."""
    g, _ = battle([("wind-mage", "n0"), ("tank", "t0")], [("mid", "x1"), ("tank", "t1"), ("pinger", "pg1")],
                  hand0=[("polymorph", "pm")])
    do(g, 0, cast("pm", ["x1"]))      # player 1 cannot answer; then player 0 attacks by itself
    assert g.view()["battle"]["striker"] == 1
    assert (unit_view(g, "x1")["tribe"], unit_view(g, "x1")["level"]) == ("Goblin", 2 - 1)
    do(g, 1, {"type": "attack"})      # player 0 cannot answer: the battle ends
    assert g.view()["battle"] is None
    x1 = unit_view(g, "x1")
    assert (x1["tribe"], x1["level"]) == ("Soldier", 2)
