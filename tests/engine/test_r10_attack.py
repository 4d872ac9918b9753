"""R10: attack and damage — acting once, participants, power, front-first damage with carry-over,
destruction, responses to the attack, going on without attacking, the simultaneous attack, Ghoul.

Board (helpers.LANDS): L1 road 6, L3 road 6. Player 0 attacks from L1 into L3. Forced dice are the
attacker's die first, then the defender's.
"""


from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view


def ability(timing, *effects, **extra):
    a = {"timing": timing, "effects": list(effects)}
    a.update(extra)
    return a


# Scenario cards. Vanilla: level 1, power 2, speed 0, life 3, rarity C.
CARDS = {
    "va": card(),
    "vu": card(rarity="U"),
    "p3": card(power=3),
    "p4": card(power=4),
    "p5": card(power=5),
    "p10": card(power=10),
    "tough": card(life=5),
    "wall": card(power=0, life=20),
    "pump": card(abilities=[ability("normal", {"do": "boost", "to": "self", "power": 1})]),
    "bigpump": card(life=20, abilities=[ability("normal", {"do": "boost", "to": "self", "power": 1})]),
    "pumpfire": card(slots={"fire": 1},
                     abilities=[ability("normal", {"do": "boost", "to": "self", "power": 1})]),
    "firey": card(slots={"fire": 1}),
    "zap": card(abilities=[ability("normal", {"do": "damage", "to": "enemy_front", "amount": 2})]),
    "sap": card(abilities=[ability("normal", {"do": "boost", "to": "chosen", "life": -3},
                                   target={"side": "enemy"})]),
    "guard": card(abilities=[ability("counter", {"do": "damage", "to": "enemy_front", "amount": 3})]),
    "guard-atk": card(abilities=[ability("counter", {"do": "damage", "to": "enemy_front", "amount": 3},
                                         respond_to="attack")]),
    "weaken": card(abilities=[ability("counter", {"do": "boost", "to": "enemies", "power": -1},
                                      respond_to="attack")]),
    "curse": card(abilities=[ability("battle", {"do": "boost", "to": "enemies", "power": -5})]),
    "rage": card(abilities=[ability("battle", {"do": "boost", "to": "self", "power": 3})]),
    "bulwark": card(abilities=[ability("battle", {"do": "boost", "to": "self", "life": 3})]),
    "dark-bolt": {"kind": "spell", "name": {"en": "Bolt", "ja": "ボルト"}, "element": "dark", "mana": 1,
                  "timing": "normal", "rarity": "C",
                  "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]},
    "qa": card(quick=True, power=1, life=2),
    "banner": card(abilities=[ability("battle", {"do": "boost", "to": "allies", "life": 2})]),
    "earthy": card(element="earth", slots={"earth": 1}, life=10),
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


def game(att, dfn, hand0=(), hand1=(), dice=(6, 1), **top):
    return scenario({"units": [LEAD0] + list(att), "hand": list(hand0)},
                    {"units": [LEAD1] + list(dfn), "hand": list(hand1)},
                    cards=CARDS, dice=list(dice), **top)


def march(g, ids, to="L3", player=0):
    return do(g, player, {"type": "march", "units": list(ids), "to": to})


def form(g, p, order):
    return do(g, p, {"type": "formation", "order": list(order)})


def use(g, p, uid, targets=()):
    return do(g, p, {"type": "ability", "unit": uid, "targets": list(targets)})


def bview(g, player=0):
    return g.view(player)["battle"]


def types(events):
    return [e["type"] for e in events]


def attacks(events, player=None):
    return [e for e in events_of(events, "attack") if player is None or e["player"] == player]


def damage(events):
    return [(e["unit"], e["amount"], e["life"]) for e in events_of(events, "damage")]


def destroyed(events):
    return [e["unit"] for e in events_of(events, "destroyed")]


# ---------------------------------------------------------------------------------------- R10.0

def test_r10_0_ability_user_cannot_use_it_again():
    """R10.0: a monster that declared its ability has acted: it may not declare again this battle."""
    g = game([U("a1", "pump"), U("a2", "zap")], [U("b1", "wall")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    use(g, 0, "a1")
    assert g.waiting_for() == {0}
    assert not find(g, 0, "ability", unit="a1")
    assert find(g, 0, "ability", unit="a2")
    assert bview(g)["acted"] == ["a1"]
    assert_illegal(g, 0, {"type": "ability", "unit": "a1", "targets": []})


def test_r10_0_attackers_have_acted():
    """R10.0: taking part in the attack is the unit's action: after the attack all participants
    are in the battle's 'acted' set."""
    g = game([U("a1", "va"), U("a2", "vu")], [U("b1", "bigpump")], dice=(6, 1))
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    assert g.waiting_for() == {1}  # a1 + a2 attacked by themselves; b1 may use its ability
    assert bview(g)["acted"] == ["a1", "a2"]


def test_r10_0_acted_clears_when_the_battle_ends():
    """R10.0: 'acted' is a battle state: b1 used its ability defending L3; in the next battle (its own
    attack, next turn) it may declare it again."""
    g = game([U("a1", "va")], [U("b1", "bigpump")], dice=(6, 1, 6, 1))
    march(g, ["a1"])  # a1 attacks 2 into b1 (life 20); then b1's window
    assert g.waiting_for() == {1}
    ev = use(g, 1, "b1")  # acted; nothing left to attack with: the battle ends
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert g.view(0)["battle"] is None
    do(g, 0, "end_turn")
    march(g, ["b1"], to="L1", player=1)
    assert bview(g)["acted"] == []
    assert g.waiting_for() == {1}
    assert find(g, 1, "ability", unit="b1")


# ---------------------------------------------------------------------------------------- R10.1

def test_r10_1_all_non_acted_members_take_part():
    """R10.1: everyone not yet acted attacks: a1 used its ability, so a2 + a3 attack with 2 + 2 = 4."""
    g = game([U("a1", "zap"), U("a2", "va"), U("a3", "vu")], [U("b1", "wall")])
    march(g, ["a1", "a2", "a3"])
    form(g, 0, ["a1", "a2", "a3"])
    ev = use(g, 0, "a1")  # then only 'attack' is left: it is taken by itself
    decl = [e for e in events_of(ev, "declared") if e["kind"] == "attack"]
    assert decl[0]["units"] == ["a2", "a3"]
    att = attacks(ev, 0)[0]
    assert att["units"] == ["a2", "a3"] and att["power"] == 2 + 2


def test_r10_1_whole_party_attacks_when_nobody_acted():
    """R10.1: with no ability used, the whole party attacks: 2 + 3 + 4 = 9."""
    g = game([U("a1", "va"), U("a2", "p3"), U("a3", "p4")], [U("b1", "wall")])
    march(g, ["a1", "a2", "a3"])
    ev = form(g, 0, ["a1", "a2", "a3"])
    att = attacks(ev, 0)[0]
    assert sorted(att["units"]) == ["a1", "a2", "a3"] and att["power"] == 2 + 3 + 4


def test_r10_1_quick_summoned_units_take_part():
    """R10.1 / R9.2: a quick summoned unit is a party member and attacks: 1 + 2 = 3."""
    g = game([U("a1", "va")], [U("b1", "wall")], hand0=[H("h1", "qa")])
    march(g, ["a1"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    ev = form(g, 0, ["h1", "a1"])
    att = attacks(ev, 0)[0]
    assert att["units"] == ["h1", "a1"] and att["power"] == 1 + 2


# ---------------------------------------------------------------------------------------- R10.2

def test_r10_2_participant_destroyed_before_resolution_adds_no_power():
    """R10.2: b1 answers the attack by dealing 3 to the front (a1, life 3): a1 falls before the
    attack resolves, which then has a2's power only: 3."""
    g = game([U("a1", "va"), U("a2", "p3")], [U("b1", "guard-atk"), U("b2", "wall")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    form(g, 1, ["b1", "b2"])
    assert g.waiting_for() == {1}  # the attack waits for the answer
    ev = use(g, 1, "b1")
    assert "a1" in destroyed(ev)
    att = attacks(ev, 0)[0]
    assert att["units"] == ["a2"] and att["power"] == 3


def test_r10_2_power_is_read_at_resolution():
    """R10.2: a response lowering the attackers' power by 1 each counts: (2 - 1) + (3 - 1) = 3."""
    g = game([U("a1", "va"), U("a2", "p3")], [U("b1", "weaken"), U("b2", "wall")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    form(g, 1, ["b2", "b1"])
    ev = use(g, 1, "b1")
    assert attacks(ev, 0)[0]["power"] == (2 - 1) + (3 - 1)
    assert damage(ev)[0] == ("b2", 3, 20 - 3)


def test_r10_2_attack_power_never_below_zero():
    """R10.2 [decided]: 2 - 5 = -3 is floored to an attack of 0; the defender takes nothing."""
    g = game([U("a1", "va")], [U("b1", "curse")], dice=(6, 1))
    ev = march(g, ["a1"])
    mine = attacks(ev, 0)[0]
    assert mine["power"] == 0
    assert all(e["unit"] != "b1" for e in events_of(ev, "damage"))


def test_r10_2_sucking_mire_against_a_zero_power_attacker():
    """R10.2 [decided, revision 2]: Sucking Mire (enemies' power -1) answers an attack by wall
    (power 0) and va (power 2): wall's -1 adds 0, va adds 1: the attack is 1, not 0."""
    g = game([U("a1", "wall"), U("a2", "va")], [U("b1", "earthy")], hand1=[H("m1", "mire")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    assert g.waiting_for() == {1}
    assert find(g, 1, "spell", card="m1")
    ev = do(g, 1, {"type": "spell", "card": "m1", "targets": []})
    powers = {e["unit"]: e["power"] for e in events_of(ev, "boosted")}
    assert powers == {"a1": -1, "a2": -1}
    mine = attacks(ev, 0)[0]
    assert mine["units"] == ["a1", "a2"] and mine["power"] == 0 + (2 - 1)
    assert damage(ev)[0] == ("b1", 1, 10 - 1)


def test_r10_2_a_participant_below_zero_never_lowers_its_partys_attack():
    """R10.2 [decided, revision 2]: curse (-5 to every enemy) leaves p10 at 5 and va at -3: the
    attack is 5 + 0 = 5, not 5 - 3 = 2."""
    g = game([U("a1", "p10"), U("a2", "va")], [U("b1", "curse"), U("b2", "wall")], dice=(6, 1))
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    ev = form(g, 1, ["b2", "b1"])
    assert attacks(ev, 0)[0]["power"] == (10 - 5) + 0


# ---------------------------------------------------------------------------------------- R10.3

def test_r10_3_damage_carries_over_to_the_next():
    """R10.3: attack 5 into [b1 (3), b2 (3)]: b1 takes 3 (destroyed), 5 - 3 = 2 carries to b2: 3 - 2 = 1."""
    g = game([U("a1", "p5")], [U("b1", "va"), U("b2", "vu")], dice=(6, 1))
    march(g, ["a1"])
    ev = form(g, 1, ["b1", "b2"])
    first = [e for e in events_of(ev, "damage") if e["unit"] in ("b1", "b2")]
    assert [(e["unit"], e["amount"], e["life"], e["carry"]) for e in first] == \
        [("b1", 3, 0, 5 - 3), ("b2", 2, 3 - 2, 0)]
    assert destroyed(ev)[0] == "b1"
    assert "b2" not in destroyed(ev)


def test_r10_3_excess_past_the_last_is_lost():
    """R10.3: attack 10 into [3, 3]: both destroyed, 10 - 3 - 3 = 4 left over, no more damage."""
    g = game([U("a1", "p10")], [U("b1", "va"), U("b2", "vu")], dice=(6, 1))
    march(g, ["a1"])
    ev = form(g, 1, ["b1", "b2"])
    assert [(e["unit"], e["amount"], e["carry"]) for e in events_of(ev, "damage")] == \
        [("b1", 3, 10 - 3), ("b2", 3, 10 - 3 - 3)]
    assert sorted(destroyed(ev)) == ["b1", "b2"]
    assert events_of(ev, "battle_ended")[0]["success"] is True


def test_r10_3_remaining_life_counts():
    """R10.3: 'remaining life': b1 already took 2 (3 - 2 = 1 left); attack 2 + 2 = 4 deals 1 to b1
    and carries 4 - 1 = 3 to b2 (life 5): 5 - 3 = 2."""
    g = game([U("a1", "zap"), U("a2", "va"), U("a3", "vu")], [U("b1", "va"), U("b2", "tough")])
    march(g, ["a1", "a2", "a3"])
    form(g, 0, ["a1", "a2", "a3"])
    form(g, 1, ["b1", "b2"])
    ev = use(g, 0, "a1")
    assert damage(ev)[:3] == [("b1", 2, 3 - 2), ("b1", 1, 0), ("b2", 4 - 1, 5 - 3)]


# ---------------------------------------------------------------------------------------- R10.4

def test_r10_4_destroyed_at_zero_life():
    """R10.4: attack 3 into life 3: 3 - 3 = 0, destroyed, to the discard pile."""
    g = game([U("a1", "p3")], [U("b1", "va")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert damage(ev)[0] == ("b1", 3, 3 - 3)
    assert "b1" in destroyed(ev)
    assert "b1" in g.view(0)["players"][1]["discard_ids"]
    assert unit_view(g, "b1") is None


def test_r10_4_survives_above_zero():
    """R10.4: attack 2 into life 3 leaves 3 - 2 = 1: not destroyed."""
    g = game([U("a1", "va")], [U("b1", "va")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert damage(ev)[0] == ("b1", 2, 3 - 2)
    assert "b1" not in destroyed(ev)
    assert unit_view(g, "b1")["land"] == "L3"


def test_r10_4_life_lowered_to_zero_destroys():
    """R10.4: a life boost of -3 on a life-3 unit leaves 3 - 3 = 0: destroyed at once."""
    g = game([U("a1", "sap"), U("a2", "wall")], [U("b1", "va"), U("b2", "wall")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a2", "a1"])
    form(g, 1, ["b2", "b1"])
    ev = use(g, 0, "a1", ["b1"])
    i = types(ev).index("destroyed")
    assert ev[i]["unit"] == "b1"
    assert i < types(ev).index("attack")


# ---------------------------------------------------------------------------------------- R10.5

def test_r10_5_ability_user_does_not_attack():
    """R10.5: a1 boosted itself (+1) with its ability, so it does not attack: the attack is a2's 2."""
    g = game([U("a1", "pump"), U("a2", "vu")], [U("b1", "wall")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    ev = use(g, 0, "a1")
    att = attacks(ev, 0)[0]
    assert att["units"] == ["a2"] and att["power"] == 2


def test_r10_5_counter_user_does_not_attack():
    """R10.5: b1 answered player 0's attack with its [Counter] ability, so in its own side's attack
    only b2 takes part: power 3, not 3 + 2."""
    g = game([U("a1", "va"), U("a2", "wall")], [U("b1", "guard"), U("b2", "p3")])
    march(g, ["a1", "a2"])
    form(g, 0, ["a2", "a1"])
    form(g, 1, ["b2", "b1"])
    ev = use(g, 1, "b1")
    theirs = attacks(ev, 1)[0]
    assert theirs["units"] == ["b2"] and theirs["power"] == 3


def test_r10_5_lone_ability_user_leaves_nobody_to_attack():
    """R10.5 / R10.7: the lone a1 used its ability: player 0 goes on without attacking."""
    g = game([U("a1", "pump")], [U("b1", "va")], dice=(6, 1))
    march(g, ["a1"])
    ev = use(g, 0, "a1")
    assert not attacks(ev, 0)
    assert [e["player"] for e in events_of(ev, "no_attack")][:1] == [0]


# ---------------------------------------------------------------------------------------- R10.6

def test_r10_6_attack_waits_for_the_opponents_answer():
    """R10.6: the attack is a declaration: the defender, holding a [Counter], is asked; nothing is
    dealt yet."""
    g = game([U("a1", "va")], [U("b1", "guard")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert [e["kind"] for e in events_of(ev, "declared")] == ["attack"]
    assert not events_of(ev, "attack") and not events_of(ev, "damage")
    assert g.waiting_for() == {1}
    assert [d["kind"] for d in bview(g)["chain"]] == ["attack"]
    assert {a["type"] for a in g.legal_actions(1)} == {"ability", "pass", "resign"}


def test_r10_6_attack_resolves_when_passed():
    """R10.6: letting the attack through resolves it at once: 2 to b1, 3 - 2 = 1."""
    g = game([U("a1", "va")], [U("b1", "guard")], dice=(6, 1))
    march(g, ["a1"])
    ev = do(g, 1, "pass")
    t = types(ev)
    assert t.index("passed") < t.index("attack") < t.index("damage")
    assert damage(ev)[0] == ("b1", 2, 3 - 2)


def test_r10_6_answer_resolves_before_the_attack():
    """R10.6 / R11.4: the answer resolves first (newest first), then the attack."""
    g = game([U("a1", "va"), U("a2", "tough")], [U("b1", "guard")], dice=(6, 1))
    march(g, ["a1", "a2"])
    form(g, 0, ["a2", "a1"])
    ev = use(g, 1, "b1")
    t = types(ev)
    assert t.index("resolved") < t.index("attack")
    assert damage(ev)[0] == ("a2", 3, 5 - 3)
    assert attacks(ev, 0)[0]["power"] == 2 + 2


def test_r10_6_attacker_does_not_answer_own_attack():
    """R10.6 / R11.2: after declaring the attack, its own side is not asked."""
    g = game([U("a1", "va")], [U("b1", "guard")], dice=(6, 1))
    march(g, ["a1"])
    assert_illegal(g, 0, {"type": "pass"})
    assert_illegal(g, 0, {"type": "attack"})


def test_r10_6_no_possible_answer_resolves_at_once():
    """R10.6 / R10.7: a defender without any answer lets the attack through by itself."""
    g = game([U("a1", "pump")], [U("b1", "va")], dice=(6, 1))
    march(g, ["a1"])
    ev = do(g, 0, "attack")
    assert [(e["type"], e.get("player")) for e in ev[:3]] == [("declared", 0), ("passed", 1), ("attack", 0)]


# ---------------------------------------------------------------------------------------- R10.7

def test_r10_7_go_on_without_attacking():
    """R10.7: the lone a1 used its ability; with a spell still possible, player 0 is asked and may
    go on without attacking ('pass'); then it is player 1's part."""
    g = game([U("a1", "pumpfire")], [U("b1", "pump")], hand0=[H("s1", "fireball")], dice=(6, 1))
    march(g, ["a1"])
    use(g, 0, "a1")
    assert g.waiting_for() == {0}
    kinds = {a["type"] for a in g.legal_actions(0)}
    assert kinds == {"spell", "pass", "resign"}
    ev = do(g, 0, "pass")
    assert [(e["type"], e["player"]) for e in events_of(ev, "no_attack")] == [("no_attack", 0)]
    assert g.waiting_for() == {1}
    assert bview(g)["striker"] == 1


def test_r10_7_attack_illegal_when_nobody_can_attack():
    """R10.7: with every member acted, 'attack' is not accepted."""
    g = game([U("a1", "pumpfire")], [U("b1", "pump")], hand0=[H("s1", "fireball")], dice=(6, 1))
    march(g, ["a1"])
    use(g, 0, "a1")
    assert_illegal(g, 0, {"type": "attack"})


def test_r10_7_battle_runs_by_itself_without_choices():
    """R10.7: with no choice anywhere, the whole battle runs inside the march."""
    g = game([U("a1", "va")], [U("b1", "va")], dice=(6, 1))
    ev = march(g, ["a1"])
    seq = [(e["type"], e.get("player")) for e in ev
           if e["type"] in ("initiative", "declared", "passed", "attack", "battle_ended")]
    assert seq == [("initiative", None), ("declared", 0), ("passed", 1), ("attack", 0),
                   ("declared", 1), ("passed", 0), ("attack", 1), ("battle_ended", None)]
    assert g.view(0)["battle"] is None and g.waiting_for() == {0}


def test_r10_7_only_attack_is_taken_by_itself():
    """R10.7: a window whose only choice is 'attack' attacks by itself; the game then waits for the
    next real choice (player 1's ability)."""
    g = game([U("a1", "va")], [U("b1", "bigpump")], dice=(6, 1))
    ev = march(g, ["a1"])
    assert attacks(ev, 0)
    assert g.waiting_for() == {1}
    assert bview(g)["striker"] == 1


# ---------------------------------------------------------------------------------------- R10.8

def test_r10_8_no_window_after_own_attack():
    """R10.8: once player 0's attack has resolved its part is over: its [Normal] spell is no longer
    offered, and the battle ends after player 1's attack."""
    g = game([U("a1", "firey")], [U("b1", "bigpump")], hand0=[H("s1", "fireball")], dice=(6, 1))
    march(g, ["a1"])
    assert find(g, 0, "spell")
    do(g, 0, "attack")
    assert g.waiting_for() == {1}
    assert [a["type"] for a in g.legal_actions(0)] == ["resign"]
    assert_illegal(g, 0, {"type": "spell", "card": "s1", "targets": []})
    ev = do(g, 1, "attack")
    assert events_of(ev, "battle_ended")
    assert [c["id"] for c in g.view(0)["players"][0]["hand"]] == ["s1"]


def test_r10_8_attacked_unit_cannot_answer_later():
    """R10.8 / R13.2: a1 took part in its side's attack, so its [Counter] ability is not available
    against player 1's later declaration: player 0 passes by itself."""
    g = game([U("a1", "guard"), U("a2", "va")], [U("b1", "bigpump")], dice=(6, 1))
    march(g, ["a1", "a2"])
    form(g, 0, ["a1", "a2"])
    assert g.waiting_for() == {1}
    ev = use(g, 1, "b1")
    assert not [e for e in events_of(ev, "declared") if e["player"] == 0]
    assert [e["player"] for e in events_of(ev, "passed")][:1] == [0]


# ---------------------------------------------------------------------------------------- R10.9

def test_r10_9_both_attack_at_once_and_both_can_be_wiped():
    """R10.9: on a tie both powers are fixed first and dealt at once: b1 still hits back though a1's
    damage (3 = its life) destroys it; both parties are wiped, the attack fails, L3 stays player 1's."""
    g = game([U("a1", "p3")], [U("b1", "p3")], dice=(3, 3))
    ev = march(g, ["a1"])
    att = attacks(ev)
    assert [(e["player"], e["power"], e["simultaneous"]) for e in att] == [(0, 3, True), (1, 3, True)]
    assert sorted(destroyed(ev)) == ["a1", "b1"]
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False and end["returned"] == []
    assert g.view(0)["lands"]["L3"]["owner"] == 1


def test_r10_9_both_last_leaders_fall_together():
    """R10.9 / R1.5: both parties wiped in the simultaneous attack, each the last leader: a draw."""
    g = scenario({"units": [unit("p3", "L1", "a0", leader=True)]},
                 {"units": [unit("p3", "L3", "b0", leader=True)]}, cards=CARDS, dice=[3, 3])
    ev = march(g, ["a0"])
    assert sorted(destroyed(ev)) == ["a0", "b0"]
    assert g.result == {"winner": None, "reason": "draw"}


def test_r10_9_battle_power_modifier_is_off():
    """R10.9: [Battle] +3 power is off: a1 attacks with its printed 2; b1 (life 5): 5 - 2 = 3."""
    g = game([U("a1", "rage")], [U("b1", "tough")], dice=(3, 3))
    ev = march(g, ["a1"])
    assert attacks(ev, 0)[0]["power"] == 2
    assert ("b1", 2, 5 - 2) in damage(ev)


def test_r10_9_battle_life_modifier_is_off():
    """R10.9: [Battle] +3 life is off: b1 has its printed 3 and falls to 3 damage."""
    g = game([U("a1", "p3")], [U("b1", "bulwark")], dice=(3, 3))
    ev = march(g, ["a1"])
    assert ("b1", 3, 3 - 3) in damage(ev)
    assert "b1" in destroyed(ev)


def test_r10_9_enemy_power_modifier_is_off():
    """R10.9: the defender's [Battle] -5 to enemy power is off: a1 attacks with its printed 2."""
    g = game([U("a1", "va")], [U("b1", "curse")], dice=(3, 3))
    ev = march(g, ["a1"])
    assert attacks(ev, 0)[0]["power"] == 2
    assert ("b1", 2, 3 - 2) in damage(ev)


def test_r10_9_no_abilities_or_spells():
    """R10.9: neither side gets a window: no ability, no spell — the battle ends inside the last
    preparation action."""
    g = game([U("a1", "pumpfire")], [U("b1", "guard")], hand0=[H("s1", "fireball")], dice=(3, 3))
    ev = march(g, ["a1"])
    assert not events_of(ev, "declared")
    assert events_of(ev, "battle_ended")
    assert g.view(0)["battle"] is None
    assert [c["id"] for c in g.view(0)["players"][0]["hand"]] == ["s1"]


def test_r10_9_no_on_destroy():
    """R10.9 [decided]: Cinder Imp ([On destroy]: 1 to the enemy front) falls in a simultaneous attack
    (2 + 1 = 3 + 0): nothing triggers; b1 keeps 3 - 1 = 2."""
    g = game([U("a1", "imp")], [U("b1", "p3")], dice=(2, 3))
    ev = march(g, ["a1"])
    assert events_of(ev, "initiative")[0]["first"] is None
    assert "a1" in destroyed(ev)
    assert not events_of(ev, "triggered")
    assert [d for d in damage(ev) if d[0] == "b1"] == [("b1", 1, 3 - 1)]


def test_r10_9_quick_summoned_units_stay():
    """R10.9 [decided]: a quick summoned unit stays in the simultaneous attack: its power counts
    (1 + 2 = 3) and, at the front, it takes the damage first."""
    g = game([U("a1", "va")], [U("b1", "p3")], hand0=[H("h1", "qa")], dice=(3, 3))
    march(g, ["a1"])
    do(g, 0, {"type": "quick_summon", "cards": ["h1"]})
    ev = form(g, 0, ["h1", "a1"])
    mine = attacks(ev, 0)[0]
    assert mine["simultaneous"] and mine["units"] == ["h1", "a1"] and mine["power"] == 1 + 2
    assert [d for d in damage(ev) if d[0] in ("h1", "a1")] == [("h1", 2, 0), ("a1", 1, 3 - 1)]


def test_r10_9_monarch_summoned_demon_stays():
    """R10.9 [decided]: a Demon quick summoned through Demon Monarch stays although [Battle] abilities are
    off in the simultaneous attack: 1 + 4 = 5 (totals 2 + 1 = 3 + 0)."""
    g = game([U("a1", "demon-monarch")], [U("b1", "wall")], hand0=[H("i1", "imp")], dice=(2, 3))
    march(g, ["a1"])
    do(g, 0, {"type": "quick_summon", "cards": ["i1"]})
    ev = form(g, 0, ["i1", "a1"])
    mine = attacks(ev, 0)[0]
    assert mine["simultaneous"] and mine["units"] == ["i1", "a1"] and mine["power"] == 1 + 4


def test_r10_9_damage_from_the_front_with_carry():
    """R10.9: simultaneous damage still goes front first with carry-over: 5 into [3, 3] → 3, then 2."""
    g = game([U("a1", "p5")], [U("b1", "va"), U("b2", "vu")], dice=(3, 3))
    march(g, ["a1"])
    ev = form(g, 1, ["b1", "b2"])
    assert [d for d in damage(ev) if d[0] in ("b1", "b2")] == [("b1", 3, 0), ("b2", 2, 3 - 2)]


# ---------------------------------------------------------------------------------------- R10.10

def test_r10_10_ghoul_does_not_grow_mid_attack():
    """R10.10: attack 3 + 3 = 6 into [b1 (3), Ghoul (3)]: b1 falls, 3 carries to the Ghoul, whose life
    was fixed at 3 before the attack — it falls too (it does not grow to 4 in the middle)."""
    g = game([U("a1", "p3"), U("a2", "p3")], [U("b1", "va"), U("b2", "ghoul")], dice=(6, 1))
    march(g, ["a1", "a2"])
    ev = form(g, 1, ["b1", "b2"])
    assert damage(ev)[:2] == [("b1", 3, 0), ("b2", 3, 3 - 3)]
    assert sorted(destroyed(ev)) == ["b1", "b2"]
    assert events_of(ev, "battle_ended")[0]["success"] is True


def test_r10_10_ghoul_grows_after_the_attack():
    """R10.10: attack 4 into [b1 (3), Ghoul (3)]: b1 falls, the Ghoul takes 1 (3 - 1 = 2). After the
    attack it grows by one fallen ally: life 4 - 1 = 3 of 4, power 2 + 1 = 3."""
    g = game([U("a1", "p4")], [U("b1", "va"), U("b2", "ghoul")], hand1=[H("s1", "dark-bolt")], dice=(6, 1))
    march(g, ["a1"])
    ev = form(g, 1, ["b1", "b2"])
    assert damage(ev)[:2] == [("b1", 3, 0), ("b2", 1, 3 - 1)]
    assert g.waiting_for() == {1}
    gh = unit_view(g, "b2")
    assert (gh["life"], gh["max_life"], gh["power"]) == (4 - 1, 3 + 1, 2 + 1)
    ev = do(g, 1, "attack")
    assert attacks(ev, 1)[0]["power"] == 2 + 1


def test_r10_10_ghoul_does_not_grow_in_simultaneous_attack():
    """R10.10 / R10.9: in a simultaneous attack [Battle] values are off: the Ghoul's power is its
    printed 2 even though b1 falls (totals 3 + 0 = 4 - 1)."""
    g = game([U("a1", "p3")], [U("b1", "va"), U("b2", "ghoul")], dice=(3, 4))
    march(g, ["a1"])
    ev = form(g, 1, ["b1", "b2"])
    assert events_of(ev, "initiative")[0]["first"] is None
    assert attacks(ev, 1)[0]["power"] == 2 + 2


def test_r10_10_bonus_lost_after_the_attack_is_recomputed():
    """R10.10: the attack is assigned against lives fixed before it: Banner (3 + 2) takes 5 and falls,
    8 - 5 = 3 carries to b2 (3 + 2 = 5, 5 - 3 = 2 left). Recomputed after the attack, b2 lost the
    Banner's +2: 3 - 3 = 0, so it is destroyed too."""
    g = game([U("a1", "p4"), U("a2", "p4")], [U("b1", "banner"), U("b2", "va")], dice=(6, 1))
    march(g, ["a1", "a2"])
    ev = form(g, 1, ["b1", "b2"])
    assert damage(ev)[:2] == [("b1", 5, 0), ("b2", 3, 5 - 3)]
    assert sorted(destroyed(ev)) == ["b1", "b2"]
    assert events_of(ev, "battle_ended")[0]["success"] is True
