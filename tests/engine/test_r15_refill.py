"""R15: destroying an enemy leader and the refill (draw up to 6) after the battle."""

from tests.engine.helpers import card, do, events_of, scenario, unit


CARDS = {
    "brute": card(power=9, life=9),
    "glass": card(power=2, life=1),
    "wall": card(power=1, life=20),
    "chief": card(power=3, life=3),
    "minion": card(power=1, life=1),
    # a [Normal] ability that hits every unit in the battle, its user's side included
    "bomber": card(power=1, life=9, abilities=[{"timing": "normal",
                                                 "effects": [{"do": "damage", "to": "all", "amount": 3}]}]),
}
DECK = ["orc"] * 12


def march(g, units, to, player=0):
    return do(g, player, {"type": "march", "units": units, "to": to})


def hand_count(g, p):
    return g.view(p)["players"][p]["hand_count"]


def refills(ev):
    return [e["player"] for e in events_of(ev, "refill")]


# ------------------------------------------------------------------ R15.1

def test_r15_1_attacker_that_destroyed_an_enemy_leader_draws_to_6():
    """R15.1: after a battle in which it destroyed an enemy leader, the attacker draws up to 6."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "x")],
                  "hand": ["orc", "orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("chief", "L5", "bl", leader=True)],
                  "hand": ["orc"], "deck": DECK},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    assert [e for e in events_of(ev, "destroyed") if e["unit"] == "bl"][0]["leader"] is True
    assert refills(ev) == [0]
    assert {"type": "drew", "player": 0, "count": 6 - 2} in ev
    assert hand_count(g, 0) == 6
    assert hand_count(g, 1) == 1                          # the loser of the leader draws nothing
    types = [e["type"] for e in ev]
    assert types.index("battle_ended") < types.index("refill")   # after the battle
    assert g.result is None


def test_r15_1_defender_that_destroyed_the_attackers_leader_draws_to_6():
    """R15.1: the side that destroyed the leader draws, even when it is the defender on the
    other player's turn."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("glass", "L3", "al", leader=True)],
                  "hand": ["orc", "orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("wall", "L5", "d")],
                  "hand": ["orc", "orc", "orc"], "deck": DECK},
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["al"], "L5")
    assert refills(ev) == [1]
    assert hand_count(g, 1) == 6
    assert hand_count(g, 0) == 2
    assert g.result is None and g.waiting_for() == {0}


def test_r15_1_no_refill_when_no_leader_was_destroyed():
    """R15.1: destroying only non-leaders gives no refill."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "x")],
                  "hand": ["orc", "orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("chief", "L5", "d")]},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    assert events_of(ev, "destroyed")
    assert refills(ev) == [] and not events_of(ev, "drew")
    assert hand_count(g, 0) == 2


def test_r15_1_refill_stops_when_the_draw_pile_runs_out():
    """R15.1 with R1.2: the refill draws what the pile has, and that is no loss."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "x")],
                  "hand": ["orc"], "deck": ["orc", "orc"]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("chief", "L5", "bl", leader=True)]},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    assert refills(ev) == [0]
    assert hand_count(g, 0) == 1 + 2
    assert g.view(0)["players"][0]["deck_count"] == 0
    assert g.result is None


# ------------------------------------------------------------------ R15.2

def test_r15_2_one_refill_however_many_leaders_fell_in_one_attack():
    """R15.2: two enemy leaders destroyed in the same battle give one refill."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "x")],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("chief", "L5", "l1", leader=True),
                            unit("orc", "L5", "l2", leader=True)]},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    if g.state.battle is not None and g.state.battle.step == "formation":
        ev += do(g, 1, {"type": "formation", "order": ["l1", "l2"]})
    assert sorted(e["unit"] for e in events_of(ev, "destroyed") if e["leader"]) == ["l1", "l2"]
    assert refills(ev) == [0]
    assert events_of(ev, "drew") == [{"type": "drew", "player": 0, "count": 6 - 1}]
    assert hand_count(g, 0) == 6


def test_r15_2_one_refill_when_leaders_fell_at_different_times():
    """R15.2: one leader falls to a spell, another to the attack: still one refill, after the
    battle (the hand is not refilled in the middle of the battle)."""
    cards = dict(CARDS, pyro=card(power=9, life=9, slots={"fire": 1}),
                 tough=card(power=1, life=4))
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("pyro", "L3", "x")],
                  "hand": ["fireball", "orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "l1", leader=True),
                            unit("tough", "L5", "l2", leader=True)]},
                 cards=cards, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    if g.state.battle.step == "formation":
        ev += do(g, 1, {"type": "formation", "order": ["l1", "l2"]})
    ev += do(g, 0, {"type": "spell", "card": [c["id"] for c in g.view(0)["players"][0]["hand"]
                                             if c["card"] == "fireball"][0], "targets": []})
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["l1", "l2"]   # Fireball, then the attack
    assert refills(ev) == [0]
    assert events_of(ev, "drew") == [{"type": "drew", "player": 0, "count": 6 - 1}]


# ------------------------------------------------------------------ R15.3

def test_r15_3_both_sides_destroyed_a_leader_both_draw():
    """R15.3: in a simultaneous attack each side destroys a leader of the other: both draw."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("glass", "L3", "al", leader=True)],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("glass", "L5", "bl", leader=True)],
                  "hand": ["orc", "orc"], "deck": DECK},
                 cards=CARDS, dice=[3, 3])
    ev = march(g, ["al"], "L5")
    assert events_of(ev, "initiative")[0]["first"] is None
    assert sorted(refills(ev)) == [0, 1]
    assert hand_count(g, 0) == 6 and hand_count(g, 1) == 6
    assert g.result is None


def test_r15_3_both_draw_when_leaders_fall_in_separate_attacks():
    """R15.3: the first striker kills a leader, the second striker kills one back: both draw."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("glass", "L3", "al", leader=True),
                            unit("wall", "L3", "z")],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("minion", "L5", "bl", leader=True),
                            unit("wall", "L5", "w")],
                  "hand": ["orc", "orc"], "deck": DECK},
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["al", "z"], "L5")
    ev += do(g, 0, {"type": "formation", "order": ["al", "z"]})
    ev += do(g, 1, {"type": "formation", "order": ["bl", "w"]})
    # p1 first: 1 + 1 = 2 damage, al (1 life) falls; then z's 1 power kills bl (1 life)
    assert [e["player"] for e in events_of(ev, "attack")] == [1, 0]
    assert [e["unit"] for e in events_of(ev, "destroyed") if e["leader"]] == ["al", "bl"]
    assert sorted(refills(ev)) == [0, 1]
    assert hand_count(g, 0) == 6 and hand_count(g, 1) == 6


# ------------------------------------------------------------------ R15.4

def test_r15_4_no_refill_when_the_battle_decides_the_game():
    """R15.4/R1.6: destroying the last enemy leader ends the game: no refill."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "x")],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("chief", "L5", "bl", leader=True)]},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["x"], "L5")
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert refills(ev) == [] and not events_of(ev, "drew")
    assert hand_count(g, 0) == 1


def test_r15_4_no_refill_when_both_last_leaders_fall_together():
    """R15.4 with R1.5: both last leaders fall in a simultaneous attack: a draw, nobody refills."""
    g = scenario({"units": [unit("glass", "L3", "al", leader=True)], "hand": ["orc"], "deck": DECK},
                 {"units": [unit("glass", "L5", "bl", leader=True)], "hand": ["orc"], "deck": DECK},
                 cards=CARDS, dice=[2, 2])
    ev = march(g, ["al"], "L5")
    assert g.result == {"winner": None, "reason": "draw"}
    assert refills(ev) == [] and not events_of(ev, "drew")
    assert hand_count(g, 0) == 1 and hand_count(g, 1) == 1


# ------------------------------------------------------------------ R15.4a (Eringe's tip)

def _three_leader_game(p1_leaders):
    """p0 can attack L5 (from L3) and L6 (from L4); p1 has a leader on each of `p1_leaders`."""
    units = [unit("minion", land, f"b{i}", leader=True) for i, land in enumerate(p1_leaders)]
    return scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "x"),
                               unit("brute", "L4", "y")],
                     "hand": ["orc", "orc"], "deck": DECK * 2},
                    {"units": units}, cards=CARDS, dice=[6, 1, 6, 1])


def test_r15_4a_each_fallen_leader_of_many_refills_the_opponent():
    """R15.4a: many leaders are hard to wipe out (losing two of three is not the end), but each
    one that falls lets the opponent rebuild their hand."""
    g = _three_leader_game(["L5", "L6", "H1"])
    ev = march(g, ["x"], "L5")
    assert g.result is None and refills(ev) == [0]
    assert hand_count(g, 0) == 6
    do(g, 0, {"type": "discard", "cards": [c["id"] for c in g.view(0)["players"][0]["hand"][:4]]})
    assert hand_count(g, 0) == 6 - 4
    ev = march(g, ["y"], "L6")
    assert g.result is None and refills(ev) == [0]       # a second refill, in the same turn
    assert hand_count(g, 0) == 6


def test_r15_4a_a_single_leader_falls_once_and_the_game_is_over():
    """R15.4a, the other side of the trade-off: with one leader, the first kill ends the game
    (and the winner gets no refill, R15.4)."""
    g = _three_leader_game(["L5"])
    ev = march(g, ["x"], "L5")
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert refills(ev) == []


# ------------------------------------------------------------------ R15.5

def test_r15_5_leader_destroyed_by_its_own_strike_trigger_refills_the_opponent():
    """R15.5: a Dawn Wraith leader destroys itself when its party strikes first; the opponent
    still gets the refill."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("wall", "L3", "x")],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("dawn-wraith", "L5", "w", leader=True)],
                  "hand": ["orc"], "deck": DECK},
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["x"], "L5")
    d = events_of(ev, "destroyed")
    assert [(e["unit"], e["leader"], e["reason"]) for e in d] == [("w", True, "trigger")]
    assert events_of(ev, "battle_ended")[0]["success"] is True   # p1's party is wiped out
    assert refills(ev) == [0]
    assert hand_count(g, 0) == 6 and hand_count(g, 1) == 1


def test_r15_5_attackers_own_leader_self_destroying_refills_the_defender():
    """R15.5: the attacker's leader destroys itself (strike trigger): the defender refills."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("dawn-wraith", "L3", "w", leader=True)],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("wall", "L5", "d")],
                  "hand": ["orc"], "deck": DECK},
                 cards=CARDS, dice=[6, 1])
    ev = march(g, ["w"], "L5")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["w"]
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert refills(ev) == [1]
    assert hand_count(g, 1) == 6 and hand_count(g, 0) == 1


def test_r15_5_leader_killed_by_its_own_sides_ability_refills_the_opponent():
    """R15.5: a leader dies to its own side's ability (damage to all units): the opponent draws."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("wall", "L3", "x")],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("bomber", "L5", "bm"),
                            unit("chief", "L5", "bl", leader=True)],
                  "hand": ["orc"], "deck": DECK},
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["x"], "L5")
    if g.state.battle.step == "formation":
        ev += do(g, 1, {"type": "formation", "order": ["bm", "bl"]})
    ev += do(g, 1, {"type": "ability", "unit": "bm", "targets": []})
    assert ("bl", True) in [(e["unit"], e["leader"]) for e in events_of(ev, "destroyed")]  # 3 dmg, 3 life
    assert g.state.battle is None                         # bm acted, bl fell: p1 had nobody to attack
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert refills(ev) == [0]
    assert hand_count(g, 0) == 6


def test_r15_5_own_effect_on_the_last_leader_loses_the_game():
    """R15.5/R1.1: a last leader destroyed by its own strike trigger loses the game."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("wall", "L3", "x")],
                  "hand": ["orc"], "deck": DECK},
                 {"units": [unit("dawn-wraith", "L5", "w", leader=True)]},
                 cards=CARDS, dice=[1, 6])
    ev = march(g, ["x"], "L5")
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert refills(ev) == []
