"""R8 March and converge: adjacency, Double/Far March, capacity, converge, taking lands, failed
attacks, returns (main origin, over-capacity choice) and exhaustion after battle.

Layout (helpers.LANDS): L1 road 6, L2 rearworld 8, L3 road 6, L4 swamp 4, L5 road 6,
L6 rearworld 8; bases 5. H0–L1/L2; L1–L2/L3/L4; L2–L3/L4; L3–L4/L5/L6; L4–L5/L6; L5–L6/H1; L6–H1.
"""

import json

from webapp.engine import Game
from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view

CARDS = {
    "lv1": card(),
    "lv2": card(level=2),
    "lv3": card(level=3),
    "lv4": card(level=4),
    "lv5": card(level=5),
    "frail": card(power=0, life=1),
    "brute": card(power=10, life=10),
    "brute2": card(level=2, power=10, life=10),
    "wall": card(power=0, life=20),
    "dm": card(keywords=["double_march"], power=10, life=10),
    "dmweak": card(keywords=["double_march"], power=1, life=10),
    "fm": card(keywords=["far_march"]),
    "fmbrute": card(keywords=["far_march"], power=10, life=10),
    "q2": card(level=2, quick=True, power=0, life=5),
    "q1": card(level=1, quick=True, power=0, life=5),
    "glass": card(power=3, life=3),
}

DECK = ["orc"] * 12
P1 = {"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK}


def game(p0_units, p1_units=(), hand=(), dice=None, **top):
    p0 = {"units": list(p0_units), "hand": list(hand), "deck": DECK}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True)] + list(p1_units), "deck": DECK}
    return scenario(p0=p0, p1=p1, cards=CARDS, dice=dice, **top)


def leader(land="H0", cid="orc", id="a0"):
    return unit(cid, land, id, leader=True)


def destinations(g, uid, player=0):
    return {a["to"] for a in find(g, player, "march") if a["units"] == [uid]}


def owner_of(g, land):
    return g.view(0)["lands"][land]["owner"]


def land_of(g, uid):
    v = unit_view(g, uid)
    return v["land"] if v else None


# ---------------------------------------------------------------- R8.1 adjacency, once per turn

def test_r8_1_destinations_from_base_are_its_neighbours():
    """R8.1: a monster marches to an adjacent land: from H0 only L1 and L2."""
    g = game([leader("H0")])
    assert destinations(g, "a0") == {"L1", "L2"}


def test_r8_1_destinations_from_middle_land():
    """R8.1: from L3: its row partner L4 and both lands of rows 1 and 3 (R4.2)."""
    g = game([leader("L3")])
    assert destinations(g, "a0") == {"L1", "L2", "L4", "L5", "L6"}


def test_r8_1_non_adjacent_march_is_illegal():
    """R8.1: not adjacent (or the same land) is refused, state unchanged."""
    g = game([leader("H0"), unit("lv1", "L1", "a1")])
    assert_illegal(g, 0, {"type": "march", "units": ["a0"], "to": "L3"})
    assert_illegal(g, 0, {"type": "march", "units": ["a0"], "to": "H1"})
    assert_illegal(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    assert_illegal(g, 0, {"type": "march", "units": ["a0"], "to": "H0"})
    assert_illegal(g, 0, {"type": "march", "units": ["a0"], "to": "L9"})


def test_r8_1_march_exhausts_and_only_once_per_turn():
    """R8.1: a monster marches once per turn; it is then exhausted until its owner's next turn."""
    g = game([leader("H0")])
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L1"})
    v = unit_view(g, "a0")
    assert v["land"] == "L1" and v["exhausted"] is True and v["marches_left"] == 0
    assert destinations(g, "a0") == set()
    assert_illegal(g, 0, {"type": "march", "units": ["a0"], "to": "L3"})


def test_r8_1_exhausted_unit_cannot_march():
    """R8.1: an exhausted monster does not march."""
    g = game([leader("H0", id="a0"), unit("lv1", "L1", "a1", exhausted=True)])
    assert destinations(g, "a1") == set()
    assert_illegal(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})


def test_r8_1_only_own_units_on_own_turn():
    """R8.1: a player marches only their own monsters, and only in their turn."""
    g = game([leader("H0")], [unit("lv1", "L5", "b1")])
    assert_illegal(g, 0, {"type": "march", "units": ["b1"], "to": "L6"})
    assert_illegal(g, 1, {"type": "march", "units": ["b1"], "to": "L6"})
    assert find(g, 1, "march") == []


def test_r8_1_other_units_still_march_after_one_marched():
    """R8.1: each monster marches once: another unit may still march after the first."""
    g = game([leader("H0"), unit("lv1", "H0", "a1")])
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L1"})
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L2"})
    assert (land_of(g, "a0"), land_of(g, "a1")) == ("L1", "L2")


# ---------------------------------------------------------------- R8.2 Double March

def test_r8_2_double_march_marches_twice():
    """R8.2: a Double March monster marches twice in a turn, then is exhausted."""
    g = game([leader("H0"), unit("dm", "H0", "d1")])
    ev1 = do(g, 0, {"type": "march", "units": ["d1"], "to": "L1"})
    v = unit_view(g, "d1")
    assert v["exhausted"] is False and v["marches_left"] == 2 - 1
    ev2 = do(g, 0, {"type": "march", "units": ["d1"], "to": "L3"})
    assert [e["land"] for e in events_of(ev1 + ev2, "land_taken")] == ["L1", "L3"]
    v = unit_view(g, "d1")
    assert v["land"] == "L3" and v["exhausted"] is True and v["marches_left"] == 0
    assert_illegal(g, 0, {"type": "march", "units": ["d1"], "to": "L5"})


def test_r8_2_companions_stay_where_the_first_march_took_them():
    """R8.2: only the Double March monster takes the second march; its companions stay, exhausted."""
    g = game([leader("H0"), unit("dm", "H0", "d1"), unit("lv1", "H0", "a1")])
    do(g, 0, {"type": "march", "units": ["d1", "a1"], "to": "L1"})
    assert unit_view(g, "a1")["exhausted"] is True
    assert unit_view(g, "d1")["exhausted"] is False
    assert_illegal(g, 0, {"type": "march", "units": ["d1", "a1"], "to": "L3"})
    do(g, 0, {"type": "march", "units": ["d1"], "to": "L3"})
    assert land_of(g, "a1") == "L1"
    assert land_of(g, "d1") == "L3"


def test_r8_2_second_march_after_winning_a_battle():
    """R8.2: after a first march that won a battle, it may march again, even into another battle."""
    g = game([leader("H0"), unit("dm", "L1", "d1")],
             [unit("orc", "L3", "b1"), unit("orc", "L5", "b2")], dice=[6, 1, 6, 1])
    ev = do(g, 0, {"type": "march", "units": ["d1"], "to": "L3"})
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert land_of(g, "d1") == "L3"
    assert unit_view(g, "d1")["exhausted"] is False
    assert "L5" in destinations(g, "d1")
    ev = do(g, 0, {"type": "march", "units": ["d1"], "to": "L5"})
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert land_of(g, "d1") == "L5" and owner_of(g, "L5") == 0
    assert unit_view(g, "d1")["exhausted"] is True


def test_r8_2_companions_of_a_won_battle_stay_exhausted():
    """R8.2: companions of a winning first march stay on the won land, exhausted; the Double March one goes on."""
    g = game([leader("H0"), unit("dm", "L1", "d1"), unit("brute", "L1", "a1")],
             [unit("orc", "L3", "b1")], dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["d1", "a1"], "to": "L3"})
    if g.view(0)["phase"] == "battle":  # formation of the two attackers
        ev += do(g, 0, {"type": "formation", "order": ["a1", "d1"]})
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert unit_view(g, "a1")["exhausted"] is True
    assert destinations(g, "a1") == set()
    do(g, 0, {"type": "march", "units": ["d1"], "to": "L4"})
    assert (land_of(g, "a1"), land_of(g, "d1")) == ("L3", "L4")


def test_r8_2_second_march_after_failed_attack():
    """R8.2 [decided]: after a failed first attack, a surviving Double March monster may still march again."""
    g = game([leader("H0"), unit("dmweak", "L1", "d1")], [unit("wall", "L3", "b1")], dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["d1"], "to": "L3"})
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False
    assert end["returned"] == [{"unit": "d1", "land": "L1"}]
    assert unit_view(g, "d1")["exhausted"] is False
    ev = do(g, 0, {"type": "march", "units": ["d1"], "to": "L4"})
    assert land_of(g, "d1") == "L4"
    assert unit_view(g, "d1")["exhausted"] is True


def test_r8_2_second_march_not_into_the_failed_land():
    """R8.2 [decided] with R8.7: the second march after a failed attack may not go into that land."""
    g = game([leader("H0"), unit("dmweak", "L1", "d1")], [unit("wall", "L3", "b1")], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["d1"], "to": "L3"})
    assert "L3" not in destinations(g, "d1")
    assert destinations(g, "d1") == {"H0", "L2", "L4"}
    assert_illegal(g, 0, {"type": "march", "units": ["d1"], "to": "L3"})


def test_r8_2_double_march_second_march_may_converge():
    """R8.2/R8.5: the second march may converge with a fresh unit from another land."""
    g = game([leader("H0"), unit("dm", "H0", "d1"), unit("lv1", "L2", "a1")])
    do(g, 0, {"type": "march", "units": ["d1"], "to": "L1"})
    do(g, 0, {"type": "march", "units": ["d1", "a1"], "to": "L3"})
    assert (land_of(g, "d1"), land_of(g, "a1")) == ("L3", "L3")


def test_r8_2_double_march_count_resets_next_turn():
    """R8.2 with R6.8: next turn the Double March monster has two marches again."""
    g = game([leader("H0"), unit("dm", "L3", "d1", exhausted=True, marched=2)], active=1)
    do(g, 1, "end_turn")
    assert unit_view(g, "d1")["marches_left"] == 2
    do(g, 0, {"type": "march", "units": ["d1"], "to": "L1"})
    do(g, 0, {"type": "march", "units": ["d1"], "to": "L2"})
    assert land_of(g, "d1") == "L2"


def test_r8_2_ordinary_monster_has_one_march():
    """R8.2: without Double March a monster has a single march."""
    g = game([leader("H0"), unit("lv1", "H0", "a1")])
    assert unit_view(g, "a1")["marches_left"] == 1
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L1"})
    assert_illegal(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})


# ---------------------------------------------------------------- R8.3 Far March

def test_r8_3_far_march_reaches_any_land_but_the_enemy_base():
    """R8.3: from H0 a Far March monster reaches every middle land; H1 (enemy base, not adjacent) is excluded."""
    g = game([leader("H0"), unit("fm", "H0", "f1")])
    assert destinations(g, "f1") == {"L1", "L2", "L3", "L4", "L5", "L6"}


def test_r8_3_far_march_to_non_adjacent_empty_land_takes_it():
    """R8.3: marching to a non-adjacent land, which it takes (R8.6)."""
    g = game([leader("H0"), unit("fm", "H0", "f1")])
    ev = do(g, 0, {"type": "march", "units": ["f1"], "to": "L5"})
    assert land_of(g, "f1") == "L5"
    assert events_of(ev, "land_taken")[0]["land"] == "L5"
    assert unit_view(g, "f1")["exhausted"] is True


def test_r8_3_far_march_into_enemies_starts_a_battle():
    """R8.3: including lands with enemies: a battle follows."""
    g = game([leader("H0"), unit("fmbrute", "H0", "f1")], [unit("orc", "L6", "b1")], dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["f1"], "to": "L6"})
    b = events_of(ev, "battle_started")[0]
    assert b["land"] == "L6" and b["parties"] == {"0": ["f1"], "1": ["b1"]}
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert land_of(g, "f1") == "L6"


def test_r8_3_far_march_never_into_enemy_base_from_afar():
    """R8.3: not into the enemy base from a non-adjacent land, even when it is empty."""
    g = scenario(p0={"units": [leader("H0"), unit("fm", "L3", "f1")], "deck": DECK},
                 p1={"units": [unit("orc", "L6", "b0", leader=True)], "deck": DECK}, cards=CARDS)
    assert "H1" not in destinations(g, "f1")
    assert_illegal(g, 0, {"type": "march", "units": ["f1"], "to": "H1"})


def test_r8_3_far_march_monster_adjacent_to_enemy_base_marches_normally():
    """R8.3/R8.1: Far March adds reach; next to the enemy base it may still make its ordinary adjacent march there."""
    g = scenario(p0={"units": [leader("H0"), unit("fm", "L5", "f1")], "deck": DECK},
                 p1={"units": [unit("orc", "L1", "b0", leader=True)], "deck": DECK}, cards=CARDS)
    assert "H1" in destinations(g, "f1")
    ev = do(g, 0, {"type": "march", "units": ["f1"], "to": "H1"})
    assert events_of(ev, "land_taken")[0]["land"] == "H1"


def test_r8_3_far_march_adds_reach_the_march_into_the_held_adjacent_enemy_base_stays():
    """R8.3 (revision 3: Far March adds reach to the ordinary march of R8.1): a Far March monster on L6,
    next to the enemy base H1 where an enemy stands, marches into it like any other monster: a
    battle follows there (R8.6), it wins and takes the base (R4.6)."""
    g = scenario(p0={"units": [leader("H0"), unit("fmbrute", "L6", "f1")], "deck": DECK},
                 p1={"units": [unit("orc", "L1", "b0", leader=True), unit("orc", "H1", "b1")], "deck": DECK},
                 cards=CARDS, dice=[6, 1])
    assert "H1" in destinations(g, "f1")
    ev = do(g, 0, {"type": "march", "units": ["f1"], "to": "H1"})
    assert events_of(ev, "battle_started")[0]["land"] == "H1"
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["b1"]
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert land_of(g, "f1") == "H1" and owner_of(g, "H1") == 0


def test_r8_3_far_march_back_to_own_base():
    """R8.3: any land but the enemy base, so also the own base from far away."""
    g = game([leader("L2"), unit("fm", "L6", "f1")])
    assert "H0" in destinations(g, "f1")
    do(g, 0, {"type": "march", "units": ["f1"], "to": "H0"})
    assert land_of(g, "f1") == "H0"


def test_r8_3_far_march_still_respects_capacity():
    """R8.3/R8.4: Far March does not lift capacity: L4 swamp holds 4; 3 + 2 > 4."""
    fm2 = card(level=2, keywords=["far_march"])
    g = scenario(p0={"units": [leader("H0"), unit("fm2", "H0", "f1"), unit("lv3", "L4", "a3")], "deck": DECK},
                 cards=dict(CARDS, fm2=fm2))
    assert "L4" not in destinations(g, "f1")
    assert_illegal(g, 0, {"type": "march", "units": ["f1"], "to": "L4"})


# ---------------------------------------------------------------- R8.4 capacity

def test_r8_4_march_filling_capacity_exactly():
    """R8.4: own level at the destination plus the marchers may equal the capacity (swamp: 2 + 2 = 4)."""
    g = game([leader("H0"), unit("lv2", "L4", "a2"), unit("lv2", "L3", "a3")])
    do(g, 0, {"type": "march", "units": ["a3"], "to": "L4"})
    assert g.view(0)["lands"]["L4"]["used"][0] == 2 + 2


def test_r8_4_march_over_capacity_is_illegal():
    """R8.4: swamp 4 with own level 3 there: a level-2 march (3 + 2 = 5 > 4) is refused and not offered."""
    g = game([leader("H0"), unit("lv3", "L4", "a2"), unit("lv2", "L3", "a3")])
    assert "L4" not in destinations(g, "a3")
    assert_illegal(g, 0, {"type": "march", "units": ["a3"], "to": "L4"})


def test_r8_4_converging_marchers_count_together():
    """R8.4: the marching monsters' levels add up: 3 + 2 = 5 > 4 into the swamp; 2 + 2 = 4 fits."""
    g = game([leader("H0"), unit("lv3", "L1", "a1"), unit("lv2", "L2", "a2"), unit("lv2", "L3", "a3")])
    assert_illegal(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L4"})
    assert not [a for a in find(g, 0, "march", to="L4") if set(a["units"]) == {"a1", "a2"}]
    do(g, 0, {"type": "march", "units": ["a2", "a3"], "to": "L4"})
    assert g.view(0)["lands"]["L4"]["used"][0] == 2 + 2


def test_r8_4_base_capacity_five():
    """R8.4: marching into one's own base: 4 + 1 = 5 fits, 4 + 2 does not."""
    g = game([leader("H0", cid="lv4"), unit("lv1", "L1", "a1"), unit("lv2", "L2", "a2")])
    assert_illegal(g, 0, {"type": "march", "units": ["a2"], "to": "H0"})
    do(g, 0, {"type": "march", "units": ["a1"], "to": "H0"})
    assert g.view(0)["lands"]["H0"]["used"][0] == 4 + 1


def test_r8_4_enemy_levels_do_not_count():
    """R8.4: only own monsters count: a level-4 march into a swamp holding a level-4 enemy is allowed."""
    g = game([leader("H0"), unit("lv4", "L3", "a4")], [unit("lv4", "L4", "b4")], dice=[6, 1])
    assert "L4" in destinations(g, "a4")
    ev = do(g, 0, {"type": "march", "units": ["a4"], "to": "L4"})
    assert events_of(ev, "battle_started")


# ---------------------------------------------------------------- R8.5 converge

def test_r8_5_converge_from_two_lands():
    """R8.5: monsters on different lands march together to a destination adjacent to every origin."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L2", "a2")])
    ev = do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    m = events_of(ev, "marched")
    assert len(m) == 1 and m[0]["from"] == ["L1", "L2"] and m[0]["to"] == "L3"
    assert (land_of(g, "a1"), land_of(g, "a2")) == ("L3", "L3")
    assert unit_view(g, "a1")["exhausted"] and unit_view(g, "a2")["exhausted"]


def test_r8_5_converge_from_base_and_row_two():
    """R8.5: H0 and L3 share the neighbour L1, so they converge there."""
    g = game([leader("H0"), unit("lv1", "L3", "a3")])
    assert find(g, 0, "march", units=["a0", "a3"], to="L1")
    do(g, 0, {"type": "march", "units": ["a0", "a3"], "to": "L1"})
    assert (land_of(g, "a0"), land_of(g, "a3")) == ("L1", "L1")


def test_r8_5_destination_must_be_adjacent_to_every_origin():
    """R8.5: L4 is adjacent to L3 but not to H0: no converge there."""
    g = game([leader("H0"), unit("lv1", "L3", "a3")])
    assert_illegal(g, 0, {"type": "march", "units": ["a0", "a3"], "to": "L4"})
    assert_illegal(g, 0, {"type": "march", "units": ["a3", "a0"], "to": "L5"})


def test_r8_5_far_march_member_converges_to_a_land_it_reaches():
    """R8.5: for a Far March member the destination need only be reachable by it."""
    g = game([leader("H0"), unit("fm", "H0", "f1"), unit("lv1", "L4", "a4")])
    do(g, 0, {"type": "march", "units": ["f1", "a4"], "to": "L5"})
    assert (land_of(g, "f1"), land_of(g, "a4")) == ("L5", "L5")


def test_r8_5_every_member_must_reach():
    """R8.5: a Far March member does not carry the others: H0 does not reach L5."""
    g = game([leader("H0", id="a0"), unit("fm", "L3", "f1")])
    assert_illegal(g, 0, {"type": "march", "units": ["f1", "a0"], "to": "L5"})


def test_r8_5_converge_needs_every_member_able_to_march():
    """R8.5: an exhausted member spoils the converge."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L2", "a2", exhausted=True)])
    assert_illegal(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})


def test_r8_5_malformed_unit_lists_are_illegal():
    """R8.5: a march names its units once each, at least one."""
    g = game([leader("H0"), unit("lv1", "L1", "a1")])
    assert_illegal(g, 0, {"type": "march", "units": [], "to": "L3"})
    assert_illegal(g, 0, {"type": "march", "units": ["a1", "a1"], "to": "L3"})
    assert_illegal(g, 0, {"type": "march", "units": ["nobody"], "to": "L3"})


def test_r8_5_converge_into_battle_forms_one_party():
    """R8.5/R8.6: converging into enemies: every marcher is in the attacking party."""
    g = game([leader("H0"), unit("brute", "L1", "a1"), unit("brute", "L2", "a2")],
             [unit("orc", "L3", "b1")], dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    assert sorted(events_of(ev, "battle_started")[0]["parties"]["0"]) == ["a1", "a2"]
    assert (land_of(g, "a1"), land_of(g, "a2")) == ("L3", "L3")


def test_r8_5_battle_marches_listed_once_per_main_origin():
    """R8.5/R8.8: a converging attack is listed once per distinct main origin (units[0]'s land)."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L1", "a2"), unit("lv1", "L2", "a3")],
             [unit("orc", "L3", "b1")])
    same = [a["units"] for a in find(g, 0, "march", to="L3") if set(a["units"]) == {"a1", "a2"}]
    assert len(same) == 1
    mixed = [a["units"] for a in find(g, 0, "march", to="L3") if set(a["units"]) == {"a1", "a3"}]
    assert sorted(u[0] for u in mixed) == ["a1", "a3"]


def test_r8_5_any_order_of_the_same_units_is_accepted():
    """R8.5: the engine accepts any ordering of a legal converge (docs/engine.md)."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L1", "a2")], [unit("orc", "L3", "b1")])
    listed = [a["units"] for a in find(g, 0, "march", to="L3") if set(a["units"]) == {"a1", "a2"}]
    other = [u for u in (["a1", "a2"], ["a2", "a1"]) if u not in listed][0]
    ev = do(g, 0, {"type": "march", "units": other, "to": "L3"})
    assert events_of(ev, "battle_started")


# ---------------------------------------------------------------- R8.6 taking lands, starting battles

def test_r8_6_marching_into_empty_land_takes_it():
    """R8.6: marching into a land with no enemies takes it (R4.5)."""
    g = game([leader("H0")])
    assert owner_of(g, "L1") is None
    ev = do(g, 0, {"type": "march", "units": ["a0"], "to": "L1"})
    assert events_of(ev, "land_taken") == [{"type": "land_taken", "player": 0, "land": "L1"}]
    assert owner_of(g, "L1") == 0
    assert events_of(ev, "battle_started") == []


def test_r8_6_marching_into_empty_enemy_land_takes_it():
    """R8.6: an enemy-owned land empty of enemies is taken without a battle."""
    g = game([leader("L1")], owners={"L3": 1})
    assert owner_of(g, "L3") == 1
    ev = do(g, 0, {"type": "march", "units": ["a0"], "to": "L3"})
    assert events_of(ev, "battle_started") == []
    assert owner_of(g, "L3") == 0


def test_r8_6_marching_into_own_land_takes_nothing():
    """R8.6: a land already yours gives no land_taken event."""
    g = game([leader("H0"), unit("lv1", "L1", "a1")])
    ev = do(g, 0, {"type": "march", "units": ["a0"], "to": "L1"})
    assert events_of(ev, "land_taken") == []
    assert owner_of(g, "L1") == 0


def test_r8_6_defending_party_is_every_enemy_on_the_land():
    """R8.6: marching into enemies starts a battle; the defenders are every enemy monster there."""
    g = game([leader("H0"), unit("lv1", "L1", "a1")],
             [unit("wall", "L3", "b1"), unit("lv1", "L3", "b2"), unit("orc", "L5", "b3")])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    started = events_of(ev, "battle_started")[0]
    assert started["land"] == "L3" and started["attacker"] == 0
    assert sorted(started["parties"]["1"]) == ["b1", "b2"]
    assert "b0" not in started["parties"]["1"] and "b3" not in started["parties"]["1"]


# ---------------------------------------------------------------- R8.7 no re-attack after a failure

def test_r8_7_no_second_attack_on_land_after_failure():
    """R8.7: after a failed attack, no unit may attack that land again this turn while enemies remain."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("brute", "L2", "a2")],
             [unit("wall", "L3", "b1")], dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert "L3" in g.view(0)["failed_lands"]
    assert "L3" not in destinations(g, "a2")
    assert_illegal(g, 0, {"type": "march", "units": ["a2"], "to": "L3"})


def test_r8_7_other_lands_may_still_be_attacked():
    """R8.7: the ban is for that land only."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("brute", "L2", "a2")],
             [unit("wall", "L3", "b1"), unit("orc", "L4", "b2")], dice=[6, 1, 6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    ev = do(g, 0, {"type": "march", "units": ["a2"], "to": "L4"})
    assert events_of(ev, "battle_ended")[0]["success"] is True


def test_r8_7_land_may_be_attacked_again_next_turn():
    """R8.7: the ban lasts for the same turn only."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("brute", "L2", "a2")],
             [unit("wall", "L3", "b1")], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    do(g, 0, "end_turn")
    do(g, 1, "end_turn")
    assert g.view(0)["failed_lands"] == []
    assert "L3" in destinations(g, "a2")


def test_r8_7_failed_land_emptied_of_enemies_may_be_entered():
    """R8.7: only while enemies remain: after a mutual wipe-out the land may be entered (and taken)."""
    g = game([leader("H0"), unit("glass", "L1", "a1"), unit("lv1", "L2", "a2")],
             [unit("glass", "L3", "b1")], dice=[3, 3])  # equal totals: simultaneous attack, both fall
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert owner_of(g, "L3") == 1  # the land stays the defender's (R4.5)
    assert "L3" in destinations(g, "a2")
    ev = do(g, 0, {"type": "march", "units": ["a2"], "to": "L3"})
    assert events_of(ev, "battle_started") == []
    assert owner_of(g, "L3") == 0


# ---------------------------------------------------------------- R8.8 results and returns

def test_r8_8_success_survivors_move_in_and_take_the_land():
    """R8.8: success: the surviving attackers move onto the land and take it; the fallen do not."""
    g = game([leader("H0"), unit("brute", "L1", "a1"), unit("frail", "L1", "a2")],
             [unit("orc", "L3", "b1")], dice=[1, 6])  # the defender strikes first: 2 damage kills a2 (life 1)
    do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    ev = do(g, 0, {"type": "formation", "order": ["a2", "a1"]})
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is True and end["returned"] == []
    assert land_of(g, "a1") == "L3"
    assert land_of(g, "a2") is None
    assert owner_of(g, "L3") == 0


def test_r8_8_failure_survivors_return_to_their_own_origins():
    """R8.8: failure: each surviving attacker returns to its own origin."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L2", "a2")],
             [unit("wall", "L3", "b1")], dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False
    assert sorted((r["unit"], r["land"]) for r in end["returned"]) == [("a1", "L1"), ("a2", "L2")]
    assert (land_of(g, "a1"), land_of(g, "a2")) == ("L1", "L2")
    assert owner_of(g, "L3") == 1


def test_r8_8_failure_with_no_survivor_returns_nobody():
    """R8.8: if every attacker falls, nobody returns and the land stays the defender's."""
    g = game([leader("H0"), unit("frail", "L1", "a1")], [unit("orc", "L3", "b1")], dice=[1, 6])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False and end["returned"] == []
    assert land_of(g, "a1") is None
    assert owner_of(g, "L3") == 1 and land_of(g, "b1") == "L3"


def _quick_attack(units):
    """a1 (L1) and a2 (L2) attack a wall on L3; p0 quick summons q (level 2) and fails."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L2", "a2")],
             [unit("wall", "L3", "b1")], hand=[{"card": "q2", "id": "q"}], dice=[6, 1])
    do(g, 0, {"type": "march", "units": units, "to": "L3"})
    assert g.waiting_for() == {0}
    ev = do(g, 0, {"type": "quick_summon", "cards": ["q"]})
    if g.view(0)["phase"] == "battle":
        ev += do(g, 0, find(g, 0, "formation")[0])
    return g, ev


def test_r8_8_quick_summoned_unit_returns_to_main_origin_first_unit():
    """R8.8 [decided]: a quick summoned monster returns to the main origin: the origin of units[0] (L1)."""
    g, ev = _quick_attack(["a1", "a2"])
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False
    assert sorted((r["unit"], r["land"]) for r in end["returned"]) == [("a1", "L1"), ("a2", "L2"), ("q", "L1")]
    assert land_of(g, "q") == "L1"


def test_r8_8_main_origin_follows_the_order_of_units():
    """R8.8 [decided]: the same march with a2 (from L2) first sends the quick summoned monster to L2."""
    g, ev = _quick_attack(["a2", "a1"])
    assert land_of(g, "q") == "L2"
    assert (land_of(g, "a1"), land_of(g, "a2")) == ("L1", "L2")


def test_r8_8_main_origin_kept_when_first_unit_falls():
    """R8.8 [decided]: the main origin is units[0]'s origin even if that unit dies in the battle."""
    hitter = card(power=1, life=20)
    g = scenario(p0={"units": [leader("H0"), unit("frail", "L1", "a1"), unit("lv1", "L2", "a2")],
                     "hand": [{"card": "q2", "id": "q"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("hitter", "L3", "b1")], "deck": DECK},
                 cards=dict(CARDS, hitter=hitter), dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    do(g, 0, {"type": "quick_summon", "cards": ["q"]})
    ev = do(g, 0, {"type": "formation", "order": ["a1", "q", "a2"]})  # a1 (life 1) in front takes the 1 damage
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["a1"]
    end = events_of(ev, "battle_ended")[0]
    assert end["success"] is False
    assert sorted((r["unit"], r["land"]) for r in end["returned"]) == [("a2", "L2"), ("q", "L1")]
    assert land_of(g, "q") == "L1"


def test_r8_8_quick_summoned_unit_returns_to_base_origin():
    """R8.8: attacking from the base, a quick summoned monster returns to the base."""
    g = game([leader("H0"), unit("lv1", "H0", "a1")], [unit("wall", "L1", "b1")],
             hand=[{"card": "q1", "id": "q"}], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L1"})
    do(g, 0, {"type": "quick_summon", "cards": ["q"]})
    if g.view(0)["phase"] == "battle":
        do(g, 0, find(g, 0, "formation")[0])
    assert land_of(g, "q") == "H0"
    assert g.view(0)["lands"]["H0"]["used"][0] == 1 + 1 + 1


def _over_capacity_game(leader_card="lv2", attacker="lv2", quick="q2"):
    """On L4 (swamp, 4) stand leader a0 and attacker x; x attacks a wall on L3 with a quick summoned q
    and fails; x and q both return to L4."""
    g = scenario(p0={"units": [unit(leader_card, "L4", "a0", leader=True), unit(attacker, "L4", "x")],
                     "hand": [{"card": quick, "id": "q"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("wall", "L3", "w")], "deck": DECK},
                 cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["x"], "to": "L3"})
    do(g, 0, {"type": "quick_summon", "cards": ["q"]})
    ev = do(g, 0, {"type": "formation", "order": ["q", "x"]})
    return g, ev


def test_r8_8_over_capacity_after_return_asks_the_owner():
    """R8.8: the land is over capacity after the return (2 + 2 + 2 = 6 > 4): its owner chooses what to destroy."""
    g, ev = _over_capacity_game()
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert g.view(0)["lands"]["L4"]["used"][0] == 2 + 2 + 2
    assert g.view(0)["phase"] == "over_capacity"
    assert g.waiting_for() == {0}
    options = sorted(a["units"] for a in find(g, 0, "destroy_over_capacity"))
    assert options == [["q"], ["x"]]


def test_r8_8_over_capacity_owner_may_destroy_the_original_unit():
    """R8.8: of the owner's choice: destroying x instead of the quick summoned q is fine (6 - 2 = 4)."""
    g, _ = _over_capacity_game()
    ev = do(g, 0, {"type": "destroy_over_capacity", "units": ["x"]})
    d = events_of(ev, "destroyed")
    assert [(e["unit"], e["reason"], e["leader"]) for e in d] == [("x", "over_capacity", False)]
    assert events_of(ev, "capacity_restored") == [{"type": "capacity_restored", "land": "L4"}]
    assert g.view(0)["lands"]["L4"]["used"][0] == 6 - 2
    assert land_of(g, "q") == "L4" and land_of(g, "a0") == "L4"
    assert g.view(0)["phase"] == "main" and g.waiting_for() == {0}
    assert "x" in g.view(0)["players"][0]["discard_ids"]


def test_r8_8_over_capacity_choice_only_fits_the_land():
    """R8.8: destroy until it fits: not a leader, not too few, not more than needed."""
    g, _ = _over_capacity_game()
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": ["a0"]})
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": []})
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": ["x", "q"]})
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": ["w"]})


def test_r8_8_level_1_then_level_2_accepted_on_a_land_2_over():
    """R8.8 [decided, revision 2]: one unit at a time until it fits: on L4 (4) with leader 3 + x 1
    + q 2 (2 over), destroying x (still 1 over) and then q is a legal choice, sent as one set in
    either order; both fall and the land holds 3."""
    for units in (["x", "q"], ["q", "x"]):
        g, _ = _over_capacity_game(leader_card="lv3", attacker="lv1")
        assert any(sorted(a["units"]) == ["q", "x"] for a in find(g, 0, "destroy_over_capacity"))
        ev = do(g, 0, {"type": "destroy_over_capacity", "units": units})
        assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["q", "x"]
        assert g.view(0)["lands"]["L4"]["used"][0] == 3
        assert g.view(0)["phase"] == "main"


def test_r8_8_no_choice_that_keeps_destroying_once_the_land_fits():
    """R8.8 [decided, revision 2]: a set is legal only if the land still overflowed before its
    last-chosen unit: on L4 with leader 2 + x 2 + q 2 (2 over), {x, q} is refused (x alone fits);
    a set with a unit twice is refused too."""
    g, _ = _over_capacity_game()
    assert sorted(sorted(a["units"]) for a in find(g, 0, "destroy_over_capacity")) == [["q"], ["x"]]
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": ["q", "x"]})
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": ["q", "q"]})


def test_r8_8_choices_list_every_one_at_a_time_order():
    """R8.8 [decided, revision 2]: with non-leaders of levels 1, 1 and 2 on a land 2 over capacity,
    the choices are {2}, {1, 1} and each {1, 2}; never all three (the land fits before the last)."""
    g = scenario(p0={"units": [unit("lv2", "L1", "a0", leader=True), unit("lv1", "L1", "x1"),
                               unit("lv1", "L1", "x2"), unit("lv2", "L1", "y")], "deck": DECK},
                 cards=CARDS)
    data = json.loads(g.to_json())  # built on a road (6), then L1 made a swamp (4): 2 over
    data["kinds"][1] = "swamp"
    data["phase"], data["pending"] = "over_capacity", ["L1"]
    g = Game.from_json(json.dumps(data))
    options = sorted(sorted(a["units"]) for a in find(g, 0, "destroy_over_capacity"))
    assert options == [["x1", "x2"], ["x1", "y"], ["x2", "y"], ["y"]]


def test_r8_8_over_capacity_choice_must_come_first():
    """R8.8: while the choice is pending, the main step waits (no end_turn, march or summon)."""
    g, _ = _over_capacity_game()
    assert {a["type"] for a in g.legal_actions(0)} == {"destroy_over_capacity", "resign"}
    assert_illegal(g, 0, {"type": "end_turn"})
    assert_illegal(g, 0, {"type": "march", "units": ["a0"], "to": "L5"})


def test_r8_8_over_capacity_never_chooses_leaders():
    """R8.8: leaders are never chosen: leader 3 + x 1 + q 2 = 6 > 4; the leader (3) would fit it, but
    the choices are q (2), or x (1) then q (revision 2): never a set with the leader."""
    g, _ = _over_capacity_game(leader_card="lv3", attacker="lv1")
    options = sorted(sorted(a["units"]) for a in find(g, 0, "destroy_over_capacity"))
    assert options == [["q"], ["q", "x"]]
    assert_illegal(g, 0, {"type": "destroy_over_capacity", "units": ["a0"]})
    do(g, 0, {"type": "destroy_over_capacity", "units": ["q"]})
    assert g.view(0)["lands"]["L4"]["used"][0] == 3 + 1
    assert land_of(g, "a0") == "L4" and unit_view(g, "a0")["leader"] is True


def test_r8_8_no_over_capacity_choice_when_land_fits():
    """R8.8: when every land fits after the return, no choice is asked."""
    g = game([leader("H0"), unit("lv1", "L2", "x")], [unit("wall", "L3", "w")],
             hand=[{"card": "q2", "id": "q"}], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["x"], "to": "L3"})
    do(g, 0, {"type": "quick_summon", "cards": ["q"]})
    do(g, 0, {"type": "formation", "order": ["q", "x"]})
    assert g.view(0)["phase"] == "main"
    assert g.view(0)["lands"]["L2"]["used"][0] == 1 + 2  # within rearworld 8


def test_r8_8_only_leaders_left_over_capacity_stay():
    """R8.8 [decided]: if only leaders remain over capacity, they stay.

    Unreachable through play (leaders return to where they stood), so the position is built
    by editing a saved game: leader 5 + x 1 on L1, and L1 turned into a swamp (capacity 4)."""
    g = scenario(p0={"units": [unit("lv5", "L1", "a0", leader=True), unit("lv1", "L1", "x")], "deck": DECK},
                 cards=CARDS)
    data = json.loads(g.to_json())
    data["kinds"][1] = "swamp"
    data["phase"] = "over_capacity"
    data["pending"] = ["L1"]
    g = Game.from_json(json.dumps(data))
    assert g.view(0)["lands"]["L1"]["capacity"] == 4
    options = [a["units"] for a in find(g, 0, "destroy_over_capacity")]
    assert options == [["x"]]  # 6 - 4 = 2 over, but only x (1) may go
    do(g, 0, {"type": "destroy_over_capacity", "units": ["x"]})
    assert land_of(g, "a0") == "L1"
    assert g.view(0)["lands"]["L1"]["used"][0] == 5  # still over 4: the leader stays
    assert g.view(0)["phase"] == "main"


# ---------------------------------------------------------------- R8.9 attackers exhausted

def test_r8_9_attackers_exhausted_after_success():
    """R8.9 [decided]: every attacker is exhausted after the battle (success)."""
    g = game([leader("H0"), unit("brute", "L1", "a1"), unit("brute", "L2", "a2")],
             [unit("orc", "L3", "b1")], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    assert unit_view(g, "a1")["exhausted"] and unit_view(g, "a2")["exhausted"]


def test_r8_9_attackers_exhausted_after_failure():
    """R8.9 [decided]: every attacker is exhausted after the battle (failure, back at their origins)."""
    g = game([leader("H0"), unit("lv1", "L1", "a1"), unit("lv1", "L2", "a2")],
             [unit("wall", "L3", "b1")], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1", "a2"], "to": "L3"})
    for uid, land in (("a1", "L1"), ("a2", "L2")):
        v = unit_view(g, uid)
        assert v["land"] == land and v["exhausted"] is True
        assert_illegal(g, 0, {"type": "march", "units": [uid], "to": "L4"})


def test_r8_9_quick_summoned_attackers_exhausted_after_success():
    """R8.9 [decided]: quick summoned monsters too, even with Haste (Goblin Raider) or Double March (Pegasus)."""
    g = game([leader("H0"), unit("brute", "L1", "a1")], [unit("orc", "L3", "b1")],
             hand=[{"card": "goblin-raider", "id": "gr"}, {"card": "pegasus", "id": "pg"}], dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    do(g, 0, {"type": "quick_summon", "cards": ["gr", "pg"]})
    ev = do(g, 0, find(g, 0, "formation")[0])
    assert events_of(ev, "battle_ended")[0]["success"] is True
    for uid in ("a1", "gr", "pg"):
        v = unit_view(g, uid)
        assert v["land"] == "L3" and v["exhausted"] is True, uid
    assert_illegal(g, 0, {"type": "march", "units": ["pg"], "to": "L5"})
    assert_illegal(g, 0, {"type": "march", "units": ["gr"], "to": "L5"})


def test_r8_9_quick_summoned_attacker_exhausted_after_failure():
    """R8.9 [decided]: a quick summoned monster that returned after a failure is exhausted."""
    g, _ = _quick_attack(["a1", "a2"])
    assert unit_view(g, "q")["exhausted"] is True
    assert_illegal(g, 0, {"type": "march", "units": ["q"], "to": "L3"})


def test_r8_9_exhaustion_after_battle_clears_next_own_turn():
    """R8.9 with R6.8: attackers exhausted by a battle march again in their owner's next turn."""
    g, _ = _quick_attack(["a1", "a2"])
    do(g, 0, "end_turn")
    do(g, 1, "end_turn")
    assert not unit_view(g, "q")["exhausted"]
    assert "L3" in destinations(g, "q")
