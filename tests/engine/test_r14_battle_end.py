"""R14: the end of a battle (end conditions, boosts and life reset, slots, life-boost arithmetic)."""

from tests.engine.helpers import card, do, events_of, find, scenario, unit, unit_view

# Board (helpers.LANDS): L3 road 6, L4 swamp 4, L5 road 6, L6 rearworld 8; bases 5.
CARDS = {
    "brute": card(power=5, life=5),
    "grunt": card(power=2, life=3),
    "wall": card(power=1, life=9),
    "weak": card(power=1, life=5),
    "glass": card(power=2, life=1),
    "pyro": card(power=2, life=5, slots={"fire": 1}),
    # R14.4's example: an 8/8 that gets +2 life while it defends.
    "eight": card(power=1, life=8, slots={"fire": 1},
                  abilities=[{"timing": "battle", "condition": {"role": "defender"},
                              "effects": [{"do": "boost", "to": "self", "life": 2}]}]),
    "rallier": card(power=1, life=4,
                    abilities=[{"timing": "normal",
                                "effects": [{"do": "boost", "to": "allies", "power": 2, "life": 2}]}]),
    "runner": card(power=6, life=6, slots={"fire": 1}, keywords=["double_march"]),
    "tidal": card(power=1, life=9, slots={"water": 2}),
}


def p0_with(*units, hand=(), deck=()):
    return {"units": [unit("orc", "H0", "a0", leader=True)] + list(units),
            "hand": list(hand), "deck": list(deck)}


def p1_with(*units, hand=(), deck=()):
    return {"units": [unit("orc", "H1", "b0", leader=True)] + list(units),
            "hand": list(hand), "deck": list(deck)}


def march(g, units, to):
    return do(g, 0, {"type": "march", "units": units, "to": to})


# ------------------------------------------------------------------ R14.1 end conditions

def test_r14_1_defenders_wiped_by_first_attack_succeeds_and_ends_at_once():
    """R14.1: the battle ends when a party is wiped out; defenders all destroyed + an attacker
    survives = success (the second striker never attacks)."""
    g = scenario(p0_with(unit("brute", "L3", "x")), p1_with(unit("grunt", "L5", "d")),
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    attacks = events_of(ev, "attack")
    assert [a["player"] for a in attacks] == [0]          # p1 never got to attack
    assert attacks[0]["power"] == 5                        # 5 damage against 3 life
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is True
    assert unit_view(g, "x")["land"] == "L5"
    assert g.view(0)["lands"]["L5"]["owner"] == 0
    assert g.state.battle is None and g.view(0)["phase"] == "main"


def test_r14_1_r8_8_last_defender_returned_to_hand_wipes_the_party_out_and_succeeds():
    """R14.1/R8.8 (revision 3: success means the defending party is wiped out, 全滅): Whirlpool returns
    g, the only defender, to its owner's hand. Nothing was destroyed, but no defender is left in the
    battle: the battle ends there, x moves onto L5 and takes it."""
    g = scenario(p0_with(unit("tidal", "L3", "x"), hand=["whirlpool"]), p1_with(unit("grunt", "L5", "g")),
                 cards=CARDS, dice=[6, 1])
    march(g, ["x"], "L5")
    assert g.waiting_for() == {0} and g.view(0)["battle"]["parties"]["1"] == ["g"]
    whirlpool = g.view(0)["players"][0]["hand"][0]["id"]
    ev = do(g, 0, {"type": "spell", "card": whirlpool, "targets": ["g"]})
    assert [(e["unit"], e["to"]) for e in events_of(ev, "returned")] == [("g", "hand")]
    assert not events_of(ev, "destroyed") and not events_of(ev, "attack")   # the battle ended at once
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is True and end["returned"] == []
    assert events_of(ev, "land_taken") == [{"type": "land_taken", "player": 0, "land": "L5"}]
    assert unit_view(g, "x")["land"] == "L5" and g.view(0)["lands"]["L5"]["owner"] == 0
    assert [c["id"] for c in g.view(1)["players"][1]["hand"]] == ["g"]
    assert g.state.battle is None and g.view(0)["phase"] == "main"


def test_r14_1_both_attacks_done_with_defenders_left_is_a_failure():
    """R14.1: both attacks done and a defender still standing: the attack fails and the
    surviving attacker returns to its origin."""
    g = scenario(p0_with(unit("weak", "L3", "x")), p1_with(unit("wall", "L5", "d")),
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    assert [a["player"] for a in events_of(ev, "attack")] == [0, 1]
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False
    assert end["returned"] == [{"unit": "x", "land": "L3"}]
    assert unit_view(g, "x")["land"] == "L3"
    assert unit_view(g, "d")["land"] == "L5"
    assert g.view(0)["lands"]["L5"]["owner"] == 1


def test_r14_1_attackers_wiped_by_the_first_striker_is_a_failure():
    """R14.1: the defender strikes first and wipes out the attackers: the battle ends, failure,
    and the land stays the defender's."""
    g = scenario(p0_with(unit("glass", "L3", "x")), p1_with(unit("grunt", "L5", "d")),
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["x"], "L5")
    assert [a["player"] for a in events_of(ev, "attack")] == [1]   # the attacker never attacks
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert unit_view(g, "x") is None
    assert "x" in g.view(0)["players"][0]["discard_ids"]
    assert g.view(0)["lands"]["L5"]["owner"] == 1


def test_r14_1_defenders_wiped_by_the_second_attack_succeeds():
    """R14.1: defender strikes first without wiping the attackers; the attacker's attack then
    destroys every defender: success."""
    g = scenario(p0_with(unit("brute", "L3", "x")), p1_with(unit("grunt", "L5", "d")),
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["x"], "L5")
    assert [a["player"] for a in events_of(ev, "attack")] == [1, 0]
    assert unit_view(g, "x")["land"] == "L5"
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert g.view(0)["lands"]["L5"]["owner"] == 0


def test_r14_1_mutual_wipe_out_in_simultaneous_attack_leaves_land_to_defender():
    """R14.1/R4.5: a simultaneous attack that wipes out both parties is a failure; the land
    stays the defender's."""
    g = scenario(p0_with(unit("glass", "L3", "x")), p1_with(unit("glass", "L5", "d")),
                 cards=CARDS, dice=[3, 3])
    ev = march(g, ["x"], "L5")
    assert events_of(ev, "initiative")[0]["first"] is None
    destroyed = {e["unit"] for e in events_of(ev, "destroyed")}
    assert destroyed == {"x", "d"}                         # 2 power against 1 life, both ways
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False and end["returned"] == []
    view = g.view(0)
    assert view["lands"]["L5"]["owner"] == 1
    assert not [u for u in view["units"] if u["land"] == "L5"]


def test_r14_1_mutual_wipe_out_by_on_destroy_leaves_land_to_defender():
    """R14.1: the last defender falls, but its [On destroy] kills the last attacker: nobody
    survives, so the attack fails and the land stays the defender's."""
    g = scenario(p0_with(unit("glass", "L3", "x")), p1_with(unit("imp", "L5", "d")),
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["d", "x"]   # imp: 1 damage to x (1 life)
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert g.view(0)["lands"]["L5"]["owner"] == 1


# ------------------------------------------------------------------ R14.2 boosts end, full life

def test_r14_2_survivors_of_both_sides_back_to_full_life():
    """R14.2: every surviving monster of both sides goes back to full life after the battle."""
    g = scenario(p0_with(unit("weak", "L3", "x")), p1_with(unit("wall", "L5", "d")),
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    dmg = {e["unit"]: e["life"] for e in events_of(ev, "damage")}
    assert dmg == {"d": 9 - 1, "x": 5 - 1}                 # both took damage during the battle
    assert unit_view(g, "x")["life"] == unit_view(g, "x")["max_life"] == 5
    assert unit_view(g, "d")["life"] == unit_view(g, "d")["max_life"] == 9


def test_r14_2_temporary_boosts_from_abilities_end_with_the_battle():
    """R14.2: boosts from a [Normal] ability (+2 power, +2 life to allies) last for the battle only."""
    g = scenario(p0_with(unit("rallier", "L3", "r"), unit("weak", "L3", "x")),
                 p1_with(unit("wall", "L5", "d")), cards=CARDS, dice=[6, 1])
    march(g, ["r", "x"], "L5")
    if g.state.battle.step == "formation":
        do(g, 0, {"type": "formation", "order": ["x", "r"]})
    assert unit_view(g, "x")["power"] == 1
    ev = do(g, 0, {"type": "ability", "unit": "r", "targets": []})
    boosted = {e["unit"]: (e["power"], e["life"]) for e in events_of(ev, "boosted")}
    assert boosted == {"x": (2, 2), "r": (2, 2)}
    assert events_of(ev, "attack")[0]["power"] == 1 + 2     # only x attacks (r acted), boosted
    assert events_of(ev, "damage")[-1] == {"type": "damage", "unit": "x", "amount": 1,
                                           "life": 5 + 2 - 1, "carry": 0}
    assert g.state.battle is None                           # both attacks done
    x = unit_view(g, "x")
    assert (x["power"], x["life"], x["max_life"]) == (1, 5, 5)
    r = unit_view(g, "r")
    assert (r["power"], r["life"], r["max_life"]) == (1, 4, 4)


def test_r14_2_battle_ability_boosts_end_and_destroyed_stay_destroyed():
    """R14.2: [Battle] boosts (Orc Lord's +1 power to Orcs) are gone after the battle; a
    destroyed monster stays in the discard pile."""
    g = scenario(p0_with(unit("orc-lord", "L3", "lord"), unit("orc", "L3", "o")),
                 p1_with(unit("grunt", "L5", "d")), cards=CARDS, dice=[6, 1])
    ev = march(g, ["lord", "o"], "L5")
    if g.state.battle is not None and g.state.battle.step == "formation":
        ev += do(g, 0, {"type": "formation", "order": ["o", "lord"]})
    assert events_of(ev, "attack")[0]["power"] == 3 + (2 + 1)
    assert unit_view(g, "o")["power"] == 2                  # Orc back to printed power
    assert unit_view(g, "d") is None
    assert "d" in g.view(0)["players"][1]["discard_ids"]


# ------------------------------------------------------------------ R14.3 slots come back

def test_r14_3_spell_slots_come_back_for_the_next_battle():
    """R14.3: slots used in one battle are all back in the next (a Double March unit fights
    twice in a turn, casting a 1-mana Fireball from its single fire slot each time)."""
    g = scenario(p0_with(unit("runner", "L3", "x"), hand=["fireball", "fireball"]),
                 p1_with(unit("wall", "L4", "d1"), unit("wall", "L6", "d2")),
                 cards=CARDS, dice=[6, 1, 6, 1])
    march(g, ["x"], "L4")
    assert g.view(0)["battle"]["slots"]["0"]["fire"] == {"total": 1, "used": 0}
    ev = do(g, 0, find(g, 0, "spell")[0])
    assert events_of(ev, "declared")[0]["paid"] == {"element": 1, "wild": 0}
    # with its only fire slot spent, x could only attack: 3 (Fireball) + 6 = 9 kills the wall
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert unit_view(g, "x")["land"] == "L4"
    march(g, ["x"], "L6")                                   # second march, second battle
    assert g.view(0)["battle"]["slots"]["0"]["fire"] == {"total": 1, "used": 0}
    assert find(g, 0, "spell")


def test_r14_3_slots_of_a_cancelled_spell_come_back_after_the_battle():
    """R14.3 with R12.4: a slot spent on a cancelled spell stays spent for that battle only."""
    cards = dict(CARDS, seer=card(power=1, life=9, slots={"water": 2}))
    g = scenario(p0_with(unit("runner", "L3", "x"), hand=["fireball", "fireball"]),
                 p1_with(unit("seer", "L4", "d1"), unit("wall", "L6", "d2"), hand=["dispel"]),
                 cards=cards, dice=[6, 1, 6, 1])
    march(g, ["x"], "L4")
    do(g, 0, find(g, 0, "spell")[0])
    ev = do(g, 1, find(g, 1, "spell")[0])                  # Dispel cancels the Fireball
    assert events_of(ev, "cancelled")
    # the slot stayed used: no second Fireball was possible, x attacked at once (6 < 9 life)
    assert [e["kind"] for e in events_of(ev, "declared") if e["player"] == 0] == ["attack"]
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert unit_view(g, "x")["land"] == "L3"                # failed; back to L3
    march(g, ["x"], "L6")                                   # its second march (R8.2)
    assert g.view(0)["battle"]["slots"]["0"]["fire"] == {"total": 1, "used": 0}
    assert find(g, 0, "spell")


# ------------------------------------------------------------------ R14.4 life-boost arithmetic

def test_r14_4_life_boost_8_plus_2_then_4_damage_then_back_to_8():
    """R14.4: 8/8 +2 -> 10/10; 4 damage -> 6/10; after the battle, alive, 8/8."""
    g = scenario(p0_with(unit("pyro", "L3", "x"), hand=["fireball"]),
                 p1_with(unit("eight", "L5", "d"), hand=["fireball"]),
                 cards=dict(CARDS, pyro=card(power=4, life=5, slots={"fire": 1})), dice=[6, 1])
    march(g, ["x"], "L5")
    d = unit_view(g, "d")
    assert (d["life"], d["max_life"]) == (8 + 2, 8 + 2)
    do(g, 0, "attack")
    d = unit_view(g, "d")
    assert (d["life"], d["max_life"]) == (10 - 4, 10)
    do(g, 1, "attack")
    assert g.state.battle is None
    d = unit_view(g, "d")
    assert (d["life"], d["max_life"]) == (8, 8)
